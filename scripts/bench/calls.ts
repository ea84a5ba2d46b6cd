// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Per-call overhead: the same sequential GET and POST calls to a local node:http server, made by
//   a  plain fetch with hand-written URLs
//   t  a with a per-attempt timeout (AbortController and timer), for reference: what any client's timeouts cost
//   b  bare openapi-fetch createClient<paths>() (the generated types only matter to the compiler)
//   c  the rainbond client with its defaults (retries 2, timeout 30 s), logger off, calling `components.get` and
//      `ports.add` with the spec's examples (fixtures.mjs, from generated/methods.json)
// Run as its own process (`node scripts/bench/calls.ts <options json>`), which prints its figures as JSON on
// stdout; scripts/bench.ts starts it. The server runs in a child process (see server.mjs), and so does each
// contender (this file with --contender, with --expose-gc): b and c share openapi-fetch's code, and in one process its
// JIT state would serve both contenders' object shapes, slowing each by the other's presence. The processes are driven
// one at a time, so only one contender is calling at any moment.
//
// Rounds are interleaved: each round runs GET for every contender, then POST for every contender, in an order
// rotated every round, each run after a collection of garbage; every contender makes the same number of calls. A
// round's figure is the mean time per call over its `calls` sequential calls (wall, and CPU time of the contender's
// process); the result is the median and spread over rounds, and the ratios are taken per round (paired) before
// their median, so a slow spell affects both sides of a ratio.
import { TSX_ARGS } from "../lib/script.ts";
import { fork } from "node:child_process";
import { once } from "node:events";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { callMethod, exampleArgs } from "../lib/methods.ts";
import { bodies, calls, paths, portRequest, scope, templates, token } from "./fixtures.ts";
import { rotation, summarize } from "./stats.ts";

const here = dirname(fileURLToPath(import.meta.url));

async function startServer() {
  const child = fork(join(here, "server.ts"), [], {
    execArgv: TSX_ARGS,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const [message] = await Promise.race([
    once(child, "message"),
    once(child, "exit").then(([code]) => Promise.reject(new Error(`bench server exited with code ${code}`))),
  ]);
  const counts = async () => {
    child.send("counts");
    const [reply] = await once(child, "message");
    return reply.counts;
  };
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = once(child, "exit");
    child.disconnect();
    await exited;
  };
  return { url: `http://127.0.0.1:${message.port}`, counts, stop };
}

/**
 * A stand-in for fetch that answers at once, without a network: the same answers as the server, as fresh Responses.
 * With it, what is left of a call's time is what the contender itself does (building the request, reading the
 * answer), which a busy machine's network noise no longer hides.
 */
const getAnswer = JSON.stringify(bodies.component);
const postAnswer = JSON.stringify(bodies.port);
async function stubFetch(input, init) {
  const method = init?.method ?? (typeof input === "object" ? input.method : "GET");
  return new Response(method === "POST" ? postAnswer : getAnswer, {
    status: 200,
    headers: { "content-type": "application/json" },
  });
}

/** The two calls of contender `id` ("a", "t", "b" or "c") against `baseUrl`, through `fetch` (default: the global one). */
async function contender(id, baseUrl, client, fetch = globalThis.fetch) {
  const pathParams = {
    team_id: scope.teamId,
    region_name: scope.regionName,
    app_id: scope.appId,
    service_id: scope.serviceId,
  };
  const fail = (what, detail) => {
    throw new Error(`${what}: ${detail}`);
  };
  if (id === "a" || id === "t") {
    // `signal` is only given by t
    const plain = {
      name: "fetch",
      async get(signal) {
        const res = await fetch(`${baseUrl}${paths.get}`, { headers: { Authorization: token }, signal });
        if (!res.ok) fail("fetch GET", res.status);
        return res.json();
      },
      async post(signal) {
        const res = await fetch(`${baseUrl}${paths.post}`, {
          method: "POST",
          headers: { Authorization: token, "Content-Type": "application/json" },
          body: JSON.stringify(portRequest),
          signal,
        });
        if (!res.ok) fail("fetch POST", res.status);
        return res.json();
      },
    };
    if (id === "a") return plain;
    // what a per-attempt timeout costs any client: an AbortController and a timer per call, fetch following its signal
    const withTimeout = (call) => async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 30_000);
      try {
        return await call(controller.signal);
      } finally {
        clearTimeout(timer);
      }
    };
    return { name: "fetch with a timeout", get: withTimeout(plain.get), post: withTimeout(plain.post) };
  }
  if (id === "b") {
    const { default: createClient } = await import("openapi-fetch");
    const raw = createClient({ baseUrl, headers: { Authorization: token }, fetch });
    return {
      name: "openapi-fetch",
      async get() {
        const { data, error, response } = await raw.GET(templates.component, { params: { path: pathParams } });
        if (error !== undefined) fail("openapi-fetch GET", response.status);
        return data;
      },
      async post() {
        const { data, error, response } = await raw.POST(templates.ports, {
          params: { path: pathParams },
          body: portRequest,
        });
        if (error !== undefined) fail("openapi-fetch POST", response.status);
        return data;
      },
    };
  }
  const { createRainbondClient } = await import(pathToFileURL(client).href);
  const rainbond = createRainbondClient({ baseUrl, token, logLevel: "off", fetch });
  const [getArgs, postArgs] = [exampleArgs(calls.get), exampleArgs(calls.post)];
  return {
    name: "rainbond client",
    get: () => callMethod(rainbond, calls.get, getArgs),
    post: () => callMethod(rainbond, calls.post, postArgs),
  };
}

/** `calls` sequential calls: { wall, cpu } µs per call (cpu: this process's user + system time). */
async function loop(fn, calls) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < calls; i++) await fn();
  const wall = ((performance.now() - start) * 1000) / calls;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / calls };
}

/**
 * One contender in its own process, driven over IPC by benchCalls: its JIT state and heap are its own (the
 * contenders share openapi-fetch's code, which would otherwise see every contender's object shapes), and only one
 * contender runs at a time.
 */
function contenderProcess() {
  let c;
  process.on("message", async (msg) => {
    try {
      if (msg.op === "start") {
        c = await contender(msg.id, msg.baseUrl, msg.client, msg.stub ? stubFetch : globalThis.fetch);
        const expected = { get: JSON.stringify(bodies.component), post: JSON.stringify(bodies.port) };
        const sameAnswer = {
          get: JSON.stringify(await c.get()) === expected.get,
          post: JSON.stringify(await c.post()) === expected.post,
        };
        await loop(c.get, msg.warmup);
        await loop(c.post, msg.warmup);
        process.send({ name: c.name, sameAnswer });
      } else if (msg.op === "run") {
        globalThis.gc?.();
        process.send(await loop(c[msg.kind], msg.calls));
      }
    } catch (err) {
      process.send({ error: err.stack ?? String(err) });
    }
  });
  process.on("disconnect", () => process.exit(0));
  process.send({ ready: true });
}

function startContender() {
  const child = fork(fileURLToPath(import.meta.url), ["--contender"], {
    execArgv: [...TSX_ARGS, "--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = once(child, "exit").then(([code]) => {
    throw new Error(`a contender process exited with code ${code}`);
  });
  exited.catch(() => {}); // raced below
  const ask = async (msg) => {
    if (msg) child.send(msg);
    const [reply] = await Promise.race([once(child, "message"), exited]);
    if (reply.error) throw new Error(reply.error);
    return reply;
  };
  const stop = async () => {
    if (child.exitCode !== null || !child.connected) return;
    const exited = once(child, "exit");
    child.disconnect();
    await exited;
  };
  return { ask, stop };
}

/** Interleaved rounds over contender processes: { samples, cpuSamples, names, sameAnswer }. */
async function measure({ ids, rounds, calls, warmup, client, baseUrl, stub }) {
  const procs = {};
  try {
    for (const id of ids) {
      procs[id] = startContender();
      await procs[id].ask(); // ready
    }
    const names = {};
    const sameAnswer = {};
    for (const id of ids) {
      const started = await procs[id].ask({ op: "start", id, baseUrl, client, warmup, stub });
      names[id] = started.name;
      sameAnswer[id] = started.sameAnswer;
      if (id !== "c" && !(started.sameAnswer.get && started.sameAnswer.post)) throw new Error(`${id}: wrong answer`);
    }
    const samples = Object.fromEntries(ids.map((id) => [id, { get: [], post: [] }]));
    const cpuSamples = Object.fromEntries(ids.map((id) => [id, { get: [], post: [] }]));
    for (let round = 0; round < rounds; round++) {
      for (const kind of ["get", "post"]) {
        for (const id of rotation(ids, round)) {
          const { wall, cpu } = await procs[id].ask({ op: "run", kind, calls });
          samples[id][kind].push(wall);
          cpuSamples[id][kind].push(cpu);
        }
      }
    }
    return { samples, cpuSamples, names, sameAnswer };
  } finally {
    await Promise.all(Object.values(procs).map((p) => p.stop()));
  }
}

const ratio = (data, x, y) => {
  const out = {};
  for (const kind of ["get", "post"]) out[kind] = summarize(data[x][kind].map((v, i) => v / data[y][kind][i]));
  out.all = summarize(data[x].get.map((v, i) => (v + data[x].post[i]) / (data[y].get[i] + data[y].post[i])));
  return out;
};

/**
 * rounds, calls, warmup: over the network; stubRounds, stubCalls: with fetch stubbed (no network), where the
 * difference between contenders is what each adds per call, in µs, with little noise.
 */
export async function benchCalls({ rounds, calls, warmup, stubRounds, stubCalls, client }) {
  const ids = client ? ["a", "t", "b", "c"] : ["a", "t", "b"];
  const pairs = client ? ["t/a", "b/a", "c/b", "c/a", "c/t"] : ["t/a", "b/a"];
  const server = await startServer();
  let network;
  try {
    network = await measure({ ids, rounds, calls, warmup, client, baseUrl: server.url, stub: false });
    const counts = await server.counts();
    const expectedCalls = ids.length * (rounds * calls + warmup + 1);
    if (counts.bad !== 0 || counts.get !== expectedCalls || counts.post !== expectedCalls) {
      throw new Error(`the server saw ${JSON.stringify(counts)}, expected ${expectedCalls} GET and POST and none bad`);
    }
  } finally {
    await server.stop();
  }
  const stubbed = await measure({
    ids,
    rounds: stubRounds,
    calls: stubCalls,
    warmup,
    client,
    baseUrl: "http://127.0.0.1:9",
    stub: true,
  });

  const result = {
    server: "child process (fork), 127.0.0.1, keep-alive",
    contenderProcesses: "one child process per contender, driven in turn",
    rounds,
    callsPerRound: calls,
    callsPerContender: { get: rounds * calls, post: rounds * calls },
    warmupCalls: warmup,
    sameAnswer: network.sameAnswer,
    contenders: Object.fromEntries(
      ids.map((id) => [
        id,
        {
          name: network.names[id],
          getMicros: summarize(network.samples[id].get),
          postMicros: summarize(network.samples[id].post),
          getCpuMicros: summarize(network.cpuSamples[id].get),
          postCpuMicros: summarize(network.cpuSamples[id].post),
        },
      ]),
    ),
    ratios: {},
    cpuRatios: {},
    stubbed: {
      rounds: stubRounds,
      callsPerRound: stubCalls,
      contenders: Object.fromEntries(
        ids.map((id) => [
          id,
          { getMicros: summarize(stubbed.samples[id].get), postMicros: summarize(stubbed.samples[id].post) },
        ]),
      ),
      /** What the contender adds over the other, in µs per call (per round, then the median). */
      addedMicros: {},
    },
  };
  for (const pair of pairs) {
    const [x, y] = pair.split("/");
    result.ratios[pair] = ratio(network.samples, x, y);
    result.cpuRatios[pair] = ratio(network.cpuSamples, x, y);
    result.stubbed.addedMicros[`${x}-${y}`] = Object.fromEntries(
      ["get", "post"].map((kind) => [
        kind,
        summarize(stubbed.samples[x][kind].map((v, i) => v - stubbed.samples[y][kind][i])),
      ]),
    );
  }
  return result;
}

if (process.argv.includes("--contender")) contenderProcess();
else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = JSON.parse(process.argv[2] ?? "{}");
  benchCalls({ rounds: 20, calls: 250, warmup: 300, stubRounds: 15, stubCalls: 1000, ...options }).then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
    },
    (err) => {
      console.error(err.stack ?? err.message);
      process.exitCode = 1;
    },
  );
}
