// Runs one method command: its flags and arguments into the client's method (which checks them, before anything is
// sent), a person's confirmation where the method is destructive, the request as curl for --dry-run, the pages for
// --all, and the answer, secrets masked, through --query onto stdout.
import { Console } from "node:console";
import type { Writable } from "node:stream";
import { groups } from "../../generated/groups.js";
import { RainbondInputError, createRainbondCore, redact, type LogLevel, type RainbondCore } from "../../src/core.js";
import { FORMATS, query, render, type Format } from "./output.js";
import { settingsOf } from "./settings.js";
import type { Input, MethodCommand } from "./table.js";
import { UsageError, argumentsOf, fromText, quote, readBody, shownArgument } from "./values.js";

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

/** The request as a curl command, the token as `$RAINBOND_TOKEN` and secret members masked. */
function curl(url: string, init: RequestInit, secrets: string[]): string {
  const words = ["curl", "-X", init.method ?? "GET", quote(url)];
  for (const [name, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) {
    words.push(
      "-H",
      name.toLowerCase() === "authorization" ? `"${name}: $RAINBOND_TOKEN"` : quote(`${name}: ${value}`),
    );
  }
  if (typeof init.body === "string")
    words.push("--data", quote(JSON.stringify(redact(JSON.parse(init.body), secrets))));
  return words.join(" ");
}

/** The inputs' values: positionals in order, flags by name, scope ids falling back to the environment or a profile. */
function valuesOf(
  command: MethodCommand,
  flags: Record<string, unknown>,
  positionals: string[],
  scopes: Record<string, string | undefined>,
) {
  const dates = command.operation.timeRange ? [command.operation.timeRange.start, command.operation.timeRange.end] : [];
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

async function confirm(command: MethodCommand, values: Map<Input, unknown>, io: Io): Promise<void> {
  const ids = [...values].filter(([i, v]) => v !== undefined && i.kind !== "option" && i.kind !== "member");
  const what = `${command.method.summary}: ${ids.map(([i, v]) => `${i.name} ${String(v)}`).join(", ")}`;
  const how = `${command.method.name} cannot be undone`;
  if (!(io.stdinIsTTY && io.stderr.isTTY)) {
    throw new UsageError(`${what}. ${how}: pass --yes to go on (there is no terminal to ask on)`);
  }
  const prompts = await import("@clack/prompts");
  const answer = await prompts.confirm({ message: `${what}. ${how}. Go on?`, initialValue: false, output: io.stderr });
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
  const target = (flags.all && command.pager) || method;
  const fn = (groups as unknown as Record<string, Record<string, Method>>)[target.group]![target.method]!;
  const args = argumentsOf(command, values, body);
  const options = {
    baseUrl: settings.baseUrl,
    token,
    timeoutMs: integer("timeout-ms", flags.timeoutMs),
    retries: integer("retries", flags.retries),
    logger: new Console(io.stderr), // its lines begin `[rainbond]`, masked by the client
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
  /** The request the call makes, as curl, sending nothing; bad input is refused here, before anything is sent. */
  const dryRun = async () => {
    let sent = "";
    const fetch = async (url: string | URL | Request, init: RequestInit = {}) => {
      sent = curl(String(url), init, [token]);
      throw new Error("a dry run sends nothing");
    };
    const core = coreOf({ retries: 0, logLevel: "off", fetch });
    await settle(fn(core, ...args)).catch((e) => {
      if (e instanceof RainbondInputError) throw usage(e, named);
    });
    return sent;
  };
  if (flags.dryRun) return void io.stdout.write(`${await dryRun()}\n`);
  if (method.effect === "destructive" && !flags.yes) {
    await dryRun();
    await confirm(command, values, io);
  }
  const core = coreOf();
  const data = redact(await settle(fn(core, ...args)).catch((e) => Promise.reject(usage(e, named))), [token]);
  const color = Boolean(io.stdout.isTTY) && !io.env.NO_COLOR;
  io.stdout.write(await render(await query(data, flags.query), format, color));
}

/** No token anywhere: an auth error (exit code 3), whose message says where one goes. */
export class NoTokenError extends Error {
  constructor() {
    super(
      "no token: set RAINBOND_TOKEN, or add a profile (rainbond profile add), which reads it from a prompt or standard input",
    );
  }
}
