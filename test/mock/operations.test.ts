// Every method of the client (generated/table.json, called with the spec's examples as the start tour and the bench
// call them) against the Prism mock of generated/openapi.json, started with --errors so that Prism validates each
// request and answers an invalid one with 4xx and an `sl-violations` header: each result equals the example of the
// operation's success response, and no request is rejected. Then inputs in the forms the client takes (numbers, Dates,
// text to escape), raw requests Prism does reject, and the query strings a local recording server sees. Each test
// makes its own client and records its own requests: no test depends on another having run.
import type { Middleware } from "openapi-fetch";
import { callMethod, readMethods } from "../../scripts/lib/methods.ts";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { createRainbondClient, type RainbondClient, type RainbondPromise } from "../../src/index.js";
import { startFaultServer, type FaultServer } from "../helpers/faults/server.js";
import { operationOfRequest, responseExample, specOperations, successOf } from "../helpers/spec.js";
import { prismCannotMatch as cannotMatch } from "../helpers/spec.js";

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

/** A client of the mock whose every request is recorded into its own list: each test has its own. */
function recordingClient() {
  const exchanges: Exchange[] = [];
  const client = createRainbondClient({
    baseUrl: inject("prismUrl"),
    token: TOKEN,
    headers: EXTRA_HEADERS,
    logLevel: "off",
    retries: 0,
    fetch: recordingFetch(exchanges),
  });
  return { client, exchanges };
}

/** Prism accepted each request (no violation, a 2xx), which carried the token, the extra headers, JSON typed as such. */
function expectAccepted(made: Exchange[], operationId: string) {
  expect(made.length).toBeGreaterThanOrEqual(1);
  for (const exchange of made) {
    expect(operationOfRequest(exchange.method, exchange.url)).toBe(operationId);
    expect(exchange.authorization).toBe(TOKEN);
    expect(exchange.headers).toMatchObject({ "x-trace-id": "ops-test", "accept-language": "en" });
    expect(exchange.headers!["content-type"]).toBe(exchange.body ? "application/json" : undefined);
    expect(exchange.violations).toBeNull();
    expect(exchange.status).toBeGreaterThanOrEqual(200);
    expect(exchange.status).toBeLessThan(300);
  }
}

const now = Math.floor(Date.now() / 1000);
const methods = readMethods();
/** The methods of the operations Prism 5 refuses whatever is sent (helpers/spec.ts): checked by what they send. */
const prismCannotMatch = (method: (typeof methods)[number]) => cannotMatch(method.operationId);

test.each(methods.filter(prismCannotMatch).map((m) => [m.name, m] as const))(
  "%s sends its query parameters by the spec's names, which Prism cannot match",
  async (_, method) => {
    const { client, exchanges } = recordingClient();
    await callMethod(client, method).then(undefined, () => undefined); // Prism's refusal
    const query = new URL(exchanges[0]!.url).searchParams;
    for (const input of method.inputs.filter((i) => i.kind === "option" && i.required))
      expect(query.has(input.spec), input.spec).toBe(true);
  },
);

describe("every method of generated/table.json, with the spec's examples, against the Prism mock", () => {
  test("covers the 101 operations the console serves", () => {
    expect(specOperations).toHaveLength(101);
    expect(new Set(methods.map((m) => m.operationId))).toEqual(new Set(specOperations.map((o) => o.operationId)));
  });

  test.each(methods.filter((m) => !prismCannotMatch(m)).map((m) => [m.name, m] as const))(
    "%s returns the example of its operation's answer",
    async (_, method) => {
      const { client, exchanges } = recordingClient();
      const { status, example } = successOf(method.operationId);
      if (method.kind === "paging") {
        // a page holds one list: the items the iterator yields
        const items = Object.values(example as object).find(Array.isArray);
        expect(await callMethod(client, method)).toEqual(items);
      } else {
        const { data, response } = await (callMethod(client, method) as RainbondPromise<unknown>).withResponse();
        expect(data).toEqual(example);
        expect(response.status).toBe(status);
        expect(exchanges).toHaveLength(1);
      }
      expectAccepted(exchanges, method.operationId);
    },
  );
});

interface Case {
  name: string;
  op: string;
  call: (client: RainbondClient) => RainbondPromise<unknown>;
  /** The JSON body the client must send. */
  sends?: unknown;
}

/** A whole TCP rule: the console requires end_point, default_port and default_ip (the console overlay). */
const tcp = {
  service_id: "gr3f9c2a",
  container_port: 3306,
  end_point: "0.0.0.0:30306",
  default_port: 30306,
  default_ip: "0.0.0.0",
};

/** Inputs in the forms the client takes (numbers, Dates, booleans, text to escape), as Prism validates them. */
const cases: Case[] = [
  {
    name: "regions.listForTeam with page numbers",
    op: "listTeamRegions",
    call: (c) => c.regions.listForTeam("q8k2mz5d", { page: 1, pageSize: 10 }),
  },
  {
    name: "ports.add with the port as a number",
    op: "addComponentPort",
    call: (c) => c.ports.add(component, { port: 8080, protocol: "http", port_alias: "WEB", is_inner_service: true }),
    sends: { port: "8080", protocol: "http", port_alias: "WEB", is_inner_service: true },
  },
  {
    name: "ports.changeAlias",
    op: "updateComponentPort",
    call: (c) => c.ports.changeAlias(component, 8080, { port_alias: "API", k8s_service_name: "api-svc" }),
    sends: { action: "change_port_alias", port_alias: "API", k8s_service_name: "api-svc" },
  },
  {
    name: "gateway.updateHttpRule with domain_header",
    op: "updateHttpRule",
    call: (c) =>
      c.gateway.updateHttpRule(app, "5f2e8a1c9b7d4e3f", {
        service_id: "gr3f9c2a",
        domain_path: "/api",
        domain_header: "X-Canary=true",
      }),
    sends: { service_id: "gr3f9c2a", domain_path: "/api", domain_header: "X-Canary=true" },
  },
  {
    name: "gateway.createRule (tcp)",
    op: "createGatewayRule",
    call: (c) => c.gateway.createRule(app, { protocol: "tcp", tcp }),
    sends: { protocol: "tcp", tcp },
  },
  {
    name: "gateway.createHttpRule with a configuration",
    op: "createHttpRule",
    call: (c) =>
      c.gateway.createHttpRule(app, {
        service_id: "gr3f9c2a",
        container_port: 8080,
        domain_name: "shop.example.org",
        configuration: { proxy_buffering: "off", set_headers: [{ key: "X-From", value: "gateway" }] },
      }),
  },
  {
    name: "monitor.queryRange with Dates",
    op: "queryComponentMonitorRange",
    call: (c) =>
      c.monitor.queryRange(app, { start: new Date((now - 3600) * 1000), end: new Date(now * 1000), isOuter: true }),
  },
  {
    name: "monitor.queryRange with seconds and a step",
    op: "queryComponentMonitorRange",
    call: (c) => c.monitor.queryRange(app, { start: now - 600, end: now, step: 15 }),
  },
  {
    name: "apps.list with a query to escape",
    op: "listApps",
    call: (c) => c.apps.list(region, { query: "shop & co" }),
  },
  {
    name: "apps.install with deploy",
    op: "installApp",
    call: (c) =>
      c.apps.install(
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
];

describe("inputs in the client's forms, as Prism validates them", () => {
  test.each(cases)("$name is accepted and answered with $op's example", async (c) => {
    const { client, exchanges } = recordingClient();
    expect(await c.call(client)).toEqual(successOf(c.op).example);
    expectAccepted(exchanges, c.op);
    if (c.sends !== undefined) expect(JSON.parse(exchanges[0]!.body)).toEqual(c.sends);
  });
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
    // the client's middleware saw this very exchange
    expect(rawExchanges.at(-1)).toMatchObject({ status: response.status, violations: header });
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
    const { response } = await raw.POST(portsPath, { params: { path: ids }, body: { protocol: "http" } as never });
    expect(response.status).toBe(400);
    expect(violationsOf(response)).toContainEqual(
      expect.objectContaining({ code: "required", message: expect.stringContaining("port") as unknown }),
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
});

describe("query strings the server sees", () => {
  let server: FaultServer;
  let local: RainbondClient;
  beforeAll(async () => {
    server = await startFaultServer(
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
    await local.regions.listForTeam("q8k2mz5d", { page: 2, pageSize: 5 });
    expect(Object.fromEntries(lastQuery())).toEqual({ page: "2", page_size: "5" });
  });
});
