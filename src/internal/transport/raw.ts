// client.raw's fetch: each Request its openapi-fetch makes is sent as a method's request is (send()), with the same
// timeout, retries, redirect rule, body cap, errors and masking. An answer comes back as a Response, whatever its
// status, as openapi-fetch expects; a non-2xx one (after any retries) with its body masked as a method's error body is.
// A request the table marks not idempotent (a GET that closes a user) is never sent again, as its method's is not.
import { RainbondApiError } from "../../core/errors.js";
import type { Transport } from "../config.js";
import { rebuilt } from "./body.js";
import type { Outgoing } from "./outgoing.js";
import { send } from "./send.js";

const NO_PARAMS = { path: {}, query: {} };

/**
 * The `fetch` of client.raw's openapi-fetch, through transport `t`; `notReplayable`, the requests (`GET /x/{id}/close`)
 * the retry policy must not send again, matched at the end of a request's path (the console may sit under a prefix).
 */
export const rawFetch = (t: Transport, notReplayable: readonly string[]) => {
  const once = notReplayable.map((request) => {
    const [method, path] = request.split(" ") as [string, string];
    return { method, path: new RegExp(`${path.replace(/\{\w+\}/g, "[^/]+")}$`) };
  });
  return async (request: Request): Promise<Response> => {
    const { method, url, headers, signal } = request;
    const json = request.body ? await request.arrayBuffer() : undefined; // sent again as is on a retry
    let body: unknown; // as JSON, for the debug log and the values of its secret fields
    try {
      body = JSON.parse(new TextDecoder().decode(json));
    } catch {
      // not JSON: no secret field to mask in an echo
    }
    const info = { operation: `raw.${method}`, method, path: new URL(url).pathname };
    const spec = once.some((r) => r.method === method && r.path.test(info.path))
      ? { ...info, idempotent: false as const }
      : info;
    const req: Outgoing = { spec, info, params: NO_PARAMS, body, json, raw: { url, headers } };
    const { data, response } = await send(t, req, { signal });
    if (!(data instanceof RainbondApiError)) return data as Response;
    return rebuilt(response, data.body === null ? "" : JSON.stringify(data.body));
  };
};
