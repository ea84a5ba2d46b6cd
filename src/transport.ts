// Sends one operation: attempts with a per-attempt timeout, retries with backoff for what is safe to replay, the
// caller's AbortSignal, and turning the answer into data or one of the client's errors.
import type { Middleware, MiddlewareCallbackParams } from "openapi-fetch";
import {
  RainbondAbortError,
  RainbondConnectionError,
  RainbondError,
  RainbondRedirectError,
  RainbondResponseError,
  RainbondResponseTooLargeError,
  RainbondTimeoutError,
  apiErrorFor,
  named,
  type RequestInfo,
} from "./errors.js";
import type { Log } from "./logger.js";
import { MASK, excerpt, maskText, oneLine, redact, secretsIn } from "./redact.js";

/** Options of every call, given as the last argument of any method (and as defaults on the client). */
export interface CallOptions {
  /**
   * Time allowed to each attempt, middleware, redirects and answer body included, in milliseconds. Default 30,000.
   * The attempt settles then whatever `fetch` does (even a custom one that ignores its signal).
   */
  timeoutMs?: number;
  /** How many times an idempotent request (GET, PUT, DELETE) is retried. Default 2. POST is never replayed. */
  retries?: number;
  /** Cancels the call at once, also while it waits to retry. */
  signal?: AbortSignal;
}

/** How long to wait between attempts. */
export interface RetryDelay {
  /** First backoff, doubled on each retry, with up to 25% jitter. Default 500 ms. */
  baseMs: number;
  /** Longest backoff. Default 8,000 ms. */
  maxMs: number;
  /** Longest `Retry-After` honoured; a longer one is not waited for: the error is thrown. Default 60,000 ms. */
  retryAfterCapMs: number;
}

/** What a method hands the transport: a request that already passed its input checks. */
export interface Prepared {
  info: RequestInfo;
  path: string;
  params: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
  /** The port operations may answer inside the console's envelope: take `data.list` or `data.bean` when they do. */
  envelope?: "list" | "bean";
  /** The top-level type the spec declares for the 2xx answer (after the envelope): anything else is refused. */
  shape?: "array" | "object";
}

export interface Transport {
  /** openapi-fetch middleware, run on every attempt as openapi-fetch runs it; a Request is built only when any is. */
  middleware: readonly Middleware[];
  fetch: typeof globalThis.fetch;
  baseUrl: string;
  /** The client's headers (lower-case names, the token among them), without and with `content-type`. */
  headers: { bare: Record<string, string>; json: Record<string, string> };
  timeoutMs: number;
  retries: number;
  retryDelay: RetryDelay;
  /** The longest body read, in bytes, counted as it arrives (after decompression). */
  maxResponseBytes: number;
  log: Log;
  /** Strings never to show: the token. */
  secrets: readonly string[];
}

/** The data of a call, and the Response it came from. */
export interface WithResponse<T> {
  data: T;
  response: Response;
}

const RETRY_STATUS = new Set([408, 429, 502, 503, 504]);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
/** Redirects followed within the console's origin, as many as fetch itself follows. */
const MAX_REDIRECTS = 20;
const TIMEOUT = Symbol("timeout");

/** One attempt: the answer and its body, or `lost`, what fetch (or reading the body) failed with. */
type Exchange = { response: Response; text: string } | { lost: unknown };

/**
 * Sends a request and returns its data and Response. What fails is thrown to the caller and not logged as well: the
 * caller decides what to show. Each retry is logged at `warn` (the default level), each attempt's outcome (a status,
 * or no answer and why) at `info`, each request (masked) at `debug`. Only a failure of fetch itself (or of reading
 * the body) is a RainbondConnectionError; whatever the client or a middleware throws reaches the caller as it is.
 */
export async function send(t: Transport, req: Prepared, options: CallOptions = {}): Promise<WithResponse<unknown>> {
  const { info } = req;
  const retries = options.retries ?? t.retries;
  const timeoutMs = options.timeoutMs ?? t.timeoutMs;
  const signal = options.signal;
  const replayable = info.method !== "POST";
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw aborted(info, signal.reason);
    // The attempt races its deadline and the caller's signal: it settles then, whether or not fetch listens.
    const controller = new AbortController();
    let stop!: (reason: unknown) => void;
    const stopped = new Promise<never>((_, reject) => (stop = reject));
    const end = (reason: unknown) => {
      controller.abort(reason);
      stop(reason);
    };
    const timer = setTimeout(() => end(TIMEOUT), timeoutMs);
    const unfollow = signal && follow(signal, () => end(signal.reason));
    const started = t.log.info ? Date.now() : 0;
    t.log.debug?.(`→ ${info.method} ${info.path}`, {
      headers: { Authorization: MASK },
      body: redact(req.body, t.secrets),
    });
    let outcome: Exchange;
    try {
      const exchanged = exchange(t, req, controller.signal);
      exchanged.catch(() => {}); // once the race is lost, a later failure is no one's
      outcome = await Promise.race([exchanged, stopped]);
    } catch (err) {
      if (!controller.signal.aborted) throw err; // one of the client's errors, or a middleware's own
      outcome = { lost: err };
    } finally {
      clearTimeout(timer);
      unfollow?.();
    }
    let failure: Error;
    let retryAfter: Response | undefined;
    if ("lost" in outcome) {
      if (signal?.aborted) throw aborted(info, signal.reason);
      const timedOut = controller.signal.reason === TIMEOUT;
      const reason = timedOut ? `no answer within ${timeoutMs} ms` : connectionReason(outcome.lost, t.secrets);
      t.log.info?.(`${info.method} ${info.path} → failed in ${Date.now() - started} ms: ${reason}`);
      failure = timedOut
        ? new RainbondTimeoutError(info, reason)
        : new RainbondConnectionError(info, reason, { cause: sanitized(outcome.lost, t.secrets) });
      if (!replayable && (timedOut || !refused(outcome.lost))) throw failure;
    } else {
      const { response, text } = outcome;
      t.log.info?.(`${info.method} ${info.path} → ${response.status} in ${Date.now() - started} ms`);
      if (response.ok) return { data: parseData(t, req, response, text), response };
      failure = apiError(t, req, response, text);
      if (!replayable || !RETRY_STATUS.has(response.status)) throw failure;
      retryAfter = response;
    }
    if (attempt >= retries) throw failure;
    const delay = retryDelay(t.retryDelay, attempt, retryAfter);
    if (delay === undefined) throw failure;
    t.log.warn?.(`${failure.message}; retry ${attempt + 1} of ${retries} in ${Math.round(delay)} ms`);
    await sleep(delay, signal, info);
  }
}

/**
 * One attempt, the one request path: the URL and init built here (the URL, query string, headers and JSON body
 * openapi-fetch would build), handed to fetch as they are; with middleware, as a Request that each middleware's
 * onRequest may replace or answer (a Response), then onError and onResponse in reverse order, as openapi-fetch does.
 */
async function exchange(t: Transport, req: Prepared, signal: AbortSignal): Promise<Exchange> {
  let url = t.baseUrl + req.info.path;
  let sep = "?";
  for (const name in req.params.query) {
    const value = req.params.query[name];
    if (value === undefined || value === null) continue;
    url += `${sep}${name}=${encodeURIComponent(value as string)}`;
    sep = "&";
  }
  const json = req.body !== undefined;
  const init: RequestInit = {
    method: req.info.method,
    headers: json ? t.headers.json : t.headers.bare,
    body: json ? JSON.stringify(req.body) : undefined,
    redirect: "manual",
    signal,
  };
  const { middleware } = t;
  let request: Request | undefined;
  let response: Response | undefined;
  let context!: Omit<MiddlewareCallbackParams, "request">;
  if (middleware.length) {
    request = new Request(url, init);
    const options = { baseUrl: t.baseUrl, fetch: t.fetch, parseAs: "text" } as MiddlewareCallbackParams["options"];
    context = { schemaPath: req.path, params: req.params, id: Math.random().toString(36).slice(2, 11), options };
    for (const m of middleware) {
      const result: unknown = await m.onRequest?.({ ...context, request });
      if (result instanceof Response) {
        response = result;
        break;
      }
      if (result instanceof Request) request = result;
      else if (result) throw new Error("onRequest: must return new Request() or Response() when modifying the request");
    }
  }
  if (!response) {
    let lost: unknown;
    try {
      response = await fetchFollowing(t, req, request ?? url, init);
    } catch (error) {
      if (error instanceof RainbondError) throw error;
      lost = error;
    }
    const after = request ? [...middleware].reverse() : [];
    for (const m of response ? [] : after) {
      const result: unknown = await m.onError?.({ ...context, request: request!, error: lost });
      if (result instanceof Response) {
        response = result;
        break;
      }
      if (result instanceof Error) lost = result;
      else if (result) throw new Error("onError: must return new Response() or instance of Error");
    }
    if (!response) return { lost };
    for (const m of after) {
      const result: unknown = await m.onResponse?.({ ...context, request: request!, response });
      if (result instanceof Response) response = result;
      else if (result) throw new Error("onResponse: must return new Response() when modifying the response");
    }
  }
  try {
    return { response, text: await readBody(response, t.maxResponseBytes, req.info, signal) };
  } catch (err) {
    if (err instanceof RainbondError) throw err;
    return { lost: err };
  }
}

/**
 * fetch, following redirects within the console's origin itself (as fetch would: 303, and 301/302 after a POST,
 * become a GET without body; at most 20), and refusing a redirect to another origin with a RainbondRedirectError, so
 * that no token, header or body goes there. A browser hides where a redirect leads (an `opaqueredirect`): refused too.
 */
async function fetchFollowing(t: Transport, req: Prepared, input: Request | string, init: RequestInit) {
  const { fetch } = t; // called on its own: a browser's fetch refuses to run as a method of another object
  let response = await fetch(input, typeof input === "string" ? init : { redirect: "manual", signal: init.signal });
  let url = typeof input === "string" ? input : input.url;
  let { method, body } = typeof input === "string" ? init : { method: input.method, body: init.body };
  for (let hops = 0; REDIRECT_STATUS.has(response.status) || response.type === "opaqueredirect"; hops++) {
    const location = response.headers.get("location");
    if (response.type !== "opaqueredirect" && location === null) break; // judged as any other answer
    const next = location === null ? undefined : new URL(location, url);
    void response.body?.cancel().catch(() => {});
    if (!next || next.origin !== new URL(url).origin) {
      throw new RainbondRedirectError(req.info, response.status, next?.origin ?? "a place the browser does not say");
    }
    if (hops >= MAX_REDIRECTS) {
      throw new RainbondResponseError(req.info, response.status, "", "redirect count exceeded (20 redirects)");
    }
    if (response.status === 303 || (response.status <= 302 && method === "POST")) [method, body] = ["GET", undefined];
    url = next.href;
    const headers = typeof input === "string" ? init.headers : input.headers;
    response = await fetch(url, { ...init, method, headers, body });
  }
  return response;
}

/** The body as text, counted as it arrives: past `max` bytes it is cancelled and a RainbondResponseTooLargeError thrown. */
async function readBody(response: Response, max: number, info: RequestInfo, signal: AbortSignal): Promise<string> {
  const tooLarge = () => new RainbondResponseTooLargeError(info, response.status, max);
  if (Number(response.headers.get("content-length")) > max) {
    void response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (let size = 0; ;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > max || signal.aborted) {
      void reader.cancel().catch(() => {});
      throw signal.aborted ? signal.reason : tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** What a 2xx carries: the JSON body, out of the console's envelope, of the top-level type the spec declares. */
function parseData(t: Transport, req: Prepared, response: Response, text: string) {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RainbondResponseError(req.info, response.status, excerpt(text, secretsIn(t.secrets, req.body)));
  }
  const { envelope, shape } = req;
  let data = body;
  if (envelope && typeOf(body) === "an object") {
    const inner = (body as { data?: Record<string, unknown> }).data;
    if (typeOf(inner) === "an object" && Object.hasOwn(inner!, envelope)) data = inner![envelope];
  }
  const expected = shape === "array" ? "an array" : "an object";
  if (shape && typeOf(data) !== expected) {
    throw new RainbondResponseError(
      req.info,
      response.status,
      "",
      `${typeOf(data)} where the spec declares ${expected}`,
    );
  }
  return data;
}

const typeOf = (value: unknown) =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "an array"
      : `a${typeof value === "object" ? "n" : ""} ${typeof value}`;

/**
 * The error for a non-2xx answer. Its body is the parsed JSON without `error_trace` and with secrets masked (the token,
 * secret fields, and their values wherever the server echoed them), a short excerpt of a body that is not JSON, or
 * null when the body is empty.
 */
function apiError(t: Transport, req: Prepared, response: Response, text: string) {
  let error: unknown = text;
  try {
    error = JSON.parse(text);
  } catch {
    // not JSON: an excerpt of it
  }
  const ErrorClass = apiErrorFor(response.status);
  const secrets = secretsIn(t.secrets, req.body, error);
  const body =
    typeof error === "string" ? (error.trim() ? excerpt(error, secrets) : null) : redact(error ?? null, secrets);
  const requestId = response.headers.get("x-request-id") ?? undefined;
  return new ErrorClass(req.info, response.status, body, requestId, response.statusText);
}

/**
 * The wait before the next attempt: `Retry-After` when it is a plain decimal number of seconds or an HTTP date and
 * lies ahead; otherwise (absent, 0, negative, past, unparsable like `0x2`) the client's jittered exponential backoff,
 * as openai-node does, so that a console cannot make the client retry at once. Undefined: beyond retryAfterCapMs.
 */
export function retryDelay(config: RetryDelay, attempt: number, response?: Response): number | undefined {
  const header = response?.headers.get("retry-after")?.trim() ?? "";
  const ms = /^\d+(?:\.\d+)?$/.test(header)
    ? Number(header) * 1000
    : /^[A-Z][a-z]{2}/.test(header) // every HTTP date form starts with the day's name
      ? Date.parse(header) - Date.now()
      : NaN;
  if (ms > config.retryAfterCapMs) return undefined;
  if (ms > 0) return ms;
  const backoff = Math.min(config.baseMs * 2 ** attempt, config.maxMs);
  return backoff * (1 - Math.random() * 0.25);
}

function sleep(ms: number, signal: AbortSignal | undefined, info: RequestInfo): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted(info));
    const timer = setTimeout(() => {
      unfollow?.();
      resolve();
    }, ms);
    const unfollow =
      signal &&
      follow(signal, () => {
        clearTimeout(timer);
        reject(aborted(info));
      });
  });
}

/**
 * Runs `onAbort` when `signal` (not yet aborted) fires, until the returned function is called. However many calls
 * share a signal (a request-scoped signal fanned out), it carries one listener of ours, removed when the last of them
 * ends: no MaxListenersExceededWarning at the 11th call, and nothing left on the signal. Written by hand because the
 * platform's tool for this, `AbortSignal.any`, keeps a weak reference per call on a long-lived signal in Node 20 and
 * 22 (measured: 50 to 80 bytes per call that GC never returns), and a listener per call is what warns. Plain
 * EventTarget calls: it works wherever AbortSignal does (browsers, Deno, Bun, edge runtimes).
 */
function follow(signal: AbortSignal, onAbort: () => void): () => void {
  const entry = followers.get(signal) ?? listen(signal);
  entry.callbacks.add(onAbort);
  return () => {
    entry.callbacks.delete(onAbort);
    if (entry.callbacks.size > 0 || followers.get(signal) !== entry) return;
    followers.delete(signal);
    signal.removeEventListener("abort", entry.fire);
  };
}

/** The calls in flight on each caller's signal, and the one listener that tells them it fired. */
const followers = new WeakMap<AbortSignal, { callbacks: Set<() => void>; fire: () => void }>();

function listen(signal: AbortSignal) {
  const entry = {
    callbacks: new Set<() => void>(),
    fire() {
      followers.delete(signal);
      for (const callback of [...entry.callbacks]) callback();
    },
  };
  followers.set(signal, entry);
  signal.addEventListener("abort", entry.fire, { once: true });
  return entry;
}

function aborted(info: RequestInfo, cause?: unknown) {
  return new RainbondAbortError(`${named(info)} was aborted by the caller`, { cause });
}

const member = (value: unknown, name: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;

function causeCode(err: unknown): string | undefined {
  const code = member(member(err, "cause"), "code");
  return typeof code === "string" ? code : undefined;
}

/** Connection refused: the request provably never left, so even a POST may be sent again. */
function refused(err: unknown) {
  return causeCode(err) === "ECONNREFUSED";
}

/** A thrown value's text, whatever was thrown (a string, an object whose toString throws). */
function textOf(thrown: unknown): string {
  try {
    return thrown instanceof Error ? thrown.message : String(thrown);
  } catch {
    return "an unprintable value";
  }
}

/** Why no answer came, e.g. `fetch failed (ECONNREFUSED)`: the token masked, cut short, on one line. */
function connectionReason(lost: unknown, secrets: readonly string[]) {
  const code = causeCode(lost);
  return oneLine(maskText(code ? `${textOf(lost)} (${code})` : textOf(lost), secrets));
}

/**
 * What fetch threw, safe to keep as a `cause`: a new Error with its name, its text masked and cut, its `code`, and
 * its own cause likewise (3 levels), so that util.inspect(err) cannot show a token a custom fetch put in its errors.
 */
function sanitized(thrown: unknown, secrets: readonly string[], depth = 0): Error {
  const copy = new Error(oneLine(maskText(textOf(thrown), secrets)));
  const name = member(thrown, "name");
  const code = member(thrown, "code");
  const cause = member(thrown, "cause");
  if (typeof name === "string") copy.name = oneLine(maskText(name, secrets), 60);
  if (typeof code === "string") Object.assign(copy, { code: oneLine(maskText(code, secrets), 60) });
  if (cause !== undefined && depth < 2) copy.cause = sanitized(cause, secrets, depth + 1);
  return copy;
}
