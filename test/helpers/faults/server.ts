// The tests' one loopback HTTP server (node:http, a free port on 127.0.0.1): it records every request, answers like the
// live Rainbond console (see spec/source/live-console-behaviour.md) and fails on purpose. Each test scripts the answers
// of a method+path; a request nothing is scripted for gets what the server's `reply` function makes of it (a test of
// query encoding or of an envelope needs no more). The server counts the requests it sees per method+path, and can
// reset a connection, hang, trickle a body, send HTML or invalid JSON, and Retry-After as seconds or as an HTTP date.
// close() also ends the sockets of hanging answers. `useFaultServer()` is a test file's setup: one server for the file,
// its scripts and records forgotten after each test, closed after all.
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Readable, pipeline } from "node:stream";
import { inspect } from "node:util";
import { createGzip } from "node:zlib";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { Logger } from "../../../src/index.js";

/** A request as the server saw it. */
export interface SeenRequest {
  method: string;
  /** The request target as sent: path and query string. */
  url: string;
  /** The URL's path, as sent (still percent-encoded). */
  pathname: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when it arrived: the fake clock's when the test fakes Date, so a test can read exact delays. */
  at: number;
}

/** One scripted answer. */
export type Answer =
  | { kind: "json"; status: number; body: unknown; headers?: Record<string, string>; statusText?: string }
  | {
      kind: "text";
      status: number;
      body: string;
      contentType: string;
      headers?: Record<string, string>;
      statusText?: string;
    }
  /** Headers, then `chunks` written one every `intervalMs`: a short timeoutMs fires during the body. */
  | { kind: "slow"; status: number; chunks: string[]; intervalMs: number }
  /** Destroys the socket as soon as the request arrived: the client sees a reset connection. */
  | { kind: "reset" }
  /** Never answers (the socket stays open until the client gives up or the server closes). */
  | { kind: "hang" }
  /**
   * `bytes` bytes of `fill` (endless when undefined), written as fast as the client reads them; gzip-compressed on the
   * fly when `gzip` (a gzip bomb: megabytes of zeros are a few KB on the wire). The bytes written (before compression)
   * are counted in `streamedBytes`.
   */
  | { kind: "stream"; status: number; fill: string; bytes?: number; gzip?: boolean; contentType?: string }
  /** A redirect to `location`. */
  | { kind: "redirect"; status: number; location: string }
  /** An answer made from the request (to echo what the client sent). */
  | { kind: "echo"; make: (seen: SeenRequest) => Answer };

export const answer = {
  json: (status: number, body: unknown, headers?: Record<string, string>): Answer => ({
    kind: "json",
    status,
    body,
    headers,
  }),
  text: (status: number, body: string, contentType = "text/plain", headers?: Record<string, string>): Answer => ({
    kind: "text",
    status,
    body,
    contentType,
    headers,
  }),
  html: (status: number, body: string, headers?: Record<string, string>): Answer => ({
    kind: "text",
    status,
    body,
    contentType: "text/html; charset=utf-8",
    headers,
  }),
  slow: (status: number, chunks: string[], intervalMs: number): Answer => ({
    kind: "slow",
    status,
    chunks,
    intervalMs,
  }),
  reset: (): Answer => ({ kind: "reset" }),
  hang: (): Answer => ({ kind: "hang" }),
  stream: (status: number, fill: string, bytes?: number, gzip = false): Answer => ({
    kind: "stream",
    status,
    fill,
    bytes,
    gzip,
  }),
  redirect: (status: number, location: string): Answer => ({ kind: "redirect", status, location }),
  echo: (make: (seen: SeenRequest) => Answer): Answer => ({ kind: "echo", make }),
};

/** What a `reply` function answers: `body` is sent as JSON unless it is a string (sent as it is); status 200 unless said. */
export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Makes the answer to a request nothing is scripted for. */
export type ReplyFor = (request: SeenRequest) => Reply | Promise<Reply>;

const nothingScripted: ReplyFor = (seen) => ({
  status: 599,
  body: { msg: `fault server: nothing scripted for ${seen.method} ${seen.pathname}` },
});

/** The HTML page an nginx in front of the console answers when the console is down. */
export const NGINX_502 = `<html>
<head><title>502 Bad Gateway</title><style>body { font-family: sans-serif; }</style></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx/1.25.3</center>
</body>
</html>`;

export interface FaultServer {
  /** The origin to give the client as `baseUrl`. */
  readonly url: string;
  /** Every request seen, in order. */
  readonly requests: readonly SeenRequest[];
  /** Scripts the answers to `method path`: each request takes the next answer; the last one repeats. */
  script(method: string, path: string, ...answers: Answer[]): void;
  /** How many requests reached `method path`. */
  count(method: string, path: string): number;
  /** Resolves when `method path` has seen `n` requests in all. */
  waitFor(method: string, path: string, n: number): Promise<void>;
  /** How many body chunks a slow answer wrote before its socket closed, per request. */
  readonly slowChunksWritten: number[];
  /** How many bytes (before compression) a stream answer wrote before its socket closed, per request. */
  readonly streamedBytes: number[];
  /** Forgets the scripts and the counts. */
  reset(): void;
  close(): Promise<void>;
}

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

export async function startFaultServer(reply: ReplyFor = nothingScripted): Promise<FaultServer> {
  const scripts = new Map<string, Answer[]>();
  const counts = new Map<string, number>();
  const waiters = new Set<{ key: string; n: number; resolve: () => void }>();
  const requests: SeenRequest[] = [];
  const slowChunksWritten: number[] = [];
  const streamedBytes: number[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  /** Bumped by reset(): a slow or stream answer of an earlier test that is still writing stops, and counts nothing. */
  let generation = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const seen: SeenRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        pathname: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      requests.push(seen);
      const k = key(seen.method, seen.pathname);
      const n = (counts.get(k) ?? 0) + 1;
      counts.set(k, n);
      for (const waiter of waiters) {
        if (waiter.key === k && n >= waiter.n) {
          waiters.delete(waiter);
          waiter.resolve();
        }
      }
      const script = scripts.get(k);
      const next = script?.length ? (script.length > 1 ? script.shift()! : script[0]!) : undefined;
      if (next) return respond(next.kind === "echo" ? next.make(seen) : next, res, req.socket);
      Promise.resolve()
        .then(() => reply(seen))
        .then(
          ({ status = 200, body = null, headers }) =>
            typeof body === "string"
              ? answer.text(status, body, "application/json", headers)
              : answer.json(status, body, headers),
          (err: unknown) => answer.text(500, `fault server: ${err instanceof Error ? err.message : String(err)}`),
        )
        .then((made) => respond(made, res, req.socket));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  function respond(a: Answer, res: ServerResponse, socket: Socket) {
    switch (a.kind) {
      case "json": {
        const text = JSON.stringify(a.body) ?? "";
        res.writeHead(a.status, a.statusText, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(text),
          ...a.headers,
        });
        res.end(text);
        return;
      }
      case "text":
        res.writeHead(a.status, a.statusText, {
          "content-type": a.contentType,
          "content-length": Buffer.byteLength(a.body),
          ...a.headers,
        });
        res.end(a.body);
        return;
      case "slow": {
        const index = slowChunksWritten.push(0) - 1;
        const gen = generation;
        res.writeHead(a.status, { "content-type": "application/json" });
        res.flushHeaders();
        let i = 0;
        const timer = setInterval(() => {
          if (gen !== generation) res.destroy();
          if (res.destroyed || socket.destroyed) return stop();
          const chunk = a.chunks[i++];
          if (chunk === undefined) {
            res.end();
            return stop();
          }
          res.write(chunk);
          slowChunksWritten[index]!++;
        }, a.intervalMs);
        const stop = () => {
          clearInterval(timer);
          timers.delete(timer);
        };
        timers.add(timer);
        res.once("close", stop);
        return;
      }
      case "stream": {
        const index = streamedBytes.push(0) - 1;
        const gen = generation;
        const encoding = a.gzip ? { "content-encoding": "gzip" } : {};
        res.writeHead(a.status, { "content-type": a.contentType ?? "application/json", ...encoding });
        const chunk = Buffer.from(a.fill.repeat(Math.ceil(65_536 / a.fill.length)).slice(0, 65_536));
        const source = new Readable({
          read() {
            const left = a.bytes === undefined ? chunk.length : Math.min(chunk.length, a.bytes - streamedBytes[index]!);
            if (gen !== generation) res.destroy();
            if (left <= 0 || res.destroyed) return void this.push(null);
            streamedBytes[index]! += left;
            this.push(chunk.subarray(0, left));
          },
        });
        pipeline(a.gzip ? [source, createGzip(), res] : [source, res], () => {});
        return;
      }
      case "redirect":
        res.writeHead(a.status, { location: a.location, "content-length": 0 });
        res.end();
        return;
      case "echo":
        return;
      case "reset":
        socket.destroy();
        return;
      case "hang":
        return;
    }
  }

  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    slowChunksWritten,
    streamedBytes,
    script(method, path, ...answers) {
      scripts.set(key(method, path), answers);
    },
    count: (method, path) => counts.get(key(method, path)) ?? 0,
    waitFor(method, path, n) {
      const k = key(method, path);
      if ((counts.get(k) ?? 0) >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.add({ key: k, n, resolve }));
    },
    reset() {
      generation++;
      scripts.clear();
      counts.clear();
      requests.length = 0;
      slowChunksWritten.length = 0;
      streamedBytes.length = 0;
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      timers.clear();
      const closed = new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/**
 * A test file's server: started before its tests, its scripts, counts and records forgotten after each test, closed
 * after them all. Read its members inside tests and hooks (it is started by then).
 */
export function useFaultServer(reply?: ReplyFor): FaultServer {
  let started: FaultServer | undefined;
  const server = (): FaultServer => {
    if (!started) throw new Error("the fault server is started in beforeAll: use it inside tests and hooks");
    return started;
  };
  beforeAll(async () => {
    started = await startFaultServer(reply);
  });
  afterEach(() => started?.reset());
  afterAll(() => started?.close());
  return {
    get url() {
      return server().url;
    },
    get requests() {
      return server().requests;
    },
    get slowChunksWritten() {
      return server().slowChunksWritten;
    },
    get streamedBytes() {
      return server().streamedBytes;
    },
    script: (...args) => server().script(...args),
    count: (...args) => server().count(...args),
    waitFor: (...args) => server().waitFor(...args),
    reset: () => server().reset(),
    close: () => server().close(),
  };
}

/** A port nothing listens on (a server bound it, then closed): connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A `fetch` that counts the attempts the client makes (also those that never reach a server). */
export function countingFetch(inner: typeof fetch = fetch) {
  const calls: { method: string; url: string }[] = [];
  const wrapped: typeof fetch = (input, init) => {
    const request = input instanceof Request ? input : undefined;
    calls.push({ method: init?.method ?? request?.method ?? "GET", url: request?.url ?? String(input) });
    return inner(input, init);
  };
  return { fetch: wrapped, calls };
}

/** A logger that keeps every line, with its data printed as util.inspect would, and can wait for a line. */
export function recordingLogger() {
  const lines: string[] = [];
  const waiters = new Set<{ test: (line: string) => boolean; resolve: (line: string) => void }>();
  const record =
    (level: string) =>
    (message: string, ...data: unknown[]) => {
      const line = [`${level} ${message}`, ...data.map((d) => inspect(d, { depth: Infinity }))].join(" ");
      lines.push(line);
      for (const waiter of waiters) {
        if (waiter.test(line)) {
          waiters.delete(waiter);
          waiter.resolve(line);
        }
      }
    };
  const logger: Logger = { error: record("error"), warn: record("warn"), info: record("info"), debug: record("debug") };
  return {
    logger,
    lines,
    /** Resolves with the first line (already logged or to come) that passes `test`. */
    waitForLine(test: (line: string) => boolean): Promise<string> {
      const found = lines.find(test);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiters.add({ test, resolve }));
    },
  };
}

/** Every way an error can be shown: its message, String(), util.inspect (deep, hidden members too) and JSON. */
export function renderings(err: unknown): string[] {
  return [
    err instanceof Error ? err.message : "",
    String(err),
    inspect(err, { depth: Infinity, showHidden: true }),
    JSON.stringify(err) ?? "",
  ];
}
