// How requests reach fetch: with no middleware, the client builds the URL and init and hands them to fetch (one
// Request per attempt, built by fetch); with middleware, from the options or added later through client.raw.use,
// every middleware sees a real Request and what it changes reaches the server. And client.raw's requests go through
// the same transport as a method's.
import { afterEach, describe, expect, test, vi } from "vitest";
import type { Middleware } from "openapi-fetch";
import {
  RainbondConnectionError,
  RainbondRedirectError,
  RainbondResponseTooLargeError,
  RainbondTimeoutError,
  createRainbondClient,
} from "../../src/index.js";
import { TOKEN, expectNoSecrets, faultClient, installBodyWith, paths, rejection } from "./faults/helpers.js";
import { answer, closedPort, countingFetch, useFaultServer } from "../helpers/faults/server.js";
import { successOf } from "../helpers/spec.js";

const component = { teamId: "q8k2mz5d", regionName: "rainbond", appId: 12, serviceId: "gr3f9c2a" };
const record = successOf("getComponent").example;
const server = useFaultServer(() => ({ body: record }));

/** A fetch that records what it was called with, then calls the real one. */
function spyFetch() {
  const calls: { input: unknown; init: RequestInit | undefined }[] = [];
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ input, init });
    return globalThis.fetch(input, init);
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

/** A middleware that stamps a header on each request and records what it was given. */
function stamping(name: string) {
  const seen: unknown[] = [];
  const middleware: Middleware = {
    onRequest({ request }) {
      seen.push(request);
      request.headers.set("x-stamp", name);
      return request;
    },
  };
  return { seen, middleware };
}

describe("the request path", () => {
  test("without middleware, fetch gets the URL and init as built, with the token and an abort signal", async () => {
    const spy = spyFetch();
    const client = createRainbondClient({ baseUrl: server.url, token: "tok-direct-1", fetch: spy.fetch });
    await expect(client.components.get(component)).resolves.toEqual(record);
    expect(spy.calls).toHaveLength(1);
    const [{ input, init }] = spy.calls as [{ input: unknown; init: RequestInit }];
    expect(input).toBe(`${server.url}/openapi/v1/teams/q8k2mz5d/regions/rainbond/apps/12/services/gr3f9c2a`);
    expect(new Headers(init.headers).get("authorization")).toBe("tok-direct-1");
    expect(init.method).toBe("GET");
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(server.requests.at(-1)!.headers.authorization).toBe("tok-direct-1");
  });

  test("a POST body goes through the same way, serialised once", async () => {
    const spy = spyFetch();
    const client = createRainbondClient({ baseUrl: server.url, token: "tok-direct-2", fetch: spy.fetch });
    await client.ports.add(component, { port: 8080, protocol: "http", is_inner_service: true });
    const [{ input, init }] = spy.calls as [{ input: unknown; init: RequestInit }];
    expect(typeof input).toBe("string");
    expect(init.body).toBe(JSON.stringify({ port: "8080", protocol: "http", is_inner_service: true }));
    expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({
      port: "8080",
      protocol: "http",
      is_inner_service: true,
    });
  });

  test("middleware given in the options sees real Requests, and its changes reach the server", async () => {
    const spy = spyFetch();
    const stamp = stamping("from-options");
    const client = createRainbondClient({
      baseUrl: server.url,
      token: "tok-mw-1",
      fetch: spy.fetch,
      middleware: [stamp.middleware],
    });
    await expect(client.components.get(component)).resolves.toEqual(record);
    expect(stamp.seen).toHaveLength(1);
    expect(stamp.seen[0]).toBeInstanceOf(Request);
    expect(spy.calls[0]!.input).toBeInstanceOf(Request);
    expect(server.requests.at(-1)!.headers["x-stamp"]).toBe("from-options");
  });

  test("client.raw is openapi-fetch's client of the same console: options' middleware and the token reach it, raw.use only its calls", async () => {
    const spy = spyFetch();
    const given = stamping("from-options");
    const client = createRainbondClient({
      baseUrl: server.url,
      token: "tok-mw-2",
      fetch: spy.fetch,
      middleware: [given.middleware],
    });
    const later = stamping("from-raw-use");
    client.raw.use(later.middleware);
    const { response } = await client.raw.GET("/openapi/v1/httpdomains");
    expect(response.status).toBe(200);
    expect(server.requests.at(-1)!.headers.authorization).toBe("tok-mw-2");
    expect([given.seen.length, later.seen.length]).toEqual([1, 1]);
    // the methods run the middleware of the options, not what raw.use added
    await expect(client.components.get(component)).resolves.toEqual(record);
    expect([given.seen.length, later.seen.length]).toEqual([2, 1]);
  });
});

// client.raw is openapi-fetch's client with the client's own transport as its fetch: the same timeout, retries,
// redirect rule, body cap, errors and masking as a method. An answer of any status comes back as openapi-fetch gives
// it ({ data } or { error }, with the Response); a failure without one throws the client's error.
describe("client.raw through the client's transport", () => {
  const faults = useFaultServer();
  const other = useFaultServer(); // another origin, where a hostile redirect points
  afterEach(() => vi.useRealTimers());
  const ids = { team_id: "q8k2mz5d", region_name: "rainbond", app_id: 12, service_id: "gr3f9c2a" };
  const componentPath = "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}";
  const portsPath = `${componentPath}/ports` as const;

  test("retries a 503 as a method does: the data of the answer that followed, after 2 requests", async () => {
    faults.script("GET", paths.component, answer.json(503, { msg: "busy" }), answer.json(200, { service_id: "x" }));
    const { client, log } = faultClient(faults.url);
    const { data, response } = await client.raw.GET(componentPath, { params: { path: ids } });
    expect(response.status).toBe(200);
    expect(data).toEqual({ service_id: "x" });
    expect(faults.count("GET", paths.component)).toBe(2);
    expect(log.lines.filter((l) => l.startsWith("warn"))).toEqual([
      expect.stringMatching(
        /^warn \[rainbond\] raw\.GET \(GET \/openapi\/v1\/teams\/.*\) failed with 503: busy; retry 1 of 2 in/,
      ),
    ]);
  });

  test("does not replay a POST answered 503: the answer comes back as openapi-fetch's error, sent once", async () => {
    faults.script("POST", paths.ports, answer.json(503, { msg: "busy" }));
    const { client } = faultClient(faults.url);
    const body = { port: "8080", protocol: "http" } as const;
    const { error, response } = await client.raw.POST(portsPath, { params: { path: ids }, body });
    expect(response.status).toBe(503);
    expect(error).toEqual({ msg: "busy" });
    expect(faults.count("POST", paths.ports)).toBe(1);
  });

  test("does not replay a GET the console does not treat as idempotent (a user's close), under a path prefix too", async () => {
    const close = "/openapi/v1/users/7/close";
    for (const prefix of ["", "/console"]) {
      faults.script("GET", `${prefix}${close}`, answer.json(503, { msg: "busy" }), answer.json(200, {}));
      const { client } = faultClient(`${faults.url}${prefix}`);
      const { error, response } = await client.raw.GET("/openapi/v1/users/{user_id}/close", {
        params: { path: { user_id: 7 } },
      });
      expect([response.status, error]).toEqual([503, { msg: "busy" }]);
      expect(faults.count("GET", `${prefix}${close}`)).toBe(1);
    }
    // a GET of the same user that reads is replayed as any GET
    faults.script("GET", "/openapi/v1/users/7", answer.json(503, { msg: "busy" }), answer.json(200, { user_id: 7 }));
    const { client } = faultClient(faults.url);
    const { data } = await client.raw.GET("/openapi/v1/users/{user_id}", { params: { path: { user_id: "7" } } });
    expect(data).toEqual({ user_id: 7 });
    expect(faults.count("GET", "/openapi/v1/users/7")).toBe(2);
  });

  test("sends a POST again when the connection was refused, and then throws the client's connection error", async () => {
    const port = await closedPort();
    const counter = countingFetch();
    const { client } = faultClient(`http://127.0.0.1:${port}`, { fetch: counter.fetch });
    const body = { port: "8080", protocol: "http" } as const;
    const err = await rejection(client.raw.POST(portsPath, { params: { path: ids }, body }));
    expect(err).toBeInstanceOf(RainbondConnectionError);
    expect(err).toMatchObject({ operation: "raw.POST", method: "POST", path: paths.ports });
    expect(counter.calls.map((c) => c.method)).toEqual(["POST", "POST", "POST"]);
  });

  test("refuses a redirect to another origin: RainbondRedirectError, nothing reaches it, not retried", async () => {
    faults.script("GET", paths.component, answer.redirect(302, `${other.url}/steal`));
    const { client } = faultClient(faults.url);
    const err = await rejection(client.raw.GET(componentPath, { params: { path: ids } }));
    expect(err).toBeInstanceOf(RainbondRedirectError);
    expect(err).toMatchObject({ location: other.url, operation: "raw.GET" });
    expect(other.requests).toHaveLength(0);
    expect(faults.count("GET", paths.component)).toBe(1);
  });

  test("follows a redirect within the origin with the token", async () => {
    faults.script("GET", paths.component, answer.redirect(301, paths.ports));
    faults.script("GET", paths.ports, answer.json(200, []));
    const { client } = faultClient(faults.url);
    const { data } = await client.raw.GET(componentPath, { params: { path: ids } });
    expect(data).toEqual([]);
    expect(faults.requests.map((r) => r.headers.authorization)).toEqual([TOKEN, TOKEN]);
  });

  test("caps the body: RainbondResponseTooLargeError past maxResponseBytes, not read further", async () => {
    faults.script("GET", paths.ports, answer.stream(200, "0"));
    const { client } = faultClient(faults.url, { maxResponseBytes: 1_000 });
    const err = await rejection(client.raw.GET(portsPath, { params: { path: ids } }));
    expect(err).toBeInstanceOf(RainbondResponseTooLargeError);
    expect(err).toMatchObject({ status: 200, maxResponseBytes: 1_000, operation: "raw.GET" });
  });

  test("times out: RainbondTimeoutError after timeoutMs per attempt, each retried", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    faults.script("GET", paths.component, answer.hang());
    const { client } = faultClient(faults.url, { timeoutMs: 100, retries: 1 });
    const call = rejection(client.raw.GET(componentPath, { params: { path: ids } }));
    await faults.waitFor("GET", paths.component, 1);
    await vi.advanceTimersByTimeAsync(100 + 5); // the attempt, then the backoff
    await faults.waitFor("GET", paths.component, 2);
    await vi.advanceTimersByTimeAsync(100);
    const err = await call;
    expect(err).toBeInstanceOf(RainbondTimeoutError);
    expect((err as Error).message).toContain("no answer within 100 ms");
  });

  test("masks an error answer as a method's error body: the token and secret fields gone, error_trace dropped", async () => {
    const key = "mkey-Zr8vQ2nL5pX1";
    faults.script(
      "POST",
      paths.install,
      answer.echo((seen) =>
        answer.json(400, { msg: `bad ${seen.headers.authorization}`, market_access_key: key, error_trace: "x" }),
      ),
    );
    const { client, log } = faultClient(faults.url);
    const path = "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/install" as const;
    const body = installBodyWith(key);
    const { error, response } = await client.raw.POST(path, { params: { path: ids }, body });
    expect(response.status).toBe(400);
    expect(error).toEqual({ msg: "bad [redacted]", market_access_key: "[redacted]" });
    expectNoSecrets(undefined, log.lines, [TOKEN, key]);
  });

  test("logs as a method does: the request at debug with its secret fields masked", async () => {
    faults.script("POST", paths.install, answer.json(200, { ID: 1 }));
    const { client, log } = faultClient(faults.url);
    const path = "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/install" as const;
    const key = "mkey-Zr8vQ2nL5pX1";
    await client.raw.POST(path, { params: { path: ids }, body: installBodyWith(key) });
    expect(log.lines.find((l) => l.startsWith("debug"))).toContain("market_access_key: '[redacted]'");
    expectNoSecrets(undefined, log.lines, [TOKEN, key]);
  });
});
