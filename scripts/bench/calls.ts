// Per-call overhead (docs/performance.md): a (fetch), t (fetch with a per-attempt timeout: the floor), b (openapi-fetch)
// and c (the client) call a local server in turn, then with fetch stubbed. Server and contenders each run in a process
// of their own: b and c share openapi-fetch, whose JIT state in one process would serve both contenders' shapes.
import { fork } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { text } from "node:stream/consumers";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { callMethod, exampleArgs, readMethods } from "../lib/methods.ts";
import { TSX_ARGS } from "../lib/script.ts";
import { isObject, readSpec, type Json } from "../lib/spec.ts";
import { mapValues, rotation, summarize, tracked } from "./run.ts";

const IDS = ["a", "t", "b", "c"] as const;
const KINDS = ["get", "post"] as const;
type Kind = (typeof KINDS)[number];
type PerKind<T> = Record<Kind, T>;
type Samples = Record<string, PerKind<number[]>>;
const perKind = <T>(f: (kind: Kind) => T): PerKind<T> => ({ get: f("get"), post: f("post") });

const CALLED = { get: "components.get", post: "ports.add" };
const methods = perKind((kind) => readMethods().find((m) => m.name === CALLED[kind])!);
const templates = perKind((kind) => methods[kind].http.split(" ")[1]!);
const scope = methods.get.args.find((arg) => arg.kind === "scope")!.example as Record<string, unknown>;
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const params = { path: Object.fromEntries(Object.entries(scope).map(([name, v]) => [snake(name), v])) };
const paths = perKind((kind) => templates[kind].replace(/\{(\w+)\}/g, (_, name: string) => `${params.path[name]}`));
const at = (node: Json | undefined, key: string) => (isObject(node) ? node[key] : undefined);
const example = (kind: Kind, ...where: string[]) =>
  [templates[kind], kind, ...where, "content", "application/json", "example"].reduce(at, readSpec().paths);
/** The server's answers (the component record, a Port) and the POST body (AddPortBody takes the port as a string). */
const answers = perKind((kind) => JSON.stringify(example(kind, "responses", "200")));
const portRequest = example("post", "requestBody");
const request = JSON.stringify(portRequest);
const token = "t";

function serve() {
  const counts = { get: 0, post: 0, bad: 0 };
  const server = createServer(async (req, res) => {
    const body = await text(req);
    const json = req.headers["content-type"] === "application/json";
    const kind = req.method === "GET" ? "get" : req.method === "POST" && json && body === request ? "post" : "bad";
    const ok = kind !== "bad" && req.headers.authorization === token && req.url === paths[kind];
    counts[ok ? kind : "bad"]++;
    const answer = ok ? answers[kind] : `{"msg":"unexpected ${req.method} ${req.url}"}`;
    const headers = { "content-type": "application/json", "content-length": Buffer.byteLength(answer) };
    res.writeHead(ok ? 200 : 400, headers).end(answer);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => process.send!({ port: (server.address() as AddressInfo).port }));
  process.on("message", () => process.send!({ counts }));
  process.on("disconnect", () => server.close(() => process.exit(0)));
}

/** A fetch that answers at once, as the server would. */
const stubFetch = async (input: string | URL | Request, init?: RequestInit) => {
  const post = (init?.method ?? (input instanceof Request ? input.method : "GET")) === "POST";
  return new Response(answers[post ? "post" : "get"], { headers: { "content-type": "application/json" } });
};

type Call = () => PromiseLike<unknown>;
type Raw = (path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

async function contender({ id, baseUrl, client, stub }: Start): Promise<PerKind<Call>> {
  const fetch = stub ? stubFetch : globalThis.fetch;
  const fail = (status: number) => Promise.reject(new Error(`contender ${id}: HTTP ${status}`));
  if (id === "a" || id === "t") {
    const ok = (res: Response) => (res.ok ? res.json() : fail(res.status));
    const url = perKind((kind) => `${baseUrl}${paths[kind]}`);
    const plain = {
      get: async (signal?: AbortSignal) => ok(await fetch(url.get, { headers: { Authorization: token }, signal })),
      post: async (signal?: AbortSignal) => {
        const headers = { Authorization: token, "Content-Type": "application/json" };
        return ok(await fetch(url.post, { method: "POST", headers, body: JSON.stringify(portRequest), signal }));
      },
    };
    // what a per-attempt timeout costs any client: an AbortController and a timer per call, fetch following its signal
    const withTimeout = (call: (signal: AbortSignal) => Promise<unknown>) => async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 30_000);
      return call(controller.signal).finally(() => clearTimeout(timer));
    };
    return id === "a" ? plain : perKind((kind) => withTimeout(plain[kind]));
  }
  if (id === "b") {
    const { default: createClient } = await import("openapi-fetch");
    const raw = createClient({ baseUrl, headers: { Authorization: token }, fetch }) as unknown as Record<string, Raw>;
    const body = { get: undefined, post: portRequest };
    return perKind((kind) => async () => {
      const { data, error, response } = await raw[kind.toUpperCase()]!(templates[kind], { params, body: body[kind] });
      return error === undefined ? data : fail(response.status);
    });
  }
  const { createRainbondClient } = (await import(pathToFileURL(client).href)) as typeof import("../../src/index.js");
  const rainbond = createRainbondClient({ baseUrl, token, logLevel: "off", fetch });
  const args = perKind((kind) => exampleArgs(methods[kind]));
  return perKind((kind) => () => callMethod(rainbond, methods[kind], args[kind]));
}

/** `calls` sequential calls: wall and CPU (this process's user + system) µs per call. */
async function loop(call: Call, calls: number) {
  const [cpu, start] = [process.cpuUsage(), performance.now()];
  for (let i = 0; i < calls; i++) await call();
  const [wall, used] = [((performance.now() - start) * 1000) / calls, process.cpuUsage(cpu)];
  return { wall, cpu: (used.user + used.system) / calls };
}

type Start = { op: "start"; id: (typeof IDS)[number]; baseUrl: string; client: string; warmup: number; stub: boolean };
type Run = { op: "run"; kind: Kind; calls: number };

function contenderProcess() {
  let calls: PerKind<Call>;
  process.on("message", async (msg: Start | Run) => {
    try {
      if (msg.op === "run") {
        globalThis.gc?.();
        return process.send!(await loop(calls[msg.kind], msg.calls));
      }
      calls = await contender(msg);
      for (const kind of KINDS) {
        const answer = JSON.stringify(await calls[kind]());
        if (answer !== answers[kind]) throw new Error(`contender ${msg.id} answered ${kind} with ${answer}`);
        await loop(calls[kind], msg.warmup);
      }
      process.send!({});
    } catch (err) {
      process.send!({ error: err instanceof Error ? err.stack : String(err) });
    }
  });
  process.on("disconnect", () => process.exit(0));
  process.send!({});
}

/** This file in a child process in `mode`; `ask` sends a message (if any) and waits for the reply (the first: ready). */
function child(mode: string, execArgv: string[] = []) {
  const proc = tracked(fork(fileURLToPath(import.meta.url), [mode], { execArgv: [...TSX_ARGS, ...execArgv] }));
  const exited = once(proc, "exit").then(([code]) => Promise.reject(new Error(`bench ${mode}: exit code ${code}`)));
  exited.catch(() => {}); // raced below
  const ask = async <T>(message?: Start | Run | "counts"): Promise<T> => {
    if (message) proc.send(message);
    const [reply] = await Promise.race([once(proc, "message"), exited]);
    if (reply.error) throw new Error(reply.error);
    return reply;
  };
  return { ask, stop: () => (proc.connected && proc.disconnect(), exited.catch(() => {})) };
}

async function measure({ rounds, calls, ...start }: CallsOptions & { baseUrl: string; stub: boolean }) {
  const procs = IDS.map(() => child("--contender", ["--expose-gc"]));
  try {
    await Promise.all(procs.map((p) => p.ask())); // started, at once
    for (const [i, id] of IDS.entries()) await procs[i]!.ask({ op: "start", id, ...start });
    const samples = () => Object.fromEntries(IDS.map((id) => [id, perKind((): number[] => [])]));
    const [wall, cpu] = [samples(), samples()];
    for (let round = 0; round < rounds; round++) {
      for (const kind of KINDS) {
        for (const i of rotation([...IDS.keys()], round)) {
          const run = await procs[i]!.ask<{ wall: number; cpu: number }>({ op: "run", kind, calls });
          wall[IDS[i]!]![kind].push(run.wall);
          cpu[IDS[i]!]![kind].push(run.cpu);
        }
      }
    }
    return { wall, cpu };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
  }
}

const byId = (data: Samples) => mapValues(data, (s) => perKind((kind) => summarize(s[kind])));
/** For each pair x/y, x/y per round (x-y with `difference`), summarized, for GET, POST and both together. */
const paired = (data: Samples, difference = false) =>
  Object.fromEntries(
    ["t/a", "b/a", "c/b", "c/a", "c/t"].map((pair) => {
      const [x, y, op] = [data[pair[0]!]!, data[pair[2]!]!, (a: number, b: number) => (difference ? a - b : a / b)];
      const all = summarize(x.get.map((v, i) => op(v + x.post[i]!, y.get[i]! + y.post[i]!)));
      return [pair, { ...perKind((kind) => summarize(x[kind].map((v, i) => op(v, y[kind][i]!)))), all }];
    }),
  );

/** `client`: the module contender c imports, src/index.ts bundled for Node (bundleClientForNode). */
type CallsOptions = Record<"rounds" | "calls" | "warmup" | "stubRounds" | "stubCalls", number> & { client: string };

/** The figures, and `added`: what the first contender of a pair adds over the second with fetch stubbed, µs per call. */
export async function benchCalls(o: CallsOptions) {
  const server = child("--server");
  let network;
  try {
    const { port } = await server.ask<{ port: number }>();
    network = await measure({ ...o, baseUrl: `http://127.0.0.1:${port}`, stub: false });
    // every contender made the same calls, all as the server expects
    const n = IDS.length * (o.rounds * o.calls + o.warmup + 1);
    const saw = JSON.stringify(await server.ask("counts"));
    const expected = JSON.stringify({ counts: { get: n, post: n, bad: 0 } });
    if (saw !== expected) throw new Error(`the server saw ${saw}, expected ${expected}`);
  } finally {
    await server.stop();
  }
  const stubbed = await measure({ ...o, rounds: o.stubRounds, calls: o.stubCalls, baseUrl: "http://x", stub: true });
  const [{ wall, cpu }, stub] = [network, { wall: byId(stubbed.wall), cpu: byId(stubbed.cpu) }];
  const figures = { wall: byId(wall), cpu: byId(cpu), ratios: paired(wall), cpuRatios: paired(cpu) };
  return { ...figures, stubbed: { ...stub, added: paired(stubbed.wall, true) } };
}

if (process.argv[2] === "--contender") contenderProcess();
if (process.argv[2] === "--server") serve();
