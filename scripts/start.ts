// npm start (usage below). npm forwards SIGINT and SIGTERM to this script, never to Prism (docs/editing-the-spec.md); it
// dies of SIGHUP without forwarding it, and this script, orphaned then, takes that as the same request to stop Prism.
import { execFileSync } from "node:child_process";
import { constants } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as Client from "../src/index.ts";
import { BUILD, GENERATE, unlessCurrent } from "./lib/build-stamp.ts";
import { callMethod, readMethods, type ClientMethod } from "./lib/methods.ts";
import { commandLine, root, scriptArgs } from "./lib/script.ts";
import { MOCK_PORT as DEFAULT_PORT, mockCannotAnswer, startPrism, type Prism } from "./prism.ts";

const { values: args } = commandLine(
  `usage: npm start [-- --serve [--port N]]

  (no flag)      regenerate and build (each skipped when up to date: scripts/lib/build-stamp.ts), then call every
                 method of the client (generated/table.json, with the spec's examples) against the Prism mock of
                 the spec on a free port, one line each; Prism stops at the end
  --serve        the same, then the mock keeps running on 127.0.0.1:N until Ctrl-C
  --port <N>     the port of --serve (default ${DEFAULT_PORT})`,
  { serve: { type: "boolean" }, port: { type: "string" } },
);
const port = Number(args.port ?? DEFAULT_PORT);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`--port must be a port number from 1 to 65535 (got ${args.port})`);
  process.exit(2);
}

// One way out, whatever asks for it: Prism stopped (and its copy of the spec removed), then exit.
let prism: Prism | undefined;
let leaving: Promise<unknown> | undefined;
const leave = (code: number) => (leaving ??= Promise.resolve(prism?.stop()).finally(() => process.exit(code)));
for (const signal of ["SIGHUP", "SIGINT", "SIGTERM"] as const)
  process.on(signal, () => leave(128 + constants.signals[signal]));
const parent = process.ppid;
const orphaned = setInterval(() => process.ppid !== parent && leave(128 + constants.signals.SIGHUP), 200).unref();

const node = (...args: string[]) => execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });
unlessCurrent(GENERATE, () => node(...scriptArgs("scripts/generate.ts", "--brief")));
unlessCurrent(BUILD, () => {
  const started = Date.now();
  node(...scriptArgs("scripts/build.ts", "--log-level", "error"));
  console.log(`built dist/ (tsdown) in ${Date.now() - started} ms`);
});
const dist = pathToFileURL(join(root, "dist/index.js")).href;
const { createRainbondClient, RainbondError }: typeof Client = await import(dist);

try {
  prism = await startPrism({ port: args.serve ? port : 0 });
} catch (err) {
  console.error((err as Error).message);
  if (args.serve) console.error(`\nIs port ${port} taken? Choose another: npm start -- --serve --port <N>`);
  await leave(1);
}
const url = prism!.url;
console.log(`Prism mock of the spec at ${url}\n`);
const client = createRainbondClient({ baseUrl: url, token: "demo-token", logLevel: "off" });
const methods = readMethods();

/** An answer on one line: a list's length and item type, or a record's type and its first few fields, shortened. */
function describe(answer: unknown, { returns }: ClientMethod): string {
  const type = returns.replace(/^AsyncGenerator<(.*)>$/, "$1[]");
  if (Array.isArray(answer)) return `${answer.length} × ${type.replace(/\[\]$/, "")}`;
  const short = (value: unknown) => {
    const text = Array.isArray(value) ? `[${value.length}]` : JSON.stringify(value);
    return text.length > 24 ? `${text.slice(0, 20)}…` : text;
  };
  const entries = Object.entries(answer ?? {});
  const fields = entries.filter(([, value]) => value !== null && typeof value !== "object");
  const shown = [...fields, ...entries.filter(([, value]) => Array.isArray(value))].slice(0, 3);
  return `${type} { ${shown.map(([key, value]) => `${key}: ${short(value)}`).join(", ")} }`;
}

let failed = 0;
for (const method of methods) {
  if (mockCannotAnswer(method)) {
    console.log(`skip  ${method.name.padEnd(33)} the mock refuses its query parameter's name (a Prism 5 limit)`);
    continue;
  }
  try {
    console.log(`ok    ${method.name.padEnd(33)} ${describe(await callMethod(client, method), method)}`);
  } catch (err) {
    failed++;
    console.log(`FAIL  ${method.name.padEnd(33)} ${err instanceof RainbondError ? err.message : err}`);
  }
}
const operations = new Set(methods.map((method) => method.operationId)).size;
const skipped = methods.filter(mockCannotAnswer).length;
const asked = methods.length - skipped;
console.log(
  `\n${asked - failed} of ${asked} methods answered, covering the ${operations} operations of the spec` +
    (skipped ? ` (${skipped} the mock cannot answer, skipped)` : ""),
);
if (!args.serve || failed) await leave(failed ? 1 : 0);
console.log(`
The mock keeps running at ${url} (Ctrl-C to stop). Point the client at it:

  const client = createRainbondClient({ baseUrl: "${url}", token: "any-token" });

Prism answers each operation with the spec's example. For an error answer, send a Prefer header, e.g.
headers: { Prefer: "code=404" } among the client's options, or: curl -H "Authorization: any-token" -H "Prefer: code=404" ${url}/openapi/v1/httpdomains`);
orphaned.ref(); // keeps this process, and so the mock, alive until one of the ways out above
