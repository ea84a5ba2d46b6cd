// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The runtimes and compilers of the matrix come from the npm registry, pinned, and are installed on demand into a cache
// folder of their own, outside the package's dependency tree (they are hundreds of MB: no `npm ci` should bring them):
//
//   $RAINBOND_RUNTIMES_CACHE, else $XDG_CACHE_HOME/rainbond-openapi/runtimes, else ~/.cache/rainbond-openapi/runtimes
//     <name>@<version>/node_modules/...     one `npm install --prefix` each, reused by every later run
//
// Installed with --ignore-scripts: the bun and deno packages ship their binaries as platform packages (optional
// dependencies such as @oven/bun-linux-x64 and @deno/linux-x64-glibc, which npm picks by os, cpu and libc), and their
// postinstall scripts only link that binary into place (downloading it only when the platform package is missing); the
// matrix runs the platform package's binary itself. No download happens at run time, and npm 12, which blocks install
// scripts by default, changes nothing.
import type { MatrixContext } from "./matrix.ts";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

/** The cache folder. */
export function cacheRoot(env = process.env) {
  if (env.RAINBOND_RUNTIMES_CACHE) return env.RAINBOND_RUNTIMES_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "rainbond-openapi", "runtimes");
}

const MARK = "installed.json";

/**
 * The folder `<spec>` (`name@version`) is installed in, installing it first when it is not there yet. An install goes
 * to a temporary sibling renamed into place once complete, so an interrupted one is never taken for an installed one.
 * @param {string} spec
 * @param {{ root?: string, run: (file: string, args: string[], options?: object) => Promise<unknown>, npmArgs?: string[] }} options
 */
export async function installed(
  spec: string,
  { root = cacheRoot(), run, npmArgs = [] }: { root?: string; run: MatrixContext["run"]; npmArgs?: string[] },
): Promise<string> {
  const dir = join(root, spec);
  if (existsSync(join(dir, MARK))) return dir;
  const partial = `${dir}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    await writeFile(join(partial, "package.json"), JSON.stringify({ private: true }) + "\n");
    const args = ["install", "--prefix", partial, "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", spec];
    await run("npm", [...args, ...npmArgs], { cwd: partial, timeoutMs: 600_000 });
    await writeFile(join(partial, MARK), JSON.stringify({ spec, at: new Date().toISOString() }) + "\n");
    await rm(dir, { recursive: true, force: true });
    await rename(partial, dir);
    return dir;
  } catch (err) {
    await rm(partial, { recursive: true, force: true });
    const reason = err instanceof Error ? err.message.split("\n").slice(0, 12).join("\n") : String(err);
    throw new Error(`could not install ${spec} from the npm registry into ${dir}: ${reason}`, { cause: err });
  }
}

/** The one installed package under `node_modules/<scope>` that holds `file`: the platform package npm picked. */
export function platformBinary(dir, scope, file) {
  const scopeDir = join(dir, "node_modules", scope);
  const found = existsSync(scopeDir)
    ? readdirSync(scopeDir)
        .map((name) => join(scopeDir, name, file))
        .filter((path) => existsSync(path))
    : [];
  if (found.length !== 1) {
    throw new Error(
      `expected one platform package with ${file} under ${scopeDir}, found ${found.length}: ` +
        `npm installs the one for ${process.platform}-${process.arch}; is there one?`,
    );
  }
  return found[0];
}
