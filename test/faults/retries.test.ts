// The fault matrix, part 2: no answer, late answers and answers that ask to wait. Idempotent methods (GET, PUT,
// DELETE) are retried on connection errors, timeouts, 408, 429, 502, 503 and 504; POST only when the connection was
// refused. Each test counts the requests the server saw, and checks that no token shows anywhere.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  RainbondAbortError,
  RainbondConnectionError,
  RainbondNotFoundError,
  RainbondRateLimitError,
  RainbondServerError,
  RainbondTimeoutError,
  createRainbondClient,
} from "../../src/index.js";
import { retryDelay } from "../../src/transport.js";
import { TOKEN, component, expectNoSecrets, faultClient, paths, rejection } from "./helpers.js";
import {
  NGINX_502,
  answer,
  closedPort,
  countingFetch,
  recordingLogger,
  startFaultServer,
  type FaultServer,
} from "./server.js";

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());
afterEach(() => server.reset());

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
    server.script("GET", paths.component, unavailable, answer.json(200, found));
    const { client, log } = faultClient(server.url);
    await expect(client.components.get(component)).resolves.toEqual(found);
    expect(server.count("GET", paths.component)).toBe(2);
    const warnings = log.lines.filter((l) => l.startsWith("warn"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/components\.get \(GET .*\) failed with 503: 服务暂不可用; retry 1 of 2 in \d+ ms/);
    expectNoSecrets(undefined, log.lines);
  });

  it("503 then success: a PUT is replayed with the same body", async () => {
    server.script(
      "PUT",
      paths.port,
      unavailable,
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
    expect(server.requests.every((r) => r.headers.authorization === TOKEN)).toBe(true);
    expectNoSecrets(undefined, log.lines);
  });

  it("502 then 504 then success: a DELETE resolves after 3 requests", async () => {
    server.script(
      "DELETE",
      paths.port,
      answer.html(502, NGINX_502),
      answer.json(504, null),
      answer.json(200, bean({ container_port: 8080 })),
    );
    const { client, log } = faultClient(server.url);
    await expect(client.ports.delete(component, 8080)).resolves.toEqual({ container_port: 8080 });
    expect(server.count("DELETE", paths.port)).toBe(3);
    expectNoSecrets(undefined, log.lines);
  });

  it("408 then success: retried", async () => {
    server.script("GET", paths.component, answer.json(408, { msg: "request timeout" }), answer.json(200, found));
    const { client, log } = faultClient(server.url);
    await expect(client.components.get(component)).resolves.toEqual(found);
    expect(server.count("GET", paths.component)).toBe(2);
    expectNoSecrets(undefined, log.lines);
  });

  it("a 503 that lasts: the last error after 1 + retries requests (client default, and per call)", async () => {
    server.script("GET", paths.component, unavailable);
    const { client, log } = faultClient(server.url, { retries: 3 });
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondServerError);
    expect(err).toMatchObject({ status: 503, code: 503, msgShow: "服务暂不可用" });
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
    server.script("POST", paths.ports, unavailable, answer.json(200, bean({ container_port: 8080 })));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.ports.add(component, { port: 8080, protocol: "http" }, { retries: 5 }));
    expect(err).toBeInstanceOf(RainbondServerError);
    expect(err).toMatchObject({ status: 503, operation: "ports.add", method: "POST" });
    expect(server.count("POST", paths.ports)).toBe(1);
    expect(log.lines.filter((l) => l.startsWith("warn"))).toEqual([]);
    expectNoSecrets(err, log.lines);
  });
});

describe("Retry-After", () => {
  it("429 with Retry-After: 1 (seconds) waits that second, then succeeds", async () => {
    server.script(
      "GET",
      paths.component,
      answer.json(429, { code: 429, msg: "too many requests", msg_show: "请求过于频繁" }, { "retry-after": "1" }),
      answer.json(200, found),
    );
    const { client, log } = faultClient(server.url);
    const started = performance.now();
    await expect(client.components.get(component)).resolves.toEqual(found);
    const elapsed = performance.now() - started;
    // The backoff alone is at most 20 ms here: only Retry-After explains a wait of a second.
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(5_000);
    expect(server.count("GET", paths.component)).toBe(2);
    expect(log.lines.some((l) => /retry 1 of 2 in 1000 ms/.test(l))).toBe(true);
    expectNoSecrets(undefined, log.lines);
  });

  it("429 with a Retry-After in seconds beyond the cap is not waited for: the RainbondRateLimitError at once", async () => {
    server.script(
      "GET",
      paths.component,
      answer.json(429, { msg: "slow down" }, { "retry-after": "120" }),
      answer.json(200, found),
    );
    const { client, log } = faultClient(server.url); // cap 5 s
    const started = performance.now();
    const err = await rejection(client.components.get(component));
    expect(performance.now() - started).toBeLessThan(2_000); // far from the 120 s asked for
    expect(err).toBeInstanceOf(RainbondRateLimitError);
    expect(err).toMatchObject({ status: 429, msg: "slow down" });
    expect(server.count("GET", paths.component)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("429 with a Retry-After HTTP date beyond the cap is not waited for either (the date was understood)", async () => {
    const later = new Date(Date.now() + 3_600_000).toUTCString();
    server.script(
      "GET",
      paths.component,
      answer.json(429, { msg: "slow down" }, { "retry-after": later }),
      answer.json(200, found),
    );
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondRateLimitError);
    expect(server.count("GET", paths.component)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("429 with a Retry-After HTTP date already past: the client's own backoff, not at once", async () => {
    const past = new Date(Date.now() - 60_000).toUTCString();
    server.script(
      "GET",
      paths.component,
      answer.json(429, { msg: "slow down" }, { "retry-after": past }),
      answer.json(200, found),
    );
    const { client, log } = faultClient(server.url);
    await expect(client.components.get(component)).resolves.toEqual(found);
    expect(server.count("GET", paths.component)).toBe(2);
    expect(log.lines.some((l) => /retry 1 of 2 in [45] ms/.test(l))).toBe(true); // baseMs 5, up to 25% jitter
  });

  it("a 503 with Retry-After is read like a 429 (0: the client's own backoff)", async () => {
    server.script(
      "PUT",
      paths.port,
      answer.json(503, null, { "retry-after": "0" }),
      answer.json(200, bean({ container_port: 8080 })),
    );
    const { client, log } = faultClient(server.url);
    await expect(client.ports.closeInner(component, 8080)).resolves.toEqual({ container_port: 8080 });
    expect(server.count("PUT", paths.port)).toBe(2);
    expect(log.lines.some((l) => /retry 1 of 2 in [45] ms/.test(l))).toBe(true);
  });

  it("retryDelay reads seconds and HTTP dates, caps them, and otherwise backs off exponentially with jitter", () => {
    const config = { baseMs: 100, maxMs: 1_000, retryAfterCapMs: 60_000 };
    const withHeader = (value: string) => new Response(null, { status: 429, headers: { "retry-after": value } });
    expect(retryDelay(config, 0, withHeader("2"))).toBe(2_000);
    const inThirty = new Date(Date.now() + 30_000).toUTCString();
    const fromDate = retryDelay(config, 0, withHeader(inThirty))!;
    expect(fromDate).toBeGreaterThan(28_000);
    expect(fromDate).toBeLessThanOrEqual(30_000);
    expect(retryDelay(config, 0, withHeader("61"))).toBeUndefined();
    expect(retryDelay(config, 0, withHeader(new Date(Date.now() + 120_000).toUTCString()))).toBeUndefined();
    for (let attempt = 0; attempt < 8; attempt++) {
      const expected = Math.min(100 * 2 ** attempt, 1_000);
      for (const delay of [retryDelay(config, attempt), retryDelay(config, attempt, withHeader("soon"))]) {
        expect(delay).toBeGreaterThanOrEqual(expected * 0.75);
        expect(delay).toBeLessThanOrEqual(expected);
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
    expectNoSecrets(err, log.lines);
  });

  it("a reset connection under a POST: not replayed (the request may have reached the console)", async () => {
    server.script("POST", paths.ports, answer.reset());
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.ports.add(component, { port: 8080, protocol: "http" }));
    expect(err).toBeInstanceOf(RainbondConnectionError);
    expect(server.count("POST", paths.ports)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("a hang: a RainbondTimeoutError (a RainbondConnectionError) after 3 attempts of timeoutMs each", async () => {
    server.script("GET", paths.component, answer.hang());
    const { client, log } = faultClient(server.url, { timeoutMs: 100 });
    const started = performance.now();
    const err = await rejection(client.components.get(component));
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(err).toBeInstanceOf(RainbondTimeoutError);
    expect(err).toBeInstanceOf(RainbondConnectionError);
    expect(err).toMatchObject({ name: "RainbondTimeoutError", operation: "components.get", method: "GET" });
    expect((err as Error).message).toContain("no answer within 100 ms");
    expect(server.count("GET", paths.component)).toBe(3);
    expectNoSecrets(err, log.lines);
  });

  it("a hang under a POST: one attempt, then the RainbondTimeoutError", async () => {
    server.script("POST", paths.ports, answer.hang());
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.ports.add(component, { port: 8080, protocol: "http" }, { timeoutMs: 100 }));
    expect(err).toBeInstanceOf(RainbondTimeoutError);
    expect(server.count("POST", paths.ports)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("the call's timeoutMs overrides the client's", async () => {
    server.script("GET", paths.component, answer.hang());
    const { client, log } = faultClient(server.url, { timeoutMs: 30_000 });
    const err = await rejection(client.components.get(component, { timeoutMs: 80, retries: 1 }));
    expect(err).toBeInstanceOf(RainbondTimeoutError);
    expect((err as Error).message).toContain("no answer within 80 ms");
    expect(server.count("GET", paths.component)).toBe(2);
    expectNoSecrets(err, log.lines);
  });

  it("a slow body: the per-attempt timeout covers the body too, and fires while it trickles", async () => {
    const chunks = ['{"service_id": ', '"gr3f9c2a", ', ...Array.from({ length: 40 }, () => " ")];
    server.script("GET", paths.component, answer.slow(200, [...chunks, "}"], 25));
    const { client, log } = faultClient(server.url, { timeoutMs: 150 });
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondTimeoutError);
    expect(server.count("GET", paths.component)).toBe(3);
    // Each attempt got its headers and part of the body before it gave up, and none got the whole body.
    expect(server.slowChunksWritten).toHaveLength(3);
    for (const written of server.slowChunksWritten) {
      expect(written).toBeGreaterThanOrEqual(1);
      expect(written).toBeLessThan(chunks.length + 1);
    }
    expectNoSecrets(err, log.lines);
  });

  it("a slow body within the timeout is read whole", async () => {
    server.script("GET", paths.component, answer.slow(200, ['{"service_id": ', '"gr3f9c2a"}'], 10));
    const { client } = faultClient(server.url, { timeoutMs: 1_000 });
    await expect(client.components.get(component)).resolves.toEqual({ service_id: "gr3f9c2a" });
    expect(server.count("GET", paths.component)).toBe(1);
  });

  it("an answer that comes after timeoutMs from a fetch that ignores the signal: the attempt timed out at its deadline", async () => {
    const calls: string[] = [];
    const lateFetch: typeof fetch = async (input) => {
      calls.push(String(input instanceof Request ? input.url : input));
      await new Promise((resolve) => setTimeout(resolve, 120)); // the fault under test: an answer later than timeoutMs
      return new Response(JSON.stringify({ code: 4000, msg: "app not found", msg_show: "应用不存在" }), {
        status: 404,
        headers: { "content-type": "application/json" },
      });
    };
    const { client, log } = faultClient("http://127.0.0.1:9", { fetch: lateFetch, timeoutMs: 30, retries: 0 });
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondTimeoutError);
    expect((err as Error).message).toMatch(/no answer within 30 ms$/);
    expect(calls).toHaveLength(1);
    expectNoSecrets(err, log.lines);
  });
});

describe("connection refused: the request provably never left", () => {
  it("a POST is sent again when the connection was refused (3 attempts, none reached a server)", async () => {
    const port = await closedPort();
    const counter = countingFetch();
    const { client, log } = faultClient(`http://127.0.0.1:${port}`, { fetch: counter.fetch });
    const err = await rejection(client.ports.add(component, { port: 8080, protocol: "http" }));
    expect(err).toBeInstanceOf(RainbondConnectionError);
    expect(err).not.toBeInstanceOf(RainbondTimeoutError);
    expect((err as Error).message).toContain("ECONNREFUSED");
    expect(counter.calls).toHaveLength(3);
    expect(counter.calls.every((c) => c.method === "POST")).toBe(true);
    expectNoSecrets(err, log.lines);
  });

  it("a GET too, and retries: 0 means one attempt", async () => {
    const port = await closedPort();
    const counter = countingFetch();
    const { client, log } = faultClient(`http://127.0.0.1:${port}`, { fetch: counter.fetch });
    await expect(client.components.get(component)).rejects.toBeInstanceOf(RainbondConnectionError);
    expect(counter.calls).toHaveLength(3);
    const err = await rejection(client.ports.add(component, { port: 8080, protocol: "http" }, { retries: 0 }));
    expect(err).toBeInstanceOf(RainbondConnectionError);
    expect(counter.calls).toHaveLength(4);
    expectNoSecrets(err, log.lines);
  });
});

describe("the caller's AbortSignal", () => {
  it("cancels a backoff wait at once: RainbondAbortError, no further request", async () => {
    server.script("GET", paths.component, unavailable, answer.json(200, found));
    const log = recordingLogger();
    const client = createRainbondClient({
      baseUrl: server.url,
      token: TOKEN,
      retryDelay: { baseMs: 30_000, maxMs: 30_000 },
      logger: log.logger,
    });
    const controller = new AbortController();
    const call = rejection(client.components.get(component, { signal: controller.signal }));
    await log.waitForLine((l) => l.includes("retry 1 of 2"));
    const abortedAt = performance.now();
    controller.abort();
    const err = await call;
    expect(performance.now() - abortedAt).toBeLessThan(2_000); // far from the 30 s backoff
    expect(err).toBeInstanceOf(RainbondAbortError);
    expect((err as Error).message).toMatch(/^components\.get \(GET .*\) was aborted by the caller$/);
    expect(server.count("GET", paths.component)).toBe(1);
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
    expect(await call).toBeInstanceOf(RainbondAbortError);
    expect(server.count("POST", paths.ports)).toBe(1);
    expectNoSecrets(undefined, log.lines);
  });
});
