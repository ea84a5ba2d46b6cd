// Runs one method command: its flags and arguments into the client's method (which checks them, before anything is
// sent), a person's confirmation where the call's effect needs one, the request as curl for --dry-run, the pages for
// --all, and the answer, secrets masked, through --query onto stdout.
import type { Writable } from "node:stream";
import { groups } from "../../generated/groups.js";
import { RainbondInputError, createRainbondCore, redact, type LogLevel, type RainbondCore } from "../../src/core.js";
import { escapeControl } from "../../src/core/redact.js";
import { curlOf, type RecordedRequest } from "../../surface/curl.js";
import { WARNING, effectOf, needsConfirmation, type Effect } from "../../surface/effect.js";
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

/** The inputs' values: positionals in order, flags by name, scope ids falling back to the environment or a profile. */
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
    const text = input.positional
      ? positionals[next++]
      : ((flags[camel] as string | boolean | undefined) ?? (input.kind === "scope" ? scopes[input.name] : undefined));
    values.set(input, text === undefined ? undefined : fromText(input, text, dates));
  }
  return values;
}

/**
 * Asks the person at the terminal before a call whose effect needs it (surface/effect.ts): the command, the request it
 * sends (secret members masked), and what it does, in the command's own words. Elsewhere --yes is needed.
 */
async function confirm(command: MethodCommand, request: string, effect: Effect, io: Io) {
  const what = `${command.method.group} ${command.name}: ${command.method.summary.replace(/\.$/, "")}`;
  const said = `${what}: ${escapeControl(request)}. ${WARNING[effect]}`;
  if (!(io.stdinIsTTY && io.stderr.isTTY)) {
    throw new UsageError(`${said} Pass --yes to go on (there is no terminal to ask on); nothing was sent`);
  }
  const prompts = await import("@clack/prompts");
  const answer = await prompts.confirm({ message: `${said} Go on?`, initialValue: false, output: io.stderr });
  if (answer !== true) throw new UsageError("not confirmed: nothing was sent");
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

/** Calls a method: its answer, or an iterator's items collected. */
async function settle(answer: unknown): Promise<unknown> {
  if (!(typeof answer === "object" && answer !== null && Symbol.asyncIterator in answer)) return answer;
  const items = [];
  for await (const item of answer as AsyncIterable<unknown>) items.push(item);
  return items;
}

type Method = (core: RainbondCore, ...args: unknown[]) => unknown;

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
  if (flags.all && !command.pager) throw new UsageError(`--all: ${method.name} does not page`);
  if (flags.all && flags.page !== undefined)
    throw new UsageError("--page with --all: --all walks every page from the first");
  const target = (flags.all && command.pager) || method;
  const fn = (groups as unknown as Record<string, Record<string, Method>>)[target.group]![target.method]!;
  const args = argumentsOf(command, values, body);
  const options = {
    baseUrl: settings.baseUrl,
    token,
    timeoutMs: integer("timeout-ms", flags.timeoutMs),
    retries: integer("retries", flags.retries),
    logger: loggerOn(io.stderr), // its lines begin `[rainbond]`, masked by the client, escaped here
    logLevel: flags.logLevel as LogLevel | undefined,
  };
  const coreOf = (more: object = {}) => {
    try {
      return createRainbondCore({ ...options, ...more });
    } catch (e) {
      throw usage(e, (argument) => OPTION_FLAGS[argument] ?? argument, false);
    }
  };
  const named = (argument: string) => shownArgument(command, argument, values);
  /** The request the call makes, sending nothing; bad input is refused here, before anything is sent. */
  const dryRun = async () => {
    let sent: RecordedRequest | undefined;
    const fetch = async (url: string | URL | Request, init: RequestInit = {}) => {
      sent = {
        method: init.method ?? "GET",
        url: String(url),
        headers: init.headers as Record<string, string>,
        body: init.body as string,
      };
      throw new Error("a dry run sends nothing");
    };
    const core = coreOf({ retries: 0, logLevel: "off", fetch });
    await settle(fn(core, ...args)).catch((e) => {
      if (e instanceof RainbondInputError) throw usage(e, named);
    });
    return sent!;
  };
  if (flags.dryRun) return void io.stdout.write(`${curlOf(await dryRun(), { secrets: [token] })}\n`);
  if (needsConfirmation(method.effect) && !flags.yes) {
    // what the call does, for the body it will send (an action's effect)
    const request = await dryRun();
    const body = request.body ? JSON.parse(request.body) : undefined;
    const effect = effectOf(method.effectBy ?? method.effect, body);
    const { pathname, search } = new URL(request.url);
    const sent = `${request.method} ${pathname}${search}${body === undefined ? "" : ` ${JSON.stringify(redact(body, [token]))}`}`;
    if (needsConfirmation(effect)) await confirm(command, sent, effect, io);
  }
  const core = coreOf();
  const data = redact(await settle(fn(core, ...args)).catch((e) => Promise.reject(usage(e, named))), [token]);
  io.stdout.write(await render(await query(data, flags.query), format, layoutOf(io)));
}

/** No token anywhere: an auth error (exit code 3), whose message says where one goes. */
export class NoTokenError extends Error {
  constructor() {
    super(
      "no token: set RAINBOND_TOKEN, or add a profile (rainbond profile add), which reads it from a prompt or standard input",
    );
  }
}
