// What the client logs of a request: each request, masked, at `debug`; each attempt's outcome, with the time it took,
// at `info`; each retry at `warn`. A disabled level costs a call nothing.
import { MASK, redact } from "../../core/redact.js";
import type { Transport } from "../config.js";
import type { Outgoing } from "./outgoing.js";

/** Logs `req` at `debug` (its token and secret fields masked); returns what logs the attempt's outcome at `info`. */
export function logAttempt(t: Transport, { info, body }: Outgoing): (outcome: string | number, why?: string) => void {
  const { method, path } = info;
  t.log.debug?.(`→ ${method} ${path}`, { headers: { Authorization: MASK }, body: redact(body, t.secrets) });
  const started = t.log.info && Date.now(); // the time an attempt took is logged at `info` only
  return (outcome, why = "") =>
    t.log.info?.(`${method} ${path} → ${outcome} in ${Date.now() - (started || 0)} ms${why}`);
}

/** Logs at `warn` that `failure` is followed by retry `attempt` + 1 of `retries`, after `delay` ms. */
export const logRetry = (t: Transport, failure: Error, attempt: number, retries: number, delay: number) =>
  t.log.warn?.(`${failure.message}; retry ${attempt + 1} of ${retries} in ${Math.round(delay)} ms`);
