// createRainbondClient: turns the endpoint table into methods. Each call checks its input against the spec, then
// hands the request to the transport. The token lives only in closures: never on an object that can be printed.
import createClient, { type Client, type Middleware } from "openapi-fetch";
import { operations, type OperationSpec, type SchemaRule } from "../generated/operations.js";
import type { paths } from "../generated/schema.js";
import type {
  AppsApi,
  ComponentsApi,
  GatewayApi,
  MonitorApi,
  PortsApi,
  RainbondPromise,
  RegionsApi,
  TeamsApi,
} from "./api.js";
import { endpoints, paramNames, type Endpoint } from "./endpoints.js";
import { RainbondInputError } from "./errors.js";
import { LOG_LEVELS, createLog, type Logger, type LogLevel } from "./logger.js";
import { iterateForTeam } from "./pagination.js";
import { send, type CallOptions, type Prepared, type RetryDelay, type Transport } from "./transport.js";
import { check } from "./validate.js";

export interface ClientOptions {
  /** The console's origin, e.g. `https://console.example.org:7070`; the paths carry `/openapi/v1`. */
  baseUrl: string;
  /** The API token (visible ASCII), sent as the whole `Authorization` header (no `Bearer`); never logged or shown. */
  token: string;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
  /** Default time allowed to each attempt, in ms. Default 30,000. */
  timeoutMs?: number;
  /** Default number of retries of idempotent requests. Default 2. */
  retries?: number;
  /** Backoff between attempts. */
  retryDelay?: Partial<RetryDelay>;
  /** Where log lines go. Default `console`. */
  logger?: Logger;
  /**
   * `warn` (default) logs retries; `info` also each attempt's outcome (a status, or no answer and why); `debug` also
   * each request, masked. `error` and `off` log nothing: a failure is thrown to the caller, never logged as well.
   */
  logLevel?: LogLevel;
  /**
   * The longest answer body read, in bytes, counted as it arrives (after gzip or brotli are undone). Default
   * 10,485,760 (10 MiB). A longer body is not read further: RainbondResponseTooLargeError, not retried.
   */
  maxResponseBytes?: number;
  /** openapi-fetch middleware (`{ onRequest, onResponse, onError }`), run on every attempt. */
  middleware?: Middleware[];
}

/** A client of one console. Independent of any other: no global state. */
export interface RainbondClient {
  readonly baseUrl: string;
  readonly regions: RegionsApi;
  readonly ports: PortsApi;
  readonly gateway: GatewayApi;
  readonly monitor: MonitorApi;
  readonly teams: TeamsApi;
  readonly apps: AppsApi;
  readonly components: ComponentsApi;
  /** The underlying openapi-fetch client, typed by the spec's `paths`; it sends the token too. */
  readonly raw: Client<paths>;
}

const camelOf = Object.fromEntries(Object.entries(paramNames).map(([camel, snake]) => [snake, camel]));
const inspectSymbol = Symbol.for("nodejs.util.inspect.custom");

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

/**
 * A value as the spec wants it on the wire: booleans as "true"/"false" where the spec takes those strings, Dates as
 * Unix seconds, numbers as strings.
 */
function encode(operation: string, argument: string, rule: SchemaRule, value: unknown): unknown {
  if (typeof value === "boolean" && rule.type === "string" && rule.enum?.includes(String(value))) return String(value);
  if (value instanceof Date && rule.type === "number") {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw new RainbondInputError(operation, argument, "is an invalid Date");
    return Math.floor(ms / 1000);
  }
  if (typeof value === "number" && rule.type === "string") {
    if (!Number.isSafeInteger(value))
      throw new RainbondInputError(operation, argument, `must be an integer (got ${value})`);
    return String(value);
  }
  return value;
}

/** What a method works out once, when the client is made: its operation's rules and how its arguments map onto them. */
interface Plan {
  operation: string;
  endpoint: Endpoint;
  spec: OperationSpec;
  /** The path parameters a scope argument fills: all but those given on their own. */
  scopeKeys: readonly string[];
  /** The path template split at its parameters: literal text at even indices, parameter names at odd ones. */
  segments: readonly string[];
  query: readonly (readonly [string, SchemaRule])[];
}

function planOf(operation: string, endpoint: Endpoint): Plan {
  const spec = operations[endpoint.op];
  const own = new Set(endpoint.args.filter((a) => a.kind === "path").map((a) => paramNames[a.name]));
  return {
    operation,
    endpoint,
    spec,
    scopeKeys: Object.keys(spec.path_params).filter((name) => !own.has(name)),
    segments: spec.path.split(/\{(\w+)\}/),
    query: Object.entries(spec.query),
  };
}

/** Checks and encodes a method's arguments into the request, or throws RainbondInputError. */
function prepare(
  { operation, endpoint, spec, scopeKeys, segments, query: queryRules }: Plan,
  args: unknown[],
): Prepared {
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const given: Record<string, unknown> = {}; // the query's values as the caller gave them, for messages
  let body: unknown;
  const param = (name: string, argument: string, value: unknown) => {
    const rule = spec.path_params[name] ?? {};
    if (value === undefined) throw new RainbondInputError(operation, argument, "is required");
    const encoded = encode(operation, argument, rule, value);
    check(operation, argument, rule, encoded, value);
    path[name] = encoded;
  };
  for (let i = 0; i < endpoint.args.length; i++) {
    const arg = endpoint.args[i]!;
    const value = args[i];
    if (arg.kind === "path") param(paramNames[arg.name] ?? arg.name, arg.name, value);
    else if (arg.kind === "scope") {
      if (!isRecord(value)) throw new RainbondInputError(operation, arg.name, "must be an object of ids");
      for (const name of scopeKeys) param(name, `${arg.name}.${camelOf[name]}`, value[camelOf[name] ?? name]);
    } else if (arg.kind === "query") {
      if (value !== undefined && !isRecord(value))
        throw new RainbondInputError(operation, arg.name, "must be an object");
      for (const [key, item] of Object.entries(value ?? {})) {
        const name = paramNames[key];
        const rule = name === undefined ? undefined : spec.query[name];
        if (name === undefined || rule === undefined) {
          throw new RainbondInputError(operation, `${arg.name}.${key}`, "is not an option of this method");
        }
        if (item !== undefined) {
          query[name] = encode(operation, `${arg.name}.${key}`, rule, item);
          given[name] = item;
        }
      }
    } else {
      body = value;
      if (isRecord(value) && arg.numericStrings) {
        body = { ...value };
        for (const key of arg.numericStrings) {
          if (value[key] !== undefined)
            (body as Record<string, unknown>)[key] = encode(
              operation,
              `${arg.name}.${key}`,
              { type: "string" },
              value[key],
            );
        }
      }
      if (body === undefined) {
        if (spec.bodyRequired) throw new RainbondInputError(operation, arg.name, "is required");
      } else if (spec.body) check(operation, arg.name, spec.body, body, value);
    }
  }
  for (const [name, rule] of queryRules) {
    if (query[name] === undefined && rule.default !== undefined) query[name] = rule.default;
  }
  endpoint.check?.(query, operation, given);
  for (const [name, rule] of queryRules) {
    const argument = `options.${camelOf[name] ?? name}`;
    if (query[name] === undefined) {
      if (spec.requiredQuery.includes(name)) throw new RainbondInputError(operation, argument, "is required");
    } else check(operation, argument, rule, query[name], given[name]); // a default: shown as sent
  }
  // errors and logs name the path as sent (ids are not secret; each was checked against its pattern above)
  let sent = segments[0]!;
  for (let i = 1; i < segments.length; i += 2) sent += encodeURIComponent(String(path[segments[i]!])) + segments[i + 1];
  return {
    info: { operation, method: spec.method, path: sent },
    path: spec.path,
    params: { path, query },
    body,
    envelope: endpoint.envelope,
    shape: spec.response,
  };
}

const CALL_OPTIONS = new Set(["timeoutMs", "retries", "signal"]);

function checkCallOptions(operation: string, call: unknown): CallOptions | undefined {
  if (call === undefined) return undefined;
  if (!isRecord(call)) throw new RainbondInputError(operation, "call options", "must be an object");
  for (const key in call) {
    if (!CALL_OPTIONS.has(key))
      throw new RainbondInputError(operation, key, "is not a call option (timeoutMs, retries, signal)");
  }
  const { timeoutMs, retries, signal } = call as CallOptions;
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs <= 2_147_483_647)) {
    throw new RainbondInputError(operation, "timeoutMs", "must be a positive number of milliseconds");
  }
  if (retries !== undefined && !(Number.isInteger(retries) && retries >= 0)) {
    throw new RainbondInputError(operation, "retries", "must be a non-negative integer");
  }
  if (signal !== undefined && !(typeof signal === "object" && signal !== null && "aborted" in signal)) {
    throw new RainbondInputError(operation, "signal", "must be an AbortSignal");
  }
  return call as CallOptions;
}

function promiseOf<T>(result: Promise<{ data: T; response: Response }>): RainbondPromise<T> {
  const data = result.then((r) => r.data) as RainbondPromise<T>;
  data.withResponse = () => {
    data.catch(() => {}); // the caller listens to `result` instead
    return result;
  };
  return data;
}

/** A call refused before it started: a rejected promise, like every method's. */
function refuse(operation: string, argument: string, rule: string): RainbondPromise<never> {
  return promiseOf(Promise.reject(new RainbondInputError(operation, argument, rule)));
}

function method(transport: Transport, area: string, name: string, endpoint: Endpoint) {
  const plan = planOf(`${area}.${name}`, endpoint);
  const arity = endpoint.args.length;
  return (...args: unknown[]) => {
    let prepared: Prepared;
    let call: CallOptions | undefined;
    try {
      prepared = prepare(plan, args);
      call = checkCallOptions(plan.operation, args[arity]);
    } catch (err) {
      return promiseOf(Promise.reject(err));
    }
    return promiseOf(send(transport, prepared, call));
  };
}

function checkClientOptions(options: ClientOptions): string {
  const where = "createRainbondClient";
  if (!isRecord(options)) throw new RainbondInputError(where, "options", "must be an object");
  const { baseUrl, token } = options;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new RainbondInputError(where, "baseUrl", `must be an http(s) URL (got ${JSON.stringify(baseUrl)})`);
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new RainbondInputError(where, "baseUrl", "must be an http(s) origin without credentials, query or fragment");
  }
  if (/\/openapi\/v1\/?$/.test(url.pathname)) {
    throw new RainbondInputError(where, "baseUrl", "is the console's origin: the paths already carry /openapi/v1");
  }
  if (typeof token !== "string" || !/^[\x21-\x7e]+$/.test(token)) {
    throw new RainbondInputError(where, "token", "must be a non-empty string of visible ASCII characters (no spaces)");
  }
  if (options.headers !== undefined && !isRecord(options.headers)) {
    throw new RainbondInputError(where, "headers", "must be an object of header names and values");
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    try {
      new Headers([[name, value]]);
    } catch {
      // the value is not shown: a header may carry a secret of its own
      throw new RainbondInputError(where, `headers[${JSON.stringify(name)}]`, "is not a valid HTTP header");
    }
  }
  checkCallOptions(where, { timeoutMs: options.timeoutMs, retries: options.retries });
  if (options.logLevel !== undefined && !LOG_LEVELS.includes(options.logLevel)) {
    throw new RainbondInputError(where, "logLevel", `must be one of ${LOG_LEVELS.join(", ")}`);
  }
  for (const [name, value] of Object.entries(options.retryDelay ?? {})) {
    if (!(typeof value === "number" && value >= 0 && value <= 2_147_483_647)) {
      throw new RainbondInputError(where, `retryDelay.${name}`, "must be a non-negative number of milliseconds");
    }
  }
  return url.href.replace(/\/+$/, "");
}

/**
 * The headers of every request, merged once (a later name replaces an earlier one, whatever its case): the direct
 * request path sends them as they are, and openapi-fetch gets `bare` as its own headers.
 */
function headersOf(options: ClientOptions): Transport["headers"] {
  const merged = (init?: Record<string, string>) => {
    const headers = new Headers(init);
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    headers.set("authorization", options.token);
    return Object.fromEntries(headers);
  };
  return { bare: merged(), json: merged({ "content-type": "application/json" }) };
}

/**
 * Makes a client of one Rainbond console.
 *
 * @example
 * const client = createRainbondClient({ baseUrl: "http://127.0.0.1:7070", token: process.env.RAINBOND_TOKEN! });
 * const component = { teamId: "q8k2mz5d", regionName: "rainbond", appId: 12, serviceId: "gr3f9c2a" };
 * const ports = await client.ports.list(component);
 */
export function createRainbondClient(options: ClientOptions): RainbondClient {
  const baseUrl = checkClientOptions(options);
  const fetch = options.fetch ?? globalThis.fetch;
  const headers = headersOf(options);
  const created = createClient<paths>({ baseUrl, fetch, headers: headers.bare });
  const middleware: Middleware[] = [];
  // what client.raw's use and eject change, the methods run too: one list, as openapi-fetch keeps its own
  const raw: Client<paths> = {
    ...created,
    use(...added) {
      created.use(...added);
      middleware.push(...added.filter(Boolean));
    },
    eject(...removed) {
      created.eject(...removed);
      for (const m of removed) if (middleware.includes(m)) middleware.splice(middleware.indexOf(m), 1);
    },
  };
  raw.use(...(options.middleware ?? []));
  const transport: Transport = {
    middleware,
    fetch,
    baseUrl,
    headers,
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries ?? 2,
    retryDelay: { baseMs: 500, maxMs: 8_000, retryAfterCapMs: 60_000, ...options.retryDelay },
    maxResponseBytes: options.maxResponseBytes ?? 10 * 1024 * 1024,
    log: createLog(options.logger, options.logLevel),
    secrets: [options.token],
  };
  const areas = Object.fromEntries(
    Object.entries(endpoints).map(([area, methods]) => [
      area,
      Object.fromEntries(
        Object.entries(methods).map(([name, endpoint]) => [name, method(transport, area, name, endpoint)]),
      ),
    ]),
  ) as unknown as Omit<RainbondClient, "baseUrl" | "raw">;

  const { ports, regions } = areas;
  const portAction =
    (action: "open_outer" | "close_outer" | "open_inner" | "close_inner") =>
    (component: Parameters<PortsApi["update"]>[0], port: number, call?: CallOptions) =>
      ports.update(component, port, { action }, call);
  Object.assign(ports, {
    openOuter: portAction("open_outer"),
    closeOuter: portAction("close_outer"),
    openInner: portAction("open_inner"),
    closeInner: portAction("close_inner"),
    changeProtocol: (component, port, protocol, call) =>
      protocol === undefined
        ? refuse("ports.changeProtocol", "protocol", "is required")
        : ports.update(component, port, { action: "change_protocol", protocol }, call),
    changeAlias: (component, port, alias, call) =>
      isRecord(alias) && alias.port_alias !== undefined
        ? ports.update(
            component,
            port,
            { action: "change_port_alias", port_alias: alias.port_alias, k8s_service_name: alias.k8s_service_name },
            call,
          )
        : refuse("ports.changeAlias", "alias.port_alias", "is required"),
  } satisfies Partial<PortsApi>);
  regions.iterateForTeam = (teamId, opts, call) => iterateForTeam(regions, teamId, opts, call);

  const describe = () => `RainbondClient { baseUrl: ${JSON.stringify(baseUrl)} }`;
  return Object.freeze({
    baseUrl,
    ...areas,
    raw,
    toJSON: () => ({ baseUrl }),
    toString: describe,
    [inspectSymbol]: describe,
  });
}
