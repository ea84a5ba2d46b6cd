#!/usr/bin/env node
// npm start: regenerate from spec/, build the client, start the Prism mock of the spec on loopback, and call all 17
// operations through the client, one line each. `npm start -- --serve` then keeps the mock running.
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startPrism } from "./prism.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const serve = process.argv.includes("--serve");
const run = (script) => execFileSync(process.execPath, [join(root, "scripts", script)], { stdio: "inherit" });

run("generate.mjs");
run("build.mjs");
const { createRainbondClient, RainbondError } = await import(join(root, "dist/src/index.js"));

const prism = await startPrism();
console.log(`Prism mock of the spec at ${prism.url}\n`);
const client = createRainbondClient({ baseUrl: prism.url, token: "demo-token", logLevel: "off" });
const region = { teamId: "q8k2mz5d", regionName: "rainbond" };
const app = { ...region, appId: 12 };
const component = { ...app, serviceId: "gr3f9c2a" };
const now = Math.floor(Date.now() / 1000);

const calls = [
  [
    "regions.listForTeam",
    () => client.regions.listForTeam("q8k2mz5d", { page: 1, pageSize: 10 }),
    (r) => `${r.total} region(s), first ${r.regions[0]?.region_name}`,
  ],
  [
    "regions.get",
    () => client.regions.get("3c8e1f0a2b4d4c6e8f0a1b2c3d4e5f60", { extendInfo: true }),
    (r) => `${r.region_name}: ${r.used_memory}/${r.total_memory} memory`,
  ],
  [
    "ports.list",
    () => client.ports.list(component),
    (r) => r.map((p) => `${p.container_port}/${p.protocol}`).join(", "),
  ],
  [
    "ports.add",
    () => client.ports.add(component, { port: 8080, protocol: "http" }),
    (p) => `port ${p.container_port} (${p.k8s_service_name})`,
  ],
  [
    "ports.update",
    () => client.ports.openOuter(component, 8080),
    (p) => `port ${p.container_port} outer=${p.is_outer_service}`,
  ],
  ["ports.delete", () => client.ports.delete(component, 8080), (p) => `deleted port ${p.container_port}`],
  [
    "gateway.listEnterpriseHttpRules",
    () => client.gateway.listEnterpriseHttpRules({ autoSsl: true }),
    (r) => `${r.length} rule(s), first ${r[0]?.domain_name}`,
  ],
  [
    "gateway.updateHttpRule",
    () => client.gateway.updateHttpRule(app, "5f2e8a1c9b7d4e3f", { service_id: "gr3f9c2a", domain_path: "/api" }),
    (r) => `${r.domain_name}${r.domain_path} header ${r.domain_heander}`,
  ],
  [
    "gateway.createRule",
    () => client.gateway.createRule(app, { protocol: "tcp", tcp: { service_id: "gr3f9c2a", container_port: 3306 } }),
    (r) => `${r.tcp?.length ?? 0} tcp rule(s), ${r.http?.length ?? 0} http`,
  ],
  [
    "gateway.createHttpRule",
    () =>
      client.gateway.createHttpRule(app, {
        service_id: "gr3f9c2a",
        container_port: 8080,
        domain_name: "shop.example.org",
      }),
    (r) => `rule ${r.http_rule_id} for ${r.domain_name}`,
  ],
  ["gateway.listHttpRules", () => client.gateway.listHttpRules(app), (r) => `${r.length} rule(s)`],
  ["monitor.query", () => client.monitor.query(app, { isOuter: false }), (r) => `${r.length} component(s)`],
  [
    "monitor.queryRange",
    () => client.monitor.queryRange(app, { start: now - 3600, end: now, step: 60 }),
    (r) => `${r.length} component(s), ${r[0]?.monitors?.[0]?.data?.result.length ?? 0} sample(s) for the first`,
  ],
  [
    "teams.resources",
    () => client.teams.resources([{ tenant_id: "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e", region_name: "rainbond" }]),
    (r) => `${r[0]?.team_alias}: ${r[0]?.used_memory_percentage}% memory`,
  ],
  [
    "apps.list",
    () => client.apps.list(region, { query: "shop" }),
    (r) => `${r.length} app(s), first ${r[0]?.group_name}`,
  ],
  [
    "apps.install",
    () =>
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
    (r) => `app ${r.ID}: ${r.service_list.length} component(s)`,
  ],
  ["components.get", () => client.components.get(component), (r) => `${r.service_cname} ${r.version} (${r.status})`],
];

let failed = 0;
try {
  for (const [name, call, summary] of calls) {
    try {
      console.log(`ok    ${name.padEnd(33)} ${summary(await call())}`);
    } catch (err) {
      failed++;
      console.log(`FAIL  ${name.padEnd(33)} ${err instanceof RainbondError ? err.message : err}`);
    }
  }
  console.log(`\n${calls.length - failed} of ${calls.length} operations answered`);
  if (serve && !failed) {
    console.log(`\nThe mock keeps running at ${prism.url} (Ctrl-C to stop).`);
    await new Promise((resolve) => process.once("SIGINT", resolve).once("SIGTERM", resolve));
  }
} finally {
  await prism.stop();
}
process.exit(failed ? 1 : 0);
