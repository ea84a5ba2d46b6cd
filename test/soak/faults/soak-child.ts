// The soak's client side. soak.test.ts bundles it with esbuild and runs it in a Node process of its own, started with
// --expose-gc, against its chaos server (SOAK_URL, SOAK_SEED): batches of calls, many at a time, most of them sharing
// one long-lived AbortSignal, a few with a signal of their own that is aborted at a drawn moment. It measures each
// call, the heap after GC between batches, how late its event loop ran (what a busy machine adds to every timer),
// process warnings, unhandled rejections and what still keeps the process alive at the end, and prints one JSON line.
// It never calls process.exit: when the work is done it must end by itself, which the test checks.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createRainbondClient, RainbondError } from "../../../src/index.js";
import { SOAK, TEAM, callOf, draw } from "./soak-plan.js";

/** One call as the child saw it. */
export interface CallRecord {
  i: number;
  method: string;
  path: string;
  ms: number;
  /** "data", or the name of the error class. */
  outcome: string;
  rainbondError: boolean;
  /** The caller aborted it (its own signal). */
  aborted: boolean;
}

/** What the child prints. */
export interface SoakReport {
  calls: CallRecord[];
  /** heapUsed (bytes) after GC, at the end of each batch. */
  heap: number[];
  warnings: string[];
  unhandled: string[];
  /** What still kept the event loop alive when the work was done (process.getActiveResourcesInfo()). */
  active: string[];
  /** Date.now() when the work was done and this report printed. */
  doneAt: number;
  /** The event loop's delay while the calls ran, in ms: the most it was late, and its 99th percentile. */
  lag: { max: number; p99: number };
}

const seed = Number(process.env.SOAK_SEED);
const warnings: string[] = [];
const unhandled: string[] = [];
process.on("warning", (w) => warnings.push(`${w.name}: ${w.message}`));
process.on("unhandledRejection", (reason) => unhandled.push(String(reason)));

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");

const client = createRainbondClient({
  baseUrl: process.env.SOAK_URL!,
  token: "soak-token",
  logLevel: "off",
  timeoutMs: SOAK.timeoutMs,
  retries: SOAK.retries,
  retryDelay: SOAK.retryDelay,
});
const shared = new AbortController(); // lives as long as the process, as a server's shutdown signal would

function send(i: number, signal: AbortSignal): Promise<unknown> {
  const { method, id } = callOf(i);
  const component = { teamId: TEAM, regionName: "rainbond", appId: 12, serviceId: id };
  if (method === "GET") return client.regions.get(id, {}, { signal });
  if (method === "POST") return client.ports.add(component, { port: 8080, protocol: "http" }, { signal });
  return client.ports.openOuter(component, 8080, { signal });
}

async function one(i: number): Promise<CallRecord> {
  const { method, path } = callOf(i);
  const aborted = draw(seed, `abort ${i}`) < SOAK.abortShare;
  const own = aborted ? new AbortController() : undefined;
  const timer = own && setTimeout(() => own.abort(), draw(seed, `abort at ${i}`) * SOAK.abortWithinMs);
  const started = performance.now();
  let outcome = "data";
  let rainbondError = true;
  try {
    await send(i, own?.signal ?? shared.signal);
  } catch (err) {
    rainbondError = err instanceof RainbondError;
    outcome = rainbondError ? (err as Error).name : String(err);
  } finally {
    clearTimeout(timer);
  }
  return { i, method, path, ms: performance.now() - started, outcome, rainbondError, aborted };
}

async function batch(from: number, to: number, into: CallRecord[]) {
  let next = from;
  const worker = async () => {
    while (next < to) into.push(await one(next++));
  };
  await Promise.all(Array.from({ length: SOAK.concurrency }, worker));
}

const calls: CallRecord[] = [];
const heap: number[] = [];
const RESOLUTION_MS = 10;
const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
delay.enable();
for (let b = 0; b < SOAK.batches; b++) {
  await batch(b * SOAK.batchSize, (b + 1) * SOAK.batchSize, calls);
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  gc();
  heap.push(process.memoryUsage().heapUsed);
}
delay.disable();
// the histogram holds the intervals of a timer due every RESOLUTION_MS: what is beyond that is lag
const lateBy = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
const lag = { max: lateBy(delay.max), p99: lateBy(delay.percentile(99)) };
const active = process.getActiveResourcesInfo();
const report: SoakReport = { calls, heap, warnings, unhandled, active, doneAt: Date.now(), lag };
process.stdout.write(`${JSON.stringify(report)}\n`);
