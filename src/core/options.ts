// The options of a client (or core) and of each call, as a caller writes them; internal/config.ts checks them.
import type { Middleware } from "openapi-fetch";
import type { RetryDelay } from "./retry.js";

export interface ClientOptions {
  /** The console's origin, e.g. `https://console.example.org:7070`; the paths carry `/openapi/v1`. */
  baseUrl: string;
  /** The API token (visible ASCII), sent as the whole `Authorization` header (no `Bearer`); never logged or shown. */
  token: string;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
  /**
   * Extra headers for every request. Their values are secret, as the token is: masked wherever the client shows or
   * logs console text (a proxy's key, say, that the console echoes), whatever their names.
   */
  headers?: Record<string, string>;
  /** Default time allowed to each attempt, in ms. Default 30,000 (DEFAULT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Default number of retries, 0 to 10, where the retry policy allows them (src/core/retry.ts). Default 2. */
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
  /**
   * Middleware in openapi-fetch's shape (`{ onRequest, onResponse, onError }`), run by openapi-fetch (loaded on the
   * first call that has some) on every attempt of every method, and once on each of `client.raw`'s calls, around its
   * attempts; `client.raw.use` adds middleware to those only. What a middleware throws, or an Error its onError gives instead of fetch's, reaches the
   * caller as it is; a Response it gives is the answer.
   */
  middleware?: Middleware[];
}

/** Options of every call, given as the last argument of any method (and as defaults on the client). */
export interface CallOptions {
  /** Time allowed to each attempt, middleware, redirects and body included, in ms; it then settles whatever fetch does. Default 30,000. */
  timeoutMs?: number;
  /**
   * How many times a failed request is retried, where the retry policy allows it: a GET, PUT or DELETE when no
   * answer came or the answer was 408, 429, 502, 503 or 504; a POST, or an operation the spec marks not idempotent,
   * only when the connection was refused (it never reached the console). Default 2.
   */
  retries?: number;
  /** Cancels the call at once, also while it waits to retry. */
  signal?: AbortSignal;
}

/** How much the client logs: each level adds to the quieter ones (see ClientOptions.logLevel). */
export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

/** Where log lines go; `console` fits. */
export interface Logger {
  error(message: string, ...data: unknown[]): void;
  warn(message: string, ...data: unknown[]): void;
  info(message: string, ...data: unknown[]): void;
  debug(message: string, ...data: unknown[]): void;
}

/**
 * The bounds of an iterator (`regions.iterateForTeam`), given with its options, so that a console that never ends its
 * pages does not hold the caller: past one, RainbondIterationLimitError, after the items of the pages within it.
 */
export interface IterationLimits {
  /** The most items taken. Default 10,000. */
  maxItems?: number;
  /** The most bytes of items taken, as JSON (UTF-8). Default 67,108,864 (64 MiB). */
  maxBytes?: number;
  /**
   * The most time spent waiting for pages, in ms (the caller's own time between items does not count): no page is
   * asked for once it has passed. Default 600,000 (10 minutes).
   */
  maxMs?: number;
}
