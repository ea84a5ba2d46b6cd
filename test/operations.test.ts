// Every method of the client against the Prism mock of generated/openapi.json (started with --errors, so Prism
// validates each request and answers an invalid one with 4xx and an `sl-violations` header). Each result must equal
// the example of the operation's success response in the spec, and no request of the client may be rejected. Both
// request paths run every case: without middleware (the client hands fetch a URL and an init) and with middleware
// (a Request per attempt, as openapi-fetch builds it); they must send the same requests.
// Then the query string the server sees for range monitoring and for boolean options, on a local recording server.
import type { Middleware } from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { createRainbondClient, type RainbondClient, type RainbondPromise } from "../src/index.js";
import { startRecordingServer, type RecordingServer } from "./helpers/recording-server.js";
import { operationOfRequest, responseExample, specOperations, successOf } from "./helpers/spec.js";

const TOKEN = "ops-test-token";
const region = { teamId: "q8k2mz5d", regionName: "rainbond" };
const app = { ...region, appId: 12 };
const component = { ...app, serviceId: "gr3f9c2a" };

/** One exchange seen by the recording middleware. */
interface Exchange {
  method: string;
  url: string;
  authorization: string | null;
  headers?: Record<string, string>;
  body: string;
  status?: number;
  violations?: string | null;
}

/** openapi-fetch middleware that records every request (with its body) and the status and headers of its answer. */
function recorder(exchanges: Exchange[]): Middleware {
  const byId = new Map<string, Exchange>();
  return {
    async onRequest({ request, id }) {
      const exchange: Exchange = {
        method: request.method,
        url: request.url,
        authorization: request.headers.get("authorization"),
        body: request.body ? await request.clone().text() : "",
      };
      byId.set(id, exchange);
      exchanges.push(exchange);
    },
    onResponse({ response, id }) {
      const exchange = byId.get(id);
      if (exchange) {
        exchange.status = response.status;
        exchange.violations = response.headers.get("sl-violations");
      }
    },
  };
}

/**
 * A fetch that records every request as the network would get it (whether it came as a Request or as a URL and an
 * init), with all its headers, and the status and `sl-violations` of its answer.
 */
function recordingFetch(exchanges: Exchange[]): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const exchange: Exchange = {
      method: request.method,
      url: request.url,
      authorization: request.headers.get("authorization"),
      headers: Object.fromEntries(request.headers),
      body: request.body ? await request.clone().text() : "",
    };
    exchanges.push(exchange);
    const response = await globalThis.fetch(request);
    exchange.status = response.status;
    exchange.violations = response.headers.get("sl-violations");
    return response;
  };
}

const EXTRA_HEADERS = { "X-Trace-Id": "ops-test", "Accept-Language": "en" };
/** What each request path sent, case by case. */
const sent: Record<RequestPath, Exchange[]> = { direct: [], "openapi-fetch": [] };
type RequestPath = "direct" | "openapi-fetch";
let exchanges: Exchange[] = [];
let client: RainbondClient;

function clientFor(path: RequestPath): RainbondClient {
  exchanges = sent[path];
  return createRainbondClient({
    baseUrl: inject("prismUrl"),
    token: TOKEN,
    headers: EXTRA_HEADERS,
    logLevel: "off",
    retries: 0,
    fetch: recordingFetch(exchanges),
    // a middleware that changes nothing: its presence alone makes openapi-fetch build every request
    middleware: path === "openapi-fetch" ? [{ onRequest: () => undefined }] : [],
  });
}

/** Runs one call and returns its data and the exchanges it made. */
async function run<T>(call: () => RainbondPromise<T>): Promise<{ data: T; response: Response; made: Exchange[] }> {
  const before = exchanges.length;
  const { data, response } = await call().withResponse();
  return { data, response, made: exchanges.slice(before) };
}

const now = Math.floor(Date.now() / 1000);

interface Case {
  method: string;
  op: string;
  call: () => RainbondPromise<unknown>;
  /** The JSON body the client must send, when it sends one. */
  sends?: unknown;
}

const cases: Case[] = [
  {
    method: "regions.listForTeam",
    op: "listTeamRegions",
    call: () => client.regions.listForTeam("q8k2mz5d", { page: 1, pageSize: 10, query: "rain bond/é&x=1" }),
  },
  {
    method: "regions.get",
    op: "getRegion",
    call: () => client.regions.get("3c8e1f0a2b4d4c6e8f0a1b2c3d4e5f60", { extendInfo: true }),
  },
  { method: "ports.list", op: "listComponentPorts", call: () => client.ports.list(component) },
  {
    method: "ports.add",
    op: "addComponentPort",
    call: () =>
      client.ports.add(component, { port: 8080, protocol: "http", port_alias: "WEB", is_inner_service: true }),
    sends: { port: "8080", protocol: "http", port_alias: "WEB", is_inner_service: true },
  },
  {
    method: "ports.update",
    op: "updateComponentPort",
    call: () => client.ports.update(component, 8080, { action: "change_protocol", protocol: "grpc" }),
    sends: { action: "change_protocol", protocol: "grpc" },
  },
  {
    method: "ports.openOuter",
    op: "updateComponentPort",
    call: () => client.ports.openOuter(component, 8080),
    sends: { action: "open_outer" },
  },
  {
    method: "ports.closeOuter",
    op: "updateComponentPort",
    call: () => client.ports.closeOuter(component, 8080),
    sends: { action: "close_outer" },
  },
  {
    method: "ports.openInner",
    op: "updateComponentPort",
    call: () => client.ports.openInner(component, 8080),
    sends: { action: "open_inner" },
  },
  {
    method: "ports.closeInner",
    op: "updateComponentPort",
    call: () => client.ports.closeInner(component, 8080),
    sends: { action: "close_inner" },
  },
  {
    method: "ports.changeProtocol",
    op: "updateComponentPort",
    call: () => client.ports.changeProtocol(component, 8080, "tcp"),
    sends: { action: "change_protocol", protocol: "tcp" },
  },
  {
    method: "ports.changeAlias",
    op: "updateComponentPort",
    call: () => client.ports.changeAlias(component, 8080, { port_alias: "API", k8s_service_name: "api-svc" }),
    sends: { action: "change_port_alias", port_alias: "API", k8s_service_name: "api-svc" },
  },
  { method: "ports.delete", op: "deleteComponentPort", call: () => client.ports.delete(component, 8080) },
  {
    method: "gateway.listEnterpriseHttpRules",
    op: "listEnterpriseHttpRules",
    call: () => client.gateway.listEnterpriseHttpRules({ autoSsl: true }),
  },
  {
    method: "gateway.updateHttpRule",
    op: "updateHttpRule",
    call: () =>
      client.gateway.updateHttpRule(app, "5f2e8a1c9b7d4e3f", {
        service_id: "gr3f9c2a",
        domain_path: "/api",
        domain_header: "X-Canary=true",
      }),
    sends: { service_id: "gr3f9c2a", domain_path: "/api", domain_header: "X-Canary=true" },
  },
  {
    method: "gateway.createRule (tcp)",
    op: "createGatewayRule",
    call: () =>
      client.gateway.createRule(app, { protocol: "tcp", tcp: { service_id: "gr3f9c2a", container_port: 3306 } }),
    sends: { protocol: "tcp", tcp: { service_id: "gr3f9c2a", container_port: 3306 } },
  },
  {
    method: "gateway.createRule (http)",
    op: "createGatewayRule",
    call: () =>
      client.gateway.createRule(app, {
        protocol: "http",
        http: {
          service_id: "gr3f9c2a",
          container_port: 8080,
          domain_name: "shop.example.org",
          domain_header: "X-Canary=true",
        },
      }),
  },
  {
    method: "gateway.createHttpRule",
    op: "createHttpRule",
    call: () =>
      client.gateway.createHttpRule(app, {
        service_id: "gr3f9c2a",
        container_port: 8080,
        domain_name: "shop.example.org",
        configuration: { proxy_buffering: "off", set_headers: [{ key: "X-From", value: "gateway" }] },
      }),
  },
  { method: "gateway.listHttpRules", op: "listAppHttpRules", call: () => client.gateway.listHttpRules(app) },
  { method: "monitor.query", op: "queryComponentMonitor", call: () => client.monitor.query(app, { isOuter: false }) },
  {
    method: "monitor.queryRange (Dates)",
    op: "queryComponentMonitorRange",
    call: () =>
      client.monitor.queryRange(app, {
        start: new Date((now - 3600) * 1000),
        end: new Date(now * 1000),
        isOuter: true,
      }),
  },
  {
    method: "monitor.queryRange (seconds)",
    op: "queryComponentMonitorRange",
    call: () => client.monitor.queryRange(app, { start: now - 600, end: now, step: 15 }),
  },
  {
    method: "teams.resources",
    op: "listTeamResources",
    call: () => client.teams.resources([{ tenant_id: "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e", region_name: "rainbond" }]),
    sends: [{ tenant_id: "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e", region_name: "rainbond" }],
  },
  { method: "apps.list", op: "listApps", call: () => client.apps.list(region, { query: "shop & co" }) },
  {
    method: "apps.install",
    op: "installApp",
    call: () =>
      client.apps.install(
        app,
        {
          market_url: "https://hub.grapps.cn",
          market_domain: "rainbond",
          market_type: "rainstore",
          market_access_key: "demo-store-key",
          app_model_id: "9e2c7a1f5b3d4e8a",
          app_model_version: "2.1.0",
        },
        { deploy: true },
      ),
  },
  { method: "components.get", op: "getComponent", call: () => client.components.get(component) },
];

describe.each(["direct", "openapi-fetch"] as const)("every client method against the Prism mock (%s)", (path) => {
  beforeAll(() => {
    client = clientFor(path);
  });

  test("the cases cover all 17 operations of the spec", () => {
    expect(specOperations).toHaveLength(17);
    expect(new Set(cases.map((c) => c.op))).toEqual(new Set(specOperations.map((o) => o.operationId)));
  });

  test.each(cases)(
    "$method returns the example of $op's success response, and Prism accepted the request",
    async (c) => {
      const { status, example } = successOf(c.op);
      const { data, response, made } = await run(c.call);

      expect(data).toEqual(example);
      expect(response.status).toBe(status);
      // one request, to this operation, with the token, and Prism found nothing wrong with it
      expect(made).toHaveLength(1);
      const [exchange] = made;
      expect(operationOfRequest(exchange!.method, exchange!.url)).toBe(c.op);
      expect(exchange!.authorization).toBe(TOKEN);
      expect(exchange!.headers).toMatchObject({ "x-trace-id": "ops-test", "accept-language": "en" });
      expect(exchange!.violations).toBeNull();
      expect(exchange!.status).toBe(status);
      if (c.sends !== undefined) expect(JSON.parse(exchange!.body)).toEqual(c.sends);
    },
  );

  test("regions.iterateForTeam yields the regions of the example page and stops on its total", async () => {
    const { example } = successOf("listTeamRegions");
    const page = example as { total: number; regions: unknown[] };
    const before = exchanges.length;
    const seen: unknown[] = [];
    for await (const item of client.regions.iterateForTeam("q8k2mz5d", { pageSize: 10 })) seen.push(item);
    expect(seen).toEqual(page.regions);
    expect(page.total).toBe(page.regions.length);
    const made = exchanges.slice(before);
    expect(made.length).toBeGreaterThanOrEqual(1);
    for (const e of made) {
      expect(operationOfRequest(e.method, e.url)).toBe("listTeamRegions");
      expect(e.violations).toBeNull();
      expect(e.status).toBe(200);
    }
  });

  test("no request the client sent was rejected by Prism's validation", () => {
    // every case above ran first (tests of a file run in order); this is the whole log of the client's requests
    expect(exchanges.length).toBeGreaterThanOrEqual(cases.length);
    const rejected = exchanges.filter(
      (e) => e.violations !== null || e.status === undefined || e.status < 200 || e.status > 299,
    );
    expect(rejected).toEqual([]);
  });
});

test("the direct and the openapi-fetch request paths sent the same requests: method, URL, headers and body", () => {
  const strip = ({ status: _s, violations: _v, ...request }: Exchange) => request;
  expect(sent.direct.length).toBeGreaterThanOrEqual(cases.length);
  expect(sent.direct.map(strip)).toEqual(sent["openapi-fetch"].map(strip));
  // a body is JSON with its content type; a request without one has none
  for (const e of sent.direct) expect(e.headers!["content-type"]).toBe(e.body ? "application/json" : undefined);
});

describe("Prism does reject a wrong request sent through client.raw", () => {
  const portPath =
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/ports/{port}" as const;
  const portsPath =
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/ports" as const;
  const componentPath =
    "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}" as const;
  const ids = { team_id: "q8k2mz5d", region_name: "rainbond", app_id: 12, service_id: "gr3f9c2a" };

  const rawExchanges: Exchange[] = [];
  let raw: RainbondClient["raw"];
  beforeAll(() => {
    raw = createRainbondClient({
      baseUrl: inject("prismUrl"),
      token: TOKEN,
      logLevel: "off",
      middleware: [recorder(rawExchanges)],
    }).raw;
  });

  type Violation = { location: string[]; code: string | number; message: string };
  const violationsOf = (response: Response): Violation[] => {
    const header = response.headers.get("sl-violations");
    expect(header, "sl-violations header").not.toBeNull();
    return JSON.parse(header!) as Violation[];
  };

  test("the same raw request with valid values passes (control)", async () => {
    const { response, data } = await raw.PUT(portPath, {
      params: { path: { ...ids, port: "8080" } },
      body: { action: "open_outer" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("sl-violations")).toBeNull();
    expect(data).toEqual(successOf("updateComponentPort").example);
  });

  test("an action outside the enum", async () => {
    const { response, error } = await raw.PUT(portPath, {
      params: { path: { ...ids, port: "8080" } },
      body: { action: "open" as never },
    });
    expect(response.status).toBe(400);
    const violations = violationsOf(response);
    expect(violations).toContainEqual(
      expect.objectContaining({ location: ["request", "body", "action"], code: "enum" }),
    );
    expect(error).toEqual(responseExample("updateComponentPort", 400));
  });

  test("a body without a required field", async () => {
    const { response } = await raw.POST(portsPath, { params: { path: ids }, body: { port: "8080" } as never });
    expect(response.status).toBe(400);
    expect(violationsOf(response)).toContainEqual(
      expect.objectContaining({ code: "required", message: expect.stringContaining("protocol") as unknown }),
    );
  });

  test("a port outside 1..65535 in the body", async () => {
    const { response } = await raw.POST(portsPath, {
      params: { path: ids },
      body: { port: "70000", protocol: "http" },
    });
    expect(response.status).toBe(400);
    expect(violationsOf(response)).toContainEqual(expect.objectContaining({ location: ["request", "body", "port"] }));
  });

  test("a path id of the wrong type", async () => {
    const { response } = await raw.GET(componentPath, { params: { path: { ...ids, app_id: "abc" as never } } });
    expect(response.status).toBe(400);
    expect(violationsOf(response)).toContainEqual(expect.objectContaining({ location: ["request", "path", "app_id"] }));
  });

  test("a range query without start and end", async () => {
    const { response } = await raw.GET(
      "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/monitor/query_range",
      {
        params: { path: { team_id: "q8k2mz5d", region_name: "rainbond", app_id: 12 }, query: {} as never },
      },
    );
    expect(response.status).toBe(400);
    const messages = violationsOf(response).map((v) => v.message);
    expect(messages.some((m) => m.includes("start"))).toBe(true);
    expect(messages.some((m) => m.includes("end"))).toBe(true);
  });

  test("the recording middleware saw each of these rejections", () => {
    const rejected = rawExchanges.filter((e) => e.violations !== null && e.status !== undefined && e.status >= 400);
    expect(rejected).toHaveLength(5);
  });
});

describe("query strings the server sees", () => {
  let server: RecordingServer;
  let local: RainbondClient;
  beforeAll(async () => {
    server = await startRecordingServer(
      (req) =>
        req.pathname.endsWith("/regions")
          ? { body: { total: 0, regions: [] } }
          : { body: req.method === "GET" && !/\/regions\/[^/]+$/.test(req.pathname) ? [] : {} }, // of the declared shape
    );
    local = createRainbondClient({ baseUrl: server.url, token: TOKEN, logLevel: "off", retries: 0 });
  });
  afterAll(() => server?.close());

  const lastQuery = () => {
    const last = server.requests.at(-1);
    expect(last).toBeDefined();
    return last!.query;
  };

  test("monitor.queryRange sends Dates as Unix seconds (rounded down) and step 60 by default", async () => {
    const start = new Date(1_700_000_000_999);
    const end = new Date(1_700_003_600_500);
    await local.monitor.queryRange(app, { start, end });
    const last = server.requests.at(-1)!;
    expect(last.method).toBe("GET");
    expect(last.pathname).toBe("/openapi/v1/teams/q8k2mz5d/regions/rainbond/apps/12/monitor/query_range");
    const query = lastQuery();
    expect(query.get("start")).toBe("1700000000");
    expect(query.get("end")).toBe("1700003600");
    expect(query.get("step")).toBe("60");
    expect(query.has("is_outer")).toBe(false);
  });

  test("monitor.queryRange passes seconds and an explicit step through, and isOuter as a string", async () => {
    await local.monitor.queryRange(app, { start: 1_700_000_000, end: 1_700_000_600, step: 15, isOuter: true });
    const query = lastQuery();
    expect(Object.fromEntries(query)).toEqual({ start: "1700000000", end: "1700000600", step: "15", is_outer: "true" });
  });

  const installBody = {
    market_url: "u",
    market_domain: "d",
    market_type: "t",
    market_access_key: "k",
    app_model_id: "m",
    app_model_version: "1",
  };
  test.each([
    {
      name: "monitor.query isOuter: false",
      call: () => local.monitor.query(app, { isOuter: false }),
      key: "is_outer",
      value: "false",
    },
    {
      name: "monitor.query isOuter: true",
      call: () => local.monitor.query(app, { isOuter: true }),
      key: "is_outer",
      value: "true",
    },
    {
      name: "regions.get extendInfo: true",
      call: () => local.regions.get("r1", { extendInfo: true }),
      key: "extend_info",
      value: "true",
    },
    {
      name: "regions.get extendInfo: false",
      call: () => local.regions.get("r1", { extendInfo: false }),
      key: "extend_info",
      value: "false",
    },
    {
      name: "gateway.listEnterpriseHttpRules autoSsl: true",
      call: () => local.gateway.listEnterpriseHttpRules({ autoSsl: true }),
      key: "auto_ssl",
      value: "true",
    },
    {
      name: "gateway.listEnterpriseHttpRules autoSsl: false",
      call: () => local.gateway.listEnterpriseHttpRules({ autoSsl: false }),
      key: "auto_ssl",
      value: "false",
    },
    {
      name: "apps.install deploy: true",
      call: () => local.apps.install(app, installBody, { deploy: true }),
      key: "is_deploy",
      value: "true",
    },
    {
      name: "apps.install deploy: false",
      call: () => local.apps.install(app, installBody, { deploy: false }),
      key: "is_deploy",
      value: "false",
    },
  ])("$name is sent as $key=$value", async ({ call, key, value }) => {
    const before = server.requests.length;
    await call();
    expect(server.requests.length).toBe(before + 1);
    expect(Object.fromEntries(lastQuery())).toEqual({ [key]: value });
  });

  test("regions.listForTeam sends page and page_size by their spec names", async () => {
    await local.regions.listForTeam("q8k2mz5d", { page: 2, pageSize: 5, query: "rain" });
    expect(Object.fromEntries(lastQuery())).toEqual({ page: "2", page_size: "5", query: "rain" });
  });
});
