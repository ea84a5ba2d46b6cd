// Runs one method command: its flags and arguments into the client's method (which checks them, before anything is
// sent), a person's confirmation where the call's effect needs one, the request as curl for --dry-run, the pages for
// --all, and the answer, secrets masked, through --query onto stdout.
import { once } from "node:events";
import type { Writable } from "node:stream";
import { RainbondInputError, createRainbondClient, redact, type LogLevel } from "../../src/index.js";
import { MASK, secretsIn } from "../../surface/runtime.js";
import { curlOf } from "../../surface/curl.js";
import { WARNING, effectOf, needsConfirmation, type Effect } from "../../surface/effect.js";
import { recorder, shownRequest, unknownMembers, type ShownRequest } from "../../surface/request.js";
import { FORMATS, layoutOf, query, render, type Format } from "./output.js";
import { settingsOf } from "./settings.js";
import type { Input, MethodCommand } from "./table.js";
import { loggerOn } from "./terminal.js";
import { UsageError, argumentsOf, fromText, readBody, shownArgument } from "./values.js";

/** What a command reads and writes: the process's, or a test's. */
export interface Io {
  env: NodeJS.ProcessEnv;
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  stdinText: () => string;
  stdinIsTTY: boolean;
}

export interface CommonFlags {
  output?: string;
  query?: string;
  all?: boolean;
  yes?: boolean;
  dryRun?: boolean;
  profile?: string;
  baseUrl?: string;
  body?: string;
  timeoutMs?: string;
  retries?: string;
  logLevel?: string;
}

/** The token of a --dry-run without one: it never leaves the process. */
const NO_TOKEN = "dry-run";

function integer(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`--${flag} must be a whole number (got ${JSON.stringify(text)})`);
  return Number(text);
}

export const formatOf = (flags: CommonFlags, io: Io): Format => {
  const format = (flags.output ?? (io.stdout.isTTY ? "table" : "json")) as Format;
  if (!FORMATS.includes(format))
    throw new UsageError(`--output must be one of ${FORMATS.join(", ")} (got ${flags.output})`);
  return format;
};

/**
 * The inputs' values: positionals in order, flags by name, scope ids falling back to the environment or a profile;
 * but the id naming what a destructive call removes (`apps delete --app`) must be typed.
 */
function valuesOf(
  command: MethodCommand,
  flags: Record<string, unknown>,
  positionals: string[],
  scopes: Record<string, string | undefined>,
) {
  const dates = command.method.dates ?? [];
  const values = new Map<Input, unknown>();
  let next = 0;
  for (const input of command.inputs) {
    const camel = input.name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    const typed = input.positional ? positionals[next++] : (flags[camel] as string | boolean | undefined);
    const byDefault = input.kind === "scope" && typed === undefined ? scopes[input.name] : undefined;
    if (input === command.target && byDefault !== undefined) {
      throw new UsageError(
        `${command.method.name}: --${input.name} must be typed: it names what the call removes, so neither ` +
          `RAINBOND_${input.name.toUpperCase()} nor a profile's default is taken for it`,
      );
    }
    const text = typed ?? byDefault;
    values.set(input, text === undefined ? undefined : fromText(input, text, dates));
  }
  return values;
}

/**
 * Asks the person at the terminal before a call whose effect needs it (surface/effect.ts): the command, the request as
 * it will be sent (surface/request.ts: the whole body, secret members masked and named, characters that do not show
 * escaped), and what it does. Elsewhere --yes is needed.
 */
async function confirm(command: MethodCommand, shown: ShownRequest, effect: Effect, io: Io) {
  const what = `${command.group} ${command.name}: ${command.method.summary.replace(/\.$/, "")}`;
  const body = shown.body === undefined ? "" : ` ${shown.body}`;
  const masked = shown.masked.length ? ` (shown as ${MASK}, sent as given: ${shown.masked.join(", ")})` : "";
  const escaped = shown.escaped ? " (characters that do not show as themselves are written as \\u escapes)" : "";
  const said = `${what}: ${shown.line}${body}${masked}${escaped}. ${WARNING[effect]}`;
  if (!(io.stdinIsTTY && io.stderr.isTTY)) {
    throw new UsageError(`${said} Pass --yes to go on (there is no terminal to ask on); nothing was sent`);
  }
  const prompts = await import("@clack/prompts");
  const answer = await prompts.confirm({ message: `${said} Go on?`, initialValue: false, output: io.stderr });
  if (answer !== true) throw new UsageError("not confirmed: nothing was sent");
}

/** Refuses a body holding a member the spec does not know, at any depth, before anything is asked or sent. */
function refuseUnknownMembers(command: MethodCommand, body: unknown): void {
  const schema = command.operation.tool.inputSchema.properties.body;
  const unknown = schema ? unknownMembers(schema, body, "--body") : [];
  if (!unknown.length) return;
  const { object, known } = unknown[0]!;
  const more = unknown.length > 5 ? ` and ${unknown.length - 5} more` : "";
  const named = `${unknown
    .slice(0, 5)
    .map((member) => member.at)
    .join(", ")}${more}`;
  const takes = known.length ? `${object} takes ${known.join(", ")}` : `${object} takes no member`;
  throw new UsageError(`${command.method.name}: ${named}: not in the spec (${takes}); nothing was sent`);
}

/** How the client names its options, as the user gives them. */
const OPTION_FLAGS: Record<string, string> = {
  baseUrl: "--base-url (or RAINBOND_URL, or the profile's)",
  token: "the token (RAINBOND_TOKEN, or the profile's)",
  timeoutMs: "--timeout-ms",
  retries: "--retries",
  logLevel: "--log-level",
};

/**
 * A RainbondInputError as a usage error naming what the user typed (a flag, an argument, `--body`), after the method
 * it refused; none for the client's options, which are the command's own.
 */
function usage(e: unknown, name: (argument: string) => string, method = true): unknown {
  if (!(e instanceof RainbondInputError)) return e;
  return new UsageError(`${method ? `${e.operation}: ` : ""}${name(e.argument)} ${e.rule}`);
}

const isIterator = (answer: unknown): answer is AsyncIterable<unknown> =>
  typeof answer === "object" && answer !== null && Symbol.asyncIterator in answer;

/**
 * Calls a method: its answer, or an iterator's items collected, within the iterator's bounds in items, bytes and time
 * (RainbondIterationLimitError past one).
 */
async function settle(answer: unknown): Promise<unknown> {
  if (!isIterator(answer)) return answer;
  const items = [];
  for await (const item of answer) items.push(item);
  return items;
}

/**
 * Writes each item of `iterator` as a line of JSON as it comes, holding none (a page at most, in the iterator), and
 * waits for `stdout` to drain when it is full: `--all -o jsonl`, which a script can read while the pages come. The
 * iterator's bounds hold all the same; an error past one (or a bad page) comes after the items before it.
 */
async function stream(iterator: AsyncIterable<unknown>, write: (item: unknown) => Promise<string>, io: Io) {
  for await (const item of iterator) {
    if (!io.stdout.write(await write(item))) await once(io.stdout, "drain");
  }
}

type Method = (...args: unknown[]) => unknown;

/** Runs `command` with commander's `flags` and `positionals`; resolves when stdout has the data. */
export async function runMethod(
  command: MethodCommand,
  flags: CommonFlags & Record<string, unknown>,
  positionals: string[],
  io: Io,
): Promise<void> {
  const { method } = command;
  const format = formatOf(flags, io);
  const warn = (line: string) => void io.stderr.write(`rainbond: ${line}\n`);
  const settings = settingsOf({ baseUrl: flags.baseUrl, profile: flags.profile }, io.env, warn);
  if (!settings.baseUrl) {
    throw new UsageError(
      "no console: give --base-url <origin>, set RAINBOND_URL, or add a profile (rainbond profile add)",
    );
  }
  const token = settings.token ?? (flags.dryRun ? NO_TOKEN : undefined);
  if (!token) throw new NoTokenError();
  const values = valuesOf(command, flags, positionals, settings.scopes);
  const body = flags.body === undefined ? undefined : readBody(flags.body, io.stdinText);
  if (body !== undefined) refuseUnknownMembers(command, body);
  if (flags.all && !command.pager) throw new UsageError(`--all: ${method.name} does not page`);
  if (flags.all && flags.page !== undefined)
    throw new UsageError("--page with --all: --all walks every page from the first");
  const target = (flags.all && command.pager) || method;
  /** The method of a client of these options (the grouped client's: the same functions as every surface's). */
  const methodOf = (client: object) =>
    (client as Record<string, Record<string, Method>>)[target.group]![target.method]!;
  const args = argumentsOf(command, values, body);
  const options = {
    baseUrl: settings.baseUrl,
    token,
    timeoutMs: integer("timeout-ms", flags.timeoutMs),
    // a call the spec marks never to be replayed (the console's destructive GETs) is sent once whatever --retries:
    // the client's retry policy (src/core/retry.ts) reads the mark
    retries: integer("retries", flags.retries),
    // its lines begin `[rainbond]`, masked by the client, escaped here; among them, at `warn`, a token about to cross
    // the network in clear (plain http to another machine)
    logger: loggerOn(io.stderr),
    logLevel: flags.logLevel as LogLevel | undefined,
  };
  const clientOf = (more: object = {}) => {
    try {
      return createRainbondClient({ ...options, ...more });
    } catch (e) {
      throw usage(e, (argument) => OPTION_FLAGS[argument] ?? argument, false);
    }
  };
  const named = (argument: string) => shownArgument(command, argument, values);
  /** The request the call makes, sending nothing; bad input is refused here, before anything is sent. */
  const recorded = async () => {
    const { fetch, recorded } = recorder();
    const client = clientOf({ retries: 0, logLevel: "off", fetch });
    await settle(methodOf(client)(...args)).catch((e) => {
      if (e instanceof RainbondInputError) throw usage(e, named);
    });
    return recorded()!; // the client makes its one request, or refuses the input
  };
  if (flags.dryRun) return void io.stdout.write(`${curlOf(await recorded(), { secrets: [token] })}\n`);
  if (needsConfirmation(method.effect) && !flags.yes) {
    // what the call does, for the body it will send (an action's effect), shown as it will be sent
    const request = await recorded();
    const sent: unknown = request.body ? JSON.parse(request.body) : undefined;
    const effect = effectOf(method.effectBy ?? method.effect, sent);
    if (needsConfirmation(effect)) await confirm(command, shownRequest(request, secretsIn([token], sent)), effect, io);
  }
  const client = clientOf();
  const answer = methodOf(client)(...args);
  const shown = async (data: unknown) => render(await query(redact(data, [token]), flags.query), format, layoutOf(io));
  const failed = (e: unknown) => Promise.reject(usage(e, named));
  // --all -o jsonl streams; any other format needs every item first (a JSON array, a table's widths, --query's list)
  if (isIterator(answer) && format === "jsonl" && flags.query === undefined)
    return stream(answer, (item) => shown([item]), io).catch(failed);
  const data = await settle(answer).catch(failed);
  if (data === undefined) return; // an answer without content: nothing on stdout, whatever --query or --output
  io.stdout.write(await shown(data));
}

/** No token anywhere: an auth error (exit code 3), whose message says where one goes. */
export class NoTokenError extends Error {
  constructor() {
    super(
      "no token: set RAINBOND_TOKEN, or add a profile (rainbond profile add), which reads it from a prompt or standard input",
    );
  }
}
