// What every script shares: where the project is, whether a module runs as the script (rather than imported by a test
// or another script), its command line, and how one script starts another in a child process. Scripts are TypeScript
// run one way: Node with tsx's loader (`node --import tsx scripts/x.ts`), in npm's scripts and in child processes alike.
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";

/** The project's root folder. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** Whether the module of `meta` is the script Node was started with. */
export function isMain(meta: ImportMeta): boolean {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(meta.url));
  } catch {
    return false;
  }
}

/** Node's arguments that load tsx (by URL, so that a child started in any folder finds it): `execArgv` of a fork. */
export const TSX_ARGS = ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href];

/** Node's arguments that run `script` (absolute, or relative to the project) with `args`: for spawn, fork and exec. */
export function scriptArgs(script: string, ...args: string[]): string[] {
  return [...TSX_ARGS, isAbsolute(script) ? script : join(root, script), ...args];
}

/**
 * The command line of a script: node:util's parseArgs (strict), with --help. --help prints `usage` on stdout and exits
 * 0; an unknown option or a missing value prints what is wrong and the usage on stderr and exits 2.
 */
export function commandLine<O extends NonNullable<ParseArgsConfig["options"]>>(
  usage: string,
  options: O,
  { args = process.argv.slice(2), allowPositionals = false }: { args?: string[]; allowPositionals?: boolean } = {},
) {
  if (args.includes("--help")) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : err}\n${usage}\n`);
    process.exit(2);
  }
}
