// One hierarchy of real Error classes:
//
//   RainbondError
//   ├── RainbondApiError                 the console answered non-2xx
//   │   ├── RainbondBadRequestError      400 (fieldErrors from the console's `err` map)
//   │   ├── RainbondAuthError            401, 403
//   │   ├── RainbondNotFoundError        404
//   │   ├── RainbondConflictError        409
//   │   ├── RainbondRateLimitError       429
//   │   └── RainbondServerError          5xx
//   ├── RainbondResponseError            a 2xx that is not what it claims: not JSON, not the declared shape, ...
//   │   ├── RainbondResponseTooLargeError  a body over maxResponseBytes (any status), not read further
//   │   └── RainbondRedirectError          a redirect to another origin, not followed
//   ├── RainbondConnectionError          no answer (refused, reset, DNS, ...)
//   │   └── RainbondTimeoutError         no answer within timeoutMs
//   ├── RainbondAbortError               the caller's AbortSignal fired
//   └── RainbondInputError               bad input, caught before any request is sent
//
// No error ever holds the token, a request's headers or a secret field's value. Server text in a message (msg,
// msg_show, field errors, excerpts) is cut to 500 characters with control characters escaped: see oneLine().

import { oneLine } from "./redact.js";

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

/** The console answered with a non-2xx status. */
export class RainbondApiError extends RainbondError {
  override name = "RainbondApiError";
  /** The HTTP status. */
  readonly status: number;
  /** The console's `code`: often the HTTP status, or a business code (2000 team not found, 4000 app not found, ...). */
  readonly code: number | undefined;
  /** The console's `msg` (English). */
  readonly msg: string | undefined;
  /** The console's `msg_show` (for people). */
  readonly msgShow: string | undefined;
  /** The parsed body with `error_trace` and secret fields removed, or a short excerpt of a body that is not JSON. */
  readonly body: unknown;
  /** The `x-request-id` the server sent, if any. */
  readonly requestId: string | undefined;

  /** `statusText` (the reason phrase, e.g. `Not Found`) reads in the message when the body gives no reason. */
  constructor(info: RequestInfo, status: number, body: unknown, requestId: string | undefined, statusText?: string) {
    const fields = consoleFields(body);
    const reason = fields.msgShow ?? fields.msg ?? fields.detail ?? (typeof body === "string" && body ? body : "");
    const said = reason ? `: ${oneLine(reason)}` : statusText ? ` ${oneLine(statusText)}` : "";
    super(`${named(info)} failed with ${status}${said}`);
    Object.assign(this, requestOf(info));
    this.status = status;
    this.code = fields.code;
    this.msg = fields.msg;
    this.msgShow = fields.msgShow;
    this.body = body;
    this.requestId = requestId;
  }
}

/** 400: the console refused the request; `fieldErrors` maps each field to its messages (the console's `err`). */
export class RainbondBadRequestError extends RainbondApiError {
  override name = "RainbondBadRequestError";
  readonly fieldErrors: Readonly<Record<string, readonly string[]>>;
  constructor(info: RequestInfo, status: number, body: unknown, requestId: string | undefined, statusText?: string) {
    super(info, status, body, requestId, statusText);
    const err = isObject(body) && isObject(body.err) ? body.err : {};
    this.fieldErrors = Object.fromEntries(
      Object.entries(err).map(([field, messages]) => [
        field,
        Array.isArray(messages) ? messages.map(String) : [String(messages)],
      ]),
    );
    const detail = Object.entries(this.fieldErrors).map(([field, messages]) => `${field}: ${messages.join(" ")}`);
    if (detail.length) this.message += ` (${oneLine(detail.join("; "))})`;
  }
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
/** 429: too many requests (retried for idempotent methods, honouring `Retry-After`). */
export class RainbondRateLimitError extends RainbondApiError {
  override name = "RainbondRateLimitError";
}
/** 5xx: the console, or a proxy in front of it, failed. */
export class RainbondServerError extends RainbondApiError {
  override name = "RainbondServerError";
}

/**
 * An answer that is not what it claims to be: a 2xx body that is not JSON (`excerpt` is a short, safe start of it) or
 * not of the shape the spec declares (an object where a list belongs, `null`), a page of a list that repeats items
 * already seen (`excerpt` names them). Never retried.
 */
export class RainbondResponseError extends RainbondError {
  override name = "RainbondResponseError";
  constructor(
    info: RequestInfo,
    readonly status: number,
    readonly excerpt: string,
    problem = "a body that is not JSON",
  ) {
    super(`${named(info)} answered ${status} with ${problem}${excerpt ? `: ${excerpt}` : ""}`);
    Object.assign(this, requestOf(info));
  }
}

/**
 * A body longer than the client's `maxResponseBytes` (default 10 MiB), counted as it arrives (after gzip or brotli
 * are undone): the rest is not read, and the request is not sent again, whatever the status.
 */
export class RainbondResponseTooLargeError extends RainbondResponseError {
  override name = "RainbondResponseTooLargeError";
  constructor(
    info: RequestInfo,
    status: number,
    readonly maxResponseBytes: number,
  ) {
    super(info, status, "", `a body over maxResponseBytes (${maxResponseBytes} bytes), not read further`);
  }
}

/**
 * A redirect the client does not follow: to another origin (`location` is that origin alone, without path or query),
 * where the request's token, headers and body must not go; or, in a browser, any redirect, since a browser does not
 * tell where it leads. Never retried.
 */
export class RainbondRedirectError extends RainbondResponseError {
  override name = "RainbondRedirectError";
  constructor(
    info: RequestInfo,
    status: number,
    readonly location: string,
  ) {
    super(info, status, "", `a redirect to ${location}, not followed (only redirects within the console's origin are)`);
  }
}

/** No answer: the connection was refused or reset, or the host could not be reached. */
export class RainbondConnectionError extends RainbondError {
  override name = "RainbondConnectionError";
  constructor(info: RequestInfo, reason: string, options?: { cause?: unknown }) {
    super(`${named(info)}: ${reason}`, options);
    Object.assign(this, requestOf(info));
  }
}

// The errors of a request carry its `operation`, `method` and `path` (set by Object.assign in their constructors).
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

/** Bad input, found before any request was sent. `argument` names it; the message says the rule. */
export class RainbondInputError extends RainbondError {
  override name = "RainbondInputError";
  constructor(
    readonly operation: string,
    readonly argument: string,
    rule: string,
  ) {
    super(`${operation}: ${argument} ${rule}`);
  }
}

const byStatus: Record<number, typeof RainbondApiError> = {
  400: RainbondBadRequestError,
  401: RainbondAuthError,
  403: RainbondAuthError,
  404: RainbondNotFoundError,
  409: RainbondConflictError,
  429: RainbondRateLimitError,
};

/** The error class for a non-2xx status. */
export function apiErrorFor(status: number): typeof RainbondApiError {
  return byStatus[status] ?? (status >= 500 ? RainbondServerError : RainbondApiError);
}

/** How every message names its request: `ports.update (PUT /openapi/v1/...)`. */
export function named(info: RequestInfo): string {
  return `${info.operation} (${info.method} ${info.path})`;
}

function requestOf({ operation, method, path }: RequestInfo): RequestInfo {
  return { operation, method, path };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function consoleFields(body: unknown) {
  const b = isObject(body) ? body : {};
  const text = (v: unknown) => (typeof v === "string" && v ? v : undefined);
  return {
    code: typeof b.code === "number" ? b.code : undefined,
    msg: text(b.msg),
    msgShow: text(b.msg_show),
    detail: text(b.detail),
  };
}
