// Sends one request: each attempt raced against its deadline and the caller's signal, and tried again as the retry
// policy says (src/core/retry.ts), after its delay; the answer as data, or as the error of its status.
import * as E from "../../core/errors.js";
import type { CallOptions } from "../../core/options.js";
import type { WithResponse } from "../../core/promise.js";
import { retryDelay, shouldRetry } from "../../core/retry.js";
import type { Transport } from "../config.js";
import { answer } from "./answer.js";
import { Lost, type Exchanged } from "./body.js";
import { TIMEOUT, aborted, deadline } from "./deadline.js";
import { exchange } from "./exchange.js";
import { logAttempt, logRetry } from "./log.js";
import type { Outgoing } from "./outgoing.js";
import { sanitized } from "./sanitize.js";

/**
 * Sends `req`; logs each retry at `warn`, each attempt's outcome at `info`, each request (masked) at `debug`.
 * client.raw's request settles with its last answer, whatever its status: a final non-2xx's error is its data.
 */
export async function send(t: Transport, req: Outgoing, call: CallOptions = {}): Promise<WithResponse<unknown>> {
  const { info } = req;
  const { retries = t.retries, timeoutMs = t.timeoutMs, signal } = call;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw aborted(info, signal.reason);
    const outcome = logAttempt(t, req);
    // the attempt settles at its deadline or on the caller's signal, whether or not fetch listens to its own
    // (not through a listener on controller.signal: the soak test's heap grows with one)
    const controller = new AbortController();
    let clear!: () => void;
    const exchanged = await new Promise<Exchanged>((resolve, reject) => {
      clear = deadline(timeoutMs, signal, (reason) => (controller.abort(reason), reject(reason)));
      exchange(t, req, controller.signal).then(resolve, reject); // settled first, or a failure no one hears
    })
      .catch((err) => {
        if (!controller.signal.aborted) throw err; // one of the client's errors, or a middleware's own
        return new Lost(err);
      })
      .finally(() => clear());
    let failure: Error;
    let response: Response | undefined;
    let retry: boolean;
    if (exchanged instanceof Lost) {
      if (signal?.aborted) throw aborted(info, signal.reason);
      const timedOut = controller.signal.reason === TIMEOUT;
      const cause = sanitized(exchanged.error, t.secrets);
      const code = (cause.cause as { code?: string } | undefined)?.code; // fetch's own cause: ECONNREFUSED, ...
      const reason = timedOut ? `no answer within ${timeoutMs} ms` : cause.message + (code ? ` (${code})` : "");
      outcome("failed", `: ${reason}`);
      failure = timedOut
        ? new E.RainbondTimeoutError(info, reason)
        : new E.RainbondConnectionError(info, reason, { cause });
      retry = shouldRetry(req.spec, { refused: code === "ECONNREFUSED" });
    } else {
      [response] = exchanged;
      outcome(response.status);
      const data = answer(t, req, ...exchanged);
      if (response.ok) return { data, response };
      failure = data as Error;
      retry = shouldRetry(req.spec, response);
    }
    const delay = retry && attempt < retries ? retryDelay(t.retryDelay, attempt, response) : undefined;
    if (delay === undefined) {
      if (req.raw && response) return { data: failure, response };
      throw failure;
    }
    logRetry(t, failure, attempt, retries, delay);
    if (signal?.aborted) throw aborted(info);
    await new Promise<void>((resolve, reject) =>
      deadline(delay, signal, (reason) => (reason === TIMEOUT ? resolve() : reject(aborted(info)))),
    );
  }
}
