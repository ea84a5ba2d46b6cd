#!/usr/bin/env node
// The code-generation pipeline: spec/ -> generated/.
//
//   lint        @redocly/openapi-core with redocly.yaml (recommended-strict): any error or warning stops here
//   bundle      join spec/openapi.yaml and its $refs into one document      -> generated/openapi.json
//   types       openapi-typescript                                          -> generated/schema.ts
//   client      the client's method layer (scripts/client-table.mjs)        -> generated/operations.ts, types.ts,
//                                                                              functions.ts, groups.ts, methods.json
//   readme      the README's table of methods (scripts/readme-table.mjs)    -> README.md beside the output directory
//   mcp-tools   one MCP tool per operation (scripts/mcp-tools.mjs)         -> generated/mcp-tools.json
//   format      prettier on every output
//
// No CLI is spawned per step, and the run uses both cores: the main thread loads @redocly/openapi-core, lints and
// bundles, while a worker thread (this same file) loads openapi-typescript (which loads the 9 MB `typescript`
// module, the most expensive import of the run) and warms prettier's TypeScript printer; once the bundle is ready the
// worker writes schema.ts and formats it and operations.ts, while the main thread prints openapi.json. Loading
// modules costs more than all the steps together, so it is overlapped rather than serialised (see the benchmarks).
//
// openapi.json is printed with prettier's own document printer (prettier/doc) from a document built the way
// prettier's JSON printer builds it, which skips parsing 88 KB of JSON back with babel; the output is the same bytes
// as prettier.format(JSON.stringify(spec), { parser: "json" }) (checked against prettier on the spec and on random
// JSON by scripts/bench/json-format-check.mjs, part of `npm test`), and the few inputs it does not cover (numbers in
// exponent notation, prettier options other than the widths) go through prettier.format itself.
//
// Output depends only on the spec: no timestamps, and the same bytes whichever thread finishes first.
//
//   node scripts/generate.mjs              write generated/
//   node scripts/generate.mjs --check      exit 1 and name the stale files when generated/ does not match spec/
//   node scripts/generate.mjs --watch      regenerate whenever a file under spec/ changes
//   node scripts/generate.mjs --lint-only  lint the spec and stop
//   --brief                                the step timings in one line at the end (npm start's tour uses it)
//   --spec <root.yaml|json>                another root document (default spec/openapi.yaml); used by the benchmarks
//   --out <dir>                            another output directory (default generated/)
import { readdirSync, realpathSync, watch } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const WORKER_ROLE = "rainbond-generate-types";

const loadPrettier = () => import("prettier");
const resolvePrettierConfig = async (prettier) => (await prettier.resolveConfig(join(root, "package.json"))) ?? {};

// ---- openapi.json: prettier's JSON layout without parsing ----------------------------------------------------------

// Prettier options the fast printer follows; with any other option set, openapi.json goes through prettier.format.
const JSON_FAST_OPTIONS = new Set(["printWidth", "tabWidth", "useTabs"]);

/**
 * prettier.format(JSON.stringify(value), { ...config, parser: "json" }), the same bytes, or null when the fast
 * printer does not cover the input (exponent-notation numbers) or the options.
 */
export async function formatJsonFast(value, config = {}) {
  if (Object.keys(config).some((key) => !JSON_FAST_OPTIONS.has(key))) return null;
  const text = JSON.stringify(value);
  // prettier rewrites exponents (1e+21 -> 1e21); those few numbers are left to prettier itself.
  if (/\d[eE]/.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""'))) return null;
  const { builders, printer } = await import("prettier/doc");
  const { printWidth = 80, tabWidth = 2, useTabs = false } = config;
  const doc = [jsonDoc(JSON.parse(text), builders), builders.hardline];
  return printer.printDocToString(doc, { printWidth, tabWidth, useTabs, endOfLine: "lf" }).formatted;
}

// The document prettier's estree printer makes for a JSON value written on one line (no comments, no blank lines):
//   object   group(["{", indent([line, join([",", line], properties)]), line, "}"]), "{}" when empty
//   property group([group(key), ":", " ", value])                    (assignment layout "never-break-after-operator")
//   array    group(["[", indent([softline, items]), softline, "]"]), "[]" when empty; forced to break when it has
//            2+ elements that are all objects (or all arrays) of 2+ entries; numbers only: a fill, else each item
//            in a group, joined by [",", line]
function jsonDoc(value, b) {
  if (value === null) return "null";
  if (typeof value !== "object") return typeof value === "string" ? JSON.stringify(value) : String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const last = value.length - 1;
    let items;
    if (value.every((v) => typeof v === "number")) {
      const parts = [];
      value.forEach((v, i) => {
        parts.push([String(v), i === last ? "" : ","]);
        if (i !== last) parts.push(b.line);
      });
      items = b.fill(parts);
    } else {
      items = [];
      value.forEach((v, i) => {
        items.push(b.group(jsonDoc(v, b)));
        if (i !== last) items.push([",", b.line, ""]);
      });
    }
    const container = (v) => v !== null && typeof v === "object";
    const entries = (v) => (Array.isArray(v) ? v.length : Object.keys(v).length);
    const shouldBreak =
      value.length > 1 &&
      value.every(
        (v, i) =>
          container(v) &&
          (i === last || (container(value[i + 1]) && Array.isArray(v) === Array.isArray(value[i + 1]))) &&
          entries(v) > 1,
      );
    return b.group(["[", b.indent([b.softline, items]), b.softline, "]"], { shouldBreak });
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return "{}";
  const properties = keys.map((key) => b.group([b.group(JSON.stringify(key)), ":", " ", jsonDoc(value[key], b)]));
  return b.group(["{", b.indent([b.line, b.join([",", b.line], properties)]), b.line, "}"]);
}

// ---- worker thread: openapi-typescript + prettier for the TypeScript files -----------------------------------------

if (!isMainThread && workerData?.role === WORKER_ROLE) typesThread();

function typesThread() {
  // Start loading at once, and warm prettier's TypeScript parser and printer while the main thread lints: both are
  // loaded on first use, and the first format costs several times the next one.
  const ready = (async () => {
    // openapi-typescript's CommonJS build, through require: importing its ES module build makes Node scan the 9 MB
    // `typescript` CommonJS module for its export names (cjs-module-lexer), which doubles the cost of loading it.
    const { default: openapiTS, astToString } = createRequire(import.meta.url)("openapi-typescript");
    const prettier = await loadPrettier();
    await prettier.format("export interface A {\n  a?: string;\n}\nexport type B = A | null;\n", {
      parser: "typescript",
    });
    return { openapiTS, astToString, prettier, readyMs: performance.now() };
  })();
  ready.catch(() => {}); // reported with the first request
  let served = 0;
  parentPort.on("message", async ({ spec, client }) => {
    try {
      const { openapiTS, astToString, prettier, readyMs } = await ready;
      const prettierConfig = await resolvePrettierConfig(prettier);
      const format = (source) => prettier.format(source, { ...prettierConfig, parser: "typescript" });
      const start = performance.now();
      const types = astToString(await openapiTS(spec, { defaultNonNullable: false }));
      const typesMs = performance.now() - start;
      const schemaTs = await format(types);
      const clientTs = {};
      for (const [name, source] of Object.entries(client)) clientTs[name] = await format(source);
      const formatMs = performance.now() - start - typesMs;
      // The modules are loaded once per worker: their time is reported with the first run only (--watch).
      parentPort.postMessage({ schemaTs, clientTs, readyMs: served++ === 0 ? readyMs : 0, typesMs, formatMs });
    } catch (err) {
      parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
    }
  });
}

/** The worker, started once (in --watch it serves every run). run(message) -> its reply. */
function startTypesWorker() {
  const worker = new Worker(new URL(import.meta.url), { workerData: { role: WORKER_ROLE } });
  let pending = null;
  let failure = null;
  const fail = (err) => {
    failure ??= err;
    pending?.reject(err);
    pending = null;
  };
  worker.on("message", (reply) => {
    const p = pending;
    pending = null;
    if (reply.error) p?.reject(new Error(reply.error));
    else p?.resolve(reply);
  });
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the types worker exited with code ${code}`)));
  return {
    get failed() {
      return failure !== null;
    },
    run(message) {
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        worker.postMessage(message);
      });
    },
  };
}

// ---- main thread --------------------------------------------------------------------------------------------------

function parseArgs(argv) {
  const flags = new Set();
  const values = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--spec" || argv[i] === "--out") {
      if (i + 1 >= argv.length) throw new Error(`${argv[i]} needs a value`);
      values[argv[i].slice(2)] = resolve(argv[++i]);
    } else flags.add(argv[i]);
  }
  return {
    check: flags.has("--check"),
    lintOnly: flags.has("--lint-only"),
    watch: flags.has("--watch"),
    brief: flags.has("--brief"),
    specRoot: values.spec ?? join(root, "spec", "openapi.yaml"),
    outDir: values.out ?? join(root, "generated"),
  };
}

let options;
let typesWorker = null;
let redocly = null;

async function timed(name, fn, note) {
  const start = performance.now();
  const result = await fn();
  report(name, performance.now() - start, note);
  return result;
}

/** The step timings of the current run, kept for one line at its end with --brief. */
let steps = [];

function report(name, ms, note = "") {
  if (options.brief) steps.push(`${name} ${ms.toFixed(0)}`);
  else console.log(`  ${name.padEnd(11)} ${ms.toFixed(0).padStart(5)} ms${note ? `  ${note}` : ""}`);
}

async function lintSpec(config, externalRefResolver) {
  const { formatProblems, getTotals, lint } = redocly;
  const problems = await lint({ ref: options.specRoot, config, externalRefResolver });
  const totals = getTotals(problems);
  if (totals.errors + totals.warnings > 0) {
    formatProblems(problems, { format: "stylish", totals, version: "", maxProblems: 100 });
    throw new Error(`lint: ${totals.errors} error(s), ${totals.warnings} warning(s) in the spec`);
  }
  return problems;
}

/** Runs the pipeline in memory and returns { path relative to the project: formatted content }. */
async function buildOutputs({ lintOnly = false } = {}) {
  // The worker loads its modules from now on, in parallel with everything below up to the bundle.
  if (!lintOnly && (!typesWorker || typesWorker.failed)) typesWorker = startTypesWorker();
  redocly ??= await timed("load", () => import("@redocly/openapi-core"), "@redocly/openapi-core");
  const config = await timed("config", () => redocly.loadConfig({ configPath: join(root, "redocly.yaml") }));
  // One resolver for lint and bundle: the spec's files are read and parsed once (linting does not change them).
  const externalRefResolver = new redocly.BaseResolver(config.resolve);
  await timed("lint", () => lintSpec(config, externalRefResolver));
  if (lintOnly) return {};
  const { bundle: doc, problems } = await timed("bundle", () =>
    redocly.bundle({ ref: options.specRoot, config, externalRefResolver }),
  );
  if (problems.some((p) => p.severity === "error")) throw new Error("bundle: unresolved references in the spec");
  const spec = doc.parsed;
  const { clientTable } = await import("./client-table.mjs");
  const { "methods.json": methods, ...client } = await timed("client", () => clientTable(spec));
  const sent = performance.now();
  const typeScript = typesWorker.run({ spec, client });
  typeScript.catch(() => {}); // awaited below
  const formatJson = async (value) => {
    const prettier = await loadPrettier();
    const prettierConfig = await resolvePrettierConfig(prettier);
    return (
      (await formatJsonFast(value, prettierConfig)) ??
      prettier.format(JSON.stringify(value), { ...prettierConfig, parser: "json" })
    );
  };
  const json = await timed("format", () => formatJson(spec), "openapi.json");
  const methodsJson = await formatJson(methods);
  const { mcpToolsJson } = await import("./mcp-tools.mjs");
  const mcpTools = await timed("mcp-tools", () => mcpToolsJson(spec, join(root, "package.json")), "mcp-tools.json");
  const readme = await timed("readme", () => readmeBeside(options.outDir, { spec, methods }));
  const { schemaTs, clientTs, readyMs, typesMs, formatMs } = await typeScript;
  const after = `${(performance.now() - sent).toFixed(0)} ms after the bundle`;
  if (readyMs) report("load-ts", readyMs, "openapi-typescript, prettier + warm-up, in the worker thread (in parallel)");
  report("types", typesMs, "in the worker thread");
  report("format-ts", formatMs, `schema.ts and the client's files in the worker thread (done ${after})`);
  const out = (name) => relative(root, join(options.outDir, name));
  return {
    [out("openapi.json")]: json,
    [out("schema.ts")]: schemaTs,
    [out("methods.json")]: methodsJson,
    ...readme,
    ...Object.fromEntries(Object.entries(clientTs).map(([name, source]) => [out(name), source])),
    [out("mcp-tools.json")]: mcpTools,
  };
}

/**
 * The README beside the output directory (the project's README.md, for generated/) with its table of methods made from
 * this run's spec and methods, as { path: text }; nothing when no README with the table's markers is there.
 */
async function readmeBeside(outDir, sources) {
  const { START, readmeWithTable } = await import("./readme-table.mjs");
  const file = join(dirname(outDir), "README.md");
  const readme = await readOr(file, "");
  return readme.includes(START) ? { [relative(root, file)]: await readmeWithTable(readme, sources) } : {};
}

async function readOr(path, fallback) {
  try {
    return await readFile(path, "utf8");
  } catch {
    return fallback;
  }
}

async function run({ check, lintOnly }) {
  const start = performance.now();
  const specName = relative(root, dirname(options.specRoot)) || ".";
  const outName = relative(root, options.outDir) || ".";
  const title = lintOnly
    ? `lint ${specName}/`
    : check
      ? `check ${outName}/ against ${specName}/`
      : `generate ${specName}/ -> ${outName}/`;
  steps = [];
  if (!options.brief) console.log(title);
  const outputs = await buildOutputs({ lintOnly });
  const stale = [];
  for (const [file, content] of Object.entries(outputs)) {
    const path = join(root, file);
    if ((await readOr(path, null)) === content) continue;
    stale.push(file);
    if (!check) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content);
    }
  }
  const total = `${(performance.now() - start).toFixed(0)} ms`;
  // --brief: what was done and the step timings, on one line
  const done = (result) => console.log(options.brief ? `${title}: ${result}; steps, ms: ${steps.join(", ")}` : result);
  if (lintOnly) done(`${specName}/ lints clean (0 errors, 0 warnings) in ${total}`);
  else if (check && stale.length) {
    console.error(
      `${outName}/ is stale; run \`npm run generate\` and commit:\n${stale.map((f) => `  ${f}`).join("\n")}`,
    );
    return false;
  } else if (check) done(`${outName}/ matches ${specName}/ (${total})`);
  else done(`${stale.length ? `wrote ${stale.join(", ")}` : `${outName}/ already up to date`} (${total})`);
  return true;
}

/**
 * Calls `onChange(file)` whenever a spec file (.yaml, .yml, .json) under `dir` is written, created, renamed or removed.
 *
 * Each directory is watched on its own, never a file: an editor that saves by writing a temporary file and renaming it
 * over the old one (an atomic save, `sed -i`) replaces the file, and a watch on the old file (as Node 20's recursive
 * fs.watch on Linux keeps) sees nothing after that first save. A watch on the directory sees every later write too.
 * Directories created later are watched as they appear. Written by hand: no dependency of the project does this
 * (chokidar would, as a new dependency for one loop over directories).
 */
export function watchTree(dir, onChange) {
  const watchers = new Map();
  const add = (folder) => {
    if (watchers.has(folder)) return;
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return; // gone already
    }
    const watcher = watch(folder, (_event, name) => {
      if (!name) return;
      const path = join(folder, name.toString());
      if (/\.(ya?ml|json)$/.test(path)) return onChange(path);
      // a directory created, removed or renamed: watched afresh if it is there (anything else is left alone)
      for (const [watched, old] of watchers) {
        if (watched === path || watched.startsWith(path + sep)) (old.close(), watchers.delete(watched));
      }
      add(path);
    });
    watcher.on("error", () => {
      watcher.close();
      watchers.delete(folder); // the directory was removed
    });
    watchers.set(folder, watcher);
    for (const entry of entries) if (entry.isDirectory()) add(join(folder, entry.name));
  };
  add(dir);
  return { close: () => watchers.forEach((watcher) => watcher.close()) };
}

function watchSpec() {
  let timer;
  let running = Promise.resolve();
  const specDir = dirname(options.specRoot);
  const again = () =>
    (running = running.then(() => run({}).catch((err) => console.error(`\n${err.message}\nwaiting for changes...`))));
  again();
  watchTree(specDir, (file) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      console.log(`\n${relative(root, file)} changed`);
      again();
    }, 100);
  });
  console.log(`watching ${relative(process.cwd(), specDir) || "."}/ (Ctrl-C to stop)`);
}

// Run only as a script (it can be imported for formatJsonFast).
const isScript = () => {
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
};
if (isMainThread && process.argv[1] && isScript()) {
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
  if (options.watch) watchSpec();
  else {
    run(options).then(
      (ok) => process.exit(ok ? 0 : 1),
      (err) => {
        console.error(err.message);
        process.exit(1);
      },
    );
  }
}
