#!/usr/bin/env node
// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// npm start: regenerate from spec/, build the client, start the Prism mock of the spec on loopback, and call every
// method of the client (generated/methods.json, with the spec's examples: every operation, shortcut and iterator), one
// line each, named by the method called.
//
//   npm start                          the tour, on a free port; Prism stops at the end (the build is skipped when
//                                      dist/ was built from the same src/ and generated/: scripts/lib/build-stamp.ts)
//   npm start -- --serve [--port N]    the tour, then the mock keeps running on 127.0.0.1:N (default 4010, Prism's own
//                                      default) until Ctrl-C, SIGTERM or SIGHUP, or until npm's process goes away
//
// Prism runs in a process group of its own (scripts/prism.ts): a signal sent to npm reaches this script (npm forwards
// SIGINT and SIGTERM), never Prism, so this script stops Prism on every way out. npm does not forward SIGHUP and dies
// of it, leaving this script orphaned: npm's process going away is taken as the same request to stop.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { commandLine, scriptArgs } from "./lib/script.ts";
import { buildUnlessCurrent } from "./lib/build-stamp.ts";
import { callMethod, readMethods } from "./lib/methods.ts";
import { startPrism } from "./prism.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_PORT = 4010;
const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

const { values: args } = commandLine(
  `usage: npm start [-- --serve [--port N]]

  (no flag)      regenerate, build (skipped when dist/ is up to date), then call every method of the client against
                 the Prism mock of the spec on a free port; Prism stops at the end
  --serve        the same, then the mock keeps running on 127.0.0.1:N until Ctrl-C
  --port <N>     the port of --serve (default ${DEFAULT_PORT})`,
  { serve: { type: "boolean" }, port: { type: "string" } },
);
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
  execFileSync(process.execPath, scriptArgs(`scripts/${script}`, ...options), { stdio: "inherit" });
run("generate.ts", "--brief");
buildUnlessCurrent(() => {
  const started = Date.now();
  // errors only: tsdown 0.21 warns on every run that Node 20 support ends with its next minor (docs/releasing.md)
  execFileSync(process.execPath, [join(root, "node_modules/tsdown/dist/run.mjs"), "--logLevel", "error"], {
    cwd: root,
    stdio: "inherit",
  });
  console.log(`built dist/ (tsdown) in ${Date.now() - started} ms`);
});
const { createRainbondClient, RainbondError } = await import(join(root, "dist/index.js"));

try {
  prism = await startPrism({ port: args.serve ? port : 0 });
} catch (err) {
  console.error(err.message);
  if (args.serve) console.error(`\nIs port ${port} taken? Choose another: npm start -- --serve --port <N>`);
  await leave(1);
}
console.log(`Prism mock of the spec at ${prism.url}\n`);
const client = createRainbondClient({ baseUrl: prism.url, token: "demo-token", logLevel: "off" });
const methods = readMethods();
const operations = new Set(methods.map((method) => method.operationId)).size;

/** An answer on one line: a list's length and item type, or a record's type and its first few fields, shortened. */
function describe(answer, { returns }) {
  const type = returns.replace(/^AsyncGenerator<(.*)>$/, "$1[]");
  if (Array.isArray(answer)) return `${answer.length} × ${type.replace(/\[\]$/, "")}`;
  const short = (value) => {
    if (Array.isArray(value)) return `[${value.length}]`;
    const text = JSON.stringify(value);
    return text.length > 24 ? `${text.slice(0, 20)}…` : text;
  };
  const fields = Object.entries(answer ?? {}).filter(([, value]) => value !== null && typeof value !== "object");
  const lists = Object.entries(answer ?? {}).filter(([, value]) => Array.isArray(value));
  const shown = [...fields, ...lists].slice(0, 3).map(([key, value]) => `${key}: ${short(value)}`);
  return `${type} { ${shown.join(", ")} }`;
}

let failed = 0;
for (const method of methods) {
  try {
    console.log(`ok    ${method.name.padEnd(33)} ${describe(await callMethod(client, method), method)}`);
  } catch (err) {
    failed++;
    console.log(`FAIL  ${method.name.padEnd(33)} ${err instanceof RainbondError ? err.message : err}`);
  }
}
console.log(
  `\n${methods.length - failed} of ${methods.length} methods answered, covering the ${operations} operations of the spec`,
);
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
