// One hierarchy of real Error classes. None holds the token, a request's headers or a secret field's value; server
// text in a message (msg, msg_show, field errors, excerpts) is cut to 500 characters, control characters escaped.
//
//   RainbondError
//   ├── RainbondApiError           a non-2xx answer: BadRequest (400), Auth (401, 403), NotFound (404), Conflict (409;
//   │                              TeamNotOpened: code 2001), RateLimit (429) and Server (5xx) errors
//   ├── RainbondResponseError      a 2xx that is not what it claims; ResponseTooLarge (a body over maxResponseBytes)
//   │                              and Redirect (to another origin, not followed) errors; IterationLimit (an
//   │                              iterator's bound reached)
//   ├── RainbondConnectionError    no answer; Timeout (none within timeoutMs)
//   ├── RainbondAbortError         the caller's AbortSignal fired
//   └── RainbondInputError         bad input, caught before any request is sent
import { isRecord } from "./is-record.js";
import type { Limit } from "./table.js";
import { TRACEBACK_NOT_KEPT, oneLine } from "./redact.js";

/** Where a request went: enough to find it in the console's logs, nothing secret. */
export interface RequestInfo {
  /** The operation, e.g. `ports.update`. */
  operation: string;
  method: string;
  /** The request's path, without query string. */
  path: string;
}

/** The base of every error this client throws. */
export class RainbondError extends Error {
  override name = "RainbondError";
}

/** Makes `error` one of request `info`: its message names the request (`ports.update (PUT /openapi/v1/...)`), then says `text`. */
function about<E extends Error>(error: E, info: RequestInfo, text: string, fields?: object): E {
  error.message = named(info) + text;
  return Object.assign(error, info, fields);
}

/**
 * What the console's answer says beyond its status, for a caller to act on (`reason` of a RainbondApiError):
 * - `team-not-opened`: code 2001 (the console answers 409): the team is not opened in the region
 *   (RainbondTeamNotOpenedError);
 * - `console-record-invalid`: a 400 to a GET, whose `err` names fields of the console's own record: the console
 *   validates what it is about to send and refuses it (getRegion of a region whose certificate fields are empty, as a
 *   plain-HTTP region's are); nothing the request sent is at fault;
 * - `console-failed`: an error the console did not handle (its `msg_show` was a Python traceback, not kept): `msg`
 *   says what failed.
 */
export type RainbondErrorReason = "team-not-opened" | "console-record-invalid" | "console-failed";

/**
 * The console answered with a non-2xx status. The message names the request, the status and the console's texts:
 * `msg_show` (Chinese, for people) and `msg` (English) both when they differ, else `detail`, the body's excerpt or the
 * reason phrase (e.g. `Not Found`).
 */
export class RainbondApiError extends RainbondError {
  override name = "RainbondApiError";
  /** The HTTP status. */
  declare readonly status: number;
  /** The console's `code`: the HTTP status, or a business code (2001 team not opened in the region, 3000 a refusal
   * inside the console's envelope, 20400 validation, 10401 an unhandled error, 10411 the region unreachable, ...). */
  declare readonly code: number | undefined;
  /** The console's `msg` (English). */
  declare readonly msg: string | undefined;
  /** The console's `msg_show` (for people, often Chinese); undefined when it was a server traceback. */
  declare readonly msgShow: string | undefined;
  /** What the answer says beyond its status, when the client recognises it. */
  declare readonly reason: RainbondErrorReason | undefined;
  /** The parsed body with `error_trace`, tracebacks and secret fields removed, or a short excerpt of a body that is
   * not JSON. */
  declare readonly body: unknown;
  /** The `x-request-id` the server sent, if any (masked, cut, escaped like any server text). */
  declare readonly requestId: string | undefined;

  constructor(info: RequestInfo, status: number, body: unknown, requestId: string | undefined, statusText?: string) {
    super();
    const fields = isRecord(body) ? body : {};
    const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);
    const [msg, code, failed] = [text(fields.msg), fields.code, fields.msg_show === TRACEBACK_NOT_KEPT];
    const msgShow = failed ? undefined : text(fields.msg_show);
    const reason = failed
      ? `the console failed: ${msg}`
      : msgShow && msg && msg !== msgShow
        ? `${msgShow} (${msg})`
        : (msgShow ?? msg ?? text(fields.detail) ?? text(body));
    const said = reason ? `: ${oneLine(reason)}` : statusText ? ` ${oneLine(statusText)}` : "";
    about(this, info, ` failed with ${status}${said}`, {
      status,
      code: typeof code === "number" ? code : undefined,
      msg,
      msgShow,
      reason: failed ? "console-failed" : undefined,
      body,
      requestId,
    });
  }
}

/**
 * 400: the console refused the request; `fieldErrors` maps each field to its messages (the console's `err`, nested
 * members by their path: `tcp.default_ip`, `set_headers[1].key`). To a GET, the console refused its own record
 * (`reason` `console-record-invalid`), and the message says so.
 */
export class RainbondBadRequestError extends RainbondApiError {
  override name = "RainbondBadRequestError";
  declare readonly fieldErrors: Readonly<Record<string, readonly string[]>>;
  constructor(info: RequestInfo, status: number, body: unknown, requestId: string | undefined, statusText?: string) {
    super(info, status, body, requestId, statusText);
    const err = isRecord(body) ? body.err : undefined;
    const entries = err === undefined ? [] : fieldErrorsOf(err, "");
    const detail = entries.map(([field, messages]) => `${field}: ${messages.join(" ")}`).join("; ");
    const own = info.method === "GET" && entries.length > 0; // a read sends no fields: the console's own record
    this.message +=
      (own ? "; the console refused its own record: not the request's fault" : "") +
      (detail && ` (${oneLine(detail)})`);
    Object.assign(this, { fieldErrors: Object.fromEntries(entries) }, own && { reason: "console-record-invalid" });
  }
}

/** The messages of a validation body's `err`, by field path: DRF nests them for nested and list serializers. */
function fieldErrorsOf(err: unknown, at: string): [string, string[]][] {
  const flat = !Array.isArray(err) || err.every((item) => typeof item !== "object" || item === null);
  if (!isRecord(err) && flat) return [[at || "(request)", [err].flat().map(String)]];
  return Object.entries(err as object).flatMap(([key, item]) =>
    fieldErrorsOf(item, Array.isArray(err) ? `${at}[${key}]` : at ? `${at}.${key}` : key),
  );
}

/** 401 (no token, or an unknown one) and 403 (the token may not do this). */
export class RainbondAuthError extends RainbondApiError {
  override name = "RainbondAuthError";
}
/** 404: the team, region, application, component or rule does not exist. */
export class RainbondNotFoundError extends RainbondApiError {
  override name = "RainbondNotFoundError";
}
/** 409: the change conflicts with the current state. */
export class RainbondConflictError extends RainbondApiError {
  override name = "RainbondConflictError";
}
/**
 * Code 2001 (the console answers 409): the team is not opened in the region (`reason` `team-not-opened`). Open the
 * region for the team in the console first; nothing in this region can be read or changed for the team until then.
 */
export class RainbondTeamNotOpenedError extends RainbondConflictError {
  override name = "RainbondTeamNotOpenedError";
  override readonly reason = "team-not-opened";
}
/** 429: too many requests (retried for idempotent methods, honouring `Retry-After`). */
export class RainbondRateLimitError extends RainbondApiError {
  override name = "RainbondRateLimitError";
}
/** 5xx: the console, or a proxy in front of it, failed. */
export class RainbondServerError extends RainbondApiError {
  override name = "RainbondServerError";
}

const byStatus: Record<number, typeof RainbondApiError> = {
  400: RainbondBadRequestError,
  401: RainbondAuthError,
  403: RainbondAuthError,
  404: RainbondNotFoundError,
  409: RainbondConflictError,
  429: RainbondRateLimitError,
};

/** The error of a non-2xx answer, of the class its status says, or its code: 2001, a team not opened in the region. */
export function apiError(info: RequestInfo, status: number, body: unknown, requestId?: string, statusText?: string) {
  const team = isRecord(body) && body.code === 2001 ? RainbondTeamNotOpenedError : byStatus[status];
  const ErrorClass = team ?? (status >= 500 ? RainbondServerError : RainbondApiError);
  return new ErrorClass(info, status, body, requestId, statusText);
}

/** A 2xx that is not JSON (`excerpt`: a short, safe start of it), not of the declared shape, or a bad page. Not retried. */
export class RainbondResponseError extends RainbondError {
  override name = "RainbondResponseError";
  declare readonly status: number;
  declare readonly excerpt: string;
  constructor(info: RequestInfo, status: number, excerpt: string, problem = "a body that is not JSON", more = {}) {
    super();
    about(this, info, ` answered ${status} with ${problem}${excerpt ? `: ${excerpt}` : ""}`, {
      status,
      excerpt,
      ...more,
    });
  }
}

/** A body over `maxResponseBytes`, counted as it arrives (decompressed): not read further, not retried. */
export class RainbondResponseTooLargeError extends RainbondResponseError {
  override name = "RainbondResponseTooLargeError";
  declare readonly maxResponseBytes: number;
  constructor(info: RequestInfo, status: number, maxResponseBytes: number) {
    super(info, status, "", `a body over maxResponseBytes (${maxResponseBytes} bytes), not read further`, {
      maxResponseBytes,
    });
  }
}

/** A redirect to another origin (`location`: that origin alone), or in a browser any redirect: not followed, not retried. */
export class RainbondRedirectError extends RainbondResponseError {
  override name = "RainbondRedirectError";
  declare readonly location: string;
  constructor(info: RequestInfo, status: number, location: string) {
    const problem = `a redirect to ${location}, not followed`;
    super(info, status, "", problem, { location });
  }
}

/**
 * An iterator's bounds, by their options (IterationLimits): its error says `more than 12 regions`, `more than 67108864
 * bytes of regions`, `more than 600000 ms waiting for regions`.
 */
export type IterationLimit = "maxItems" | "maxBytes" | "maxMs";

/**
 * An iterator stopped at one of its bounds (`limit`, whose value was `maximum`), so that a console that never ends its
 * pages does not hold the caller: the items of the pages before were yielded, none of the page past the bound. Raise
 * the option to take more.
 */
export class RainbondIterationLimitError extends RainbondResponseError {
  override name = "RainbondIterationLimitError";
  declare readonly limit: IterationLimit;
  declare readonly maximum: number;
}

/** No answer: the connection was refused or reset, or the host could not be reached. */
export class RainbondConnectionError extends RainbondError {
  override name = "RainbondConnectionError";
  constructor(info: RequestInfo, reason: string, options?: { cause?: unknown }) {
    super("", options);
    about(this, info, `: ${reason}`);
  }
}

// The errors of a request carry its `operation`, `method` and `path`.
export interface RainbondApiError extends Readonly<RequestInfo> {}
export interface RainbondResponseError extends Readonly<RequestInfo> {}
export interface RainbondConnectionError extends Readonly<RequestInfo> {}

/** No answer within `timeoutMs` (per attempt). */
export class RainbondTimeoutError extends RainbondConnectionError {
  override name = "RainbondTimeoutError";
}
/** The caller's `AbortSignal` fired; nothing more is sent. */
export class RainbondAbortError extends RainbondError {
  override name = "RainbondAbortError";
}

/**
 * Which rule an input broke (RainbondInputError's `keyword`): a validation keyword of the spec's schemas or of the
 * client's options (`required`, `type`, `enum`, `pattern`, `minimum`, `maximum`, `exclusiveMinimum`,
 * `exclusiveMaximum`, `minItems`, `maxItems`, `maxLength`), or one of the client's own:
 * - `unknown`: a member, option or query parameter the call does not take (or refuses, where the spec says why);
 * - `format`: no valid URL, header, Date or text (a lone surrogate);
 * - `fixed`: set by the client or by fetch itself (a header, an iterator's page number);
 * - `json`: a body that is no JSON data (a cycle, a BigInt);
 * - `timeRange`: a time range's rule across its parameters (start before end, points per series).
 */
export type InputRule =
  Limit | "required" | "type" | "enum" | "pattern" | "unknown" | "format" | "fixed" | "json" | "timeRange";

/**
 * Bad input, found before any request was sent: `argument` names it as the caller did, `keyword` says the rule it
 * broke, and `rule` says it in words; the message is `<operation>: <argument> <rule>`.
 */
export class RainbondInputError extends RainbondError {
  override name = "RainbondInputError";
  declare readonly operation: string;
  /** What the caller gave, by the name they gave it: `component.serviceId`, `body.port`, `options.pageSize`. */
  declare readonly argument: string;
  /**
   * The rule in words, as the message says it after the argument: `must be at most 65535 (got 70000)`, with the
   * value given (never a secret field's) and the console's rule where the spec quotes it.
   */
  declare readonly rule: string;
  /** The rule, for a program: `maximum`. */
  declare readonly keyword: InputRule;
  constructor(operation: string, argument: string, rule: string, keyword: InputRule) {
    super(`${operation}: ${argument} ${rule}`);
    Object.assign(this, { operation, argument, rule, keyword });
  }
}

/** What refuses input to `operation`, before anything is sent: a RainbondInputError of it. */
export const refuser =
  (operation: string) =>
  (argument: string, rule: string, keyword: InputRule): RainbondInputError =>
    new RainbondInputError(operation, argument, rule, keyword);

/** How every message names its request: `ports.update (PUT /openapi/v1/...)`. */
export const named = (info: RequestInfo) => `${info.operation} (${info.method} ${info.path})`;
