#!/usr/bin/env node
// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The code-generation pipeline: spec/ -> generated/.
//
//   lint        @redocly/openapi-core with redocly.yaml (recommended-strict): any error or warning stops here
//   bundle      join spec/openapi.yaml and its $refs into one document      -> generated/openapi.json
//   types       openapi-typescript                                          -> generated/schema.ts
//   client      the client's method layer (scripts/client-table.ts)        -> generated/operations.ts, types.ts,
//                                                                              functions.ts, groups.ts, methods.json
//   readme      the README's table of methods (scripts/readme-table.ts)    -> README.md beside the output directory
//   mcp-tools   one MCP tool per operation (scripts/mcp-tools.ts)         -> generated/mcp-tools.json
//   format      prettier on every output
//
// No CLI is spawned per step: every tool runs in this process, one step after the other, and every output is
// formatted by prettier's own API with the project's prettier configuration.
//
// Output depends only on the spec: no timestamps.
//
// The flags: USAGE below (`npm run generate -- --help`).
import { readdirSync, realpathSync, watch } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { commandLine } from "./lib/script.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

const USAGE = `usage: npm run generate -- [--check | --watch | --lint-only] [--brief] [--spec <root.yaml>] [--out <dir>]

  (no flag)            write generated/ from spec/
  --check              exit 1 and name the stale files when generated/ does not match spec/
  --watch              regenerate whenever a file under spec/ changes (Ctrl-C to stop)
  --lint-only          lint the spec and stop
  --brief              the step timings in one line at the end
  --spec <root.yaml>   another root document (default spec/openapi.yaml)
  --out <dir>          another output directory (default generated/)
  --help               this text`;

/** The options of a run (--help and bad arguments end the process there). */
function parseOptions(argv) {
  const { values } = commandLine(
    USAGE,
    {
      check: { type: "boolean", default: false },
      watch: { type: "boolean", default: false },
      "lint-only": { type: "boolean", default: false },
      brief: { type: "boolean", default: false },
      spec: { type: "string" },
      out: { type: "string" },
    },
    { args: argv },
  );
  return {
    check: values.check,
    lintOnly: values["lint-only"],
    watch: values.watch,
    brief: values.brief,
    specRoot: values.spec ? resolve(values.spec) : join(root, "spec", "openapi.yaml"),
    outDir: values.out ? resolve(values.out) : join(root, "generated"),
  };
}

let options;

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

async function lintSpec(redocly, config, externalRefResolver) {
  const { formatProblems, getTotals, lint } = redocly;
  const problems = await lint({ ref: options.specRoot, config, externalRefResolver });
  const totals = getTotals(problems);
  if (totals.errors + totals.warnings > 0) {
    formatProblems(problems, { format: "stylish", totals, version: "", maxProblems: 100 });
    throw new Error(`lint: ${totals.errors} error(s), ${totals.warnings} warning(s) in the spec`);
  }
  return problems;
}

/** The tools of the run, each loaded once (a --watch session reuses them). */
let redocly = null;
let printers = null;

async function loadPrinters() {
  // openapi-typescript's CommonJS build, through require: importing its ES module build makes Node scan the 9 MB
  // `typescript` CommonJS module for its export names (cjs-module-lexer), which doubles the cost of loading it.
  const { default: openapiTS, astToString } = createRequire(import.meta.url)("openapi-typescript");
  const prettier = await import("prettier");
  const prettierConfig = (await prettier.resolveConfig(join(root, "package.json"))) ?? {};
  const format = (source, parser) => prettier.format(source, { ...prettierConfig, parser });
  return { openapiTS, astToString, format };
}

/** Runs the pipeline in memory and returns { path relative to the project: formatted content }. */
async function buildOutputs({ lintOnly = false } = {}) {
  redocly ??= await timed("load", () => import("@redocly/openapi-core"), "@redocly/openapi-core");
  const config = await timed("config", () => redocly.loadConfig({ configPath: join(root, "redocly.yaml") }));
  // One resolver for lint and bundle: the spec's files are read and parsed once (linting does not change them).
  const externalRefResolver = new redocly.BaseResolver(config.resolve);
  await timed("lint", () => lintSpec(redocly, config, externalRefResolver));
  if (lintOnly) return {};
  const { bundle: doc, problems } = await timed("bundle", () =>
    redocly.bundle({ ref: options.specRoot, config, externalRefResolver }),
  );
  if (problems.some((p) => p.severity === "error")) throw new Error("bundle: unresolved references in the spec");
  const spec = doc.parsed;
  printers ??= await timed("load-ts", loadPrinters, "openapi-typescript, prettier");
  const { openapiTS, astToString, format } = printers;
  const { clientTable } = await import("./client-table.ts");
  const { "methods.json": methods, ...client } = await timed("client", () => clientTable(spec));
  const types = await timed("types", async () => astToString(await openapiTS(spec, { defaultNonNullable: false })));
  const json = await timed("format", () => format(JSON.stringify(spec), "json"), "openapi.json");
  const methodsJson = await format(JSON.stringify(methods), "json");
  const typeScript = await timed(
    "format-ts",
    async () => {
      const formatted = { "schema.ts": await format(types, "typescript") };
      for (const [name, source] of Object.entries(client)) formatted[name] = await format(source, "typescript");
      return formatted;
    },
    "schema.ts and the client's files",
  );
  const { mcpToolsJson } = await import("./mcp-tools.ts");
  const mcpTools = await timed("mcp-tools", () => mcpToolsJson(spec, join(root, "package.json")), "mcp-tools.json");
  const readme = await timed("readme", () => readmeBeside(options.outDir, { spec, methods }));
  const out = (name) => relative(root, join(options.outDir, name));
  return {
    [out("openapi.json")]: json,
    [out("schema.ts")]: typeScript["schema.ts"],
    [out("methods.json")]: methodsJson,
    ...readme,
    ...Object.fromEntries(
      Object.entries(typeScript)
        .filter(([name]) => name !== "schema.ts")
        .map(([name, source]) => [out(name), source]),
    ),
    [out("mcp-tools.json")]: mcpTools,
  };
}

/**
 * Whether the spec at `specRoot` bundles to another document than `outDir`/openapi.json holds (or there is none): the
 * first thing `--check` would find stale after an edit of the spec, told by content and without linting, typing or
 * formatting (some 0.3 s). `npm run verify` warns with it.
 */
export async function specDiffersFromGenerated(specRoot, outDir) {
  redocly ??= await import("@redocly/openapi-core");
  const config = await redocly.loadConfig({ configPath: join(root, "redocly.yaml") });
  const { bundle } = await redocly.bundle({ ref: specRoot, config });
  const generated = await readOr(join(outDir, "openapi.json"), null);
  return generated === null || JSON.stringify(JSON.parse(generated)) !== JSON.stringify(bundle.parsed);
}

/**
 * The README beside the output directory (the project's README.md, for generated/) with its table of methods made from
 * this run's spec and methods, as { path: text }; nothing when no README with the table's markers is there.
 */
async function readmeBeside(outDir, sources) {
  const { START, readmeWithTable } = await import("./readme-table.ts");
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
function watchTree(dir, onChange) {
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

// Run only as a script.
const isScript = () => {
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
};
if (process.argv[1] && isScript()) {
  options = parseOptions(process.argv.slice(2));
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
