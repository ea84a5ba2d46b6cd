// The command line of a script: node:util's parseArgs (strict), with --help added. --help prints the usage on stdout
// and exits 0; an unknown option or a missing value prints what is wrong and the usage on stderr and exits 2.
import { parseArgs } from "node:util";

/**
 * @param {string} usage  the text --help prints, starting "usage: "
 * @param {import("node:util").ParseArgsConfig["options"]} options  the script's own options
 * @param {{ args?: string[], allowPositionals?: boolean }} [config]
 * @returns {{ values: Record<string, any>, positionals: string[] }}
 */
export function commandLine(usage, options, { args = process.argv.slice(2), allowPositionals = false } = {}) {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...options, help: { type: "boolean" } }, strict: true, allowPositionals });
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : err}\n${usage}\n`);
    process.exit(2);
  }
  if (parsed.values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return parsed;
}
