// Starts Prism on loopback, returning once it listens: a mock of the spec (`npm start`, the tests, the bench), or a proxy
// to `proxyTo` that adds an `sl-violations` header (a JSON array of { location, severity, code, message }) to answers
// that differ from the spec (`npm run verify`). Prism runs in a process group of its own: `stop` ends it and all its
// children, and a Ctrl-C sent to the caller's group does not reach it. It gets a private copy of the spec: its CLI
// restarts the server whenever that file changes, a touch included, and with `-p 0` comes back on another port.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, rmSync } from "node:fs";
import { copyFile, mkdtemp } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ClientMethod } from "./lib/methods.ts";
import { root } from "./lib/script.ts";

const prismCli = createRequire(import.meta.url).resolve("@stoplight/prism-cli/dist/index.js");

/** Where `npm start -- --serve` keeps the mock by default, and the docs' examples point (http://127.0.0.1:4010). */
export const MOCK_PORT = 4010;

/**
 * Whether Prism 5 refuses every request of a method's operation whatever is sent: it cannot match a query parameter
 * whose name needs percent-encoding (`match[]`: it looks for `match%5b%5d` whatever came), the start tour and the
 * tests check such a method by the request it sends instead.
 */
export const mockCannotAnswer = (method: Pick<ClientMethod, "inputs">) =>
  method.inputs.some((input) => input.kind === "option" && /[^\w.~-]/.test(input.spec));

/** A running Prism: its URL, the private copy of the spec it reads (removed by `stop`), and how to stop it. */
export type Prism = { url: string; spec: string; stop(): Promise<void> };

/** `port` 0 (the default) takes a free port; `proxyTo` (the upstream's origin) starts the proxy instead of the mock. */
export async function startPrism({
  spec = join(root, "generated/openapi.json"),
  errors = true,
  port = 0,
  proxyTo = undefined as string | undefined,
} = {}): Promise<Prism> {
  const dir = await mkdtemp(join(tmpdir(), "rainbond-prism-"));
  const copy = join(dir, "openapi.json");
  await copyFile(spec, copy);
  const mode = proxyTo === undefined ? ["mock", copy] : ["proxy", copy, proxyTo];
  const args = [prismCli, ...mode, "-h", "127.0.0.1", "-p", String(port), ...(errors ? ["--errors"] : [])];
  const child = spawn(process.execPath, args, { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const exited = once(child, "exit");
  // the whole group (Prism's own children too), unless it is gone already
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, signal);
    } catch {}
  };
  const removeAll = () => (kill("SIGKILL"), rmSync(dir, { recursive: true, force: true }));
  process.once("exit", removeAll);
  const stop = async () => {
    process.off("exit", removeAll);
    kill("SIGTERM");
    const timer = setTimeout(kill, 3000, "SIGKILL");
    await exited.finally(() => clearTimeout(timer));
    rmSync(dir, { recursive: true, force: true });
  };

  let log = "";
  // PRISM_LOG=<file> keeps Prism's whole output (what it was asked, and why it stopped) for debugging.
  const logFile = process.env.PRISM_LOG ? createWriteStream(process.env.PRISM_LOG) : undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error("no answer within 60 s")), 60_000);
      const read = (chunk: Buffer) => {
        log += chunk;
        logFile?.write(chunk);
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log)?.[1];
        if (url) resolve(url);
      };
      child.stdout.on("data", read);
      child.stderr.on("data", read);
      void exited.then(() => reject(new Error("the Prism process exited")));
    }).finally(() => clearTimeout(timer));
    return { url, spec: copy, stop };
  } catch (err) {
    await stop();
    throw new Error(`Prism did not start: ${(err as Error).message}\n${log.slice(-2000)}`);
  }
}
