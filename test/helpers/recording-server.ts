// A tiny HTTP server on 127.0.0.1 (a free port) that records every request it gets and answers with what the test's
// `answer` function returns. Used by the tests of query encoding and of the console's envelope; the fault servers of
// test/faults/ are separate.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  /** The request target as sent: path and query string. */
  url: string;
  pathname: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The raw request body ("" when none). */
  body: string;
}

/** What the server answers: `body` is sent as JSON unless it is a string. */
export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RecordingServer {
  /** The origin, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** Every request so far, in arrival order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startRecordingServer(
  answer: (request: RecordedRequest) => Reply | Promise<Reply> = () => ({ body: {} }),
): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const target = new URL(req.url ?? "/", "http://127.0.0.1");
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      url: req.url ?? "",
      pathname: target.pathname,
      query: target.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    requests.push(recorded);
    try {
      const reply = await answer(recorded);
      const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? null);
      res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
      res.end(text);
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(`recording server: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
