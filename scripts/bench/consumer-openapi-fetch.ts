// Type-check benchmark: the same 17 operations as consumer.ts, called through bare openapi-fetch
// (`createClient<paths>()` with the generated types), to set the client's type cost beside its foundation's.
import createClient from "openapi-fetch";
import type { paths } from "../../generated/schema.js";

const client = createClient<paths>({ baseUrl: "http://127.0.0.1:7070", headers: { Authorization: "t" } });
const region = { team_id: "q8k2mz5d", region_name: "rainbond" };
const app = { ...region, app_id: 12 };
const component = { ...app, service_id: "gr3f9c2a" };
const base = "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}" as const;

export async function callEveryOperation(): Promise<unknown[]> {
  const regions = await client.GET("/openapi/v1/teams/{team_id}/regions", {
    params: { path: { team_id: "q8k2mz5d" }, query: { page: "1", page_size: "10" } },
  });
  const oneRegion = await client.GET("/openapi/v1/regions/{region_id}", {
    params: { path: { region_id: "3c8e1f0a2b4d4c6e8f0a1b2c3d4e5f60" }, query: { extend_info: "true" } },
  });
  const ports = await client.GET(`${base}/services/{service_id}/ports`, { params: { path: component } });
  const added = await client.POST(`${base}/services/{service_id}/ports`, {
    params: { path: component },
    body: { port: "8080", protocol: "http", port_alias: "GR3F9C2A8080" },
  });
  const updated = await client.PUT(`${base}/services/{service_id}/ports/{port}`, {
    params: { path: { ...component, port: "8080" } },
    body: { action: "open_outer" },
  });
  const deleted = await client.DELETE(`${base}/services/{service_id}/ports/{port}`, {
    params: { path: { ...component, port: "8080" } },
  });
  const enterpriseRules = await client.GET("/openapi/v1/httpdomains", { params: { query: { auto_ssl: "false" } } });
  const updatedRule = await client.PUT(`${base}/httpdomains/{rule_id}`, {
    params: { path: { ...app, rule_id: "0b7c1e9a" } },
    body: {
      service_id: "gr3f9c2a",
      container_port: 8080,
      domain_name: "shop.example.org",
      domain_path: "/api",
      the_weight: 50,
      whether_open: true,
    },
  });
  const tcpRule = await client.POST(`${base}/domains`, {
    params: { path: { ...region, app_id: "12" } },
    body: {
      protocol: "tcp",
      tcp: { container_port: 3306, service_id: "gr3f9c2a", end_point: "0.0.0.0:30306", default_port: 30306 },
    },
  });
  const httpRule = await client.POST(`${base}/httpdomains`, {
    params: { path: app },
    body: { service_id: "gr3f9c2a", container_port: 8080, domain_name: "shop.example.org", domain_path: "/" },
  });
  const appRules = await client.GET(`${base}/httpdomains`, { params: { path: app } });
  const now = await client.GET(`${base}/monitor/query`, { params: { path: app, query: { is_outer: "false" } } });
  const range = await client.GET(`${base}/monitor/query_range`, {
    params: { path: app, query: { start: 1_700_000_000, end: 1_700_003_600, step: 60 } },
  });
  const resources = await client.POST("/openapi/v1/teams/resource", {
    body: [{ tenant_id: "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e", region_name: "rainbond" }],
  });
  const apps = await client.GET("/openapi/v1/teams/{team_id}/regions/{region_name}/apps", {
    params: { path: region, query: { query: "shop" } },
  });
  const installed = await client.POST(`${base}/install`, {
    params: { path: app, query: { is_deploy: "true" } },
    body: {
      market_url: "https://hub.grapps.cn",
      market_domain: "rainbond",
      market_type: "rainstore",
      market_access_key: "key",
      app_model_id: "9e2c7a1f5b3d4e8a",
      app_model_version: "2.1.0",
    },
  });
  const got = await client.GET(`${base}/services/{service_id}`, { params: { path: component } });

  const port: number | undefined = added.data?.container_port;
  const name: string | null | undefined = got.data?.service_cname;
  return [
    regions.data,
    oneRegion.data,
    ports.data?.map((p) => p.port_alias),
    port,
    updated.data?.protocol,
    deleted.data?.container_port,
    enterpriseRules.data,
    updatedRule.data,
    tcpRule.data,
    httpRule.data,
    appRules.data,
    now.data,
    range.data,
    resources.data,
    apps.data,
    installed.data,
    name,
  ];
}
