// How requests reach fetch: with no middleware, the client builds the URL and init and hands them to fetch (one
// Request per attempt, built by fetch); with middleware, from the options or added later through client.raw.use,
// every middleware sees a real Request and what it changes reaches the server.
import { describe, expect, test } from "vitest";
import type { Middleware } from "openapi-fetch";
import { createRainbondClient } from "../src/index.js";
import { useFaultServer } from "./faults/server.js";
import { successOf } from "./helpers/spec.js";

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
