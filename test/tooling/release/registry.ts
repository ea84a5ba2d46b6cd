// A real npm registry on loopback for the release rehearsal: Verdaccio, in this process (its runServer API), on a
// free port of 127.0.0.1, with its storage, users and config in a temporary directory and no uplink, so nothing is
// fetched from or sent to the internet. A user is registered through the registry's own API (what `npm adduser`
// does) and its token goes into an npm user config that the tests hand to npm (npm_config_userconfig).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runServer } from "verdaccio";

export interface LocalRegistry {
  url: string;
  /** An npm user config file naming the registry, with the token of a user who may publish. */
  userconfig: string;
  /** Environment for npm commands: this registry, this user config, no update notice, no audit. */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

export async function startRegistry(): Promise<LocalRegistry> {
  const dir = await mkdtemp(join(tmpdir(), "rainbond-registry-"));
  let server: Server | undefined;
  try {
    server = (await runServer({
      self_path: join(dir, "config.yaml"),
      storage: join(dir, "storage"),
      auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 1 } },
      uplinks: {},
      packages: { "**": { access: "$all", publish: "$authenticated" } },
      log: { type: "stdout", format: "json", level: "fatal" },
      web: { enable: false },
    } as never)) as Server;
    await new Promise<void>((resolve, reject) => {
      server!.once("error", reject);
      server!.listen(0, "127.0.0.1", resolve);
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const response = await fetch(`${url}/-/user/org.couchdb.user:rehearsal`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "rehearsal", password: "rehearsal-password" }),
    });
    if (response.status !== 201) throw new Error(`registering a user: ${response.status} ${await response.text()}`);
    const { token } = (await response.json()) as { token: string };
    const userconfig = join(dir, "npmrc");
    await writeFile(userconfig, `registry=${url}/\n//127.0.0.1:${new URL(url).port}/:_authToken=${token}\n`);
    const env = {
      npm_config_userconfig: userconfig,
      npm_config_registry: `${url}/`,
      npm_config_update_notifier: "false",
      npm_config_audit: "false",
      npm_config_fund: "false",
    };
    const running = server;
    return {
      url,
      userconfig,
      env,
      stop: async () => {
        await new Promise<void>((resolve) => {
          running.close(() => resolve());
          running.closeAllConnections();
        });
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    server?.close();
    server?.closeAllConnections();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
