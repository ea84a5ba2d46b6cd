// Sends one operation: attempts with a per-attempt timeout, retries with backoff for what is safe to replay, the
// caller's AbortSignal, and turning the answer into data or one of the client's errors.
import type { Middleware } from "openapi-fetch";
import {
  RainbondAbortError,
  RainbondConnectionError,
  RainbondError,
  RainbondResponseError,
  RainbondTimeoutError,
  apiErrorFor,
  named,
  type RequestInfo,
} from "./errors.js";
import type { Log } from "./logger.js";
import { MASK, excerpt, maskText, redact, secretsIn } from "./redact.js";

/** Options of every call, given as the last argument of any method (and as defaults on the client). */
export interface CallOptions {
  /** Time allowed to each attempt, answer body included, in milliseconds. Default 30,000. */
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
  /** The top-level type the spec declares for a successful answer (after the envelope). */
  shape?: "array" | "object";
}

export interface Transport {
  fetch: typeof globalThis.fetch;
  baseUrl: string;
  /** The client's headers (lower-case names, the token among them). */
  headers: Record<string, string>;
  middleware: readonly Middleware[];
  timeoutMs: number;
  retries: number;
  retryDelay: RetryDelay;
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
const TIMEOUT = Symbol("timeout");

/**
 * Sends a request and returns its data and Response. What fails is thrown to the caller and not logged as well: the
 * caller decides what to show. Each retry is logged at `warn` (the default level), each attempt's outcome (a status,
 * or no answer and why) at `info`, each request (masked) at `debug`.
 */
export async function send(t: Transport, req: Prepared, options: CallOptions = {}): Promise<WithResponse<unknown>> {
  const { info } = req;
  const retries = options.retries ?? t.retries;
  const timeoutMs = options.timeoutMs ?? t.timeoutMs;
  const signal = options.signal;
  const replayable = info.method !== "POST";
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw aborted(info);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(TIMEOUT), timeoutMs);
    const unfollow = signal && follow(signal, () => controller.abort(signal.reason));
    const started = t.log.info ? Date.now() : 0;
    let retryAfter: Response | undefined;
    let failure: Error;
    try {
      t.log.debug?.(`→ ${info.method} ${info.path}`, {
        headers: { Authorization: MASK },
        body: redact(req.body, t.secrets),
      });
      const { data, error, response } = await fetchDirect(t, req, controller.signal);
      t.log.info?.(`${info.method} ${info.path} → ${response.status} in ${Date.now() - started} ms`);
      if (response.ok) return { data: parseData(t, req, response, data as string | undefined), response };
      failure = apiError(t, req, response, error);
      if (!replayable || !RETRY_STATUS.has(response.status)) throw failure;
      retryAfter = response;
    } catch (err) {
      if (signal?.aborted) throw aborted(info, err);
      // An answer came and was judged above: the timer firing meanwhile (a fetch that ignores signals) changes nothing.
      if (err instanceof RainbondError) throw err;
      const timedOut = controller.signal.reason === TIMEOUT;
      if (!timedOut && !(err instanceof Error)) throw err;
      const reason = timedOut ? `no answer within ${timeoutMs} ms` : connectionReason(t, err as Error);
      t.log.info?.(`${info.method} ${info.path} → failed in ${Date.now() - started} ms: ${reason}`);
      const ErrorClass = timedOut ? RainbondTimeoutError : RainbondConnectionError;
      failure = new ErrorClass(info, reason, { cause: err });
      if (!replayable && (timedOut || !refused(err))) throw failure;
    } finally {
      clearTimeout(timer);
      unfollow?.();
    }
    if (attempt >= retries) throw failure;
    const delay = retryDelay(t.retryDelay, attempt, retryAfter);
    if (delay === undefined) throw failure;
    t.log.warn?.(`${failure.message}; retry ${attempt + 1} of ${retries} in ${Math.round(delay)} ms`);
    await sleep(delay, signal, info);
  }
}

/** What openapi-fetch's `request` with `parseAs: "text"` resolves to. */
interface Answer {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * The request openapi-fetch would build (the same URL, query string, headers and JSON body), handed to fetch as a URL
 * and an init: no Request object is built to be copied into a second one, and no headers are merged per call.
 */
async function fetchDirect(t: Transport, req: Prepared, signal: AbortSignal): Promise<Answer> {
  let url = t.baseUrl + req.info.path;
  let sep = "?";
  for (const name in req.params.query) {
    const value = req.params.query[name];
    if (value === undefined || value === null) continue;
    url += `${sep}${name}=${encodeURIComponent(value as string)}`;
    sep = "&";
  }
  const json = req.body !== undefined;
  const { fetch } = t; // called on its own: a browser's fetch refuses to run as a method of another object
  const response = await fetch(url, {
    method: req.info.method,
    headers: json ? { ...t.headers, "content-type": "application/json" } : t.headers,
    body: json ? JSON.stringify(req.body) : undefined,
    signal,
  });
  const text = await response.text();
  if (response.ok) return { data: text, response };
  try {
    return { error: JSON.parse(text), response };
  } catch {
    return { error: text, response };
  }
}

function parseData(t: Transport, req: Prepared, response: Response, text: string | undefined) {
  let body: unknown;
  try {
    body = JSON.parse(text ?? "");
  } catch {
    throw new RainbondResponseError(req.info, response.status, excerpt(text ?? "", secretsIn(t.secrets, req.body)));
  }
  const { envelope } = req;
  if (envelope && typeof body === "object" && body !== null && !Array.isArray(body)) {
    const data = (body as { data?: Record<string, unknown> }).data;
    if (typeof data === "object" && data !== null && envelope in data) return data[envelope];
  }
  return body;
}

/**
 * The error for a non-2xx answer. Its body is the parsed JSON without `error_trace` and with secrets masked (the token,
 * secret fields, and their values wherever the server echoed them), a short excerpt of a body that is not JSON, or
 * null when the body is empty.
 */
function apiError(t: Transport, req: Prepared, response: Response, error: unknown) {
  const ErrorClass = apiErrorFor(response.status);
  const secrets = secretsIn(t.secrets, req.body, error);
  const body =
    typeof error === "string" ? (error.trim() ? excerpt(error, secrets) : null) : redact(error ?? null, secrets);
  const requestId = response.headers.get("x-request-id") ?? undefined;
  return new ErrorClass(req.info, response.status, body, requestId, response.statusText);
}

/** The wait before the next attempt: `Retry-After` (seconds or an HTTP date) when given, else jittered backoff. */
export function retryDelay(config: RetryDelay, attempt: number, response?: Response): number | undefined {
  const header = response?.headers.get("retry-after");
  if (header) {
    const seconds = Number(header);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
    if (!Number.isNaN(ms)) return ms > config.retryAfterCapMs ? undefined : Math.max(0, ms);
  }
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

function causeCode(err: unknown): string | undefined {
  const cause = (err as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === "string" ? cause.code : undefined;
}

/** Connection refused: the request provably never left, so even a POST may be sent again. */
function refused(err: unknown) {
  return causeCode(err) === "ECONNREFUSED";
}

/** Why no answer came, e.g. `fetch failed (ECONNREFUSED)`, with the token masked should a message hold it. */
function connectionReason(t: Transport, err: Error) {
  const code = causeCode(err);
  return maskText(code ? `${err.message} (${code})` : err.message, t.secrets);
}
