// Turns a call's arguments into a request: path and query parameters and JSON, each encoded as the spec wants it and
// checked against its rules (generated/operations.ts), or a RainbondInputError naming the argument, before sending.
import { RainbondInputError, type RequestInfo } from "./errors.js";
import type { Prepared } from "./transport.js";
import { check, shown, type SchemaRule } from "./validate.js";

/** How one positional argument of an operation's function becomes part of the request. */
export type Arg =
  /** An object of ids (`{ teamId, regionName, ... }`) that fills the path parameters named in `params`. */
  | { readonly kind: "scope"; readonly name: string; readonly params: Readonly<Record<string, string>> }
  /** One path parameter. */
  | { readonly kind: "path"; readonly name: string; readonly param: string }
  /** The request body, as the spec names its fields. */
  | { readonly kind: "body"; readonly name: string; readonly optional?: boolean }
  /** An object of query parameters, by the option names of `OperationSpec.options`. */
  | { readonly kind: "options"; readonly name: string; readonly optional?: boolean };

/** One operation of the spec as the client calls it: an entry of generated/operations.ts. */
export interface OperationSpec {
  readonly id: string;
  /** The grouped client's name of it, `ports.list`: errors and logs name the call by it. */
  readonly name: string;
  readonly method: "GET" | "PUT" | "POST" | "DELETE" | "PATCH";
  readonly path: string;
  readonly args: readonly Arg[];
  readonly pathParams: Readonly<Record<string, SchemaRule>>;
  readonly query: Readonly<Record<string, SchemaRule>>;
  /** Option name -> query parameter (`pageSize` -> `page_size`). */
  readonly options: Readonly<Record<string, string>>;
  readonly requiredQuery: readonly string[];
  readonly body?: SchemaRule;
  readonly bodyRequired?: boolean;
  /** Where the console may wrap the answer in its envelope: `data.list` or `data.bean`. */
  readonly envelope?: "list" | "bean";
  /** The top-level type the spec declares for a successful answer. */
  readonly response: "array" | "object";
  /** Query parameters that form a time range, checked together (the spec's `x-rainbond-time-range`). */
  readonly timeRange?: {
    readonly start: string;
    readonly end: string;
    readonly step: string;
    readonly maxPointsPerSeries?: number;
  };
}

/** A request by the spec's names: path and query parameters, and the body. */
export interface OperationInput {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** A spec-named input with the caller's names of its parts (`component.serviceId`, `options.pageSize`). */
export interface Named {
  input: OperationInput;
  names: { path: Record<string, string>; query: Record<string, string> };
  body: string;
}

/** The positional arguments of an operation's function as a spec-named input. */
export function fromArgs(spec: OperationSpec, args: readonly unknown[]): Named {
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const named: Named = { input: { path, query }, names: { path: {}, query: {} }, body: "body" };
  const refuse = (argument: string, rule: string) => new RainbondInputError(spec.name, argument, rule);
  spec.args.forEach((arg, i) => {
    const value = args[i];
    if (arg.kind === "path") {
      path[arg.param] = value;
      named.names.path[arg.param] = arg.name;
    } else if (arg.kind === "scope") {
      if (!isRecord(value)) throw refuse(arg.name, "must be an object of ids");
      for (const [key, param] of Object.entries(arg.params)) {
        path[param] = value[key];
        named.names.path[param] = `${arg.name}.${key}`;
      }
    } else if (arg.kind === "body") {
      named.input.body = value;
      named.body = arg.name;
    } else {
      if (value !== undefined && !isRecord(value)) throw refuse(arg.name, "must be an object");
      for (const [key, param] of Object.entries(spec.options)) named.names.query[param] = `${arg.name}.${key}`;
      for (const [key, item] of Object.entries(value ?? {})) {
        const param = Object.hasOwn(spec.options, key) ? spec.options[key]! : undefined;
        if (param === undefined) throw refuse(`${arg.name}.${key}`, "is not an option of this method");
        query[param] = item;
      }
    }
  });
  return named;
}

type Refuse = (argument: string, rule: string) => RainbondInputError;

/** A value as the spec wants it on the wire: a boolean as "true"/"false", a Date as Unix seconds, an integer as digits. */
function encode(argument: string, rule: SchemaRule, value: unknown, refuse: Refuse): unknown {
  if (typeof value === "boolean" && rule.type === "string" && rule.enum?.includes(String(value))) return String(value);
  if (value instanceof Date && rule.type === "number") {
    if (Number.isNaN(value.getTime())) throw refuse(argument, "is an invalid Date");
    return Math.floor(value.getTime() / 1000);
  }
  if (typeof value !== "number" || rule.type !== "string") return value;
  if (!Number.isSafeInteger(value)) throw refuse(argument, `must be an integer (got ${shown(value)})`);
  return String(value);
}

/** The body as JSON text and back: what is checked is what is sent, whatever `toJSON` or getters it had. */
function asSent(argument: string, value: unknown, refuse: Refuse): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    throw refuse(argument, "must be JSON data (it holds a cycle or a BigInt)");
  }
  if (text === undefined) throw refuse(argument, "must be JSON data");
  return JSON.parse(text);
}

/**
 * A rule across query parameters, run on the encoded query before each parameter's own rules. Generated code passes
 * it to the operations that need it only, so that no other operation's bundle carries it.
 */
export type QueryRule = (
  spec: OperationSpec,
  query: Record<string, unknown>,
  given: Record<string, unknown>,
  nameOf: (param: string) => string,
) => void;

/** Checks and encodes a spec-named input into the request the transport sends, or throws RainbondInputError. */
export function prepare(
  spec: OperationSpec,
  { input, names, body: bodyName }: Named,
  rules: readonly QueryRule[] = [],
): Prepared {
  const operation = spec.name;
  const refuse: Refuse = (argument, rule) => new RainbondInputError(operation, argument, rule);
  const nameOf = (param: string) => names.query[param] ?? param;
  const path: Record<string, unknown> = {};
  for (const [param, rule] of Object.entries(spec.pathParams)) {
    const [value, name] = [input.path?.[param], names.path[param] ?? param];
    if (value === undefined) throw refuse(name, "is required");
    path[param] = encode(name, rule, value, refuse);
    check(operation, name, rule, path[param], value);
  }
  const query: Record<string, unknown> = {};
  const given = input.query ?? {};
  for (const [param, value] of Object.entries(given)) {
    const rule = Object.hasOwn(spec.query, param) ? spec.query[param] : undefined;
    if (!rule) throw refuse(nameOf(param), "is not a query parameter of this operation");
    if (value !== undefined) query[param] = encode(nameOf(param), rule, value, refuse);
  }
  for (const [param, rule] of Object.entries(spec.query)) {
    if (query[param] === undefined && rule.default !== undefined) query[param] = rule.default;
  }
  for (const rule of rules) rule(spec, query, given, nameOf);
  for (const [param, rule] of Object.entries(spec.query)) {
    if (query[param] !== undefined) check(operation, nameOf(param), rule, query[param], given[param]);
    else if (spec.requiredQuery.includes(param)) throw refuse(nameOf(param), "is required");
  }
  let body: unknown;
  if (input.body === undefined) {
    if (spec.bodyRequired) throw refuse(bodyName, "is required");
  } else if (spec.body) {
    const record = isRecord(input.body) ? { ...input.body } : undefined;
    for (const [key, rule] of record ? Object.entries(spec.body.properties ?? {}) : []) {
      if (rule.acceptsNumber) record![key] = encode(`${bodyName}.${key}`, rule, record![key], refuse);
    }
    body = asSent(bodyName, record ?? input.body, refuse);
    check(operation, bodyName, spec.body, body, input.body);
  }
  // errors and logs name the path as sent (ids are not secret; each was checked against its pattern above)
  const sent = spec.path.replace(/\{(\w+)\}/g, (_, param: string) => encodeURIComponent(String(path[param])));
  const info: RequestInfo = { operation, method: spec.method, path: sent };
  return { info, path: spec.path, params: { path, query }, body, envelope: spec.envelope, shape: spec.response };
}
