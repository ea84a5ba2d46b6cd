// The command tree: `rainbond <group> <method>` for every method of the table, `rainbond profile ...`, and
// `rainbond completion <shell>` (commander for parsing and help; completion.ts for the shells' completion).
import { Command, Option, type CommanderError } from "commander";
import pkg from "../package.json" with { type: "json" };
import { needsConfirmation } from "../../surface/effect.js";
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, RETRIED_STATUSES, retryPolicy } from "../../surface/runtime.js";
import { after, describe, valueHint, wrapped } from "./help.js";
import { FORMATS } from "./output.js";
import { addProfileCommands } from "./profile.js";
import { runMethod, type Io } from "./run.js";
import { commandsByGroup, type MethodCommand } from "./table.js";
import { UsageError } from "./values.js";

/** --retries: how many times a request the retry policy allows is sent again (src/core/retry.ts says which). */
const RETRIES_HELP = `retries when no answer came or it was ${RETRIED_STATUSES.join("/")}, of requests that may be sent again (default ${DEFAULT_RETRIES}; rainbond --help says which)`;

const ROOT_HELP = `
Every method of the Rainbond console's Open API v1 as a command, from the same table as the client.
Credentials: RAINBOND_TOKEN, or a profile (rainbond profile add); the console: --base-url, RAINBOND_URL or the profile.
Exit codes: 0 done, 2 usage or input, 3 auth, 4 not found, 5 conflict, 6 console failure, 7 no connection, 1 other.
${wrapped(`Retries (the client's policy, --retries and --timeout-ms): ${retryPolicy()}`)}`;

function methodCommand(parent: Command, command: MethodCommand, io: Io): void {
  const { method } = command;
  // one line (shell completion lists it); the spec's description comes after the options
  const sub = parent.command(command.name).description(method.summary.replace(/\.?$/, "."));
  for (const input of command.inputs) {
    if (input.secret) continue;
    if (input.positional) sub.argument(`<${input.name}>`, describe(command, input));
    else sub.option(`--${input.name} ${valueHint(input)}`, describe(command, input));
  }
  if (command.body) sub.option("--body <json>", "the body as JSON: inline, @file.json, or - for standard input");
  sub.addOption(new Option("-o, --output <format>", "json, jsonl, yaml or table").choices(FORMATS));
  sub.option("--query <jmespath>", "a JMESPath expression applied to the answer (JMESPath Community Edition)");
  if (command.pager)
    sub.option("--all", "walk every page, within the iterator's bounds; prints the items (-o jsonl: as each arrives)");
  if (needsConfirmation(method.effect)) sub.option("-y, --yes", "do it without asking");
  sub.option("--dry-run", "print the request as curl (token masked); send nothing");
  sub.option("--profile <name>", "the profile to use ($RAINBOND_PROFILE, or the default one)");
  sub.option("--base-url <origin>", "the console's origin ($RAINBOND_URL, or the profile's)");
  sub.option("--timeout-ms <ms>", `time allowed to each attempt (default ${DEFAULT_TIMEOUT_MS})`);
  sub.option("--retries <n>", RETRIES_HELP);
  sub.addOption(
    new Option("--log-level <level>", "the client's log lines on stderr").choices([
      "off",
      "error",
      "warn",
      "info",
      "debug",
    ]),
  );
  sub.addOption(new Option("--token <token>").hideHelp());
  sub.addHelpText("after", after(command));
  sub.action(async (...given: unknown[]) => {
    const self = given.at(-1) as Command;
    const flags = self.opts();
    if (flags.token !== undefined) {
      throw new UsageError(
        "--token is refused: a flag shows in process lists and shell history. Use RAINBOND_TOKEN or a profile.",
      );
    }
    await runMethod(command, flags, self.args, io);
  });
}

/**
 * The program of one run of `argv` (the words after `rainbond`), writing to `io`. Every group is a command, but only
 * the group the run names (`rainbond ports ...`, `rainbond help ports`) gets its method commands, so that a run makes
 * no more of the tree than it uses; completion (`everyMethod`) walks the whole tree.
 */
export function program(io: Io, argv: readonly string[], { everyMethod = false } = {}): Command {
  const root = new Command("rainbond")
    .description(`A command line for the Rainbond console's Open API v1.${ROOT_HELP}`)
    .version(pkg.version)
    // the root's options (--version, --help) before a group only: a method's own --version is the method's
    .enablePositionalOptions()
    // help to stdout or stderr; a mistake in what was typed is said by cli.ts, on one line
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      outputError: () => {},
    });
  const named = argv[0] === "help" ? argv[1] : argv[0];
  for (const [group, all] of commandsByGroup()) {
    const commands = all.filter((c) => c.method.kind !== "paging"); // an iterator is its list's --all
    const { group: name } = commands[0]!.method;
    const client = name === group ? "" : `${name} in the client: `;
    const sub = root.command(group).description(`${client}${commands.map((c) => c.name).join(", ")}`);
    if (everyMethod || group === named) for (const command of commands) methodCommand(sub, command, io);
  }
  addProfileCommands(root, io);
  throwWithCommand(root);
  return root;
}

/** A mistake commander found in what was typed, with the command it was found in (`ports`; "" for `rainbond`). */
export type ParseError = CommanderError & { command: string };

/** Makes every command of the tree throw its parse errors (a ParseError) rather than exit. */
function throwWithCommand(command: Command, path: string[] = []): void {
  command.exitOverride((e) => {
    throw Object.assign(e, { command: path.join(" ") });
  });
  for (const sub of command.commands) throwWithCommand(sub, [...path, sub.name()]);
}
