// Sends one operation: each attempt raced against its deadline and the caller's signal, retries with backoff where a
// replay is safe, redirects within the console's origin, a capped body, and the answer as data or a typed error.
import type { MiddlewareCallbackParams } from "openapi-fetch";
import * as E from "./errors.js";
import type { Transport } from "./options.js";
import type { prepare } from "./prepare.js";
import { MASK, excerpt, maskText, oneLine, redact, secretsIn } from "./redact.js";
import { kindOf } from "./validate.js";

/** Options of every call, given as the last argument of any method (and as defaults on the client). */
export interface CallOptions {
  /** Time allowed to each attempt, middleware, redirects and body included, in ms; it then settles whatever fetch does. Default 30,000. */
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

/** A request that passed its input checks (prepare.ts), and the client's checked options (options.ts). */
type Prepared = ReturnType<typeof prepare>;

/** The data of a call, and the Response it came from. */
export interface WithResponse<T> {
  data: T;
  response: Response;
}

const TIMEOUT = Symbol("timeout");
/** What fetch (or reading the body) failed with: the only source of a RainbondConnectionError. */
class Lost {
  constructor(readonly error: unknown) {}
}

/** Sends a request; logs each retry at `warn`, each attempt's outcome at `info`, each request (masked) at `debug`. */
export async function send(t: Transport, req: Prepared, call: CallOptions = {}): Promise<WithResponse<unknown>> {
  const { info } = req;
  const { retries = t.retries, timeoutMs = t.timeoutMs, signal } = call;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw aborted(info, signal.reason);
    const started = t.log.info && Date.now(); // the time an attempt took is logged at `info` only
    const said = (what: string) => `${info.method} ${info.path} → ${what} in ${Date.now() - (started || 0)} ms`;
    t.log.debug?.(`→ ${info.method} ${info.path}`, {
      headers: { Authorization: MASK },
      body: redact(req.body, t.secrets),
    });
    // the attempt settles at its deadline or on the caller's signal, whether or not fetch listens to its own
    // (not through a listener on controller.signal: the soak test's heap grows with one)
    const controller = new AbortController();
    let clear = () => {};
    let outcome: [Response, string] | Lost;
    try {
      outcome = await new Promise((resolve, reject) => {
        clear = deadline(timeoutMs, signal, (reason) => (controller.abort(reason), reject(reason)));
        exchange(t, req, controller.signal).then(resolve, reject); // settled first, or a failure no one hears
      });
    } catch (err) {
      if (!controller.signal.aborted) throw err; // one of the client's errors, or a middleware's own
      outcome = new Lost(err);
    } finally {
      clear();
    }
    let failure: Error;
    let response: Response | undefined;
    if (outcome instanceof Lost) {
      if (signal?.aborted) throw aborted(info, signal.reason);
      const timedOut = controller.signal.reason === TIMEOUT;
      const cause = sanitized(outcome.error, t.secrets);
      const code = (cause.cause as { code?: string } | undefined)?.code; // fetch's own cause: ECONNREFUSED, ...
      const reason = timedOut ? `no answer within ${timeoutMs} ms` : cause.message + (code ? ` (${code})` : "");
      t.log.info?.(`${said("failed")}: ${reason}`);
      failure = timedOut
        ? new E.RainbondTimeoutError(info, reason)
        : new E.RainbondConnectionError(info, reason, { cause });
      // a POST is sent again only when it provably never left: the connection was refused
      if (info.method === "POST" && (timedOut || code !== "ECONNREFUSED")) throw failure;
    } else {
      const [res, text] = outcome;
      t.log.info?.(said(`${res.status}`));
      const data = answer(t, req, res, text);
      if (res.ok) return { data, response: res };
      failure = data as Error;
      if (info.method === "POST" || ![408, 429, 502, 503, 504].includes(res.status)) throw failure;
      response = res;
    }
    const delay = attempt < retries ? retryDelay(t.retryDelay, attempt, response) : undefined;
    if (delay === undefined) throw failure;
    t.log.warn?.(`${failure.message}; retry ${attempt + 1} of ${retries} in ${Math.round(delay)} ms`);
    if (signal?.aborted) throw aborted(info);
    await new Promise<void>((resolve, reject) =>
      deadline(delay, signal, (reason) => (reason === TIMEOUT ? resolve() : reject(aborted(info)))),
    );
  }
}

/** One attempt: the URL, headers and JSON body openapi-fetch would build, through the middleware if any. */
async function exchange(t: Transport, req: Prepared, signal: AbortSignal): Promise<[Response, string] | Lost> {
  let url = t.baseUrl + req.info.path;
  const { query } = req.params;
  for (const name in query) {
    const value = query[name];
    if (value != null) url += `${url.includes("?") ? "&" : "?"}${name}=${encodeURIComponent(value as string)}`;
  }
  const { json: body } = req;
  const headers = body === undefined ? t.headers : t.jsonHeaders;
  const init: RequestInit = { method: req.info.method, headers, body, signal, redirect: "manual" };
  const middleware = t.middleware.length > 0;
  let response: Response | Lost;
  try {
    response = middleware
      ? await throughMiddleware(t, req, new Request(url, init), init)
      : await fetchFollowing(t, req.info, url, init);
  } catch (error) {
    if (middleware) throw error; // a middleware's own (what fetch threw, it saw as a Lost)
    response = lost(error);
  }
  if (response instanceof Lost) return response;
  // the body within maxResponseBytes: a declared length within it is read at once (HTTP framing bounds it), an encoded
  // or undeclared body counted as it comes; past it, cancelled with a RainbondResponseTooLargeError
  const max = t.maxResponseBytes;
  const declared = Number(response.headers.get("content-length") ?? NaN);
  try {
    const text =
      declared <= max && !response.headers.has("content-encoding")
        ? await response.text()
        : await readCounted(response, declared, max, signal);
    // over the cap all the same: a Response made by a custom fetch may declare any length
    if (text.length > max) throw TOO_LARGE;
    return [response, text];
  } catch (error) {
    return lost(error === TOO_LARGE ? new E.RainbondResponseTooLargeError(req.info, response.status, max) : error);
  }
}

/** What fetch (or reading the body) failed with, as a Lost; the client's own errors (a refused redirect) are thrown. */
const lost = (error: unknown) => {
  if (error instanceof E.RainbondError) throw error;
  return new Lost(error);
};

/**
 * The attempt as openapi-fetch runs middleware: each onRequest may replace the Request or answer it; then each onError
 * (which may answer or replace the error) or onResponse (which may replace the Response), in reverse order.
 */
async function throughMiddleware(t: Transport, req: Prepared, request: Request, init: RequestInit) {
  const options = { baseUrl: t.baseUrl, fetch: t.fetch, parseAs: "text" } as MiddlewareCallbackParams["options"];
  const context = { schemaPath: req.path, params: req.params, id: Math.random().toString(36).slice(2, 11), options };
  for (const m of t.middleware) {
    const result = checked("onRequest", await m.onRequest?.({ ...context, request }), Request, Response);
    if (result instanceof Response) return result;
    request = (result as Request | undefined) ?? request;
  }
  const after = [...t.middleware].reverse();
  let outcome = await fetchFollowing(t, req.info, request, init).catch(lost);
  for (const m of outcome instanceof Lost ? after : []) {
    const error = (outcome as Lost).error;
    const result = checked("onError", await m.onError?.({ ...context, request, error }), Response, Error);
    outcome = result instanceof Response ? result : result ? new Lost(result) : outcome;
    if (result instanceof Response) break;
  }
  for (const m of outcome instanceof Lost ? [] : after) {
    const response = outcome as Response;
    const result = checked("onResponse", await m.onResponse?.({ ...context, request, response }), Response);
    outcome = (result as Response | undefined) ?? response;
  }
  return outcome;
}

/** What a middleware hook returned: nothing, or an instance of one of `types` (else it throws, as openapi-fetch does). */
function checked(hook: string, result: unknown, ...types: (abstract new (...args: never[]) => unknown)[]) {
  if (result && !types.some((type) => result instanceof type)) {
    throw new Error(`${hook}: must return ${types.map((type) => `new ${type.name}()`).join(" or ")}`);
  }
  return result || undefined;
}

/**
 * fetch, following redirects within the console's origin (as fetch would: 303, and 301/302 after a POST, become a
 * GET without body; at most 20), and refusing one to another origin with a RainbondRedirectError, so that no token,
 * header or body goes there. A browser hides where a redirect leads (`opaqueredirect`): refused too.
 */
async function fetchFollowing(t: Transport, info: E.RequestInfo, input: Request | string, init: RequestInit) {
  const { fetch } = t; // called on its own: a browser's fetch refuses to run as a method of another object
  const request = typeof input === "string" ? undefined : input;
  let response = await fetch(input, request ? { signal: init.signal, redirect: "manual" } : init);
  let [url, method, body] = [request?.url ?? (input as string), request?.method ?? init.method, init.body];
  for (let hops = 0; ; hops++) {
    const { status, headers, type } = response;
    const location = headers.get("location");
    // a redirect without a Location is judged as any other answer
    if (type !== "opaqueredirect" && (![301, 302, 303, 307, 308].includes(status) || location === null)) break;
    const next = location === null ? undefined : new URL(location, url);
    void response.body?.cancel().catch(() => {});
    if (next?.origin !== new URL(url).origin) {
      throw new E.RainbondRedirectError(info, status, next?.origin ?? "a place the browser does not say");
    }
    if (hops >= 20) throw new E.RainbondResponseError(info, status, "", "redirect count exceeded (20 redirects)");
    if (status === 303 || (status <= 302 && method === "POST")) [method, body] = ["GET", undefined];
    url = next!.href;
    response = await fetch(url, { ...init, method, headers: request?.headers ?? init.headers, body });
  }
  return response;
}

/** What readCounted throws past the cap. */
const TOO_LARGE = Symbol("too large");

/** The body as text, counted as it arrives: past `max` bytes it is cancelled (TOO_LARGE). */
async function readCounted(res: Response, declared: number, max: number, signal: AbortSignal): Promise<string> {
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  for (let size = 0, text = ""; ;) {
    if (declared > max || size > max || signal.aborted) {
      void reader?.cancel().catch(() => {});
      throw signal.aborted ? signal.reason : TOO_LARGE;
    }
    const chunk = await reader?.read();
    if (!chunk?.value) return text + decoder.decode();
    size += chunk.value.byteLength;
    text += decoder.decode(chunk.value, { stream: true });
  }
}

/**
 * What an answer means: on a 2xx its JSON body, out of the console's envelope, of the top-level type the spec declares;
 * otherwise the error of its status, whose body is the parsed JSON with secrets masked and `error_trace` dropped, a
 * short excerpt of a body that is not JSON, or null when the body is empty.
 */
function answer(t: Transport, { info, body: sent, envelope, shape }: Prepared, response: Response, text: string) {
  const { status, ok } = response;
  let data: unknown = text;
  let parsed = true;
  try {
    data = JSON.parse(text);
  } catch {
    parsed = false; // an excerpt of it
  }
  if (!ok) {
    const secrets = secretsIn(t.secrets, sent, data);
    const body = typeof data !== "string" ? redact(data, secrets) : data.trim() ? excerpt(data, secrets) : null;
    // the reason phrase and x-request-id are the server's text too: a console may echo the token in them
    const header = response.headers.get("x-request-id");
    const requestId = header === null ? undefined : textOf(header, secrets, 200);
    return E.apiError(info, status, body, requestId, maskText(response.statusText, secrets));
  }
  if (shape === "none") return undefined; // the spec declares no content: whatever came is not the caller's
  if (!parsed) throw new E.RainbondResponseError(info, status, excerpt(text, secretsIn(t.secrets, sent)));
  const inner = envelope && E.isRecord(data) ? data.data : undefined;
  if (envelope && E.isRecord(inner) && Object.hasOwn(inner, envelope)) data = inner[envelope];
  if (shape && kindOf(data) !== `an ${shape}`) {
    throw new E.RainbondResponseError(info, status, "", `${kindOf(data)} where the spec declares an ${shape}`);
  }
  return data;
}

/**
 * The wait before the next attempt: `Retry-After` when it is a plain number of seconds or an HTTP date and lies a second
 * or more ahead; otherwise (absent, 0, a fraction of a second like `0.001`, negative, past, unparsable like `0x2`) the
 * jittered exponential backoff, as openai-node does, so that no console makes the client retry at once. Undefined:
 * beyond retryAfterCapMs.
 */
export function retryDelay(config: RetryDelay, attempt: number, response?: Response): number | undefined {
  const header = response?.headers.get("retry-after")?.trim() ?? "";
  const ms = /^\d+(?:\.\d+)?$/.test(header)
    ? Number(header) * 1000
    : /^[A-Z][a-z]{2}/.test(header) // every HTTP date form starts with the day's name
      ? Date.parse(header) - Date.now()
      : NaN;
  if (ms > config.retryAfterCapMs) return undefined;
  return ms >= 1000 ? ms : Math.min(config.baseMs * 2 ** attempt, config.maxMs) * (1 - Math.random() * 0.25);
}

/** Calls `end(TIMEOUT)` after `ms`, or `end(signal.reason)` when `signal` fires, once; returns what cancels both. */
function deadline(ms: number, signal: AbortSignal | undefined, end: (reason: unknown) => void): () => void {
  const timer = setTimeout(() => (unfollow?.(), end(TIMEOUT)), ms);
  const unfollow = signal && follow(signal, () => (clearTimeout(timer), end(signal.reason)));
  return () => (clearTimeout(timer), unfollow?.());
}

/** The calls in flight on each caller's signal, and the one listener that tells them it fired. */
const followers = new WeakMap<AbortSignal, { callbacks: Set<() => void>; fire: () => void }>();

/**
 * Runs `onAbort` when `signal` fires, until the returned function is called. However many calls share a signal, it
 * carries one listener of ours, removed with the last of them: no MaxListenersExceededWarning, nothing left behind.
 * (`AbortSignal.any` would keep 50 to 80 bytes per call on a long-lived signal in Node 20 and 22, never collected.)
 */
function follow(signal: AbortSignal, onAbort: () => void): () => void {
  let entry = followers.get(signal);
  if (!entry) {
    const callbacks = new Set<() => void>();
    const fire = () => (followers.delete(signal), [...callbacks].forEach((callback) => callback()));
    followers.set(signal, (entry = { callbacks, fire }));
    signal.addEventListener("abort", fire, { once: true });
  }
  const { callbacks, fire } = entry;
  callbacks.add(onAbort);
  return () => {
    callbacks.delete(onAbort);
    if (callbacks.size || followers.get(signal) !== entry) return;
    followers.delete(signal);
    signal.removeEventListener("abort", fire);
  };
}

const aborted = (info: E.RequestInfo, cause?: unknown) =>
  new E.RainbondAbortError(`${E.named(info)} was aborted by the caller`, { cause });

/** A thrown value's text, masked, cut and on one line, whatever was thrown (even an object whose toString throws). */
function textOf(thrown: unknown, secrets: readonly string[], max?: number): string {
  let text = "an unprintable value";
  try {
    text = thrown instanceof Error ? thrown.message : String(thrown);
  } catch {
    // kept as said
  }
  return oneLine(maskText(text, secrets), max);
}

/**
 * What fetch threw, safe to keep as a `cause`: a new Error with its name, text and `code` masked and cut, and its own
 * cause likewise (3 levels), so that util.inspect(err) shows no token a custom fetch put in its errors.
 */
function sanitized(thrown: unknown, secrets: readonly string[], depth = 0): Error {
  const copy = new Error(textOf(thrown, secrets));
  const { name, code, cause } = (typeof thrown === "object" && thrown ? thrown : {}) as Record<string, unknown>;
  if (typeof name === "string") copy.name = textOf(name, secrets, 60);
  if (typeof code === "string") Object.assign(copy, { code: textOf(code, secrets, 60) });
  if (cause !== undefined && depth < 2) copy.cause = sanitized(cause, secrets, depth + 1);
  return copy;
}
