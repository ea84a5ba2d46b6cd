// The command line of `npm run verify`, checked before anything is sent. The token comes from RAINBOND_TOKEN only: a
// flag would put it in the shell's history and in `ps` for every user of the machine to read.
import { parseArgs } from "node:util";

export interface VerifyOptions {
  /** The console's origin, e.g. `http://console.example.org:7070`. */
  baseUrl: string;
  /** The API token (RAINBOND_TOKEN). */
  token: string;
  team?: string;
  region?: string;
  app?: number;
  component?: string;
  /** Also send the port operations, as a reversible sequence on the given component. */
  write: boolean;
  /** Print the report as JSON instead of text. */
  json: boolean;
  /** Also write the report as Markdown to this file. */
  report?: string;
}

/** Bad arguments: the message says what to change (and never holds a value that might be a secret). */
export class UsageError extends Error {
  override name = "UsageError";
}

export const USAGE = `usage: RAINBOND_TOKEN=<token> npm run verify -- --base-url <console origin>
         [--team <id> --region <name> --app <id> --component <id>] [--write] [--json] [--report <file.md>]`;

const FLAGS = {
  "base-url": { type: "string" },
  team: { type: "string" },
  region: { type: "string" },
  app: { type: "string" },
  component: { type: "string" },
  write: { type: "boolean" },
  json: { type: "boolean" },
  report: { type: "string" },
  help: { type: "boolean" },
} as const;

/** The options of a run, or UsageError. `--help` comes back as `undefined`. */
export function parseOptions(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): VerifyOptions | undefined {
  for (const arg of argv) {
    if (arg === "--") break;
    if (!arg.startsWith("-")) continue;
    const name = arg.replace(/^-+/, "").split("=")[0]!; // the name only: a value may be a secret typed by mistake
    if (name === "token") {
      throw new UsageError(
        "--token is refused: a token on the command line lands in the shell's history and in `ps`; " +
          "set RAINBOND_TOKEN in the environment instead",
      );
    }
    if (!(name in FLAGS)) throw new UsageError(`unknown option --${name}`);
  }
  const values = (() => {
    try {
      return parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }).values;
    } catch (err) {
      // parseArgs quotes the argument; say what is wrong without it
      const code = (err as { code?: string }).code;
      throw new UsageError(
        code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL"
          ? "unexpected argument (every value follows its option, e.g. --team <id>)"
          : code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE"
            ? "an option lacks its value, or a flag was given one"
            : "bad arguments",
      );
    }
  })();
  if (values.help) return undefined;
  const baseUrl = values["base-url"];
  if (!baseUrl) throw new UsageError("--base-url <console origin> is required");
  const token = env.RAINBOND_TOKEN;
  if (!token) throw new UsageError("RAINBOND_TOKEN is not set: put the console's API token in it");
  let app: number | undefined;
  if (values.app !== undefined) {
    if (!/^\d+$/.test(values.app) || !Number.isSafeInteger(Number(values.app))) {
      throw new UsageError(
        `--app must be an application id, a non-negative integer (got ${JSON.stringify(values.app)})`,
      );
    }
    app = Number(values.app);
  }
  const options: VerifyOptions = {
    baseUrl,
    token,
    team: values.team,
    region: values.region,
    app,
    component: values.component,
    write: values.write ?? false,
    json: values.json ?? false,
    report: values.report,
  };
  if (options.write) {
    const missing = (["team", "region", "app", "component"] as const).filter((k) => options[k] === undefined);
    if (missing.length) {
      throw new UsageError(
        `--write changes the component you name: give ${missing.map((k) => `--${k}`).join(", ")} as well`,
      );
    }
  }
  return options;
}
