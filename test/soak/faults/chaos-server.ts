// The soak's server: a loopback node:http server that answers each request with a fault drawn from the seed, the path
// and how many times that path was asked before (see soak-plan.ts): connection resets, hangs, truncated bodies, slow
// bodies (within the timeout and far beyond it), HTML 5xx pages (500, 502, 503), bad JSON, 429 with `Retry-After: 0`, a 404, and good
// answers. It counts the requests per method and path, and close() ends whatever still hangs or trickles.
import { once } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { NGINX_502 } from "../../helpers/faults/server.js";
import { draw, pick } from "./soak-plan.js";

/** How often each answer comes, per attempt. */
const FAULTS = {
  good: 40,
  reset: 8,
  hang: 4,
  truncated: 8,
  slow: 8,
  tooSlow: 3,
  html502: 4,
  html503: 2,
  html500: 2,
  badJson: 6,
  rateLimited: 10,
  notFound: 5,
};
export type Fault = keyof typeof FAULTS;
export const FAULT_KINDS = Object.keys(FAULTS) as Fault[];

export interface ChaosServer {
  readonly url: string;
  /** How many requests reached `method path`. */
  count(method: string, path: string): number;
  /** How many times each fault was answered. */
  readonly answered: Record<string, number>;
  close(): Promise<void>;
}

/** A good answer: a region for a GET, a port in the console's envelope for the port operations. */
const goodBody = (method: string) =>
  JSON.stringify(
    method === "GET"
      ? { region_name: "rainbond", region_alias: "Rainbond" }
      : { code: 200, msg: "success", msg_show: "成功", data: { bean: { container_port: 8080 }, list: [] } },
  );

export async function startChaosServer(seed: number): Promise<ChaosServer> {
  const counts = new Map<string, number>();
  const answered: Record<string, number> = {};
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const key = `${req.method} ${new URL(req.url ?? "/", "http://127.0.0.1").pathname}`;
    const n = counts.get(key) ?? 0;
    counts.set(key, n + 1);
    const fault = pick(FAULTS, draw(seed, `${key}#${n}`));
    answered[fault] = (answered[fault] ?? 0) + 1;
    req.resume();
    req.once("end", () => respond(fault, req.method ?? "GET", res, req.socket));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  function trickle(res: ServerResponse, chunks: string[], intervalMs: number) {
    res.writeHead(200, { "content-type": "application/json" });
    res.flushHeaders();
    const timer = setInterval(() => {
      const chunk = chunks.shift();
      if (chunk === undefined || res.destroyed) {
        if (!res.destroyed) res.end();
        clearInterval(timer);
        timers.delete(timer);
      } else res.write(chunk);
    }, intervalMs);
    timers.add(timer);
  }

  function respond(fault: Fault, method: string, res: ServerResponse, socket: Socket) {
    const body = goodBody(method);
    const send = (status: number, text: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
        ...headers,
      });
      res.end(text);
    };
    switch (fault) {
      case "good":
        return send(200, body);
      case "reset":
        return socket.destroy();
      case "hang":
        return;
      case "truncated":
        // promises the whole body, sends half of it, and drops the connection
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        res.write(body.slice(0, body.length >> 1));
        return void setImmediate(() => socket.destroy());
      case "slow": // the body in 3 pieces, 20 ms apart: well within the timeout
        return trickle(res, [body.slice(0, 5), body.slice(5, 10), body.slice(10)], 20);
      case "tooSlow": // 40 pieces, 150 ms apart: 6 s, beyond the timeout and any call's budget
        return trickle(res, [...Array.from({ length: 39 }, () => " "), body], 150);
      case "html502": // an nginx page: retried for idempotent methods, as is 503; 500 is not
      case "html503":
      case "html500":
        return send(Number(fault.slice(4)), NGINX_502, { "content-type": "text/html" });
      case "badJson":
        return send(200, body.slice(0, -1));
      case "rateLimited":
        return send(429, JSON.stringify({ code: 429, msg: "too many requests" }), { "retry-after": "0" });
      case "notFound":
        return send(404, JSON.stringify({ code: 3000, msg: "region not found", msg_show: "集群不存在" }));
    }
  }

  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    count: (method, path) => counts.get(`${method} ${path}`) ?? 0,
    answered,
    async close() {
      for (const timer of timers) clearInterval(timer);
      const closed = new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
