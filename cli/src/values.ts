// From what a user typed to the arguments of the client's method, and back from the client's names to the flags in
// its messages: a flag's text becomes the JSON type its rule in the table asks for, and the client then checks it.
import { readFileSync } from "node:fs";
import type { SchemaRule } from "../../surface/runtime.js";
import { isRecord } from "../../surface/runtime.js";
import type { Input, MethodCommand } from "./table.js";

/** A mistake in how the command was called: one line on stderr, exit code 2. */
export class UsageError extends Error {}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const types = (rule: SchemaRule) => [rule.type ?? []].flat();

/** Whether a flag of this rule may stand alone (`--is-inner-service` for true). */
export const isSwitch = (rule: SchemaRule) =>
  types(rule).includes("boolean") ||
  (rule.enum?.length === 2 && rule.enum.includes("true") && rule.enum.includes("false"));

/** A flag's text as its rule wants it: numbers, booleans, JSON for objects and arrays, a date for a time; else text. */
export function fromText(input: Input, text: string | boolean, dates: readonly string[] = []): unknown {
  if (typeof text === "boolean") return text;
  const t = types(input.rule);
  if (t.includes("object") || t.includes("array")) return parseJson(text, flagOf(input));
  if (t.includes("boolean") && (text === "true" || text === "false")) return text === "true";
  if ((t.includes("integer") || t.includes("number")) && NUMBER.test(text)) return Number(text);
  // a number the client also takes as one (a port, a page size): shown as typed in its messages, `(got 0)`
  if (input.rule.acceptsNumber && /^(0|[1-9]\d{0,14})$/.test(text)) return Number(text);
  if (dates.includes(input.spec) && !NUMBER.test(text) && !Number.isNaN(Date.parse(text))) return new Date(text);
  return text;
}

export const flagOf = (input: Input) => (input.positional ? `<${input.name}>` : `--${input.name}`);

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${where} must be JSON: ${(e as Error).message}`);
  }
}

/** The JSON of `--body`: inline, `@file.json`, or `-` for standard input. */
export function readBody(text: string, stdin: () => string): unknown {
  if (text === "-") return parseJson(stdin(), "--body - (standard input)");
  if (!text.startsWith("@")) return parseJson(text, "--body");
  let content: string;
  try {
    content = readFileSync(text.slice(1), "utf8");
  } catch (e) {
    throw new UsageError(`--body ${text}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return parseJson(content, `--body ${text}`);
}

/** The arguments of the client's method, in its order, from the inputs' values and the body of `--body`. */
export function argumentsOf(command: MethodCommand, values: ReadonlyMap<Input, unknown>, body: unknown): unknown[] {
  const given = (prefix: string) =>
    Object.fromEntries(
      [...values]
        .filter(([input, value]) => value !== undefined && input.client.startsWith(`${prefix}.`))
        .map(([input, value]) => [input.client.slice(prefix.length + 1), value]),
    );
  const args = command.method.args.map((arg) => {
    if (arg.kind === "path" || (arg.kind === "argument" && arg.member)) {
      return [...values].find(([input]) => input.client === arg.name)?.[1];
    }
    const members = given(arg.name);
    if (arg.kind !== "body") return Object.keys(members).length || !arg.optional ? members : undefined;
    if (body === undefined) return Object.keys(members).length ? members : undefined;
    if (!Object.keys(members).length) return body;
    if (!isRecord(body)) throw new UsageError("--body is not an object: its members cannot be given as flags too");
    return { ...body, ...members };
  });
  while (args.length && args.at(-1) === undefined) args.pop();
  return args;
}

/**
 * A client's argument name (`component.serviceId`, `options.pageSize`, `body.http.domain_name`) as the user gave it:
 * its flag, or `--body.port` for a member that came in `--body`.
 */
export function shownArgument(command: MethodCommand, argument: string, values: ReadonlyMap<Input, unknown>): string {
  const exact = command.inputs.find(
    (i) =>
      (argument === i.client || argument.startsWith(`${i.client}.`)) &&
      (i.kind !== "member" || values.get(i) !== undefined),
  );
  if (exact) return flagOf(exact) + argument.slice(exact.client.length);
  const body = command.method.args.find((a) => a.kind === "body");
  if (body && (argument === body.name || /^[.[]/.test(argument.slice(body.name.length)))) {
    return `--body${argument.slice(body.name.length)}`;
  }
  return argument;
}
