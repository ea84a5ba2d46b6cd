// One AbortSignal shared by many concurrent calls (a request-scoped signal fanned out): no process warning, at most
// one listener of ours on it while the calls are in flight, none once they settle, and aborting it ends every call
// with RainbondAbortError, those waiting to retry as well.
import { getEventListeners } from "node:events";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRainbondClient, RainbondAbortError, type Logger } from "../../../src/index.js";
import { useFaultServer, type Reply } from "../../helpers/faults/server.js";
import { TOKEN } from "./helpers.js";

const CALLS = 100;
const regionIds = Array.from({ length: CALLS }, (_, i) => `r${i}`);

/** What the server does with each request; a test sets it. */
let handle: () => Promise<Reply> = async () => ({ body: {} });
const server = useFaultServer(() => handle());
const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
beforeAll(() => {
  process.on("warning", onWarning);
});
afterAll(() => {
  process.off("warning", onWarning);
});
afterEach(() => {
  warnings.length = 0;
});

/** A promise resolved by the `n`th call of the returned function. */
function countdown(n: number) {
  let tick!: () => void;
  const done = new Promise<void>((resolve) => {
    let left = n;
    tick = () => {
      if (--left === 0) resolve();
    };
  });
  return { done, tick };
}

/** Holds every answer until `release()`; `arrived` resolves once all CALLS requests are held. */
function gate(reply: Reply) {
  const arrival = countdown(CALLS);
  let release!: () => void;
  const open = new Promise<void>((resolve) => (release = resolve));
  handle = async () => {
    arrival.tick();
    await open;
    return reply;
  };
  return { arrived: arrival.done, release };
}

function client(logger?: Logger) {
  return createRainbondClient({
    baseUrl: server.url,
    token: TOKEN,
    retryDelay: { baseMs: 1, maxMs: 1, retryAfterCapMs: 60_000 },
    ...(logger ? { logger, logLevel: "warn" } : { logLevel: "off" }),
  });
}

const listeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;
const getAll = (c: ReturnType<typeof client>, signal: AbortSignal) =>
  regionIds.map((id) => c.regions.get(id, {}, { signal }));

describe(`one AbortSignal shared by ${CALLS} concurrent calls`, () => {
  it("calls that are answered: no warning, one listener at most while in flight, none after", async () => {
    const signal = new AbortController().signal; // outlives the calls, as a server's shutdown signal would
    const { arrived, release } = gate({ body: { region_name: "rainbond" } });
    const calls = getAll(client(), signal);
    await arrived;
    expect(listeners(signal)).toBeLessThanOrEqual(1);
    release();
    const results = await Promise.all(calls);
    expect(results).toHaveLength(CALLS);
    expect(listeners(signal)).toBe(0);
    expect(warnings).toEqual([]);
  });

  it("aborted while the requests are in flight: every call ends with RainbondAbortError", async () => {
    const controller = new AbortController();
    const { arrived, release } = gate({ body: {} });
    const calls = getAll(client(), controller.signal);
    await arrived;
    expect(listeners(controller.signal)).toBeLessThanOrEqual(1);
    controller.abort();
    const outcomes = await Promise.allSettled(calls);
    release();
    expect(outcomes.filter((o) => o.status === "rejected" && o.reason instanceof RainbondAbortError)).toHaveLength(
      CALLS,
    );
    expect(listeners(controller.signal)).toBe(0);
    expect(server.requests).toHaveLength(CALLS); // nothing was sent again
    expect(warnings).toEqual([]);
  });

  it("aborted while the calls wait to retry (Retry-After: 30): every call ends at once with RainbondAbortError", async () => {
    const controller = new AbortController();
    handle = async () => ({ status: 503, body: { msg: "busy" }, headers: { "retry-after": "30" } });
    const retrying = countdown(CALLS);
    const noop = () => {};
    const logger: Logger = { error: noop, warn: retrying.tick, info: noop, debug: noop };
    const calls = getAll(client(logger), controller.signal);
    await retrying.done; // each call has logged its retry and waits 30 s
    expect(listeners(controller.signal)).toBeLessThanOrEqual(1);
    controller.abort();
    const outcomes = await Promise.allSettled(calls);
    expect(outcomes.filter((o) => o.status === "rejected" && o.reason instanceof RainbondAbortError)).toHaveLength(
      CALLS,
    );
    expect(listeners(controller.signal)).toBe(0);
    expect(server.requests).toHaveLength(CALLS);
    expect(warnings).toEqual([]);
  });
});
