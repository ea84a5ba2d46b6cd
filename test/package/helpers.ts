// Shared by the package tests: build the package and `npm pack` it once per test file, install the tarball into a
// throwaway consumer project with nothing but the npm cache, find Chromium, run a command.
//
// The build goes to a temporary copy of the package (package.json, README.md, LICENSE and a dist/ built there by
// `tsdown --out-dir`, from this repository's tsdown.config.ts), never to this repository's dist/, which other test
// files may be reading meanwhile; `npm pack` of that copy is what `npm run build && npm pack` here would produce.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const tscPath = join(root, "node_modules/typescript/bin/tsc");
const tsdownPath = join(root, "node_modules/tsdown/dist/run.mjs");

export interface RunResult {
  stdout: string;
  stderr: string;
}

/** Runs a command; rejects, with its output, when it fails or outlives timeoutMs. */
export function run(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd ?? root,
        env: { ...process.env, ...npmQuiet, ...options.env },
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
        encoding: "utf8",
      },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`${[file, ...args].join(" ")} failed: ${error.message}\n${stdout}\n${stderr}`.trim()));
        } else {
          resolve({ stdout, stderr });
        }
      },
    );
  });
}

const npmQuiet = { npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };

/** One file of the tarball, as `npm pack --json` lists it. */
export interface PackedFile {
  path: string;
  size: number;
}

export interface Packed {
  /** The temporary directory everything lives in; `cleanup` removes it. */
  dir: string;
  /** The copy of the package the tarball was packed from (pkgDir for publint). */
  packageDir: string;
  tarball: string;
  /** package.json of the package. */
  manifest: { name: string; version: string; dependencies?: Record<string, string> };
  /** From `npm pack --json`. */
  files: PackedFile[];
  size: number;
  unpackedSize: number;
  cleanup(): Promise<void>;
}

/** Builds the package into a temporary copy with tsdown and packs it with `npm pack`. */
export async function buildAndPack(): Promise<Packed> {
  const dir = await mkdtemp(join(tmpdir(), "rainbond-openapi-pack-"));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    const packageDir = join(dir, "package");
    await mkdir(packageDir);
    await Promise.all(
      ["package.json", "README.md", "LICENSE"].map((f) => copyFile(join(root, f), join(packageDir, f))),
    );
    await run(process.execPath, [tsdownPath, "--out-dir", join(packageDir, "dist"), "--logLevel", "warn"]);
    // --ignore-scripts: the build above is the one that counts (tsdown.config.ts and src/ are not in the copy).
    const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], {
      cwd: packageDir,
    });
    const [info] = JSON.parse(stdout) as [
      { filename: string; size: number; unpackedSize: number; files: PackedFile[] },
    ];
    const manifest = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as Packed["manifest"];
    return {
      dir,
      packageDir,
      tarball: join(dir, info.filename),
      manifest,
      files: info.files,
      size: info.size,
      unpackedSize: info.unpackedSize,
      cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

interface LockEntry {
  version: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  [key: string]: unknown;
}

/**
 * A new project in os.tmpdir() with the tarball installed by `npm ci --offline`.
 *
 * Offline works because the project gets a package-lock.json: the package's own entry points at the tarball, and every
 * other entry (openapi-fetch and what it needs) is copied from this repository's package-lock.json, with
 * the tarball URL npm would use. npm then only needs those tarballs, by URL and integrity, and they are in the npm cache
 * of anyone who ran `npm ci` here (a CI cache holds tarballs, not the registry's package documents, so a plain
 * `npm install --offline` could fail there). Only if the cache lacks them does it fall back to `--prefer-offline`.
 */
export async function createConsumer(packed: Packed): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "rainbond-openapi-consumer-"));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    const repoLock = JSON.parse(await readFile(join(root, "package-lock.json"), "utf8")) as {
      packages: Record<string, LockEntry>;
    };
    const registry = (await run("npm", ["config", "get", "registry"])).stdout.trim().replace(/\/+$/, "");
    const tarballName = packed.tarball.split(/[\\/]/).pop()!;
    await copyFile(packed.tarball, join(dir, tarballName));

    const packages: Record<string, LockEntry> = {};
    const add = (name: string) => {
      const key = `node_modules/${name}`;
      if (packages[key]) return;
      const entry = repoLock.packages[key];
      if (!entry)
        throw new Error(`${name} is not (hoisted) in package-lock.json: the consumer cannot install it offline`);
      const { dev: _dev, devOptional: _devOptional, ...kept } = entry;
      const resolved = entry.resolved ?? `${registry}/${name}/-/${name.split("/").pop()}-${entry.version}.tgz`;
      packages[key] = { ...kept, resolved };
      for (const dep of Object.keys(entry.dependencies ?? {})) add(dep);
    };
    const runtimeDeps = packed.manifest.dependencies ?? {};
    Object.keys(runtimeDeps).forEach(add);

    const dependencies = { [packed.manifest.name]: `file:${tarballName}` };
    const integrity = `sha512-${createHash("sha512")
      .update(await readFile(packed.tarball))
      .digest("base64")}`;
    packages[`node_modules/${packed.manifest.name}`] = {
      version: packed.manifest.version,
      resolved: `file:${tarballName}`,
      integrity,
      dependencies: runtimeDeps,
    };
    const name = "rainbond-openapi-consumer";
    await writeFile(
      join(dir, "package.json"),
      JSON.stringify({ name, version: "1.0.0", private: true, dependencies }, null, 2),
    );
    await writeFile(
      join(dir, "package-lock.json"),
      JSON.stringify(
        {
          name,
          version: "1.0.0",
          lockfileVersion: 3,
          requires: true,
          packages: { "": { name, version: "1.0.0", dependencies }, ...packages },
        },
        null,
        2,
      ),
    );
    const ci = (mode: string) => run("npm", ["ci", mode, "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: dir });
    await ci("--offline").catch((err: Error) => {
      if (!/ENOTCACHED/.test(err.message)) throw err;
      return ci("--prefer-offline");
    });
    return { dir, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
