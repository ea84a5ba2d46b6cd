// The URL of an operation's request: the console's origin, the path as sent and the query, as openapi-fetch would
// build them (each value percent-encoded; null and undefined left out).
import type { Transport } from "../config.js";
import type { Outgoing } from "./outgoing.js";

export function urlOf(t: Transport, { info, params }: Outgoing): string {
  let url = t.baseUrl + info.path;
  for (const name in params.query) {
    const value = params.query[name];
    if (value != null) url += `${url.includes("?") ? "&" : "?"}${name}=${encodeURIComponent(value as string)}`;
  }
  return url;
}
