// Turns a call's arguments into a request: path and query parameters and JSON, each encoded as the spec wants it and
// checked against its rules (generated/operations.ts), or a RainbondInputError naming the argument, before sending.
import { refuser, type RainbondInputError, type InputRule } from "../core/errors.js";
import type { OperationInput, OperationSpec, QueryRule, SchemaRule } from "../core/table.js";
import { isRecord } from "../core/is-record.js";
import type { Outgoing } from "./transport/outgoing.js";
import { MORE_RULES, check, shown } from "./validate.js";

/** How the caller names each parameter (`component.serviceId`, `options.pageSize`) and the body; a parameter not named here is called as the spec calls it. */
export interface Names {
  path: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  body: string;
}

const PATH_PARAM = /\{(\w+)\}/g;

type Refuse = (argument: string, rule: string, keyword: InputRule) => RainbondInputError;

/** The caller's names of an operation's parameters and body, from its arguments: worked out once per operation. */
export function namesOf(spec: OperationSpec): Names {
  const path: Record<string, string> = {};
  const query: Record<string, string> = {};
  let body = "body";
  for (const arg of spec.args) {
    if (arg.kind === "path") path[arg.param] = arg.name;
    else if (arg.kind === "body") body = arg.name;
    else {
      const names = arg.kind === "scope" ? path : query;
      for (const [key, param] of Object.entries((arg.kind === "scope" ? arg.params : spec.options) ?? {})) {
        names[param] = `${arg.name}.${key}`;
      }
    }
  }
  return { path, query, body } as Names;
}

/** Why a query parameter or option that the operation does not take is refused: the spec's reason, where it gives one. */
const refusal = (spec: OperationSpec, name: string, what: string) =>
  spec.refused && Object.hasOwn(spec.refused, name) ? `is not sent: ${spec.refused[name]}` : `is not ${what}`;

/** The positional arguments of an operation's function as a spec-named input; its options by RequestParts' `options`. */
export function fromArgs(spec: OperationSpec, args: readonly unknown[], parts: RequestParts): OperationInput {
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const input = { path, query } as OperationInput;
  const refuse = refuser(spec.name);
  spec.args.forEach((arg, i) => {
    const value = args[i];
    if (arg.kind === "path") path[arg.param] = value;
    else if (arg.kind === "body") input.body = value;
    else if (arg.kind === "scope") {
      if (!isRecord(value)) throw refuse(arg.name, "must be an object of ids", "type");
      for (const key in arg.params) path[arg.params[key]!] = value[key];
    } else parts.options?.(spec, arg.name, value, query, refuse);
  });
  return input;
}

/** The members of an options argument (`given`) as the query parameters they name, into `query`: `options` of RequestParts. */
export function queryFromOptions(
  spec: OperationSpec,
  argument: string,
  given: unknown,
  query: Record<string, unknown>,
  refuse: Refuse,
) {
  if (given !== undefined && !isRecord(given)) throw refuse(argument, "must be an object", "type");
  const options = spec.options ?? {};
  for (const [key, item] of Object.entries(given ?? {})) {
    if (!Object.hasOwn(options, key))
      throw refuse(`${argument}.${key}`, refusal(spec, key, "an option of this method"), "unknown");
    query[options[key]!] = item;
  }
}

/**
 * A number given where the spec wants a string (an id, a port) as its digits; anything else as given. Path parameters
 * and body members are encoded by this alone: the spec's are strings and integers.
 */
function asDigits(argument: string, rule: SchemaRule, value: unknown, refuse: Refuse): unknown {
  if (typeof value !== "number" || rule.type !== "string") return value;
  if (!Number.isSafeInteger(value)) throw refuse(argument, `must be an integer (got ${shown(value)})`, "type");
  return String(value);
}

/** A query value as the spec wants it on the wire: a boolean as "true"/"false", a Date as Unix seconds, a number as digits. */
function encode(argument: string, rule: SchemaRule, value: unknown, refuse: Refuse): unknown {
  if (typeof value === "boolean" && rule.type === "string" && rule.enum?.includes(String(value))) return String(value);
  if (value instanceof Date && rule.type === "number") {
    if (Number.isNaN(value.getTime())) throw refuse(argument, "is an invalid Date", "format");
    return Math.floor(value.getTime() / 1000);
  }
  return asDigits(argument, rule, value, refuse);
}

/**
 * The code of the parts of a request that not every operation has: query parameters (`query`, with the rules across
 * them, `rules`, and `options`, which reads them from a function's options argument) and a body (`body`). Generated code passes each operation's function the parts its operation has, and
 * only those (call.ts's `operation` types them so), so that the bundle of an operation without a query or a body does
 * not carry their checks; requestOperation passes them all.
 */
export interface RequestParts {
  readonly options?: typeof queryFromOptions;
  readonly query?: typeof prepareQuery;
  readonly rules?: readonly QueryRule[];
  readonly body?: typeof prepareBody;
}

/** Checks and encodes a spec-named input into the request the transport sends, or throws RainbondInputError. */
export function prepare(spec: OperationSpec, input: OperationInput, names: Names, parts: RequestParts = {}) {
  const { name: operation } = spec;
  const refuse = refuser(operation);
  const path: Record<string, unknown> = {};
  for (const param in spec.pathParams) {
    const [rule, value, name] = [spec.pathParams[param]!, input.path?.[param], names.path[param] ?? param];
    if (value === undefined) throw refuse(name, "is required", "required");
    check(operation, name, rule, (path[param] = asDigits(name, rule, value, refuse)), value);
  }
  const query = parts.query?.(spec, input.query ?? {}, names, refuse, parts.rules) ?? {};
  const { body, json } = parts.body?.(spec, input.body, names, refuse) ?? {};
  // errors and logs name the path as sent (ids are not secret; each was checked against its pattern above)
  const sent = spec.path.replace(PATH_PARAM, (_, param: string) => encodeURIComponent(String(path[param])));
  const info = { operation, method: spec.method, path: sent };
  return { spec, info, params: { path, query }, body, json } satisfies Outgoing;
}

/** The query parameters of a request (`given`), encoded and checked, with the spec's defaults: `query` of RequestParts. */
export function prepareQuery(
  spec: OperationSpec,
  given: Record<string, unknown>,
  names: Names,
  refuse: Refuse,
  rules: readonly QueryRule[] = [],
): Record<string, unknown> {
  const { name: operation, query: queryRules = {} } = spec;
  const nameOf = (param: string) => names.query[param] ?? param;
  const query: Record<string, unknown> = {};
  for (const [param, value] of Object.entries(given)) {
    const rule = Object.hasOwn(queryRules, param) ? queryRules[param] : undefined;
    if (!rule) throw refuse(nameOf(param), refusal(spec, param, "a query parameter of this operation"), "unknown");
    if (value !== undefined) query[param] = encode(nameOf(param), rule, value, refuse);
  }
  for (const param in queryRules) {
    if (query[param] === undefined && queryRules[param]!.default !== undefined)
      query[param] = queryRules[param]!.default;
  }
  for (const rule of rules) rule(spec, query, given, nameOf);
  for (const param in queryRules) {
    if (query[param] !== undefined)
      check(operation, nameOf(param), queryRules[param]!, query[param], given[param], MORE_RULES);
    else if (spec.requiredQuery?.includes(param)) throw refuse(nameOf(param), "is required", "required");
  }
  return query;
}

/** The body of a request (`given`) as sent, checked, with the spec's defaults, and its JSON: `body` of RequestParts. */
export function prepareBody(spec: OperationSpec, given: unknown, names: Names, refuse: Refuse) {
  const { name: operation, body: bodyRule } = spec;
  let body: unknown, json: string | undefined;
  if (given === undefined) {
    if (spec.bodyRequired) throw refuse(names.body, "is required", "required");
  } else if (bodyRule) {
    const record = isRecord(given) ? { ...given } : undefined;
    for (const key in (record && bodyRule.properties) ?? {}) {
      const rule = bodyRule.properties![key]!;
      // a member left out is sent with the spec's default, where it gives one: the console needs some (its overlay)
      if (record![key] === undefined && rule.default !== undefined) record![key] = rule.default; // serialised below
      if (rule.acceptsNumber) record![key] = asDigits(`${names.body}.${key}`, rule, record![key], refuse);
    }
    // what is checked is what is sent, whatever `toJSON` or getters it had
    try {
      json = JSON.stringify(record ?? given);
    } catch {
      throw refuse(names.body, "must be JSON data (it holds a cycle or a BigInt)", "json");
    }
    if (json === undefined) throw refuse(names.body, "must be JSON data", "json");
    check(operation, names.body, bodyRule, (body = JSON.parse(json)), given, MORE_RULES);
  }
  return { body, json };
}
