// The retry policy, whole: which failures are retried, which requests may be sent again, how long to wait, and the
// defaults. The transport (src/internal/transport/send.ts) asks shouldRetry() and retryDelay(); the help texts and
// the MCP tools' idempotentHint are made from what this module exports (retryPolicy(), replayable()), so that no surface restates a default.

/** How long to wait between attempts. */
export interface RetryDelay {
  /** First backoff, doubled on each retry, with up to 25% jitter. Default 500 ms. */
  baseMs: number;
  /** Longest backoff. Default 8,000 ms. */
  maxMs: number;
  /** Longest `Retry-After` honoured; a longer one is not waited for: the error is thrown. Default 60,000 ms. */
  retryAfterCapMs: number;
}

/** How many times a failed request is retried by default, where the policy allows it (the option `retries`, 0 to 10). */
export const DEFAULT_RETRIES = 2;
/** The time allowed to each attempt by default, in ms (the option `timeoutMs`). */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** The backoff between attempts by default (the option `retryDelay`). */
export const DEFAULT_RETRY_DELAY: Readonly<RetryDelay> = { baseMs: 500, maxMs: 8_000, retryAfterCapMs: 60_000 };

/** The most of each backoff that jitter takes away, at random (a quarter: 500 ms waits 375 to 500 ms). */
export const JITTER = 0.25;

/**
 * The statuses that say "try again": 408 Request Timeout, 429 Too Many Requests, 502 Bad Gateway, 503 Service
 * Unavailable and 504 Gateway Timeout. Any other answer is final.
 */
export const RETRIED_STATUSES: readonly number[] = [408, 429, 502, 503, 504];

/** The methods whose request may be replayed: sending one twice does what sending it once does. */
export const REPLAYED_METHODS: readonly string[] = ["GET", "PUT", "DELETE"];

/**
 * What a request is, for the policy: its method, and `idempotent: false` where the spec says it must not be replayed
 * (an entry of the generated table is one).
 */
export interface Replayable {
  readonly method: string;
  /** The spec's `x-rainbond-idempotent: false` (a GET that changes the console): never replayed, whatever the method. */
  readonly idempotent?: false;
}

/** How an attempt failed: with an answer (its `status`), or with none (`refused`: the connection was refused). */
export interface AttemptFailure {
  readonly status?: number | undefined;
  readonly refused?: boolean | undefined;
}

/**
 * Whether a failed attempt is tried again (while retries are left): when the connection was refused, the request
 * provably never left, and sending it again replays nothing, even a POST; otherwise a request that may be replayed,
 * when no answer came (a reset, an unknown host, a timeout) or its status is one of RETRIED_STATUSES.
 */
export function shouldRetry({ method, idempotent }: Replayable, { status, refused }: AttemptFailure): boolean {
  if (refused) return true;
  const replayable = idempotent !== false && REPLAYED_METHODS.includes(method);
  return replayable && (status === undefined || RETRIED_STATUSES.includes(status));
}

/**
 * Whether a request may be replayed: sent again after it may have reached the console (as after no answer). A GET,
 * PUT or DELETE may, unless the spec marks its operation `x-rainbond-idempotent: false`; a POST (or PATCH) never is.
 */
export const replayable = (request: Replayable): boolean => shouldRetry(request, {});

/**
 * The wait before retry `attempt` + 1 (`attempt` counts from 0): `Retry-After` when it is a plain number of seconds or
 * an HTTP date and lies a second or more ahead; otherwise (absent, 0, a fraction of a second like `0.001`, negative,
 * past, unparsable like `0x2`) the jittered exponential backoff, as openai-node does, so that no console makes the
 * client retry at once. Undefined: a `Retry-After` beyond retryAfterCapMs, not waited for.
 */
export function retryDelay(config: RetryDelay, attempt: number, response?: Response): number | undefined {
  const header = response?.headers.get("retry-after")?.trim() ?? "";
  const ms = /^\d+(?:\.\d+)?$/.test(header)
    ? Number(header) * 1000
    : /^[A-Z][a-z]{2}/.test(header) // every HTTP date form starts with the day's name
      ? Date.parse(header) - Date.now()
      : NaN;
  if (ms > config.retryAfterCapMs) return undefined;
  return ms >= 1000 ? ms : Math.min(config.baseMs * 2 ** attempt, config.maxMs) * (1 - Math.random() * JITTER);
}

const seconds = (ms: number) => `${ms / 1000} s`;
const list = (items: readonly unknown[]) => `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;

/** The policy in plain words, for help texts and docs (made from the constants above). */
export function retryPolicy(): string {
  const [retries, timeoutMs, delay] = [DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, DEFAULT_RETRY_DELAY];
  return [
    `A ${list(REPLAYED_METHODS)} is retried, ${retries} times unless told otherwise, when no answer came (a reset,`,
    `an unknown host, or none within the timeout of ${seconds(timeoutMs)} per attempt) or the answer was`,
    `${list(RETRIED_STATUSES)}. A POST, or an operation the spec marks not idempotent, is sent again only when the`,
    "connection was refused: it never reached the console. Between attempts the client waits the",
    `Retry-After the console asks for, up to ${seconds(delay.retryAfterCapMs)} (a longer one is not waited for),`,
    `else ${seconds(delay.baseMs)} doubled on each retry up to ${seconds(delay.maxMs)}, less up to ${JITTER * 100}%`,
    "at random.",
  ].join(" ");
}
