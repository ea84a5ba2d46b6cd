// One attempt: the request sent (through the middleware, if any), redirects within the origin followed, and the
// answer's body read within maxResponseBytes. What fetch throws, or reading the body, comes back as a Lost.
import type { Transport } from "../config.js";
import { lost, read, type Exchanged } from "./body.js";
import { throughMiddleware } from "./middleware.js";
import type { Outgoing } from "./outgoing.js";
import { fetchFollowing } from "./redirect.js";
import { urlOf } from "./url.js";

/** Sends `req` once: the answer with its body, or a Lost. Throws the client's own errors and a middleware's. */
export function exchange(t: Transport, req: Outgoing, signal: AbortSignal): Promise<Exchanged> {
  const { json: body, raw } = req;
  const headers = raw?.headers ?? (body === undefined ? t.headers : t.jsonHeaders);
  const init: RequestInit = { method: req.info.method, headers, body, signal, redirect: "manual" };
  if (t.middleware.length && !raw) return throughMiddleware(t, req, init);
  return fetchFollowing(t, req.info, raw?.url ?? urlOf(t, req), init).then((r) => read(t, req, r, signal), lost);
}
