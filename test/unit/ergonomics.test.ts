// Ergonomics: iterating over pages, the port action helpers, toSamples, withResponse() and cancelling before the start.
import { describe, expect, it } from "vitest";
import { RainbondAbortError, RainbondInputError, RainbondNotFoundError, toSamples } from "../../src/index.js";
import { component, faultClient, paths, rejection } from "./faults/helpers.js";
import { answer, countingFetch, useFaultServer } from "../helpers/faults/server.js";

const server = useFaultServer();

const regionNamed = (name: string) => ({ region_id: `id-${name}`, region_name: name, token: null });
const page = (total: number, ...names: string[]) => answer.json(200, { total, regions: names.map(regionNamed) });

describe("regions.iterateForTeam", () => {
  it("walks the pages in order and stops once it has seen `total` regions", async () => {
    server.script("GET", paths.teamRegions, page(5, "r1", "r2"), page(5, "r3", "r4"), page(5, "r5"), page(5, "never"));
    const { client } = faultClient(server.url);
    const names: string[] = [];
    for await (const region of client.regions.iterateForTeam(component.teamId, { pageSize: 2 })) {
      names.push(region.region_name);
    }
    expect(names).toEqual(["r1", "r2", "r3", "r4", "r5"]);
    expect(server.count("GET", paths.teamRegions)).toBe(3);
    expect(server.requests.map((r) => Object.fromEntries(r.query))).toEqual([
      { page: "1", page_size: "2" },
      { page: "2", page_size: "2" },
      { page: "3", page_size: "2" },
    ]);
  });

  it("stops on total even when a full last page leaves more on the server", async () => {
    server.script("GET", paths.teamRegions, page(4, "r1", "r2"), page(4, "r3", "r4"), page(4, "r5", "r6"));
    const { client } = faultClient(server.url);
    const all = [];
    for await (const region of client.regions.iterateForTeam(component.teamId, { pageSize: 2 })) all.push(region);
    expect(all).toHaveLength(4);
    expect(server.count("GET", paths.teamRegions)).toBe(2);
  });

  it("stops on an empty page when total promised more", async () => {
    server.script("GET", paths.teamRegions, page(10, "r1", "r2"), page(10), page(10, "never"));
    const { client } = faultClient(server.url);
    const all = [];
    for await (const region of client.regions.iterateForTeam(component.teamId, { pageSize: 2 })) all.push(region);
    expect(all.map((r) => r.region_name)).toEqual(["r1", "r2"]);
    expect(server.count("GET", paths.teamRegions)).toBe(2);
  });

  it("asks for no further page when the caller stops early", async () => {
    server.script("GET", paths.teamRegions, page(6, "r1", "r2"), page(6, "r3", "r4"));
    const { client } = faultClient(server.url);
    for await (const region of client.regions.iterateForTeam(component.teamId, { pageSize: 2 })) {
      expect(region.region_name).toBe("r1");
      break;
    }
    expect(server.count("GET", paths.teamRegions)).toBe(1);
  });

  it("passes an error of a later page on, after the regions it already had", async () => {
    server.script(
      "GET",
      paths.teamRegions,
      page(4, "r1", "r2"),
      answer.json(404, { code: 2000, msg: "team not found", msg_show: "团队不存在" }),
    );
    const { client } = faultClient(server.url);
    const names: string[] = [];
    const err = await rejection(
      (async () => {
        for await (const region of client.regions.iterateForTeam(component.teamId, { pageSize: 2 }))
          names.push(region.region_name);
      })(),
    );
    expect(names).toEqual(["r1", "r2"]);
    expect(err).toBeInstanceOf(RainbondNotFoundError);
    expect(err).toMatchObject({ code: 2000, operation: "regions.listForTeam" });
    expect(server.count("GET", paths.teamRegions)).toBe(2);
  });

  it("refuses a bad team id before any request", async () => {
    const { client } = faultClient(server.url);
    const iterator = client.regions.iterateForTeam("../admin");
    await expect(iterator.next()).rejects.toBeInstanceOf(RainbondInputError);
    expect(server.requests).toHaveLength(0);
  });
});

describe("port action helpers", () => {
  const bean = { code: 200, msg: "success", msg_show: "成功", data: { bean: { container_port: 8080 }, list: [] } };
  it.each([
    ["openOuter", [], { action: "open_outer" }],
    ["closeOuter", [], { action: "close_outer" }],
    ["openInner", [], { action: "open_inner" }],
    ["closeInner", [], { action: "close_inner" }],
    ["changeProtocol", ["udp"], { action: "change_protocol", protocol: "udp" }],
    [
      "changeAlias",
      [{ port_alias: "WEB", k8s_service_name: "web-svc" }],
      { action: "change_port_alias", port_alias: "WEB", k8s_service_name: "web-svc" },
    ],
  ] as const)("ports.%s sends PUT .../ports/8080 with the right action", async (helper, extra, body) => {
    server.script("PUT", paths.port, answer.json(200, bean));
    const { client } = faultClient(server.url);
    const call = client.ports[helper] as (...args: unknown[]) => Promise<unknown>;
    await expect(call(component, 8080, ...extra)).resolves.toEqual({ container_port: 8080 });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.method).toBe("PUT");
    expect(request!.pathname).toBe(paths.port);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request!.body)).toEqual(body);
  });

  it("changeAlias cannot be turned into another action through its alias argument", async () => {
    server.script("PUT", paths.port, answer.json(200, bean));
    const { client } = faultClient(server.url);
    await client.ports.changeAlias(component, 8080, {
      port_alias: "WEB",
      k8s_service_name: "web",
      action: "close_outer",
    } as never);
    expect(JSON.parse(server.requests[0]!.body)).toEqual({
      action: "change_port_alias",
      port_alias: "WEB",
      k8s_service_name: "web",
    });
  });

  it("ports.list unwraps data.list from the envelope, and takes a bare array too", async () => {
    const ports = [{ container_port: 8080 }, { container_port: 3306 }];
    server.script(
      "GET",
      paths.ports,
      answer.json(200, { code: 200, msg: "success", msg_show: "成功", data: { bean: {}, list: ports } }),
      answer.json(200, ports),
    );
    const { client } = faultClient(server.url);
    await expect(client.ports.list(component)).resolves.toEqual(ports);
    await expect(client.ports.list(component)).resolves.toEqual(ports);
  });
});

describe("toSamples", () => {
  it("turns [timestamp, value] string pairs into { time: Date, value: number }", () => {
    const samples = toSamples({
      result: [{ value: ["1763000000", "0.25"] }, { value: ["1763000060.5", "1e3"] }, { value: ["1763000120", "NaN"] }],
    });
    expect(samples).toEqual([
      { time: new Date(1_763_000_000_000), value: 0.25 },
      { time: new Date(1_763_000_060_500), value: 1000 },
      { time: new Date(1_763_000_120_000), value: Number.NaN },
    ]);
    expect(samples[0]!.time).toBeInstanceOf(Date);
    expect(samples[0]!.time.toISOString()).toBe("2025-11-13T02:13:20.000Z");
  });
  it("gives no samples for a missing result", () => {
    expect(toSamples(null)).toEqual([]);
    expect(toSamples(undefined)).toEqual([]);
    expect(toSamples({ result: [] })).toEqual([]);
  });
});

describe("withResponse()", () => {
  it("gives the data and the raw Response (status, headers) of the one request", async () => {
    const record = { service_id: "gr3f9c2a", service_cname: "web" };
    server.script("GET", paths.component, answer.json(200, record, { "x-request-id": "abc-123", etag: '"v7"' }));
    const { client } = faultClient(server.url);
    const call = client.components.get(component);
    const { data, response } = await call.withResponse();
    expect(data).toEqual(record);
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get("x-request-id")).toBe("abc-123");
    expect(response.headers.get("etag")).toBe('"v7"');
    expect(response.url).toBe(`${server.url}${paths.component}`);
    // Awaiting the same call gives the same data, without a second request.
    await expect(call).resolves.toEqual(record);
    expect(server.count("GET", paths.component)).toBe(1);
  });

  it("shows the 201 of createHttpRule", async () => {
    server.script("POST", paths.httpRules, answer.json(201, { http_rule_id: "r1", domain_name: "shop.example.org" }));
    const { client } = faultClient(server.url);
    const { data, response } = await client.gateway
      .createHttpRule(
        { teamId: component.teamId, regionName: "rainbond", appId: 12 },
        { service_id: "gr3f9c2a", container_port: 8080, domain_name: "shop.example.org" },
      )
      .withResponse();
    expect(response.status).toBe(201);
    expect(data).toEqual({ http_rule_id: "r1", domain_name: "shop.example.org" });
  });

  it("rejects with the client's error when the call fails", async () => {
    server.script("GET", paths.component, answer.json(404, null));
    const { client } = faultClient(server.url);
    await expect(client.components.get(component).withResponse()).rejects.toBeInstanceOf(RainbondNotFoundError);
  });
});

describe("cancelling before the start", () => {
  it("an already aborted signal: RainbondAbortError, and nothing is sent", async () => {
    const counter = countingFetch();
    const { client } = faultClient(server.url, { fetch: counter.fetch });
    const controller = new AbortController();
    controller.abort();
    for (const call of [
      () => client.components.get(component, { signal: controller.signal }),
      () => client.ports.add(component, { port: 8080, protocol: "http" }, { signal: controller.signal }),
      () => client.ports.openOuter(component, 8080, { signal: AbortSignal.abort() }),
    ]) {
      const err = await rejection(call());
      expect(err).toBeInstanceOf(RainbondAbortError);
      expect((err as Error).message).toMatch(/was aborted by the caller$/);
    }
    expect(counter.calls).toHaveLength(0);
    expect(server.requests).toHaveLength(0);
  });

  it("input errors come first: a bad input with an aborted signal is a RainbondInputError", async () => {
    const { client } = faultClient(server.url);
    await expect(client.ports.delete(component, 0, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      RainbondInputError,
    );
  });
});
