// A loopback relay between Prism and the console that keeps each answer exactly as the console sent it.
//
// Prism's proxy reads the console's answer itself: a body it cannot parse as JSON while labelled JSON (the empty body of
// some 404s, a truncated body) makes it answer its own 500 `FetchError` problem, which names neither the status nor the
// body; and what it passes on is re-serialised. The report needs the real status and body (to say "what came", and to
// judge the answers Prism cannot read), and a clear "no answer" when the console cannot be reached: this relay records
// them. Written by hand (some 40 lines over node:http and fetch): a proxy library (http-proxy) would still need hooks
// to buffer and record each body, which is all this does.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the console answered it: status, content type and body text, or why no answer came. */
export interface Exchange {
  method: string;
  /** Path and query, as sent. */
  url: string;
  status?: number;
  contentType?: string;
  body?: string;
  /** Set when no answer came: connection refused or reset, DNS, timeout. */
  error?: string;
}

export interface Recorder {
  url: string;
  /** The console's origin; may be changed between runs. */
  target: string;
  readonly exchanges: Exchange[];
  close(): Promise<void>;
}

/** Headers that belong to one connection, or that fetch sets itself (and decodes: content-encoding). */
const HOP = new Set([
  "host",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
  "accept-encoding",
  "upgrade",
  "proxy-connection",
]);

/** The request's body as text: the client sends JSON. */
async function bodyOf(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? Buffer.concat(chunks).toString("utf8") : undefined;
}

function reasonOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (err instanceof Error && err.name === "TimeoutError") return "no answer in time";
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

export async function startRecorder(target: string, timeoutMs = 30_000): Promise<Recorder> {
  const exchanges: Exchange[] = [];
  const server = createServer(async (req, res) => {
    const exchange: Exchange = { method: req.method ?? "GET", url: req.url ?? "/" };
    exchanges.push(exchange);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP.has(name) && value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    try {
      const body = await bodyOf(req);
      const answer = await fetch(recorder.target + exchange.url, {
        method: exchange.method,
        headers,
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      exchange.body = await answer.text();
      exchange.status = answer.status;
      exchange.contentType = answer.headers.get("content-type") ?? undefined;
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP.has(name)) out[name] = value;
      });
      res.writeHead(answer.status, out).end(exchange.body);
    } catch (err) {
      exchange.error = reasonOf(err);
      res.writeHead(502, { "content-type": "text/plain" }).end(`no answer from the console: ${exchange.error}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const recorder: Recorder = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    target: target.replace(/\/+$/, ""),
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return recorder;
}
