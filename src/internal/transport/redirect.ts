// The redirect rule: redirects within the console's origin are followed, one to another origin is refused, so that
// no token, header or body goes there.
import { RainbondRedirectError, RainbondResponseError, type RequestInfo } from "../../core/errors.js";
import type { Transport } from "../config.js";

/**
 * `fetch`, following redirects within the console's origin (as fetch would: 303, and 301/302 after a POST, become a
 * GET without body; at most 20), and refusing one to another origin with a RainbondRedirectError. A browser hides
 * where a redirect leads (`opaqueredirect`): refused too.
 */
export async function fetchFollowing(t: Transport, info: RequestInfo, input: Request | string, init: RequestInit) {
  const { fetch } = t; // called on its own: a browser's fetch refuses to run as a method of another object
  const request = typeof input === "string" ? undefined : input;
  let response = await fetch(input, request ? { signal: init.signal, redirect: "manual" } : init);
  let [url, method, body] = [request?.url ?? (input as string), request?.method ?? init.method, init.body];
  for (let hops = 0; ; hops++) {
    const { status, headers, type } = response;
    const location = headers.get("location");
    // a redirect without a Location is judged as any other answer
    if (type !== "opaqueredirect" && (!/^30[12378]$/.test(String(status)) || location === null)) break;
    const next = location === null ? undefined : new URL(location, url);
    void response.body?.cancel().catch(() => {});
    if (next?.origin !== new URL(url).origin) {
      throw new RainbondRedirectError(info, status, next?.origin ?? "a place the browser does not say");
    }
    if (hops >= 20) throw new RainbondResponseError(info, status, "", "redirect count exceeded (20 redirects)");
    if (status === 303 || (status <= 302 && method === "POST")) [method, body] = ["GET", undefined];
    url = next!.href;
    response = await fetch(url, { ...init, method, headers: request?.headers ?? init.headers, body });
  }
  return response;
}
