// The soak (`npm run soak`, not part of `npm test`): thousands of calls, many at a time, through a server that fails
// at random (chaos-server.ts), run by the client in a Node process of its own (soak-child.ts, run through tsx,
// started with --expose-gc). Every call settles within its budget as data or a RainbondError; a GET or PUT reaches
// the server at most 1 + retries times, a POST at most once (exactly once when the server answered it); no unhandled
// rejection, no process warning; the heap is flat after GC from batch to batch; and the process ends by itself once
// the work is done. A call's budget is what its timers allow plus what the same run measured a busy machine adds to
// them: the child's event loop lag, once for each timer a call waits on in turn. The faults come from a seed, the same
// every run unless SOAK_SEED says otherwise: SOAK_SEED=<n> runs (or replays) the faults of seed n, SOAK_SEED=random
// draws one to explore. The seed is in every assertion's message; the figures (time per call, lag, heap) are printed
// at the end.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TSX_ARGS } from "../../../scripts/lib/script.ts";
import { FAULT_KINDS, startChaosServer, type ChaosServer } from "./chaos-server.js";
import type { SoakReport } from "./soak-child.js";
import { SOAK, callBudgetMs } from "./soak-plan.js";

/** The seed of every run that does not set SOAK_SEED. */
const DEFAULT_SEED = 1_380_214_022;

function soakSeed(value = process.env.SOAK_SEED): number {
  if (!value) return DEFAULT_SEED;
  if (value === "random") return Math.floor(Math.random() * 2 ** 31);
  if (!/^\d+$/.test(value)) throw new Error(`SOAK_SEED is ${JSON.stringify(value)}: give a whole number, or random`);
  return Number(value);
}

const seed = soakSeed();
const why = (what: string) => `${what} (seed ${seed}; SOAK_SEED=${seed} replays it)`;

/** How long the child may take to exit once its work is done, beyond its event loop's lag: a socket closing. */
const EXIT_MS = 3_000;
/** The timers a call waits on one after the other: each attempt's timeout, and the backoff between two attempts. */
const TIMERS_PER_CALL = 1 + 2 * SOAK.retries;
/**
 * Heap growth allowed from the end of the first batch after warm-up to the end of the last (1,200 calls later): a leak
 * of 3 KB a call fails; the child's own records of the calls take about 150 bytes each.
 */
const HEAP_GROWTH_BYTES = 3 * 1024 * 1024;
/** The whole child may take this long before it is killed and the test fails. */
const CHILD_LIMIT_MS = 90_000;

/** The outcomes of a call that got no answer from the server (the others all did). */
const UNANSWERED = new Set(["RainbondTimeoutError", "RainbondConnectionError", "RainbondAbortError"]);

let server: ChaosServer;
let run: { report: SoakReport; code: number | null; signal: string | null; stderr: string; exitedAt: number };

/** Runs the bundled child to its end: its report, how it ended, and when. */
function runChild(file: string): Promise<typeof run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TSX_ARGS, "--expose-gc", file], {
      env: { ...process.env, SOAK_URL: server.url, SOAK_SEED: String(seed) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const limit = setTimeout(() => child.kill("SIGKILL"), CHILD_LIMIT_MS);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(limit);
      const exitedAt = Date.now();
      try {
        resolve({ report: JSON.parse(stdout) as SoakReport, code, signal, stderr, exitedAt });
      } catch {
        reject(new Error(why(`the soak child printed no report (exit ${code ?? signal}): ${stderr || stdout}`)));
      }
    });
  });
}

beforeAll(async () => {
  server = await startChaosServer(seed);
  run = await runChild(fileURLToPath(new URL("./soak-child.ts", import.meta.url)));
}, CHILD_LIMIT_MS + 30_000);

/** What a busy machine may add to a call: the child's worst event loop lag, for each timer the call waits on. */
const allowance = () => TIMERS_PER_CALL * run.report.lag.max;

afterAll(async () => {
  await server?.close();
  if (!run) return;
  const ms = run.report.calls.map((c) => c.ms).sort((a, b) => a - b);
  const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!);
  const [, first, ...later] = run.report.heap;
  const figures = [
    `${ms.length} calls, ms per call: median ${at(0.5)}, p99 ${at(0.99)}, max ${at(1)}`,
    `budget ${callBudgetMs} + ${Math.round(allowance())} (event loop lag: max ${Math.round(run.report.lag.max)}, p99 ${Math.round(run.report.lag.p99)})`,
    `heap growth after warm-up ${Math.round((Math.max(...later) - first!) / 1024)} KiB`,
    `exit ${run.exitedAt - run.report.doneAt} ms after the work`,
  ];
  console.log(`soak (seed ${seed}): ${figures.join("; ")}`);
});

describe(`soak: ${SOAK.batches * SOAK.batchSize} calls, ${SOAK.concurrency} at a time, through random faults`, () => {
  it("the child process ends by itself, with code 0 and nothing on stderr, soon after its work is done", () => {
    expect({ code: run.code, signal: run.signal, stderr: run.stderr }, why("how the child ended")).toEqual({
      code: 0,
      signal: null,
      stderr: "",
    });
    // The client's timers are all cleared once its calls settle; a socket may still be closing (undici's, not ours):
    // the bound on the exit covers those.
    const timers = run.report.active.filter((resource) => resource === "Timeout");
    expect(timers, why("timers still keeping the child alive when its work was done")).toEqual([]);
    expect(run.exitedAt - run.report.doneAt, why("ms from work done to exit")).toBeLessThan(
      EXIT_MS + run.report.lag.max,
    );
  });

  it("the faults were all served, and the calls ended in data and in several kinds of RainbondError", () => {
    expect(Object.keys(server.answered).sort(), why("faults served")).toEqual([...FAULT_KINDS].sort());
    const outcomes = new Set(run.report.calls.map((c) => c.outcome));
    for (const kind of [
      "data",
      "RainbondAbortError",
      "RainbondConnectionError",
      "RainbondTimeoutError",
      "RainbondServerError",
      "RainbondResponseError",
      "RainbondRateLimitError",
      "RainbondNotFoundError",
    ]) {
      expect(outcomes.has(kind), why(`an outcome ${kind}`)).toBe(true);
    }
  });

  it(`every call settles within its budget (${callBudgetMs} ms + the lag measured) as data or a RainbondError`, () => {
    expect(run.report.calls).toHaveLength(SOAK.batches * SOAK.batchSize);
    const late = run.report.calls.filter((c) => c.ms > callBudgetMs + allowance());
    expect(late, why("calls over budget")).toEqual([]);
    const foreign = run.report.calls.filter((c) => !c.rainbondError);
    expect(foreign, why("calls that ended in something other than data or a RainbondError")).toEqual([]);
  });

  it(`a GET or PUT reaches the server at most ${1 + SOAK.retries} times, a POST at most once`, () => {
    // A call the server answered (data, or an error it sent) reached it at least once. One that ended in no answer may
    // not have: on a busy machine its timeout can fire before the request left, which sends nothing twice either.
    const wrong = run.report.calls.flatMap((c) => {
      const sent = server.count(c.method, c.path);
      const answered = c.outcome === "data" || !UNANSWERED.has(c.outcome);
      const most = c.method === "POST" ? 1 : 1 + SOAK.retries;
      return sent <= most && (sent >= 1 || !answered) ? [] : [{ ...c, sent }];
    });
    expect(wrong, why("calls sent a wrong number of times")).toEqual([]);
  });

  it("no unhandled rejection and no process warning", () => {
    expect({ unhandled: run.report.unhandled, warnings: run.report.warnings }, why("the child's process")).toEqual({
      unhandled: [],
      warnings: [],
    });
  });

  it("the heap is flat after GC from the first batch after warm-up to the last", () => {
    const [, first, ...later] = run.report.heap;
    const growth = Math.max(...later) - first!;
    expect(growth, why(`heap after GC per batch: ${run.report.heap.join(", ")} bytes`)).toBeLessThan(HEAP_GROWTH_BYTES);
  });
});
