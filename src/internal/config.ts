// The options of a client (or core) and of each call, checked by the same rule engine as every input: an unknown or
// malformed option is refused when the client is made, or before the call sends anything. And the client's logging.
import { RainbondInputError, refuser } from "../core/errors.js";
import type { CallOptions, ClientOptions, LogLevel, Logger } from "../core/options.js";
import { DEFAULT_RETRIES, DEFAULT_RETRY_DELAY, DEFAULT_TIMEOUT_MS } from "../core/retry.js";
import type { SchemaRule } from "../core/table.js";
import { isRecord } from "../core/is-record.js";
import { check } from "./validate.js";

const LOG_LEVELS: readonly LogLevel[] = ["off", "error", "warn", "info", "debug"];

/** The enabled levels only: a disabled level is undefined, so a call site pays nothing for it (`log.debug?.(...)`). */
export type Log = { [level in keyof Logger]?: (message: string, ...data: unknown[]) => void };

const MS = { type: "number", minimum: 0, maximum: 2_147_483_647 } as const;
const FN = { type: "function" } as const;
/** An object of these members: only these, unless `closed` is false. */
const object = (properties: Record<string, SchemaRule>, required?: string[], closed = true): SchemaRule => {
  return { type: "object", closed, required, properties };
};
/**
 * The options of a call. A timeout of at least 1 ms: a timer waits no less. At most 10 retries: enough for a flaky
 * proxy, not enough to hammer a console for hours.
 */
const CALL = {
  timeoutMs: { ...MS, minimum: 1 },
  retries: { type: "integer", minimum: 0, maximum: 10 },
};
const CLIENT = object(
  {
    baseUrl: { type: "string" },
    token: {
      type: "string",
      pattern: "^[\\x21-\\x7e]+$",
      patternMeans: "a non-empty string of visible ASCII characters (no spaces)",
    },
    fetch: FN,
    headers: { type: "object" },
    ...CALL,
    retryDelay: object({ baseMs: MS, maxMs: MS, retryAfterCapMs: MS }),
    logger: object({ error: FN, warn: FN, info: FN, debug: FN }, ["error", "warn", "info", "debug"], false),
    logLevel: { enum: LOG_LEVELS },
    maxResponseBytes: { type: "integer", minimum: 1 },
    middleware: { type: "array", items: object({ onRequest: FN, onResponse: FN, onError: FN }, [], false) },
  },
  ["baseUrl", "token"],
);

/** Headers that fetch sets or forbids itself: a value of the caller's would be dropped, or break the request. */
const FORBIDDEN_HEADERS =
  /^(accept-charset|accept-encoding|access-control-request-.*|authorization|connection|content-length|content-type|cookie2?|date|dnt|expect|host|keep-alive|origin|referer|te|trailer|transfer-encoding|upgrade|via|proxy-.*|sec-.*)$/i;

/** The origins whose plain http the client has warned about: once each in a process, whatever its clients. */
const warned = new Set<string>();

/** The call options, checked; `operation` names the call in messages. */
export function callOptions(operation: string, call: unknown): CallOptions | undefined {
  if (call === undefined) return undefined;
  if (!isRecord(call)) throw new RainbondInputError(operation, "call options", "must be an object", "type");
  check(operation, "", object({ ...CALL, signal: {} }), call);
  const { signal } = call as { signal?: Partial<AbortSignal> };
  if (
    signal !== undefined &&
    !(typeof signal?.aborted === "boolean" && typeof signal.addEventListener === "function")
  ) {
    throw new RainbondInputError(operation, "signal", "must be an AbortSignal", "type");
  }
  return call as CallOptions;
}

/** The client's options, checked, as the transport every call of the client goes through. */
export function configure(options: ClientOptions) {
  const refuse = refuser("createRainbondClient");
  if (!isRecord(options)) throw refuse("options", "must be an object", "type");
  check("createRainbondClient", "", CLIENT, options);
  const { baseUrl, token, logger = console, logLevel = "warn" } = options;
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    // refused below
  }
  // `#` and `?` are refused even empty: `http://h/#` would send every request to `/`, `http://h/?` the path as query
  if (!url || !/^https?:$/.test(url.protocol) || /[?#]/.test(baseUrl) || url.username || url.password) {
    throw refuse(
      "baseUrl",
      "must be an http(s) URL: the console's origin, without credentials, query or fragment",
      "format",
    );
  }
  if (/\/openapi\/v1\/?$/.test(url.pathname)) {
    throw refuse("baseUrl", "is the console's origin: the paths already carry /openapi/v1", "format");
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    // the value is not shown: a header may carry a secret of its own
    const at = `headers[${JSON.stringify(name)}]`;
    if (FORBIDDEN_HEADERS.test(name)) throw refuse(at, "is set by the client or by fetch itself", "fixed");
    try {
      headers.set(name, value);
    } catch {
      throw refuse(at, "is not a valid HTTP header", "format");
    }
  }
  headers.set("authorization", token);
  const fixed = Object.fromEntries(headers);
  // the levels up to `logLevel`, quietest first ("off" enables none); warnings (retries) by default. A failure is
  // thrown, not logged as well, so `error` logs as little as `off`.
  const levels = LOG_LEVELS.slice(1, LOG_LEVELS.indexOf(logLevel) + 1) as (keyof Logger)[];
  const log = Object.fromEntries(
    levels.map((level) => [
      level,
      (message: string, ...data: unknown[]) => logger[level](`[rainbond] ${message}`, ...data),
    ]),
  );
  // the token in clear to another machine, warned about once per origin: anyone on the network path can read and
  // replay it. A loopback host (localhost, 127.x.x.x, [::1]) is this machine; Rainbond's usual :7070 is plain http.
  const { origin } = url;
  if (log.warn && /^http:\/\/(?!(localhost|127(\.\d+){3}|\[::1\])(:|$))/.test(origin) && !warned.has(origin)) {
    warned.add(origin);
    log.warn(`plain http to ${origin}: anyone on the network path can read the token; use https`);
  }
  return {
    fetch: options.fetch ?? globalThis.fetch,
    baseUrl: url.href.replace(/\/+$/, ""),
    headers: fixed,
    jsonHeaders: { ...fixed, "content-type": "application/json" },
    maxResponseBytes: options.maxResponseBytes ?? 10_485_760,
    middleware: options.middleware ?? [],
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retries: options.retries ?? DEFAULT_RETRIES,
    retryDelay: { ...DEFAULT_RETRY_DELAY, ...options.retryDelay },
    log: log as Log,
    // the token and every custom header's value: a header may carry a secret of its own (a proxy's key, a cookie)
    secrets: Object.values(fixed) as readonly string[],
  };
}

/**
 * The client's options, checked and completed: what each of its calls goes through (`secrets`: the token and the custom
 * headers' values).
 */
export type Transport = ReturnType<typeof configure>;
