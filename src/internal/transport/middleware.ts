// An attempt through middleware: openapi-fetch's own client sends it, so that middleware runs as openapi-fetch runs
// it (each onRequest may replace the Request or answer it; then each onError, which may answer or replace the error,
// or onResponse, which may replace the Response, in reverse order), once per attempt. Its fetch is the client's:
// redirects within the origin only, and the body read within maxResponseBytes.
import type { Client } from "openapi-fetch";
import type { Transport } from "../config.js";
import { createClient } from "../openapi-fetch.js";
import { Lost, lost, read, rebuilt, type Exchanged } from "./body.js";
import type { Outgoing } from "./outgoing.js";
import { fetchFollowing } from "./redirect.js";

/** openapi-fetch's client of no console and no middleware: each attempt gives its own (`baseUrl`, `middleware`). */
let shared: Client<Record<string, never>> | undefined;

/**
 * Sends `req` through the client's middleware: the answer (the console's, or a middleware's own) and its body, or a
 * Lost when fetch, or reading the body, failed and no middleware answered instead. What a middleware throws, or gives
 * onError to throw instead, and the client's own errors (a refused redirect) are thrown.
 */
export async function throughMiddleware(t: Transport, req: Outgoing, init: RequestInit): Promise<Exchanged> {
  shared ??= (await createClient())();
  const failed = new Set<unknown>(); // what fetch threw, or reading the body
  const fetch = async (request: Request) => {
    const got = await fetchFollowing(t, req.info, request, init).then((r) => read(t, req, r, init.signal!), lost);
    if (got instanceof Lost) throw (failed.add(got.error), got.error);
    return rebuilt(...got);
  };
  try {
    const { response, data, error } = await shared.request(
      req.info.method as "get",
      req.spec.path as never,
      {
        baseUrl: t.baseUrl,
        headers: init.headers,
        params: req.params,
        body: req.json,
        bodySerializer: (body: unknown) => body,
        parseAs: "text",
        signal: init.signal,
        middleware: t.middleware,
        fetch,
      } as never,
    );
    // the body as openapi-fetch read it: its text, or a non-2xx one's JSON parsed (its JSON again)
    const body: unknown = response.ok ? data : error;
    return [response, typeof body == "string" ? body : (JSON.stringify(body) ?? "")];
  } catch (error) {
    if (failed.has(error)) return new Lost(error);
    throw error;
  }
}
