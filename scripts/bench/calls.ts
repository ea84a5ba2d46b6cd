// Per-call overhead: the same sequential GET and POST calls to a local node:http server (the spec's examples as the
// requests and the answers), made by the contenders of NAMES. The server and each contender run in a child process of
// their own (this file with --server or --contender): b and c share openapi-fetch's code, whose JIT state in one
// process would serve both contenders' object shapes. The contenders are driven one at a time over IPC.
// Rounds are interleaved (the order rotated every round, garbage collected before each run); a round's figure is the
// mean per call over `calls` sequential calls (wall, and the contender process's CPU time), and ratios are taken per
// round before their median, so that a slow spell falls on both sides of a ratio. Then the same with fetch stubbed
// (answering at once, without a network): what each contender itself does per call, and what it adds over another.
import { fork } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { callMethod, exampleArgs, readMethods, type ClientMethod } from "../lib/methods.ts";
import { TSX_ARGS } from "../lib/script.ts";
import { isObject, readSpec, type Json } from "../lib/spec.ts";
import { children, rotation, summarize } from "./run.ts";

export const NAMES = {
  a: "a. `fetch`, hand-written URLs",
  t: "t. a with a per-attempt timeout (AbortController + timer), for reference",
  b: "b. openapi-fetch `createClient<paths>()`",
  c: 'c. this client (retries 2, timeout 30 s, `logLevel: "off"`)',
};
type Id = keyof typeof NAMES;
const KINDS = ["get", "post"] as const;
type Kind = (typeof KINDS)[number];
type PerKind<T> = Record<Kind, T>;
type Samples = Record<string, PerKind<number[]>>;

// ---- what is sent and answered: `components.get` and `ports.add` with the spec's examples ----
const methods: PerKind<ClientMethod> = {
  get: readMethods().find((m) => m.name === "components.get")!,
  post: readMethods().find((m) => m.name === "ports.add")!,
};
const token = "t";
const templates = { get: methods.get.http.split(" ")[1]!, post: methods.post.http.split(" ")[1]! };
const scope = methods.get.args.find((arg) => arg.kind === "scope")!.example as Record<string, unknown>;
const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const pathParams = Object.fromEntries([...templates.get.matchAll(/\{(\w+)\}/g)].map(([, n]) => [n, scope[camel(n!)]]));
const paths = { get: "", post: "" };
for (const kind of KINDS) paths[kind] = templates[kind].replace(/\{(\w+)\}/g, (_, n: string) => String(pathParams[n]));
const at = (node: Json | undefined, ...keys: string[]) => keys.reduce((n, k) => (isObject(n) ? n[k] : undefined), node);
const example = (kind: Kind, ...where: string[]) =>
  at(readSpec(), "paths", templates[kind], kind, ...where, "content", "application/json", "example");
/** The answers, as the server sends them: the component record (GET) and a Port (POST). */
const answers = {
  get: JSON.stringify(example("get", "responses", "200")),
  post: JSON.stringify(example("post", "responses", "200")),
};
/** The POST body on the wire: the spec's request example (AddPortBody takes the port as a string). */
const portRequest = example("post", "requestBody");

function serve() {
  const counts = { get: 0, post: 0, bad: 0 };
  const server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const json = /json/.test(req.headers["content-type"] ?? "") && /^\{.*\}$/s.test(text) ? JSON.parse(text) : {};
    const post = req.method === "POST" && json.port === "8080" && json.protocol === "http";
    const kind = req.method === "GET" ? "get" : post ? "post" : "bad";
    const ok = kind !== "bad" && req.headers.authorization === token && req.url === paths[kind];
    counts[ok ? kind : "bad"]++;
    const answer = ok ? answers[kind] : `{"msg":"unexpected ${req.method} ${req.url}"}`;
    res.writeHead(ok ? 200 : 400, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) });
    res.end(answer);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => process.send!({ port: (server.address() as AddressInfo).port }));
  process.on("message", () => process.send!({ counts }));
  process.on("disconnect", () => server.close(() => process.exit(0)));
}

/** A fetch that answers at once, as the server would: what is left of a call is what the contender itself does. */
const stubFetch = async (input: string | URL | Request, init?: RequestInit) => {
  const method = init?.method ?? (input instanceof Request ? input.method : "GET");
  return new Response(answers[method === "POST" ? "post" : "get"], { headers: { "content-type": "application/json" } });
};

type Call = () => PromiseLike<unknown>;
type Raw = (path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** The two calls of contender `id` against `baseUrl`, through `fetch`. */
async function contender(
  id: Id,
  baseUrl: string,
  client: string,
  fetch: typeof globalThis.fetch,
): Promise<PerKind<Call>> {
  const fail = (status: number) => {
    throw new Error(`contender ${id}: HTTP ${status}`);
  };
  const ok = (res: Response) => (res.ok ? res.json() : fail(res.status));
  if (id === "a" || id === "t") {
    const auth = { Authorization: token };
    const post = { method: "POST", headers: { ...auth, "Content-Type": "application/json" } };
    const plain = {
      get: async (signal?: AbortSignal) => ok(await fetch(`${baseUrl}${paths.get}`, { headers: auth, signal })),
      post: async (signal?: AbortSignal) =>
        ok(await fetch(`${baseUrl}${paths.post}`, { ...post, body: JSON.stringify(portRequest), signal })),
    };
    if (id === "a") return plain;
    // what a per-attempt timeout costs any client: an AbortController and a timer per call, fetch following its signal
    const withTimeout = (call: (signal: AbortSignal) => Promise<unknown>) => async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 30_000);
      try {
        return await call(controller.signal);
      } finally {
        clearTimeout(timer);
      }
    };
    return { get: withTimeout(plain.get), post: withTimeout(plain.post) };
  }
  if (id === "b") {
    const { default: createClient } = await import("openapi-fetch");
    const raw = createClient({ baseUrl, headers: { Authorization: token }, fetch }) as unknown as Record<
      "GET" | "POST",
      Raw
    >;
    const params = { path: pathParams };
    const data = (answer: Awaited<ReturnType<Raw>>) =>
      answer.error === undefined ? answer.data : fail(answer.response.status);
    return {
      get: async () => data(await raw.GET(templates.get, { params })),
      post: async () => data(await raw.POST(templates.post, { params, body: portRequest })),
    };
  }
  const { createRainbondClient } = (await import(pathToFileURL(client).href)) as typeof import("../../src/index.js");
  const rainbond = createRainbondClient({ baseUrl, token, logLevel: "off", fetch });
  const [getArgs, postArgs] = [exampleArgs(methods.get), exampleArgs(methods.post)];
  return {
    get: () => callMethod(rainbond, methods.get, getArgs),
    post: () => callMethod(rainbond, methods.post, postArgs),
  };
}

/** `calls` sequential calls: wall and CPU (this process's user + system) µs per call. */
async function loop(call: Call, calls: number) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < calls; i++) await call();
  const wall = ((performance.now() - start) * 1000) / calls;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / calls };
}

type Start = { op: "start"; id: Id; baseUrl: string; client: string; warmup: number; stub: boolean };
type Run = { op: "run"; kind: Kind; calls: number };

function contenderProcess() {
  let calls: PerKind<Call>;
  process.on("message", async (msg: Start | Run) => {
    try {
      if (msg.op === "run") {
        globalThis.gc?.();
        return process.send!(await loop(calls[msg.kind], msg.calls));
      }
      calls = await contender(msg.id, msg.baseUrl, msg.client, msg.stub ? stubFetch : globalThis.fetch);
      const sameAnswer = {
        get: JSON.stringify(await calls.get()) === answers.get,
        post: JSON.stringify(await calls.post()) === answers.post,
      };
      for (const kind of KINDS) await loop(calls[kind], msg.warmup);
      process.send!({ sameAnswer });
    } catch (err) {
      process.send!({ error: err instanceof Error ? err.stack : String(err) });
    }
  });
  process.on("disconnect", () => process.exit(0));
  process.send!({});
}

/** This file in a child process in `mode`; `ask` sends a message (if any) and waits for the reply. */
function child(mode: string, execArgv: string[] = []) {
  const proc = fork(fileURLToPath(import.meta.url), [mode], { execArgv: [...TSX_ARGS, ...execArgv] });
  children.add(proc);
  const exited = once(proc, "exit").then(([code]) => {
    children.delete(proc);
    throw new Error(`the bench's ${mode} process exited with code ${code}`);
  });
  exited.catch(() => {}); // raced below
  return {
    async ask<T>(message?: Start | Run | "counts"): Promise<T> {
      if (message) proc.send(message);
      const [reply] = await Promise.race([once(proc, "message"), exited]);
      if (reply.error) throw new Error(reply.error);
      return reply;
    },
    async stop() {
      if (proc.connected) proc.disconnect();
      await exited.catch(() => {});
    },
  };
}

/** Interleaved rounds over contender processes: wall and CPU µs per call, by contender and kind, round by round. */
async function measure(
  ids: Id[],
  o: { rounds: number; calls: number; warmup: number; client: string; baseUrl: string; stub: boolean },
) {
  const procs = new Map<Id, ReturnType<typeof child>>();
  try {
    for (const id of ids) {
      procs.set(id, child("--contender", ["--expose-gc"]));
      await procs.get(id)!.ask();
    }
    const sameAnswer: Record<string, PerKind<boolean>> = {};
    for (const id of ids) {
      const start: Start = { op: "start", id, baseUrl: o.baseUrl, client: o.client, warmup: o.warmup, stub: o.stub };
      sameAnswer[id] = (await procs.get(id)!.ask<{ sameAnswer: PerKind<boolean> }>(start)).sameAnswer;
      if (id !== "c" && !(sameAnswer[id].get && sameAnswer[id].post)) throw new Error(`${id}: wrong answer`);
    }
    const samples = () => Object.fromEntries(ids.map((id) => [id, { get: [], post: [] }])) as Samples;
    const [wall, cpu] = [samples(), samples()];
    for (let round = 0; round < o.rounds; round++) {
      for (const kind of KINDS) {
        for (const id of rotation(ids, round)) {
          const run = await procs.get(id)!.ask<{ wall: number; cpu: number }>({ op: "run", kind, calls: o.calls });
          wall[id]![kind].push(run.wall);
          cpu[id]![kind].push(run.cpu);
        }
      }
    }
    return { wall, cpu, sameAnswer };
  } finally {
    await Promise.all([...procs.values()].map((p) => p.stop()));
  }
}

const perKind = <T>(f: (kind: Kind) => T) => ({ get: f("get"), post: f("post") });
const byId = <T>(data: Samples, f: (s: PerKind<number[]>) => T) =>
  Object.fromEntries(Object.entries(data).map(([id, s]) => [id, f(s)]));
/** x/y per round (and x-y with `difference`), summarized, for GET, POST and both together. */
function paired(data: Samples, pair: string, difference = false) {
  const [x, y] = [data[pair[0]!]!, data[pair[2]!]!];
  const op = (a: number, b: number) => (difference ? a - b : a / b);
  const pairs = perKind((kind) => summarize(x[kind].map((v, i) => op(v, y[kind][i]!))));
  return { ...pairs, all: summarize(x.get.map((v, i) => op(v + x.post[i]!, y.get[i]! + y.post[i]!))) };
}

export interface CallsOptions {
  rounds: number;
  calls: number;
  warmup: number;
  stubRounds: number;
  stubCalls: number;
  /** The client contender c imports: src/index.ts bundled for Node (bundleClientForNode). */
  client: string;
}

export async function benchCalls(o: CallsOptions) {
  const ids: Id[] = ["a", "t", "b", "c"];
  const server = child("--server");
  let network;
  try {
    const { port } = await server.ask<{ port: number }>();
    network = await measure(ids, { ...o, baseUrl: `http://127.0.0.1:${port}`, stub: false });
    const { counts } = await server.ask<{ counts: Record<"get" | "post" | "bad", number> }>("counts");
    const expected = ids.length * (o.rounds * o.calls + o.warmup + 1);
    if (counts.bad !== 0 || counts.get !== expected || counts.post !== expected) {
      throw new Error(`the server saw ${JSON.stringify(counts)}, expected ${expected} GET and POST and none bad`);
    }
  } finally {
    await server.stop();
  }
  const stub = { ...o, rounds: o.stubRounds, calls: o.stubCalls, baseUrl: "http://127.0.0.1:9", stub: true };
  const stubbed = await measure(ids, stub);
  const pairs = ["t/a", "b/a", "c/b", "c/a", "c/t"];
  const summaries = (s: PerKind<number[]>) => perKind((kind) => summarize(s[kind]));
  return {
    rounds: o.rounds,
    callsPerRound: o.calls,
    warmupCalls: o.warmup,
    sameAnswer: network.sameAnswer,
    wall: byId(network.wall, summaries),
    cpu: byId(network.cpu, summaries),
    ratios: Object.fromEntries(pairs.map((pair) => [pair, paired(network.wall, pair)])),
    cpuRatios: Object.fromEntries(pairs.map((pair) => [pair, paired(network.cpu, pair)])),
    stubbed: {
      rounds: o.stubRounds,
      callsPerRound: o.stubCalls,
      wall: byId(stubbed.wall, summaries),
      /** What the first contender adds over the second, in µs per call (per round, then the median). */
      added: Object.fromEntries(pairs.map((pair) => [pair.replace("/", "-"), paired(stubbed.wall, pair, true)])),
    },
  };
}

if (process.argv[2] === "--contender") contenderProcess();
if (process.argv[2] === "--server") serve();
