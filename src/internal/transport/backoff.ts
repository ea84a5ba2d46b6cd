// The wait before a retry: the Retry-After the console asks for, or a jittered exponential backoff.
import type { RetryDelay } from "../../core/options.js";

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
