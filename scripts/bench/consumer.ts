// Type-check benchmark: a consumer of the rainbond client that calls all 17 methods (one per operation of the spec)
// and reads a field of each result, as an application would. Never run: `tsc --noEmit --extendedDiagnostics` on this
// file (and what it imports) measures what the client's types cost a consumer. See scripts/bench/typecheck.ts.
import { createRainbondClient } from "../../src/index.js";

const client = createRainbondClient({ baseUrl: "http://127.0.0.1:7070", token: "t", logLevel: "off" });
const region = { teamId: "q8k2mz5d", regionName: "rainbond" };
const app = { ...region, appId: 12 };
const component = { ...app, serviceId: "gr3f9c2a" };

export async function callEveryOperation(): Promise<unknown[]> {
  const regions = await client.regions.listForTeam("q8k2mz5d", { page: 1, pageSize: 10 });
  const oneRegion = await client.regions.get("3c8e1f0a2b4d4c6e8f0a1b2c3d4e5f60", { extendInfo: true });
  const ports = await client.ports.list(component);
  const added = await client.ports.add(component, { port: 8080, protocol: "http", port_alias: "GR3F9C2A8080" });
  const updated = await client.ports.update(component, 8080, { action: "open_outer" });
  const deleted = await client.ports.delete(component, 8080);
  const enterpriseRules = await client.gateway.listEnterpriseHttpRules({ autoSsl: false });
  const updatedRule = await client.gateway.updateHttpRule(app, "0b7c1e9a", {
    service_id: "gr3f9c2a",
    container_port: 8080,
    domain_name: "shop.example.org",
    domain_path: "/api",
    the_weight: 50,
    whether_open: true,
  });
  const tcpRule = await client.gateway.createRule(app, {
    protocol: "tcp",
    tcp: { container_port: 3306, service_id: "gr3f9c2a", end_point: "0.0.0.0:30306", default_port: 30306 },
  });
  const httpRule = await client.gateway.createHttpRule(app, {
    service_id: "gr3f9c2a",
    container_port: 8080,
    domain_name: "shop.example.org",
    domain_path: "/",
  });
  const appRules = await client.gateway.listHttpRules(app);
  const now = await client.monitor.query(app, { isOuter: false });
  const range = await client.monitor.queryRange(app, {
    start: new Date(Date.now() - 3_600_000),
    end: new Date(),
    step: 60,
  });
  const resources = await client.teams.resources([
    { tenant_id: "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e", region_name: "rainbond" },
  ]);
  const apps = await client.apps.list(region, { query: "shop" });
  const installed = await client.apps.install(
    app,
    {
      market_url: "https://hub.grapps.cn",
      market_domain: "rainbond",
      market_type: "rainstore",
      market_access_key: "key",
      app_model_id: "9e2c7a1f5b3d4e8a",
      app_model_version: "2.1.0",
    },
    { deploy: true },
  );
  const got = await client.components.get(component);

  const port: number | undefined = added.container_port;
  const name: string | null | undefined = got.service_cname;
  return [
    regions,
    oneRegion,
    ports.map((p) => p.port_alias),
    port,
    updated.protocol,
    deleted.container_port,
    enterpriseRules,
    updatedRule,
    tcpRule,
    httpRule,
    appRules,
    now,
    range,
    resources,
    apps,
    installed,
    name,
  ];
}
