// The package as its users get it, for the runtime matrix and the package tests: built into a temporary copy (never
// into dist/, which other tests may be reading), packed with `npm pack`, installed into a throwaway consumer project.
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { root, scriptArgs } from "./script.ts";

type RunResult = { stdout: string; stderr: string };
type RunOptions = { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number };
export type Run = (file: string, args: readonly string[], options?: RunOptions) => Promise<RunResult>;

const execFileAsync = promisify(execFile);
const quietNpm = { npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };

/** Runs a command (in the project, by default); rejects, with its output, when it fails or outlives timeoutMs. */
export const run: Run = (file, args, { cwd = root, env, timeoutMs = 120_000 } = {}) => {
  const options = { cwd, env: { ...process.env, ...quietNpm, ...env }, timeout: timeoutMs, maxBuffer: 64 << 20 };
  return execFileAsync(file, args, { ...options, encoding: "utf8" }).catch((err: Error & Partial<RunResult>) => {
    const command = [file, ...args].join(" ");
    throw new Error(`${command} failed: ${err.message}\n${err.stdout ?? ""}\n${err.stderr ?? ""}`.trim());
  });
};

/** A new temporary folder that `fill` fills, and a `cleanup` that removes it; removed at once when `fill` fails. */
async function tempProject<T>(prefix: string, fill: (dir: string) => Promise<T>) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    return { ...(await fill(dir)), dir, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

type PackInfo = { filename: string; integrity: string; size: number; files: { path: string; size: number }[] };
/** `packageDir` is the copy the tarball was packed from; `files`, `size` and `integrity` are npm's (PackInfo). */
export type Packed = Awaited<ReturnType<typeof buildAndPack>>;

export const buildAndPack = () =>
  tempProject("rainbond-openapi-pack-", async (dir) => {
    const packageDir = join(dir, "package");
    await mkdir(packageDir);
    for (const f of ["package.json", "README.md", "LICENSE"]) await copyFile(join(root, f), join(packageDir, f));
    // What `prepack` does (`npm run build && clean-package`), into the copy: the build, then clean-package, which
    // leaves in its package.json what users need (no scripts, no devDependencies). --ignore-scripts: those two are the
    // steps that count (scripts/, src/ and tsdown.config.ts are not in the copy).
    await run(
      process.execPath,
      scriptArgs("scripts/build.ts", "--out-dir", join(packageDir, "dist"), "--log-level", "warn"),
    );
    await run(join(root, "node_modules/.bin/clean-package"), [], { cwd: packageDir });
    const pack = ["pack", "--json", "--ignore-scripts", "--pack-destination", dir];
    const [info] = JSON.parse((await run("npm", pack, { cwd: packageDir })).stdout) as [PackInfo];
    return { packageDir, tarball: join(dir, info.filename), ...info };
  });

type Lock = { packages: Record<string, { name: string; version: string; dev?: boolean; dependencies?: object }> };

/** A new project with the tarball installed by `npm ci`, its lock the package's entries of this repository's lock:
 *  npm then needs only the tarballs that anyone who ran `npm ci` here has in the npm cache (a CI cache holds tarballs,
 *  not the registry's package documents a lockless install would ask for). */
export const createConsumer = (packed: Packed) =>
  tempProject("rainbond-openapi-consumer-", async (dir) => {
    const lock = JSON.parse(await readFile(join(root, "package-lock.json"), "utf8")) as Lock;
    const registry = (await run("npm", ["config", "get", "registry"])).stdout.trim().replace(/\/+$/, "");
    const tarball = basename(packed.tarball);
    await copyFile(packed.tarball, join(dir, tarball));
    const { name, version, dependencies } = lock.packages[""]!; // this package, as packed
    const resolved = `file:${tarball}`;
    const project = { name: "rainbond-openapi-consumer", version: "1.0.0", dependencies: { [name]: resolved } };
    const packages: Record<string, object> = {
      "": project,
      [`node_modules/${name}`]: { version, resolved, integrity: packed.integrity, dependencies },
    };
    for (const [key, entry] of Object.entries(lock.packages)) {
      const dep = key.split("node_modules/").pop()!;
      const url = `${registry}/${dep}/-/${basename(dep)}-${entry.version}.tgz`;
      if (key && !entry.dev) packages[key] = { resolved: url, ...entry };
    }
    await writeFile(join(dir, "package.json"), JSON.stringify({ ...project, private: true }, null, 2));
    const lockfile = { ...project, lockfileVersion: 3, requires: true, packages };
    await writeFile(join(dir, "package-lock.json"), JSON.stringify(lockfile, null, 2));
    await run("npm", ["ci", "--prefer-offline", "--ignore-scripts"], { cwd: dir });
    return {};
  });
