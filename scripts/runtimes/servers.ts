// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The matrix's own loopback servers: one that takes requests and never answers (for the timeout and abort checks), and
// one that serves files to Chromium. `close` ends their open connections too.
import { createServer } from "node:http";

/** Listens on a free loopback port; resolves with the server's URL and a close that ends every connection. */
export async function listen(handler) {
  const server = createServer(handler);
  await new Promise((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A server that never finishes an answer, for the timeout and abort checks; `requests` counts the requests it got.
 * Under /headers-first/ it sends the status and headers of an answer (and answers CORS preflights, for the browser)
 * but never its body: a caller then knows its request arrived and is in flight. Anywhere else it sends nothing at all.
 */
export async function startHangingServer() {
  const state = { requests: 0 };
  const cors = {
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "authorization, content-type, prefer",
    "access-control-allow-methods": "GET, POST, PUT, DELETE",
  };
  const server = await listen((req, res) => {
    req.resume();
    const headersFirst = req.url?.startsWith("/headers-first/");
    if (headersFirst && req.method === "OPTIONS") {
      res.writeHead(204, cors).end();
      return;
    }
    state.requests++;
    if (headersFirst) res.writeHead(200, { ...cors, "content-type": "application/json" }).flushHeaders();
  });
  return Object.assign(state, server);
}

/** Serves what `lookup` finds for a URL path: `{ type, body }`, or undefined for a 404. */
export function startFileServer(lookup) {
  return listen(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://127.0.0.1").pathname);
    const file = await lookup(path);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": file.type, "cache-control": "no-store" }).end(file.body);
  });
}
