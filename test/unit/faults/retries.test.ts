// The fault matrix, part 2: no answer, late answers and answers that ask to wait. Idempotent methods (GET, PUT,
// DELETE) are retried on connection errors, timeouts, 408, 429, 502, 503 and 504; POST only when the connection was
// refused. Each test counts the requests the server saw, and checks that no token shows anywhere: where the server
// answers, its answer repeats the token it was sent (a console that echoes the Authorization header), so the check
// fails if the client shows the answer unredacted; where it does not answer, the test first checks that the token
// did reach the server (or fetch). Waits are measured on a fake clock (setTimeout and Date; Math.random at 0, so the
// backoff is exactly baseMs * 2^attempt): the request times the server records are exact.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  RainbondAbortError,
  RainbondConnectionError,
  RainbondNotFoundError,
  RainbondRateLimitError,
  RainbondServerError,
  RainbondTimeoutError,
  createRainbondClient,
} from "../../../src/index.js";
import { operations } from "../../../generated/operations.js";
import { createRainbondCore } from "../../../src/core.js";
import { operation } from "../../../src/internal/call.js";
import {
  DEFAULT_RETRIES,
  DEFAULT_RETRY_DELAY,
  DEFAULT_TIMEOUT_MS,
  JITTER,
  REPLAYED_METHODS,
  RETRIED_STATUSES,
  replayable,
  retryDelay,
  retryPolicy,
  shouldRetry,
} from "../../../src/core/retry.js";
import { TOKEN, component, expectNoSecrets, faultClient, paths, rejection } from "./helpers.js";
import {
  NGINX_502,
  answer,
  closedPort,
  countingFetch,
  recordingLogger,
  useFaultServer,
} from "../../helpers/faults/server.js";

const server = useFaultServer();
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Fakes setTimeout, clearTimeout and Date from a whole second, and takes the jitter out; returns the fake now. */
function fakeClock(): number {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: Date.UTC(2025, 0, 1) });
  vi.spyOn(Math, "random").mockReturnValue(0);
  return Date.now();
}

/** When each request reached the server, in ms after `t0` (on the fake clock). */
const arrivals = (t0: number) => server.requests.map((r) => r.at - t0);

/**
 * An answer whose msg and msg_show repeat the Authorization header of the request: the token, which the client must
 * not show in its errors and logs.
 */
const echoing = (status: number, headers?: Record<string, string>) =>
  answer.echo((seen) =>
    answer.json(
      status,
      {
        code: status,
        msg: `refused for ${seen.headers.authorization}`,
        msg_show: `拒绝 ${seen.headers.authorization}`,
      },
      headers,
    ),
  );
const shown = "拒绝 [redacted]";

/** The token reached the server with every request (so the check that it shows nowhere is about a real secret). */
function expectTokenSent() {
  expect(server.requests.length).toBeGreaterThan(0);
  for (const r of server.requests) expect(r.headers.authorization).toBe(TOKEN);
}

/** A fetch that tells when the answer to its n-th request has its headers (the body may still be on its way). */
function headersFetch() {
  const arrived: (() => void)[] = [];
  const waits = Array.from({ length: 8 }, () => new Promise<void>((resolve) => arrived.push(resolve)));
  let n = 0;
  const wrapped: typeof fetch = async (input, init) => {
    const i = n++;
    const response = await fetch(input, init);
    arrived[i]!();
    return response;
  };
  return { fetch: wrapped, headers: (nth: number) => waits[nth - 1]! };
}

/** A fetch that records the Authorization header of each attempt it is handed. */
function authRecording(inner: typeof fetch = fetch) {
  const seen: (string | null)[] = [];
  const wrapped: typeof fetch = (input, init) => {
    seen.push(
      new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get("authorization"),
    );
    return inner(input, init);
  };
  return { fetch: wrapped, seen };
}

const found = { service_id: "gr3f9c2a", service_cname: "web" };
const bean = (port: Record<string, unknown>) => ({
  code: 200,
  msg: "success",
  msg_show: "成功",
  data: { bean: port, list: [] },
});
const unavailable = answer.json(503, { code: 503, msg: "service unavailable", msg_show: "服务暂不可用" });

describe("retried statuses", () => {
  it("503 then success: a GET resolves after 2 requests and the retry is logged as a warning", async () => {
    server.script("GET", paths.component, echoing(503), answer.json(200, found));
    const { client, log } = faultClient(server.url);
    await expect(client.components.get(component)).resolves.toEqual(found);
    expect(server.count("GET", paths.component)).toBe(2);
    const warnings = log.lines.filter((l) => l.startsWith("warn"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /components\.get \(GET .*\) failed with 503: 拒绝 \[redacted\] \(refused for \[redacted\]\); retry 1 of 2 in \d+ ms/,
    );
    expectTokenSent();
    expectNoSecrets(undefined, log.lines);
  });

  it("503 then success: a PUT is replayed with the same body", async () => {
    server.script(
      "PUT",
      paths.port,
      echoing(503),
      answer.json(200, bean({ container_port: 8080, is_outer_service: true })),
    );
    const { client, log } = faultClient(server.url);
    await expect(client.ports.openOuter(component, 8080)).resolves.toEqual({
      container_port: 8080,
      is_outer_service: true,
    });
    expect(server.count("PUT", paths.port)).toBe(2);
    expect(server.requests.map((r) => JSON.parse(r.body))).toEqual([
      { action: "open_outer" },
      { action: "open_outer" },
    ]);
    expectTokenSent();
    expectNoSecrets(undefined, log.lines);
  });

  it("502 then 504 then success: a DELETE resolves after 3 requests", async () => {
    server.script(
      "DELETE",
      paths.port,
      answer.html(502, NGINX_502),
      echoing(504),
      answer.json(200, bean({ container_port: 8080 })),
    );
    const { client, log } = faultClient(server.url);
    await expect(client.ports.delete(component, 8080)).resolves.toEqual({ container_port: 8080 });
    expect(server.count("DELETE", paths.port)).toBe(3);
    expect(log.lines.filter((l) => l.startsWith("warn"))[1]).toContain(`failed with 504: ${shown}`);
    expectTokenSent();
    expectNoSecrets(undefined, log.lines);
  });

  it("408 then success: retried", async () => {
    server.script("GET", paths.component, echoing(408), answer.json(200, found));
    const { client, log } = faultClient(server.url);
    await expect(client.components.get(component)).resolves.toEqual(found);
    expect(server.count("GET", paths.component)).toBe(2);
    expect(log.lines.filter((l) => l.startsWith("warn"))).toEqual([
      expect.stringContaining(`failed with 408: ${shown}`),
    ]);
    expectTokenSent();
    expectNoSecrets(undefined, log.lines);
  });

  it("a 503 that lasts: the last error after 1 + retries requests (client default, and per call)", async () => {
    server.script("GET", paths.component, echoing(503));
    const { client, log } = faultClient(server.url, { retries: 3 });
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondServerError);
    expect(err).toMatchObject({ status: 503, code: 503, msgShow: shown });
    expectTokenSent();
    expect(server.count("GET", paths.component)).toBe(4);

    server.reset();
    server.script("GET", paths.component, unavailable);
    await expect(client.components.get(component, { retries: 0 })).rejects.toBeInstanceOf(RainbondServerError);
    expect(server.count("GET", paths.component)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("the default is 2 retries: 3 requests", async () => {
    server.script("GET", paths.component, answer.json(504, null));
    const client = createRainbondClient({
      baseUrl: server.url,
      token: TOKEN,
      retryDelay: { baseMs: 1, maxMs: 2 },
      logLevel: "off",
    });
    await expect(client.components.get(component)).rejects.toMatchObject({ status: 504 });
    expect(server.count("GET", paths.component)).toBe(3);
  });

  it("a POST answered 503 is never replayed", async () => {
    server.script("POST", paths.ports, echoing(503), answer.json(200, bean({ container_port: 8080 })));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.ports.add(component, { port: 8080, protocol: "http" }, { retries: 5 }));
    expect(err).toBeInstanceOf(RainbondServerError);
    expect(err).toMatchObject({ status: 503, operation: "ports.add", method: "POST", msgShow: shown });
    expect(server.count("POST", paths.ports)).toBe(1);
    expect(log.lines.filter((l) => l.startsWith("warn"))).toEqual([]);
    expectTokenSent();
    expectNoSecrets(err, log.lines);
  });
});

describe("Retry-After", () => {
  it("429 with Retry-After: 1 (seconds) waits exactly that second, then succeeds", async () => {
    const t0 = fakeClock();
    server.script("GET", paths.component, echoing(429, { "retry-after": "1" }), answer.json(200, found));
    const { client, log } = faultClient(server.url);
    const call = client.components.get(component);
    expect(await log.waitForLine((l) => l.includes("retry 1 of 2"))).toMatch(/retry 1 of 2 in 1000 ms$/);
    await vi.advanceTimersByTimeAsync(999);
    expect(server.count("GET", paths.component)).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(call).resolves.toEqual(found);
    // The backoff alone would be 5 ms here: only Retry-After explains the second.
    expect(arrivals(t0)).toEqual([0, 1_000]);
    expect(log.lines.find((l) => l.startsWith("warn"))).toContain(`failed with 429: ${shown}`);
    expectTokenSent();
    expectNoSecrets(undefined, log.lines);
  });

  it("429 with a Retry-After in seconds beyond the cap is not waited for: the RainbondRateLimitError at once", async () => {
    const t0 = fakeClock();
    server.script("GET", paths.component, echoing(429, { "retry-after": "120" }), answer.json(200, found));
    const { client, log } = faultClient(server.url); // cap 5 s
    // on the fake clock, which this test never moves, any wait would never end
    const err = await rejection(client.components.get(component));
    expect(Date.now()).toBe(t0);
    expect(err).toBeInstanceOf(RainbondRateLimitError);
    expect(err).toMatchObject({ status: 429, msg: "refused for [redacted]" });
    expect(server.count("GET", paths.component)).toBe(1);
    expectTokenSent();
    expectNoSecrets(err, log.lines);
  });

  it("429 with a Retry-After HTTP date beyond the cap is not waited for either (the date was understood)", async () => {
    const t0 = fakeClock();
    const later = new Date(t0 + 3_600_000).toUTCString();
    server.script("GET", paths.component, echoing(429, { "retry-after": later }), answer.json(200, found));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect(Date.now()).toBe(t0);
    expect(err).toBeInstanceOf(RainbondRateLimitError);
    expect(server.count("GET", paths.component)).toBe(1);
    expectTokenSent();
    expectNoSecrets(err, log.lines);
  });

  it("429 with a Retry-After HTTP date already past: the client's own backoff, not at once", async () => {
    const t0 = fakeClock();
    const past = new Date(t0 - 60_000).toUTCString();
    server.script(
      "GET",
      paths.component,
      answer.json(429, { msg: "slow down" }, { "retry-after": past }),
      answer.json(200, found),
    );
    const { client, log } = faultClient(server.url);
    const call = client.components.get(component);
    expect(await log.waitForLine((l) => l.includes("retry 1 of 2"))).toMatch(/retry 1 of 2 in 5 ms$/); // baseMs 5, no jitter
    await vi.advanceTimersByTimeAsync(5);
    await expect(call).resolves.toEqual(found);
    expect(arrivals(t0)).toEqual([0, 5]);
  });

  it("a 503 with Retry-After is read like a 429 (0: the client's own backoff)", async () => {
    const t0 = fakeClock();
    server.script(
      "PUT",
      paths.port,
      answer.json(503, null, { "retry-after": "0" }),
      answer.json(200, bean({ container_port: 8080 })),
    );
    const { client, log } = faultClient(server.url);
    const call = client.ports.closeInner(component, 8080);
    expect(await log.waitForLine((l) => l.includes("retry 1 of 2"))).toMatch(/retry 1 of 2 in 5 ms$/);
    await vi.advanceTimersByTimeAsync(5);
    await expect(call).resolves.toEqual({ container_port: 8080 });
    expect(arrivals(t0)).toEqual([0, 5]);
  });

  it("a Retry-After of a fraction of a second (0.001) is read like 0: the client's own backoff", async () => {
    const t0 = fakeClock();
    server.script(
      "GET",
      paths.component,
      answer.json(503, null, { "retry-after": "0.001" }),
      answer.json(503, null, { "retry-after": "0.999" }),
      answer.json(200, found),
    );
    const { client, log } = faultClient(server.url);
    const call = client.components.get(component);
    expect(await log.waitForLine((l) => l.includes("retry 1 of 2"))).toMatch(/retry 1 of 2 in 5 ms$/);
    await vi.advanceTimersByTimeAsync(5);
    expect(await log.waitForLine((l) => l.includes("retry 2 of 2"))).toMatch(/retry 2 of 2 in 10 ms$/);
    await vi.advanceTimersByTimeAsync(10);
    await expect(call).resolves.toEqual(found);
    expect(arrivals(t0)).toEqual([0, 5, 15]);
  });

  it("retryDelay reads seconds and HTTP dates, caps them, and otherwise backs off exponentially with jitter", () => {
    const now = fakeClock();
    const config = { baseMs: 100, maxMs: 1_000, retryAfterCapMs: 60_000 };
    const withHeader = (value: string) => new Response(null, { status: 429, headers: { "retry-after": value } });
    expect(retryDelay(config, 0, withHeader("2"))).toBe(2_000);
    expect(retryDelay(config, 0, withHeader("1.5"))).toBe(1_500);
    expect(retryDelay(config, 0, withHeader(new Date(now + 30_000).toUTCString()))).toBe(30_000);
    expect(retryDelay(config, 0, withHeader("61"))).toBeUndefined();
    expect(retryDelay(config, 0, withHeader(new Date(now + 120_000).toUTCString()))).toBeUndefined();
    const exponential = [100, 200, 400, 800, 1_000, 1_000, 1_000, 1_000];
    for (const [random, jitter] of [
      [0, 1],
      [0.5, 0.875],
      [1, 0.75], // Math.random's bound, never reached: the least the jitter takes off
    ] as const) {
      vi.mocked(Math.random).mockReturnValue(random);
      for (const [attempt, expected] of exponential.entries()) {
        expect(retryDelay(config, attempt)).toBe(expected * jitter);
        expect(retryDelay(config, attempt, withHeader("soon"))).toBe(expected * jitter);
        expect(retryDelay(config, attempt, withHeader("0"))).toBe(expected * jitter);
        expect(retryDelay(config, attempt, withHeader("0.001"))).toBe(expected * jitter);
        expect(retryDelay(config, attempt, withHeader("0.999"))).toBe(expected * jitter);
      }
    }
  });
});

describe("no answer", () => {
  it("a reset connection: a RainbondConnectionError after 3 GET requests", async () => {
    server.script("GET", paths.component, answer.reset());
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondConnectionError);
    expect(err).not.toBeInstanceOf(RainbondTimeoutError);
    expect(err).toMatchObject({ operation: "components.get", method: "GET" });
    expect((err as Error).message).toMatch(/^components\.get \(GET \/openapi\/v1\/teams\/q8k2mz5d.*\): /);
    expect(server.count("GET", paths.component)).toBe(3);
    expectTokenSent();
    expectNoSecrets(err, log.lines);
  });

  it("a reset connection under a POST: not replayed (the request may have reached the console)", async () => {
    server.script("POST", paths.ports, answer.reset());
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.ports.add(component, { port: 8080, protocol: "http" }));
    expect(err).toBeInstanceOf(RainbondConnectionError);
    expect(server.count("POST", paths.ports)).toBe(1);
    expectTokenSent();
    expectNoSecrets(err, log.lines);
  });

  it("a hang: a RainbondTimeoutError (a RainbondConnectionError) after 3 attempts of timeoutMs each", async () => {
    const t0 = fakeClock();
    server.script("GET", paths.component, answer.hang());
    const { client, log } = faultClient(server.url, { timeoutMs: 100 });
    const call = rejection(client.components.get(component));
    for (const [n, backoff] of [
      [1, 5],
      [2, 10],
    ] as const) {
      await server.waitFor("GET", paths.component, n);
      await vi.advanceTimersByTimeAsync(100);
      expect(await log.waitForLine((l) => l.includes(`retry ${n} of 2`))).toMatch(`retry ${n} of 2 in ${backoff} ms`);
      await vi.advanceTimersByTimeAsync(backoff);
    }
    await server.waitFor("GET", paths.component, 3);
    await vi.advanceTimersByTimeAsync(100);
    const err = await call;
    // each attempt waited its 100 ms, then the backoff: 5 ms, then 10
    expect(arrivals(t0)).toEqual([0, 105, 215]);
    expect(Date.now() - t0).toBe(315);
    expect(log.lines.filter((l) => l.startsWith("info"))).toEqual(
      Array(3).fill(expect.stringMatching(/→ failed in 100 ms: no answer within 100 ms$/)),
    );
    expect(err).toBeInstanceOf(RainbondTimeoutError);
    expect(err).toBeInstanceOf(RainbondConnectionError);
    expect(err).toMatchObject({ name: "RainbondTimeoutError", operation: "components.get", method: "GET" });
    expect((err as Error).message).toContain("no answer within 100 ms");
    expect(server.count("GET", paths.component)).toBe(3);
    expectTokenSent();
    expectNoSecrets(err, log.lines);
  });

  it("a hang under a POST: one attempt, then the RainbondTimeoutError", async () => {
    const t0 = fakeClock();
    server.script("POST", paths.ports, answer.hang());
    const { client, log } = faultClient(server.url);
    const call = rejection(client.ports.add(component, { port: 8080, protocol: "http" }, { timeoutMs: 100 }));
    await server.waitFor("POST", paths.ports, 1);
    await vi.advanceTimersByTimeAsync(100);
    const err = await call;
    expect(Date.now() - t0).toBe(100);
    expect(err).toBeInstanceOf(RainbondTimeoutError);
    expect(server.count("POST", paths.ports)).toBe(1);
    expectTokenSent();
    expectNoSecrets(err, log.lines);
  });

  it("the call's timeoutMs overrides the client's", async () => {
    const t0 = fakeClock();
    server.script("GET", paths.component, answer.hang());
    const { client, log } = faultClient(server.url, { timeoutMs: 30_000 });
    const call = rejection(client.components.get(component, { timeoutMs: 80, retries: 1 }));
    await server.waitFor("GET", paths.component, 1);
    await vi.advanceTimersByTimeAsync(80);
    expect(await log.waitForLine((l) => l.includes("retry 1 of 1"))).toMatch(/retry 1 of 1 in 5 ms$/);
    await vi.advanceTimersByTimeAsync(5);
    await server.waitFor("GET", paths.component, 2);
    await vi.advanceTimersByTimeAsync(80);
    const err = await call;
    expect(arrivals(t0)).toEqual([0, 85]);
    expect(err).toBeInstanceOf(RainbondTimeoutError);
    expect((err as Error).message).toContain("no answer within 80 ms");
    expect(server.count("GET", paths.component)).toBe(2);
    expectTokenSent();
    expectNoSecrets(err, log.lines);
  });

  it("a slow body: the per-attempt timeout covers the body too, and fires while it trickles", async () => {
    const t0 = fakeClock();
    const chunks = ['{"service_id": ', '"gr3f9c2a", ', ...Array.from({ length: 40 }, () => " ")];
    server.script("GET", paths.component, answer.slow(200, [...chunks, "}"], 25));
    const answered = headersFetch();
    const { client, log } = faultClient(server.url, { timeoutMs: 150, fetch: answered.fetch });
    const call = rejection(client.components.get(component));
    for (const [n, backoff] of [
      [1, 5],
      [2, 10],
    ] as const) {
      await answered.headers(n); // the attempt has its headers: what times out now is the body
      await vi.advanceTimersByTimeAsync(150);
      expect(await log.waitForLine((l) => l.includes(`retry ${n} of 2`))).toMatch(`retry ${n} of 2 in ${backoff} ms`);
      await vi.advanceTimersByTimeAsync(backoff);
    }
    await answered.headers(3);
    await vi.advanceTimersByTimeAsync(150);
    const err = await call;
    expect(err).toBeInstanceOf(RainbondTimeoutError);
    expect(arrivals(t0)).toEqual([0, 155, 315]);
    // none got the whole body
    expect(server.slowChunksWritten).toHaveLength(3);
    for (const written of server.slowChunksWritten) expect(written).toBeLessThan(chunks.length + 1);
    expectTokenSent();
    expectNoSecrets(err, log.lines);
  });

  it("a slow body within the timeout is read whole", async () => {
    fakeClock(); // the deadline is never reached: the fake clock does not move (the server's chunks keep real time)
    server.script("GET", paths.component, answer.slow(200, ['{"service_id": ', '"gr3f9c2a"}'], 10));
    const { client } = faultClient(server.url, { timeoutMs: 1_000 });
    await expect(client.components.get(component)).resolves.toEqual({ service_id: "gr3f9c2a" });
    expect(server.count("GET", paths.component)).toBe(1);
  });

  it("an answer that comes after timeoutMs from a fetch that ignores the signal: the attempt timed out at its deadline", async () => {
    const t0 = fakeClock();
    const late = authRecording(async () => {
      await new Promise((resolve) => setTimeout(resolve, 120)); // the fault under test: an answer later than timeoutMs
      return new Response(JSON.stringify({ code: 4000, msg: `no app for ${TOKEN}`, msg_show: "应用不存在" }), {
        status: 404,
        headers: { "content-type": "application/json" },
      });
    });
    const { client, log } = faultClient("http://127.0.0.1:9", { fetch: late.fetch, timeoutMs: 30, retries: 0 });
    const call = rejection(client.components.get(component));
    await vi.advanceTimersByTimeAsync(30);
    const err = await call;
    expect(Date.now() - t0).toBe(30);
    expect(err).toBeInstanceOf(RainbondTimeoutError);
    expect((err as Error).message).toMatch(/no answer within 30 ms$/);
    expect(late.seen).toEqual([TOKEN]);
    await vi.advanceTimersByTimeAsync(90); // the late answer, with the token in it, arrives and is no one's
    expectNoSecrets(err, log.lines);
  });
});

describe("connection refused: the request provably never left", () => {
  it("a POST is sent again when the connection was refused (3 attempts, none reached a server)", async () => {
    const port = await closedPort();
    const auth = authRecording();
    const counter = countingFetch(auth.fetch);
    const { client, log } = faultClient(`http://127.0.0.1:${port}`, { fetch: counter.fetch });
    const err = await rejection(client.ports.add(component, { port: 8080, protocol: "http" }));
    expect(err).toBeInstanceOf(RainbondConnectionError);
    expect(err).not.toBeInstanceOf(RainbondTimeoutError);
    expect((err as Error).message).toContain("ECONNREFUSED");
    expect(counter.calls).toHaveLength(3);
    expect(counter.calls.every((c) => c.method === "POST")).toBe(true);
    expect(auth.seen).toEqual([TOKEN, TOKEN, TOKEN]);
    expectNoSecrets(err, log.lines);
  });

  it("a GET too, and retries: 0 means one attempt", async () => {
    const port = await closedPort();
    const auth = authRecording();
    const counter = countingFetch(auth.fetch);
    const { client, log } = faultClient(`http://127.0.0.1:${port}`, { fetch: counter.fetch });
    await expect(client.components.get(component)).rejects.toBeInstanceOf(RainbondConnectionError);
    expect(counter.calls).toHaveLength(3);
    const err = await rejection(client.ports.add(component, { port: 8080, protocol: "http" }, { retries: 0 }));
    expect(err).toBeInstanceOf(RainbondConnectionError);
    expect(counter.calls).toHaveLength(4);
    expect(auth.seen).toEqual(Array(4).fill(TOKEN));
    expectNoSecrets(err, log.lines);
  });
});

describe("the caller's AbortSignal", () => {
  it("cancels a backoff wait at once: RainbondAbortError, no further request", async () => {
    const t0 = fakeClock();
    server.script("GET", paths.component, echoing(503), answer.json(200, found));
    const log = recordingLogger();
    const client = createRainbondClient({
      baseUrl: server.url,
      token: TOKEN,
      retryDelay: { baseMs: 30_000, maxMs: 30_000 },
      logger: log.logger,
    });
    const controller = new AbortController();
    const call = rejection(client.components.get(component, { signal: controller.signal }));
    expect(await log.waitForLine((l) => l.includes("retry 1 of 2"))).toMatch(/retry 1 of 2 in 30000 ms$/);
    await vi.advanceTimersByTimeAsync(10_000);
    controller.abort();
    const err = await call; // on the fake clock, which stands still: not the end of the backoff
    expect(Date.now() - t0).toBe(10_000);
    expect(err).toBeInstanceOf(RainbondAbortError);
    expect((err as Error).message).toMatch(/^components\.get \(GET .*\) was aborted by the caller$/);
    expect(server.count("GET", paths.component)).toBe(1);
    expect(log.lines.find((l) => l.startsWith("warn"))).toContain(`failed with 503: ${shown}`);
    expectTokenSent();
    expectNoSecrets(err, log.lines);
  });

  it("cancels a request in flight: RainbondAbortError, not a timeout, one request", async () => {
    server.script("GET", paths.component, answer.hang());
    const { client, log } = faultClient(server.url, { timeoutMs: 10_000 });
    const controller = new AbortController();
    const call = rejection(client.components.get(component, { signal: controller.signal }));
    await server.waitFor("GET", paths.component, 1);
    controller.abort(new Error("user left the page"));
    const err = await call;
    expect(err).toBeInstanceOf(RainbondAbortError);
    expect(err).not.toBeInstanceOf(RainbondConnectionError);
    expect(server.count("GET", paths.component)).toBe(1);
    expectTokenSent();
    expectNoSecrets(err, log.lines);
  });

  it("cancels a POST in flight the same way", async () => {
    server.script("POST", paths.ports, answer.hang());
    const { client, log } = faultClient(server.url);
    const controller = new AbortController();
    const call = rejection(
      client.ports.add(component, { port: 8080, protocol: "http" }, { signal: controller.signal }),
    );
    await server.waitFor("POST", paths.ports, 1);
    controller.abort();
    const err = await call;
    expect(err).toBeInstanceOf(RainbondAbortError);
    expect(server.count("POST", paths.ports)).toBe(1);
    expectTokenSent();
    expectNoSecrets(err, log.lines);
  });
});

describe("the retry policy, one module (src/core/retry.ts)", () => {
  it("shouldRetry: a GET, PUT or DELETE on no answer or a retried status; a POST, or one marked not idempotent, only when refused", () => {
    const noAnswer = {};
    const refused = { refused: true };
    for (const method of ["GET", "PUT", "DELETE", "POST", "PATCH"]) {
      for (const idempotent of [undefined, false] as const) {
        const request = { method, idempotent };
        const replays = ["GET", "PUT", "DELETE"].includes(method) && idempotent === undefined;
        expect(replayable(request), `${method} ${idempotent}`).toBe(replays);
        expect(shouldRetry(request, noAnswer)).toBe(replays);
        expect(shouldRetry(request, refused)).toBe(true);
        for (const status of [408, 429, 502, 503, 504]) expect(shouldRetry(request, { status })).toBe(replays);
        for (const status of [400, 401, 404, 409, 500, 501]) expect(shouldRetry(request, { status })).toBe(false);
      }
    }
  });

  it("says itself in plain words, made from its constants", () => {
    const text = retryPolicy();
    expect(text).toContain(`A ${REPLAYED_METHODS.slice(0, -1).join(", ")} or ${REPLAYED_METHODS.at(-1)} is retried`);
    expect(text).toContain(`${DEFAULT_RETRIES} times`);
    expect(text).toContain(`${DEFAULT_TIMEOUT_MS / 1000} s per attempt`);
    expect(text).toContain(`${RETRIED_STATUSES.slice(0, -1).join(", ")} or ${RETRIED_STATUSES.at(-1)}`);
    expect(text).toContain(`up to ${DEFAULT_RETRY_DELAY.retryAfterCapMs / 1000} s`);
    expect(text).toContain(
      `${DEFAULT_RETRY_DELAY.baseMs / 1000} s doubled on each retry up to ${DEFAULT_RETRY_DELAY.maxMs / 1000} s`,
    );
    expect(text).toContain(`less up to ${JITTER * 100}% at random`);
    expect(text).toContain("only when the connection was refused");
  });

  it("the client's default number of retries is the policy's", async () => {
    server.script("GET", paths.component, unavailable);
    const client = createRainbondClient({
      baseUrl: server.url,
      token: TOKEN,
      retryDelay: { maxMs: 2 },
      logLevel: "off",
    });
    await expect(client.components.get(component)).rejects.toBeInstanceOf(RainbondServerError);
    expect(server.count("GET", paths.component)).toBe(DEFAULT_RETRIES + 1);
  });
});

describe("an operation the spec marks x-rainbond-idempotent: false", () => {
  /** components.get as if the spec marked it not idempotent (a GET that changes the console). */
  const notIdempotent = (url: string, options = {}) => {
    const core = createRainbondCore({
      baseUrl: url,
      token: TOKEN,
      retryDelay: { baseMs: 1, maxMs: 2 },
      logLevel: "off",
      ...options,
    });
    // an entry of no operationId of the table: typed as any entry (OperationSpec), which may carry the mark
    const get = operation<"getComponentMarked">({ ...operations.getComponent, idempotent: false }, {});
    return (retries?: number) => get(core, component, { retries });
  };

  it("is never replayed: a 503 is final, sent once", async () => {
    server.script("GET", paths.component, unavailable, answer.json(200, found));
    const get = notIdempotent(server.url);
    await expect(get(5)).rejects.toBeInstanceOf(RainbondServerError);
    expect(server.count("GET", paths.component)).toBe(1);
  });

  it("nor after a reset connection (it may have reached the console)", async () => {
    server.script("GET", paths.component, answer.reset());
    const get = notIdempotent(server.url);
    await expect(get(5)).rejects.toBeInstanceOf(RainbondConnectionError);
    expect(server.count("GET", paths.component)).toBe(1);
  });

  it("but it is sent again when the connection was refused: it never reached the console", async () => {
    const counter = countingFetch();
    const get = notIdempotent(`http://127.0.0.1:${await closedPort()}`, { fetch: counter.fetch });
    await expect(get(2)).rejects.toBeInstanceOf(RainbondConnectionError);
    expect(counter.calls).toHaveLength(3);
  });

  it("the same operation unmarked is replayed (the control)", async () => {
    server.script("GET", paths.component, unavailable, answer.json(200, found));
    const { client } = faultClient(server.url);
    await expect(client.components.get(component)).resolves.toEqual(found);
    expect(server.count("GET", paths.component)).toBe(2);
  });
});
