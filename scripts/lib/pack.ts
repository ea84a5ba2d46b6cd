// The package as its users get it, for the runtime matrix and the package tests: built by tsdown (this repository's
// tsdown.config.ts) into a temporary copy of the package, never into this repository's dist/, which other tests may be
// reading meanwhile; packed with `npm pack`; installed from the tarball into a throwaway consumer project.
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { root } from "./script.ts";

export type RunResult = { stdout: string; stderr: string };
type RunOptions = { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number };
export type Run = (file: string, args: readonly string[], options?: RunOptions) => Promise<RunResult>;

const execFileAsync = promisify(execFile);
const quietNpm = { npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };

/** Runs a command (in the project, by default); rejects, with its output, when it fails or outlives timeoutMs. */
export const run: Run = async (file, args, { cwd = root, env, timeoutMs = 120_000 } = {}) => {
  try {
    const options = { cwd, env: { ...process.env, ...quietNpm, ...env }, timeout: timeoutMs, maxBuffer: 64 << 20 };
    return await execFileAsync(file, args, { ...options, encoding: "utf8" });
  } catch (err) {
    const { message, stdout = "", stderr = "" } = err as Error & Partial<RunResult>;
    throw new Error(`${[file, ...args].join(" ")} failed: ${message}\n${stdout}\n${stderr}`.trim());
  }
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

type Manifest = { name: string; version: string; dependencies?: Record<string, string> };
/** `packageDir` is the copy the tarball was packed from (for publint); `files`, `size` and `integrity` are npm's. */
export type Packed = Awaited<ReturnType<typeof buildAndPack>>;

export const buildAndPack = () =>
  tempProject("rainbond-openapi-pack-", async (dir) => {
    const packageDir = join(dir, "package");
    await mkdir(packageDir);
    await Promise.all(
      ["package.json", "README.md", "LICENSE"].map((f) => copyFile(join(root, f), join(packageDir, f))),
    );
    const tsdown = join(root, "node_modules/tsdown/dist/run.mjs");
    await run(process.execPath, [tsdown, "--out-dir", join(packageDir, "dist"), "--logLevel", "warn"]);
    // --ignore-scripts: the build above is the one that counts (tsdown.config.ts and src/ are not in the copy).
    const pack = ["pack", "--json", "--ignore-scripts", "--pack-destination", dir];
    const [info] = JSON.parse((await run("npm", pack, { cwd: packageDir })).stdout) as [
      { filename: string; integrity: string; size: number; files: { path: string; size: number }[] },
    ];
    const manifest = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as Manifest;
    return { packageDir, manifest, tarball: join(dir, info.filename), ...info };
  });

type LockEntry = { version: string; resolved?: string; integrity?: string; dependencies?: Record<string, string> };

/**
 * A new project in os.tmpdir() with the tarball installed by `npm ci --offline`. Offline works because the project gets
 * a package-lock.json: the package's entry points at the tarball, and the entries of its dependencies are this
 * repository's, with the tarball URL npm would use. npm then needs only those tarballs, by URL and integrity, and they
 * are in the npm cache of anyone who ran `npm ci` here (a CI cache holds tarballs, not the registry's package
 * documents, so a plain `npm install --offline` could fail there). Only if they are missing does it ask the registry.
 */
export const createConsumer = (packed: Packed) =>
  tempProject("rainbond-openapi-consumer-", async (dir) => {
    const lock = JSON.parse(await readFile(join(root, "package-lock.json"), "utf8")) as {
      packages: Record<string, LockEntry>;
    };
    const registry = (await run("npm", ["config", "get", "registry"])).stdout.trim().replace(/\/+$/, "");
    const tarball = basename(packed.tarball);
    await copyFile(packed.tarball, join(dir, tarball));
    const { name, version, dependencies = {} } = packed.manifest;
    const resolved = `file:${tarball}`;
    const packages: Record<string, LockEntry> = {
      [`node_modules/${name}`]: { version, resolved, integrity: packed.integrity, dependencies },
    };
    const add = (dep: string): void => {
      const key = `node_modules/${dep}`;
      const entry = lock.packages[key];
      if (packages[key]) return;
      if (!entry) throw new Error(`${dep} is not (hoisted) in package-lock.json: it cannot be installed offline`);
      packages[key] = {
        ...entry,
        resolved: entry.resolved ?? `${registry}/${dep}/-/${dep.split("/").pop()}-${entry.version}.tgz`,
      };
      Object.keys(entry.dependencies ?? {}).forEach(add);
    };
    Object.keys(dependencies).forEach(add);
    const project = { name: "rainbond-openapi-consumer", version: "1.0.0", dependencies: { [name]: resolved } };
    await writeFile(join(dir, "package.json"), JSON.stringify({ ...project, private: true }, null, 2));
    const lockfile = { ...project, lockfileVersion: 3, requires: true, packages: { "": project, ...packages } };
    await writeFile(join(dir, "package-lock.json"), JSON.stringify(lockfile, null, 2));
    const ci = (mode: string) => run("npm", ["ci", mode, "--ignore-scripts"], { cwd: dir });
    await ci("--offline").catch((err: Error) => {
      if (!/ENOTCACHED/.test(err.message)) throw err;
      return ci("--prefer-offline");
    });
    return {};
  });
