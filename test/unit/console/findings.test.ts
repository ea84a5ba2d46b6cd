// The findings of the real console's measurement, each that a caller can meet, met through the client against the
// console stand-in (./stand-in.ts, which answers as the console did): what a caller of the source document met, and
// what the project does now. test/helpers/console/README.md lists every finding with its test here, or why it has none.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  createRainbondClient,
  RainbondApiError,
  RainbondAuthError,
  RainbondBadRequestError,
  RainbondConflictError,
  RainbondInputError,
  RainbondNotFoundError,
  RainbondServerError,
  type RainbondClient,
} from "../../../src/index.js";
import { ids, startConsoleStandIn, TOKEN, type ConsoleStandIn } from "../../helpers/console/stand-in.js";

let console_: ConsoleStandIn;
let client: RainbondClient;
const region = { teamId: ids.team, regionName: ids.region };
const app = { ...region, appId: ids.app };
const component = { ...app, serviceId: ids.component };
/** An app store's model to install (the stand-in, like the measured console, has no store: 500). */
const install = {
  market_url: "http://127.0.0.1:1",
  market_domain: "m",
  market_type: "rainstore",
  market_access_key: "k",
  app_model_id: "x",
  app_model_version: "1.0",
};

beforeAll(async () => {
  console_ = await startConsoleStandIn();
});
afterAll(() => console_?.close());
beforeEach(async () => {
  // a fresh console for each test: its ports and rules as recorded
  await console_.close();
  console_ = await startConsoleStandIn();
  client = createRainbondClient({ baseUrl: console_.url, token: TOKEN, retries: 0, logLevel: "off" });
});

/** Awaits a call expected to fail and returns its error. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error("the call did not fail");
}

/** Expects a RainbondInputError that names `argument` and quotes the console's rule, and nothing sent. */
async function refusedBeforeSending(promise: Promise<unknown>, argument: string, rule: RegExp) {
  const err = await failure(promise);
  expect(err).toBeInstanceOf(RainbondInputError);
  expect(err).toMatchObject({ argument });
  expect(err.message).toMatch(rule);
  expect(console_.requests).toEqual([]);
}

describe("1. addComponentPort: is_inner_service required by the console, protocol optional", () => {
  test("ports.add without is_inner_service sends false, which the console takes", async () => {
    const port = await client.ports.add(component, { port: 9090, protocol: "tcp" });
    expect(port).toMatchObject({ container_port: 9090, protocol: "tcp", is_inner_service: false });
    expect(console_.requests[0]!.body).toEqual({ port: "9090", protocol: "tcp", is_inner_service: false });
  });
  test("the console itself refuses the body the source document allows (what the default avoids)", async () => {
    const answer = await fetch(
      `${console_.url}/openapi/v1/teams/${ids.team}/regions/rainbond/apps/1/services/${ids.component}/ports`,
      {
        method: "POST",
        headers: { authorization: TOKEN, "content-type": "application/json" },
        body: JSON.stringify({ port: 9091, protocol: "http" }),
      },
    );
    expect(answer.status).toBe(400);
    expect((await answer.json()).err).toEqual({ is_inner_service: ["该字段是必填项。"] });
  });
  test("is_inner_service given is sent as given; protocol left out is the console's http", async () => {
    const port = await client.ports.add(component, { port: 9092, is_inner_service: true });
    expect(port).toMatchObject({ protocol: "http", is_inner_service: true });
  });
});

describe("2. createHttpRule: domain_name required (at most 253), the console's defaults", () => {
  test("a rule without domain_name is refused before sending, quoting the console's rule", async () => {
    await refusedBeforeSending(
      client.gateway.createHttpRule(app, { service_id: ids.component, container_port: 8080 } as never),
      "body.domain_name",
      /is required \(console rule: required, at most 253 characters\)/,
    );
  });
  test("a domain of 254 characters is refused, as the http member of createRule", async () => {
    const domain_name = `${"a".repeat(250)}.org`;
    await refusedBeforeSending(
      client.gateway.createRule(app, {
        protocol: "http",
        http: { service_id: "s", container_port: 8080, domain_name },
      }),
      "body.http.domain_name",
      /must be at most 253 characters long .*\(console rule:/,
    );
  });
  test("whether_open left false on a closed port: the console's 400 {msg}; true: 201 and the rule", async () => {
    const rule = { service_id: ids.component, container_port: 8080, domain_name: "www.example.com" };
    const refused = await failure(client.gateway.createHttpRule(app, rule));
    expect(refused).toBeInstanceOf(RainbondBadRequestError);
    expect(console_.requests[0]!.body).toMatchObject({ whether_open: false, domain_path: "/", certificate_id: 0 });
    const { data, response } = await client.gateway.createHttpRule(app, { ...rule, whether_open: true }).withResponse();
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ domain_name: "www.example.com", rewrites: [] });
  });
});

describe("3. createGatewayRule tcp: end_point, default_port, default_ip required, at most 32 characters", () => {
  const tcp = { container_port: 8080, service_id: ids.component, end_point: "127.0.0.1:30001", default_port: 30001 };
  test("without default_ip: refused before sending (the console answers 400 with a nested err)", async () => {
    await refusedBeforeSending(
      client.gateway.createRule(app, { protocol: "tcp", tcp } as never),
      "body.tcp.default_ip",
      /is required \(console rule: required, at most 32 characters\)/,
    );
  });
  test("an end_point of 33 characters is refused", async () => {
    await refusedBeforeSending(
      client.gateway.createRule(app, {
        protocol: "tcp",
        tcp: { ...tcp, default_ip: "1.1.1.1", end_point: "x".repeat(33) },
      }),
      "body.tcp.end_point",
      /at most 32 characters/,
    );
  });
  test("13. a whole TCP rule is created, and its record has every field", async () => {
    const rules = await client.gateway.createRule(app, { protocol: "tcp", tcp: { ...tcp, default_ip: "127.0.0.1" } });
    expect(Object.keys(rules.tcp![0]!).sort()).toEqual(
      "ID container_port end_point is_outer_service protocol region_id rule_extensions service_alias service_id service_name tcp_rule_id tenant_id type".split(
        " ",
      ),
    );
  });
});

describe("4. set_headers entries and TCP rule extensions need key and value", () => {
  test("a header without value is refused", async () => {
    const http = {
      service_id: "s",
      container_port: 8080,
      domain_name: "a.org",
      configuration: { set_headers: [{ key: "X" }] },
    };
    await refusedBeforeSending(
      client.gateway.createRule(app, { protocol: "http", http } as never),
      "body.http.configuration.set_headers[0].value",
      /is required \(console rule: key and value both required\)/,
    );
  });
  test("a TCP extension's key of 33 characters is refused", async () => {
    const tcp = {
      container_port: 1,
      service_id: "s",
      end_point: "e",
      default_port: 1,
      default_ip: "i",
      rule_extensions: [{ key: "k".repeat(33), value: "v" }],
    };
    await refusedBeforeSending(
      client.gateway.createRule(app, { protocol: "tcp", tcp }),
      "body.tcp.rule_extensions[0].key",
      /must be at most 32 characters long .*\(console rule: at most 32 characters\)/,
    );
  });
});

describe("5. updateComponentPort: k8s_service_name with change_port_alias; only_open_outer", () => {
  test("changeAlias without k8s_service_name is refused before the console crashes on it", async () => {
    await refusedBeforeSending(
      client.ports.changeAlias(component, 8080, { port_alias: "WEB8080" } as never),
      "alias.k8s_service_name",
      /is required \(console rule: required with change_port_alias \(500 without\)/,
    );
    await refusedBeforeSending(
      client.ports.update(component, 8080, { action: "change_port_alias", port_alias: "WEB8080" }),
      "body.k8s_service_name",
      /is required \(console rule: required with change_port_alias/,
    );
  });
  test("the console's own check of k8s_service_name (a DNS label) is the client's", async () => {
    await refusedBeforeSending(
      client.ports.changeAlias(component, 8080, { port_alias: "WEB8080", k8s_service_name: "Web_8080" }),
      "body.k8s_service_name",
      /must be a DNS label/,
    );
  });
  test("with it, the alias changes", async () => {
    const port = await client.ports.changeAlias(component, 8080, {
      port_alias: "WEB8080",
      k8s_service_name: "web-8080",
    });
    expect(port).toMatchObject({ port_alias: "WEB8080", k8s_service_name: "web-8080" });
  });
  test("openOuter needs the inner service open (404); onlyOpenOuter opens the port without it", async () => {
    const err = await failure(client.ports.openOuter(component, 8080));
    expect(err).toBeInstanceOf(RainbondNotFoundError);
    expect(err).toMatchObject({ status: 404, msg: "inner port is not open" });
    const port = await client.ports.onlyOpenOuter(component, 8080);
    expect(port).toMatchObject({ is_inner_service: false, is_outer_service: true });
    expect(console_.requests.at(-1)!.body).toEqual({ action: "only_open_outer" });
  });
});

describe("6. installApp: market_access_key may be null", () => {
  test("null is sent (the console takes it), not refused", async () => {
    const body = { ...install, market_access_key: null };
    const err = await failure(client.apps.install(app, body));
    expect(err).not.toBeInstanceOf(RainbondInputError);
    expect(console_.requests[0]!.body.market_access_key).toBeNull();
  });
});

describe("7. listTeamRegions: query crashes the console", () => {
  test("query is refused, saying why; without it the regions come", async () => {
    await refusedBeforeSending(
      client.regions.listForTeam(ids.team, { query: "rain" } as never),
      "options.query",
      /is not sent: the console answers 500 to any search/,
    );
    const { total, regions } = await client.regions.listForTeam(ids.team, { page: 1, pageSize: 5 });
    expect([total, regions[0]!.region_name]).toEqual([1, "rainbond"]);
  });
});

describe("8, 9, 22. records with the console's extra fields and local times", () => {
  test("ports carry mapping_port and lb_mapping_port", async () => {
    const [port] = await client.ports.list(component);
    expect([port!.mapping_port, port!.lb_mapping_port]).toEqual([8080, 0]);
  });
  test("components carry arch, build_strategy, dockerfile, job_strategy", async () => {
    const got = await client.components.get(component);
    expect([got.arch, got.build_strategy, got.dockerfile, got.job_strategy]).toEqual(["amd64", "", "", ""]);
  });
  test("an application's times are local, without an offset", async () => {
    const [first] = await client.apps.list(region);
    expect(first!.create_time).toBe("2026-11-27T00:19:56.015857");
  });
});

describe("10. getRegion", () => {
  test("a region with certificates is read, by name or by id", async () => {
    expect(await client.regions.get(ids.certRegion)).toMatchObject({ region_name: "withcerts", status: "1" });
    expect(await client.regions.get(ids.certRegionId, { extendInfo: true })).toMatchObject({ total_cpu: 4000 });
  });
  test("a plain-HTTP region: the console refuses its own record (400 on fields the caller never sent)", async () => {
    const err = await failure(client.regions.get(ids.region));
    expect(err).toBeInstanceOf(RainbondBadRequestError);
    expect((err as RainbondApiError).body).toMatchObject({ err: { ssl_ca_cert: ["该字段不能为空。"] } });
  });
});

describe("11, 12, 15. HTTP rules read back", () => {
  test("auto_ssl_config null and rewrites as a string in lists; auto_ssl sent as a boolean string", async () => {
    await client.gateway.createHttpRule(app, {
      service_id: ids.component,
      container_port: 8080,
      domain_name: "a.example.com",
      whether_open: true,
    });
    const [enterprise] = await client.gateway.listEnterpriseHttpRules();
    expect([enterprise!.auto_ssl_config, enterprise!.rule_extensions]).toEqual([null, ""]);
    const [rule] = await client.gateway.listHttpRules(app);
    expect(rule!.rewrites).toBe("[]");
    const updated = await client.gateway.updateHttpRule(app, rule!.http_rule_id, {
      service_id: ids.component,
      domain_name: "b.example.com",
    });
    expect(updated).toMatchObject({ domain_name: "b.example.com", rewrites: "[]" });
    expect(await client.gateway.listEnterpriseHttpRules({ autoSsl: true })).toEqual([]);
    expect(console_.requests.at(-1)!.query.get("auto_ssl")).toBe("true");
  });
});

describe("16, 17. the console's errors", () => {
  test("a team not opened in the region: 409 with code 2001", async () => {
    const err = await failure(client.apps.list({ teamId: ids.team, regionName: ids.certRegion }));
    expect(err).toBeInstanceOf(RainbondConflictError);
    expect(err).toMatchObject({ status: 409, code: 2001 });
  });
  test("a port with domains bound: 412 with code 412", async () => {
    await client.gateway.createHttpRule(app, {
      service_id: ids.component,
      container_port: 8080,
      domain_name: "a.example.com",
      whether_open: true,
    });
    const err = await failure(client.ports.delete(component, 8080));
    expect(err).toMatchObject({ status: 412, code: 412 });
  });
  test("errors inside the envelope (code 3000, data) and validation bodies", async () => {
    expect(await failure(client.apps.list({ teamId: ids.team, regionName: "nosuch" }))).toMatchObject({
      status: 404,
      code: 3000,
    });
    expect(await failure(client.apps.list({ teamId: "nope", regionName: ids.region }))).toBeInstanceOf(
      RainbondNotFoundError,
    );
  });
});

describe("18, 19. a crash and the token", () => {
  test("an unhandled error is a 500 server error", async () => {
    const body = install;
    expect(await failure(client.apps.install(app, body))).toBeInstanceOf(RainbondServerError);
  });
  test("the bare token logs in; `Bearer <token>` cannot be configured; another token is no user", async () => {
    expect(await client.components.get(component)).toMatchObject({ service_id: ids.component });
    expect(() => createRainbondClient({ baseUrl: console_.url, token: `Bearer ${TOKEN}` })).toThrow(RainbondInputError);
    const other = createRainbondClient({ baseUrl: console_.url, token: "another", retries: 0, logLevel: "off" });
    expect(await failure(other.components.get(component))).toBeInstanceOf(RainbondAuthError);
  });
});

describe("20. monitoring", () => {
  test("range monitoring needs start and end before sending; with them, the console's value pairs", async () => {
    const start = new Date(1_700_000_000_000);
    const end = new Date(1_700_003_600_000);
    const [series] = await client.monitor.queryRange(app, { start, end });
    expect(series!.monitors![0]!.data!.result[0]!.value).toEqual(["1700000000", "1.5"]);
    expect(Object.fromEntries(console_.requests[0]!.query)).toMatchObject({
      start: "1700000000",
      end: "1700003600",
      step: "60",
    });
  });
});
