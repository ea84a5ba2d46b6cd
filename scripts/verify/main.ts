// `npm run verify` (docs/verifying-a-console.md): arguments in, report out, exit code back (0 clean, 1 deviations, 2
// could not verify, said in one line). The token comes from RAINBOND_TOKEN only, and the arguments are not those of
// lib/script.ts's commandLine: that exits the process and quotes what it refuses, which may be a token typed by mistake.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { specDiffersFromGenerated } from "../generate.ts";
import { escapeUnsafe } from "../../surface/escape.ts";
import { readTable } from "../lib/methods.ts";
import { isMain, root } from "../lib/script.ts";
import { writeOverlay } from "./overlay.ts";
import { render } from "./report.ts";
import { verify } from "./run.ts";
import type { Validator } from "./validator.ts";
import type { VerifyOptions } from "./options.ts";

/** Bad arguments: the message says what to change (and never holds a value that might be a secret). */
export class UsageError extends Error {
  override name = "UsageError";
}

export const USAGE = `usage: RAINBOND_TOKEN=<token> npm run verify -- --base-url <console origin>
         [--team <id> --region <name> --app <id> --component <id>] [--id <name>=<value> ...] [--write]
         [--json] [--report <file.md>] [--overlay <file.yaml>]`;

export const STALE_SPEC_WARNING =
  "verify: warning: spec/ differs from generated/openapi.json, which this run checks against; run `npm run generate` first";

const [text, flag] = [{ type: "string" }, { type: "boolean" }] as const;
const IDS = { team: text, region: text, app: text, component: text };
const FLAGS = {
  "base-url": text,
  ...IDS,
  id: { type: "string", multiple: true },
  write: flag,
  json: flag,
  report: text,
  overlay: text,
  help: flag,
} as const;
const ID_NAME = /^[a-z][a-z0-9_]*$/;

const TOKEN_REFUSED =
  "--token is refused: a token on the command line lands in the shell's history and in `ps`; set RAINBOND_TOKEN in the environment instead";
const PARSE_ERRORS: Record<string, string> = {
  ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL: "unexpected argument (every value follows its option, e.g. --team <id>)",
  ERR_PARSE_ARGS_INVALID_OPTION_VALUE: "an option lacks its value, or a flag was given one",
};

/** The options of a run, or UsageError. `--help` comes back as `undefined`. */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): VerifyOptions | undefined {
  for (const arg of argv) {
    if (arg === "--") break;
    const name = arg.startsWith("-") ? arg.replace(/^-+/, "").split("=")[0]! : undefined; // the name: never a value
    if (name === "token") throw new UsageError(TOKEN_REFUSED);
    if (name !== undefined && !(name in FLAGS)) throw new UsageError(`unknown option --${name}`);
  }
  let values;
  try {
    values = parseArgs({ args: [...argv], options: FLAGS, strict: true }).values;
  } catch (err) {
    throw new UsageError(PARSE_ERRORS[(err as { code?: string }).code ?? ""] ?? "bad arguments"); // no argument quoted
  }
  if (values.help) return undefined;
  const { "base-url": baseUrl, team, region, app, component, write = false, json = false, report, overlay } = values;
  const pairs = (values.id ?? []).map((pair) => /^([^=]*)=(.*)$/s.exec(pair)?.slice(1) ?? ["", ""]);
  const bad = pairs.find(([name, value]) => !ID_NAME.test(name!) || !value);
  if (bad) throw new UsageError("--id takes <name>=<value>, the name an id of the spec (`--id user_id=2`)");
  if (!baseUrl) throw new UsageError("--base-url <console origin> is required");
  const token = env.RAINBOND_TOKEN;
  if (!token) throw new UsageError("RAINBOND_TOKEN is not set: put the console's API token in it");
  if (app !== undefined && !(/^\d+$/.test(app) && Number.isSafeInteger(Number(app)))) {
    throw new UsageError(`--app must be an application id, a non-negative integer (got ${JSON.stringify(app)})`);
  }
  const appId = app === undefined ? undefined : Number(app);
  const ids = pairs.length ? { ids: Object.fromEntries(pairs) } : {};
  const options = { baseUrl, token, team, region, app: appId, component, ...ids, write, json, report, overlay };
  const missing = Object.keys(IDS).filter((id) => options[id as keyof typeof IDS] === undefined);
  const give = `give ${missing.map((id) => `--${id}`).join(", ")} as well`;
  if (write && missing.length) throw new UsageError(`--write changes the component you name: ${give}`);
  return options;
}

/** Where main writes: `process`, or a test's stand-in. */
export type Io = Record<"stdout" | "stderr", { write(text: string): unknown }>;

/** `npm run verify`, with the spec of `root`, through `validator` when one is already running (tests). */
export async function main(argv: string[], env: NodeJS.ProcessEnv, io: Io, root: string, validator?: Validator) {
  try {
    const options = parseOptions(argv, env);
    if (!options) {
      io.stdout.write(`${USAGE}\n\nSee docs/verifying-a-console.md.\n`);
      return 0;
    }
    const known = readTable(root).ids;
    const stray = Object.keys(options.ids ?? {}).find((name) => !Object.hasOwn(known, name));
    if (stray) throw new UsageError(`--id ${stray}: not an id of the spec (${Object.keys(known).join(", ")})`);
    // verify checks the console against generated/: say so when spec/ has moved on (bundled and compared, in parallel;
    // a spec that does not bundle: `npm run generate` says why, and the verify goes on)
    const spec = join(root, "spec/openapi.yaml");
    const edited = specDiffersFromGenerated(spec, join(root, "generated")).catch(() => false);
    const [{ overlay, ...report }, stale] = await Promise.all([verify(options, root, validator), edited]);
    if (stale) io.stderr.write(`${STALE_SPEC_WARNING}\n`);
    // the JSON too, each character a person would not see as itself escaped (JSON reads the same data back; a raw line
    // break there is only the layout's: JSON.stringify escapes those in strings)
    const json = () =>
      JSON.stringify(report, null, 2)
        .split("\n")
        .map((line) => escapeUnsafe(line))
        .join("\n");
    io.stdout.write(options.json ? `${json()}\n` : render(report));
    if (options.report) await writeFile(options.report, render(report, true));
    if (options.overlay && overlay) io.stderr.write(`verify: ${await writeOverlay(options.overlay, overlay)}\n`);
    if (report.exitCode === 2) io.stderr.write(`verify: ${report.summary}\n`);
    return report.exitCode;
  } catch (err) {
    const message = err instanceof Error ? err.message.split("\n")[0] : String(err);
    io.stderr.write(`verify: ${message}\n${err instanceof UsageError ? `${USAGE}\n` : ""}`);
    return 2;
  }
}

if (isMain(import.meta)) process.exitCode = await main(process.argv.slice(2), process.env, process, root);
