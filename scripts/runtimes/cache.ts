// The runtimes and compilers of the matrix, installed on first need into a cache of their own, outside the dependency
// tree (hundreds of MB: no `npm ci` should bring them). docs/runtimes.md says where, and why installs run no scripts.
import { existsSync, readdirSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Run } from "../lib/pack.ts";

export const cacheRoot = (env: NodeJS.ProcessEnv = process.env): string =>
  env.RAINBOND_RUNTIMES_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "rainbond-openapi", "runtimes");

/** The folder `name@version` is installed in, installed first if need be: into a sibling renamed into place once
 *  complete, so that an interrupted install is never taken for an installed one. */
export async function installed(
  spec: string,
  { root = cacheRoot(), run, npmArgs = [] }: { root?: string; run: Run; npmArgs?: string[] },
): Promise<string> {
  const dir = join(root, spec);
  if (existsSync(join(dir, "installed.json"))) return dir;
  const partial = `${dir}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    await writeFile(join(partial, "package.json"), '{ "private": true }\n');
    const args = ["install", "--prefix", partial, "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", spec];
    await run("npm", [...args, ...npmArgs], { cwd: partial, timeoutMs: 600_000 });
    await writeFile(join(partial, "installed.json"), JSON.stringify({ spec, at: new Date().toISOString() }) + "\n");
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
export function platformBinary(dir: string, scope: string, file: string): string {
  const scopeDir = join(dir, "node_modules", scope);
  const names = existsSync(scopeDir) ? readdirSync(scopeDir) : [];
  const found = names.map((name) => join(scopeDir, name, file)).filter((path) => existsSync(path));
  if (found.length === 1) return found[0]!;
  throw new Error(
    `expected one platform package with ${file} under ${scopeDir}, found ${found.length}: ` +
      `npm installs the one for ${process.platform}-${process.arch}; is there one?`,
  );
}
