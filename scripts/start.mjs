#!/usr/bin/env node
// npm start: regenerate from spec/, build the client, start the Prism mock of the spec on loopback, and call all 17
// operations through the client, one line each, named by the method called.
//
//   npm start                          the tour, on a free port; Prism stops at the end
//   npm start -- --serve [--port N]    the tour, then the mock keeps running on 127.0.0.1:N (default 4010, Prism's own
//                                      default) until Ctrl-C, SIGTERM or SIGHUP, or until npm's process goes away
//
// Prism runs in a process group of its own (scripts/prism.mjs): a signal sent to npm reaches this script (npm forwards
// SIGINT and SIGTERM), never Prism, so this script stops Prism on every way out. npm does not forward SIGHUP and dies
// of it, leaving this script orphaned: npm's process going away is taken as the same request to stop.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startPrism } from "./prism.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_PORT = 4010;
const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

let args;
try {
  ({ values: args } = parseArgs({ options: { serve: { type: "boolean" }, port: { type: "string" } } }));
} catch (err) {
  console.error(`${err.message}\nusage: npm start [-- --serve [--port N]]`);
  process.exit(2);
}
const port = args.port === undefined ? DEFAULT_PORT : Number(args.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`--port must be a port number from 1 to 65535 (got ${args.port})`);
  process.exit(2);
}

// One way out, whatever asks for it: Prism stopped (and its temporary copy of the spec removed), then exit.
let prism;
let leaving;
const leave = (code) => (leaving ??= Promise.resolve(prism?.stop()).finally(() => process.exit(code)));
for (const [signal, number] of Object.entries(SIGNALS)) process.on(signal, () => leave(128 + number));
// npm runs this script through a shell (npm -> sh -c -> node): npm can die while the shell lives on, so the parent
// and the one above it are watched.
const parent = process.ppid;
const grandparent = parentOf(parent);
const orphaned = setInterval(() => {
  if (process.ppid !== parent || (grandparent > 1 && !alive(grandparent))) leave(128 + SIGNALS.SIGHUP);
}, 200);
orphaned.unref();

/** The parent of process `pid` (Linux: /proc; elsewhere `ps`), or 0 when it cannot be told. */
function parentOf(pid) {
  try {
    return Number(
      readFileSync(`/proc/${pid}/stat`, "utf8")
        .replace(/^.*\) /s, "")
        .split(" ")[1],
    );
  } catch {
    try {
      return Number(execFileSync("ps", ["-o", "ppid=", "-p", String(pid)], { encoding: "utf8" }).trim()) || 0;
    } catch {
      return 0;
    }
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

const run = (script, ...options) =>
  execFileSync(process.execPath, [join(root, "scripts", script), ...options], { stdio: "inherit" });
run("generate.mjs", "--brief");
run("build.mjs");
const { createRainbondClient, RainbondError } = await import(join(root, "dist/src/index.js"));

try {
  prism = await startPrism({ port: args.serve ? port : 0 });
} catch (err) {
  console.error(err.message);
  if (args.serve) console.error(`\nIs port ${port} taken? Choose another: npm start -- --serve --port <N>`);
  await leave(1);
}
console.log(`Prism mock of the spec at ${prism.url}\n`);
const client = createRainbondClient({ baseUrl: prism.url, token: "demo-token", logLevel: "off" });
const region = { teamId: "q8k2mz5d", regionName: "rainbond" };
const app = { ...region, appId: 12 };
const component = { ...app, serviceId: "gr3f9c2a" };
const now = Math.floor(Date.now() / 1000);

/** [area, method, its arguments, what to print of its answer]: each line is named by the method it calls. */
const calls = [
  [
    "regions",
    "listForTeam",
    ["q8k2mz5d", { page: 1, pageSize: 10 }],
    (r) => `${r.total} region(s), first ${r.regions[0]?.region_name}`,
  ],
  [
    "regions",
    "get",
    ["3c8e1f0a2b4d4c6e8f0a1b2c3d4e5f60", { extendInfo: true }],
    (r) => `${r.region_name}: ${r.used_memory}/${r.total_memory} memory`,
  ],
  ["ports", "list", [component], (r) => r.map((p) => `${p.container_port}/${p.protocol}`).join(", ")],
  [
    "ports",
    "add",
    [component, { port: 8080, protocol: "http" }],
    (p) => `port ${p.container_port} (${p.k8s_service_name})`,
  ],
  ["ports", "openOuter", [component, 8080], (p) => `port ${p.container_port} outer=${p.is_outer_service}`],
  ["ports", "delete", [component, 8080], (p) => `deleted port ${p.container_port}`],
  ["gateway", "listEnterpriseHttpRules", [{ autoSsl: true }], (r) => `${r.length} rule(s), first ${r[0]?.domain_name}`],
  [
    "gateway",
    "updateHttpRule",
    [app, "5f2e8a1c9b7d4e3f", { service_id: "gr3f9c2a", domain_path: "/api" }],
    (r) => `${r.domain_name}${r.domain_path} header ${r.domain_heander}`,
  ],
  [
    "gateway",
    "createRule",
    [app, { protocol: "tcp", tcp: { service_id: "gr3f9c2a", container_port: 3306 } }],
    (r) => `${r.tcp?.length ?? 0} tcp rule(s), ${r.http?.length ?? 0} http`,
  ],
  [
    "gateway",
    "createHttpRule",
    [app, { service_id: "gr3f9c2a", container_port: 8080, domain_name: "shop.example.org" }],
    (r) => `rule ${r.http_rule_id} for ${r.domain_name}`,
  ],
  ["gateway", "listHttpRules", [app], (r) => `${r.length} rule(s)`],
  ["monitor", "query", [app, { isOuter: false }], (r) => `${r.length} component(s)`],
  [
    "monitor",
    "queryRange",
    [app, { start: now - 3600, end: now, step: 60 }],
    (r) => `${r.length} component(s), ${r[0]?.monitors?.[0]?.data?.result.length ?? 0} sample(s) for the first`,
  ],
  [
    "teams",
    "resources",
    [[{ tenant_id: "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e", region_name: "rainbond" }]],
    (r) => `${r[0]?.team_alias}: ${r[0]?.used_memory_percentage}% memory`,
  ],
  ["apps", "list", [region, { query: "shop" }], (r) => `${r.length} app(s), first ${r[0]?.group_name}`],
  [
    "apps",
    "install",
    [
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
    ],
    (r) => `app ${r.ID}: ${r.service_list.length} component(s)`,
  ],
  ["components", "get", [component], (r) => `${r.service_cname} ${r.version} (${r.status})`],
];

let failed = 0;
for (const [area, method, callArgs, summary] of calls) {
  const name = `${area}.${method}`;
  try {
    console.log(`ok    ${name.padEnd(33)} ${summary(await client[area][method](...callArgs))}`);
  } catch (err) {
    failed++;
    console.log(`FAIL  ${name.padEnd(33)} ${err instanceof RainbondError ? err.message : err}`);
  }
}
console.log(`\n${calls.length - failed} of ${calls.length} methods answered, one for each operation of the spec`);
if (!args.serve || failed) leave(failed ? 1 : 0);
else {
  console.log(
    [
      "",
      `The mock keeps running at ${prism.url} (Ctrl-C to stop). Point the client at it:`,
      "",
      `  const client = createRainbondClient({ baseUrl: "${prism.url}", token: "any-token" });`,
      "",
      `Prism answers each operation with the spec's example. For an error answer, send a Prefer header, e.g.`,
      `headers: { Prefer: "code=404" } among the client's options, or: curl -H "Authorization: any-token" -H "Prefer: code=404" ${prism.url}/openapi/v1/httpdomains`,
    ].join("\n"),
  );
  orphaned.ref(); // keeps this process, and so the mock, alive until one of the ways out above
}
