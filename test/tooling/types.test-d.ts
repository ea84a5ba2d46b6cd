// Type tests (vitest typecheck: these files are compiled by tsc, never run). The spec's irregular names are the only
// ones accepted where the console uses them: records read back spell `domain_heander`, request bodies `domain_header`;
// components carry `is_upgrate` and `creater`. Misspelt fields, values outside an enum and missing required fields
// do not compile. Every `@ts-expect-error` line must be an error, or the typecheck fails.
import { describe, expectTypeOf, test } from "vitest";
import type { Body, OperationData, Port, PortProtocol, RainbondClient, components } from "../../src/index.js";

declare const client: RainbondClient;
const region = { teamId: "q8k2mz5d", regionName: "rainbond" };
const app = { ...region, appId: 12 };
const component = { ...app, serviceId: "gr3f9c2a" };

type Schemas = components["schemas"];
type HTTPGatewayRule = Schemas["HTTPGatewayRule"];
type EnterpriseHTTPGatewayRule = Schemas["EnterpriseHTTPGatewayRule"];
type ServiceBaseInfo = Schemas["ServiceBaseInfo"];
type Awaited2<F extends (...args: never[]) => PromiseLike<unknown>> = Awaited<ReturnType<F>>;

describe("domain_heander on rules read back", () => {
  test("the results of the rule operations are the rule records", () => {
    expectTypeOf<Awaited2<RainbondClient["gateway"]["updateHttpRule"]>>().toEqualTypeOf<HTTPGatewayRule>();
    expectTypeOf<Awaited2<RainbondClient["gateway"]["createHttpRule"]>>().toEqualTypeOf<HTTPGatewayRule>();
    expectTypeOf<Awaited2<RainbondClient["gateway"]["listHttpRules"]>>().toEqualTypeOf<HTTPGatewayRule[]>();
    expectTypeOf<Awaited2<RainbondClient["gateway"]["listEnterpriseHttpRules"]>>().toEqualTypeOf<
      EnterpriseHTTPGatewayRule[]
    >();
    expectTypeOf<NonNullable<Awaited2<RainbondClient["gateway"]["createRule"]>["http"]>>().toEqualTypeOf<
      HTTPGatewayRule[]
    >();
  });

  test("HTTPGatewayRule and EnterpriseHTTPGatewayRule have domain_heander, not domain_header", () => {
    expectTypeOf<HTTPGatewayRule>().toHaveProperty("domain_heander");
    expectTypeOf<HTTPGatewayRule["domain_heander"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<HTTPGatewayRule>().not.toHaveProperty("domain_header");
    expectTypeOf<EnterpriseHTTPGatewayRule>().toHaveProperty("domain_heander");
    expectTypeOf<EnterpriseHTTPGatewayRule>().not.toHaveProperty("domain_header");
  });

  test("reading the header match of a result", async () => {
    const rule = await client.gateway.updateHttpRule(app, "5f2e8a1c9b7d4e3f", { service_id: "gr3f9c2a" });
    expectTypeOf(rule.domain_heander).toEqualTypeOf<string | undefined>();
    // @ts-expect-error records read back spell it domain_heander
    void rule.domain_header;
    const [first] = await client.gateway.listEnterpriseHttpRules();
    // @ts-expect-error records read back spell it domain_heander
    void first?.domain_header;
    const created = await client.gateway.createHttpRule(app, {
      service_id: "gr3f9c2a",
      container_port: 8080,
      domain_name: "shop.example.org",
    });
    expectTypeOf(created.domain_heander).toEqualTypeOf<string | undefined>();
  });
});

describe("domain_header in request bodies", () => {
  test("the bodies have domain_header, not domain_heander", () => {
    expectTypeOf<Body<"updateHttpRule">>().toHaveProperty("domain_header");
    expectTypeOf<Body<"updateHttpRule">>().not.toHaveProperty("domain_heander");
    expectTypeOf<Body<"createHttpRule">>().toHaveProperty("domain_header");
    expectTypeOf<Body<"createHttpRule">>().not.toHaveProperty("domain_heander");
    expectTypeOf<NonNullable<Body<"createGatewayRule">["http"]>>().toHaveProperty("domain_header");
    expectTypeOf<NonNullable<Body<"createGatewayRule">["http"]>>().not.toHaveProperty("domain_heander");
  });

  test("gateway.updateHttpRule takes domain_header only", () => {
    void client.gateway.updateHttpRule(app, "r1", { service_id: "s1", domain_header: "X-Canary=true" });
    // @ts-expect-error request bodies spell it domain_header
    void client.gateway.updateHttpRule(app, "r1", { service_id: "s1", domain_heander: "X-Canary=true" });
  });

  test("gateway.createHttpRule takes domain_header only", () => {
    const domain_name = "shop.example.org";
    void client.gateway.createHttpRule(app, {
      service_id: "s1",
      container_port: 8080,
      domain_name,
      domain_header: "X",
    });
    void client.gateway.createHttpRule(app, {
      service_id: "s1",
      container_port: 8080,
      domain_name,
      // @ts-expect-error request bodies spell it domain_header
      domain_heander: "X-Canary=true",
    });
  });

  test("the http member of gateway.createRule takes domain_header only", () => {
    void client.gateway.createRule(app, {
      protocol: "http",
      http: { service_id: "s1", container_port: 8080, domain_name: "a.org", domain_header: "X" },
    });
    void client.gateway.createRule(app, {
      protocol: "http",
      // @ts-expect-error request bodies spell it domain_header
      http: { service_id: "s1", container_port: 8080, domain_name: "a.org", domain_heander: "X" },
    });
  });
});

describe("is_upgrate and creater on components", () => {
  test("ServiceBaseInfo has the console's spellings only", () => {
    expectTypeOf<OperationData<"getComponent">>().toEqualTypeOf<ServiceBaseInfo>();
    expectTypeOf<ServiceBaseInfo>().toHaveProperty("is_upgrate");
    expectTypeOf<ServiceBaseInfo["is_upgrate"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<ServiceBaseInfo>().toHaveProperty("creater");
    expectTypeOf<ServiceBaseInfo["creater"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ServiceBaseInfo>().not.toHaveProperty("is_upgrade");
    expectTypeOf<ServiceBaseInfo>().not.toHaveProperty("creator");
    expectTypeOf<OperationData<"installApp">["service_list"][number]>().toEqualTypeOf<ServiceBaseInfo>();
  });

  test("reading them from a result", async () => {
    const web = await client.components.get(component);
    expectTypeOf(web.is_upgrate).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(web.creater).toEqualTypeOf<number | undefined>();
    // @ts-expect-error the console spells it is_upgrate
    void web.is_upgrade;
    // @ts-expect-error the console spells it creater
    void web.creator;
  });
});

describe("ports", () => {
  test("results are Port records", () => {
    expectTypeOf<Awaited2<RainbondClient["ports"]["list"]>>().toEqualTypeOf<Port[]>();
    expectTypeOf<Awaited2<RainbondClient["ports"]["add"]>>().toEqualTypeOf<Port>();
    expectTypeOf<Awaited2<RainbondClient["ports"]["update"]>>().toEqualTypeOf<Port>();
    expectTypeOf<Awaited2<RainbondClient["ports"]["delete"]>>().toEqualTypeOf<Port>();
    expectTypeOf<PortProtocol>().toEqualTypeOf<"tcp" | "http" | "mysql" | "grpc" | "udp">();
  });

  test("ports.add: the port as a number (required), a protocol of the enum (optional: the console's http)", () => {
    void client.ports.add(component, { port: 8080, protocol: "http" });
    void client.ports.add(component, { port: 8080, protocol: "udp", port_alias: "A", is_inner_service: false });
    // @ts-expect-error "https" is not a port protocol
    void client.ports.add(component, { port: 443, protocol: "https" });
    void client.ports.add(component, { port: 8080 });
    // @ts-expect-error port is required
    void client.ports.add(component, { protocol: "http" });
    // @ts-expect-error the port is a number in ports.add
    void client.ports.add(component, { port: "8080", protocol: "http" });
    // @ts-expect-error misspelt field
    void client.ports.add(component, { port: 8080, protocol: "http", port_alais: "A" });
  });

  test("the console's rules in the types (spec/console.overlay.yaml)", () => {
    void client.ports.changeAlias(component, 8080, { port_alias: "WEB", k8s_service_name: "web-8080" });
    // @ts-expect-error the console crashes on an alias change without the port's k8s_service_name
    void client.ports.changeAlias(component, 8080, { port_alias: "WEB" });
    void client.ports.onlyOpenOuter(component, 8080);
    // @ts-expect-error the console answers 500 to any search of a team's regions
    void client.regions.listForTeam("t1", { query: "rain" });
    // @ts-expect-error an HTTP rule needs its domain
    void client.gateway.createHttpRule(app, { service_id: "s1", container_port: 8080 });
  });

  test("ports.update: an action of the enum is required", () => {
    void client.ports.update(component, 8080, { action: "open_outer" });
    void client.ports.update(component, 8080, { action: "change_protocol", protocol: "tcp" });
    // @ts-expect-error "open" is not an action
    void client.ports.update(component, 8080, { action: "open" });
    // @ts-expect-error action is required
    void client.ports.update(component, 8080, { protocol: "tcp" });
    // @ts-expect-error "https" is not a port protocol
    void client.ports.update(component, 8080, { action: "change_protocol", protocol: "https" });
    // @ts-expect-error misspelt field
    void client.ports.update(component, 8080, { action: "change_port_alias", port_alais: "A" });
    void client.ports.changeProtocol(component, 8080, "grpc");
    // @ts-expect-error "https" is not a port protocol
    void client.ports.changeProtocol(component, 8080, "https");
  });
});

describe("other bodies", () => {
  const install = {
    market_url: "https://hub.grapps.cn",
    market_domain: "rainbond",
    market_type: "rainstore",
    market_access_key: "key",
    app_model_id: "9e2c7a1f5b3d4e8a",
    app_model_version: "2.1.0",
  };

  test("Install: every field required", () => {
    void client.apps.install(app, install, { deploy: true });
    const { market_access_key: _key, ...withoutKey } = install;
    // @ts-expect-error market_access_key is required
    void client.apps.install(app, withoutKey);
    const { app_model_version: _version, ...withoutVersion } = install;
    // @ts-expect-error app_model_version is required
    void client.apps.install(app, withoutVersion);
    // @ts-expect-error misspelt field
    void client.apps.install(app, { ...install, market_acess_key: "key" });
  });

  test("rule bodies: required fields and misspellings", () => {
    // @ts-expect-error service_id is required
    void client.gateway.updateHttpRule(app, "r1", { domain_path: "/" });
    // @ts-expect-error container_port is required in an HTTP rule
    void client.gateway.createHttpRule(app, { service_id: "s1" });
    // @ts-expect-error misspelt field
    void client.gateway.createHttpRule(app, { service_id: "s1", container_port: 8080, domain_nmae: "a.example.org" });
    // @ts-expect-error container_port is an integer, not a string
    void client.gateway.createRule(app, { protocol: "tcp", tcp: { service_id: "s1", container_port: "3306" } });
  });

  test("teams.resources: tenant_id and region_name required", () => {
    void client.teams.resources([{ tenant_id: "t1", region_name: "rainbond" }]);
    // @ts-expect-error region_name is required
    void client.teams.resources([{ tenant_id: "t1" }]);
  });

  test("scopes and options", () => {
    void client.monitor.query(app, { isOuter: true });
    void client.monitor.queryRange(app, { start: new Date(), end: 1_700_000_000, step: 60, isOuter: false });
    // @ts-expect-error a component scope needs serviceId
    void client.components.get(app);
    // @ts-expect-error appId is a number
    void client.apps.install({ ...region, appId: "12" }, install);
    // @ts-expect-error isOuter is a boolean
    void client.monitor.query(app, { isOuter: "true" });
    // @ts-expect-error start and end are required
    void client.monitor.queryRange(app, { step: 60 });
    // @ts-expect-error no such option
    void client.monitor.queryRange(app, { start: 1, end: 2, stepSeconds: 60 });
  });
});

describe("named types from the spec", () => {
  test("every schema is importable by name and is the spec's record", async () => {
    type Named = import("../../src/index.js").ServiceBaseInfo;
    expectTypeOf<Named>().toEqualTypeOf<ServiceBaseInfo>();
    expectTypeOf<import("../../src/index.js").RegionInfoR>().toEqualTypeOf<Schemas["RegionInfoR"]>();
    expectTypeOf<import("../../src/index.js").Data>().toEqualTypeOf<Schemas["Data"]>();
    expectTypeOf<Awaited2<RainbondClient["components"]["get"]>>().toEqualTypeOf<Named>();
  });
  test("the iterator yields the named item type and takes no page", () => {
    type Iterate = RainbondClient["regions"]["iterateForTeam"];
    expectTypeOf<ReturnType<Iterate>>().toEqualTypeOf<AsyncGenerator<Schemas["TeamRegionsResp"], void, undefined>>();
    // @ts-expect-error the iterator sets the page itself
    void ((client: RainbondClient) => client.regions.iterateForTeam("t", { page: 2 }));
  });
});
