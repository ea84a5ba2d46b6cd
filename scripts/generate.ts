// The code-generation pipeline, spec/ -> generated/, every step in this process: docs/editing-the-spec.md, "How it fits
// together".
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { watch } from "chokidar";
import type { OpenAPI3 } from "openapi-typescript";
import type { Spec } from "./codegen/client-table.ts";
import { DEPARTURES_PAGE, departuresPage } from "./codegen/departures-page.ts";
import { commandLine, isMain, root } from "./lib/script.ts";
import {
  applyOverlay,
  bundleSpec,
  CONSOLE_ROOT,
  consoleRootOf,
  joinConsoleOperations,
  OVERLAY_FILE,
} from "./lib/spec.ts";
import { readOverlay, type JsonObject } from "./lib/spec.ts";

const USAGE = `usage: npm run generate -- [--check | --watch | --lint-only] [--brief] [--spec <root.yaml>] [--out <dir>]

  (no flag)            write generated/ from spec/
  --check              exit 1 and name the stale files when generated/ does not match spec/
  --watch              regenerate whenever a file under spec/ changes (Ctrl-C to stop)
  --lint-only          lint the spec, its console overlay and the overlaid document, and stop
  --brief              the step timings in one line at the end
  --spec <root.yaml>   another root document (default spec/openapi.yaml)
  --out <dir>          another output directory (default generated/)
  --help               this text`;

export type Options = { specRoot: string; outDir: string; check?: boolean; lintOnly?: boolean; brief?: boolean };
type Timed = <T>(name: string, fn: () => T | Promise<T>, note?: string) => Promise<T>;

/** The tools of the run, each loaded once (a --watch session or a test reuses them). */
let redocly: typeof import("@redocly/openapi-core") | undefined;
let printers: Awaited<ReturnType<typeof loadPrinters>> | undefined;

async function loadPrinters() {
  // openapi-typescript's CommonJS build, through require: importing its ES module build makes Node scan the 9 MB
  // `typescript` CommonJS module for its export names (cjs-module-lexer), which doubles the cost of loading it.
  const require = createRequire(import.meta.url);
  const openapiTS: typeof import("openapi-typescript") = require("openapi-typescript");
  return { ...openapiTS, format: formatter(require("prettier/package.json").version) };
}

/** Where formatted outputs are kept, by the hash of what was formatted: a spec edit reformats only what it changed. */
const FORMATTED = join(root, "node_modules", ".cache", "rainbond-openapi", "formatted");
/** How many formatted outputs are kept: a few runs' worth. */
const KEPT = 300;

/**
 * prettier's format with the project's configuration (package.json's `prettier`), through a cache of its outputs keyed
 * by prettier's version, the configuration, the parser and the source: formatting is most of what a run of the loop
 * (`--watch`) would otherwise spend. prettier itself is loaded on the first output the cache lacks.
 */
function formatter(version: string) {
  let prettier: Promise<typeof import("prettier")> | undefined;
  const config = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).prettier ?? {};
  return async (source: string, parser: string) => {
    const key = createHash("sha256")
      .update(JSON.stringify([version, config, parser, source]))
      .digest("hex");
    const file = join(FORMATTED, key);
    const kept = await readFile(file, "utf8").catch(() => undefined);
    if (kept !== undefined) return kept;
    const formatted = await (await (prettier ??= import("prettier"))).format(source, { ...config, parser });
    await mkdir(FORMATTED, { recursive: true });
    await writeFile(`${file}.${process.pid}`, formatted).then(() => rename(`${file}.${process.pid}`, file));
    await forgetOldest();
    return formatted;
  };
}

/** The oldest formatted outputs beyond KEPT, removed. */
async function forgetOldest() {
  const names = await readdir(FORMATTED);
  if (names.length <= KEPT) return;
  const dated = await Promise.all(
    names.map(async (name) => [name, (await stat(join(FORMATTED, name))).mtimeMs] as const),
  );
  dated.sort((a, b) => a[1] - b[1]);
  await Promise.all(dated.slice(0, names.length - KEPT).map(([name]) => rm(join(FORMATTED, name), { force: true })));
}

/** Runs the pipeline in memory and returns { path relative to the project: formatted content }. */
async function buildOutputs(options: Options, timed: Timed): Promise<Record<string, string>> {
  redocly ??= await timed("load", () => import("@redocly/openapi-core"), "@redocly/openapi-core");
  const { bundle, BaseResolver, formatProblems, getTotals, lint, lintFromString, loadConfig } = redocly;
  const config = await timed("config", () => loadConfig({ configPath: join(root, "redocly.yaml") }));
  // One resolver for lint and bundle: the spec's files are read and parsed once (linting does not change them).
  const externalRefResolver = new BaseResolver(config.resolve);
  const ref = options.specRoot;
  const clean = (problems: Awaited<ReturnType<typeof lint>>, what: string) => {
    const totals = getTotals(problems);
    if (totals.errors + totals.warnings === 0) return;
    formatProblems(problems, { format: "stylish", totals, version: "", maxProblems: 100 });
    throw new Error(`lint: ${totals.errors} error(s), ${totals.warnings} warning(s) in ${what}`);
  };
  const consoleRoot = consoleRootOf(ref);
  // the console overlay beside the root (spec/README.md): linted as an Overlay document, applied to the bundle
  const overlayFile = join(dirname(ref), OVERLAY_FILE);
  const overlay = await readOverlay(ref);
  // the departures page first: it names an action whose field no tool can carry (`__proto__`), which the lint of the
  // overlaid document would report only by what it broke
  const departures = overlay && departuresPage(overlay);
  if (overlay) clean(await lint({ ref: overlayFile, config, externalRefResolver }), OVERLAY_FILE);
  // each bundle with a resolver of its own: Redocly's bundle rewrites the `$ref`s of the documents it has read, which a
  // second bundle through the same resolver would then not resolve (the two roots share spec/components/)
  const bundled = async (root: string, resolver = externalRefResolver) => {
    const result = await bundle({ ref: root, config, externalRefResolver: resolver });
    if (result.problems.some((p) => p.severity === "error"))
      throw new Error(`bundle: unresolved references in ${relative(process.cwd(), root)}`);
    return result.bundle.parsed as JsonObject;
  };
  // the transcription, and the console's own operations joined in (scripts/lib/spec.ts)
  const bundleBoth = async () => {
    const main = await bundled(ref);
    if (!consoleRoot) return main;
    return joinConsoleOperations(main, await bundled(consoleRoot, new BaseResolver(config.resolve)));
  };
  let spec = (await timed("bundle", bundleBoth)) as unknown as Spec & OpenAPI3;
  if (overlay) spec = (await timed("overlay", () => applyOverlay(spec as never, overlay), OVERLAY_FILE)) as typeof spec;
  // The whole document linted once, by redocly.yaml's rules: what every surface is made of. Only where it has problems
  // are the roots linted too, each on its own, so that a problem is shown in its file and line.
  const lintWhole = async () => {
    const source = JSON.stringify(spec);
    const absoluteRef = `${relative(root, ref)}${consoleRoot ? ` and spec/${CONSOLE_ROOT}` : ""}${overlay ? ` with ${OVERLAY_FILE}` : ""}`;
    const problems = await lintFromString({ source, absoluteRef, config, externalRefResolver });
    if (getTotals(problems).errors + getTotals(problems).warnings === 0) return;
    // a resolver of their own: the bundles have rewritten the `$ref`s of the documents the shared one read
    const fresh = () => new BaseResolver(config.resolve);
    clean(await lint({ ref, config, externalRefResolver: fresh() }), "the spec");
    if (consoleRoot)
      clean(await lint({ ref: consoleRoot, config, externalRefResolver: fresh() }), `spec/${CONSOLE_ROOT}`);
    clean(problems, absoluteRef);
  };
  await timed("lint", lintWhole);
  if (options.lintOnly) return {};
  printers ??= await timed("load-ts", loadPrinters, "openapi-typescript, prettier");
  const { default: openapiTS, astToString, format } = printers;
  const { clientTable } = await import("./codegen/client-table.ts");
  const { tableOf, withToolsTable } = await import("./codegen/table.ts");
  const { METHODS_PAGE, START, withMethodsTable } = await import("./codegen/methods-page.ts");
  const walk = await timed("client", () => clientTable(spec));
  const table = await timed("table", () => tableOf(spec, walk), "table.json");
  const types = await timed("types", async () =>
    astToString(await openapiTS(spec, { defaultNonNullable: false, emptyObjectsUnknown: true })),
  );
  // the two JSON files and schema.ts are written as JSON.stringify and TypeScript's printer write them (prettier would
  // take about 2 s of the run on them alone; .prettierignore names them); the client's files are formatted
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const out = (name: string) => relative(root, join(options.outDir, name));
  const outputs: Record<string, string> = {
    [out("openapi.json")]: json(spec),
    [out("table.json")]: json(table),
    [out("schema.ts")]: types,
  };
  const formatTs = async () => {
    for (const [name, source] of Object.entries(walk.files)) outputs[out(name)] = await format(source, "typescript");
  };
  await timed("format-ts", formatTs, "the client's files");
  /** The generated part of a file beside the output directory (the project's, for generated/), where it is. */
  const beside = async (name: string, marker: string, rewrite: (text: string) => string | Promise<string>) => {
    const file = join(dirname(options.outDir), name);
    const text = await readOr(file, "");
    if (text.includes(marker)) outputs[relative(root, file)] = await rewrite(text);
  };
  await beside("docs/mcp.md", "<!-- tools: generated by", (text) => withToolsTable(text, table));
  if (departures) {
    const page = join(dirname(options.outDir), DEPARTURES_PAGE);
    outputs[relative(root, page)] = await format(departures, "markdown");
  }
  await timed("methods", () =>
    beside(METHODS_PAGE, START, (text) =>
      withMethodsTable(text, { spec, methods: table.methods }, (markdown) => format(markdown, "markdown")),
    ),
  );
  return outputs;
}

/** Whether `specRoot` bundles (with its overlay) to another document than `outDir`/openapi.json (or there is none),
 * told by content and without linting, typing or formatting (some 0.3 s): `npm run verify` warns with it that
 * generated/ is stale. */
export async function specDiffersFromGenerated(specRoot: string, outDir: string): Promise<boolean> {
  const spec = await bundleSpec(specRoot);
  const generated = await readOr(join(outDir, "openapi.json"), null);
  return generated === null || JSON.stringify(JSON.parse(generated)) !== JSON.stringify(spec);
}

const readOr = <T>(path: string, fallback: T) => readFile(path, "utf8").catch(() => fallback);

/** One run: lint, or check, or write. Returns the files that were stale (and, unless checking, are now written). */
export async function generate(options: Options): Promise<string[]> {
  const { check, lintOnly, brief } = options;
  const start = performance.now();
  const steps: string[] = [];
  const timed: Timed = async (name, fn, note) => {
    const begun = performance.now();
    const result = await fn();
    const ms = (performance.now() - begun).toFixed(0);
    if (brief) steps.push(`${name} ${ms}`);
    else console.log(`  ${name.padEnd(11)} ${ms.padStart(5)} ms${note ? `  ${note}` : ""}`);
    return result;
  };
  const specName = relative(root, dirname(options.specRoot)) || ".";
  const outName = relative(root, options.outDir) || ".";
  const title = lintOnly
    ? `lint ${specName}/`
    : check
      ? `check ${outName}/ against ${specName}/`
      : `generate ${specName}/ -> ${outName}/`;
  if (!brief) console.log(title);
  const stale: string[] = [];
  const outputs = await buildOutputs(options, timed);
  for (const [file, content] of Object.entries(outputs)) {
    const path = join(root, file);
    if ((await readOr(path, null)) === content) continue;
    stale.push(file);
    if (!check) await mkdir(dirname(path), { recursive: true }).then(() => writeFile(path, content));
  }
  // a group no operation has any more: its file goes
  const groupsDir = join(options.outDir, "groups");
  for (const name of await readdir(groupsDir).catch(() => [] as string[])) {
    const file = relative(root, join(groupsDir, name));
    if (Object.hasOwn(outputs, file) || options.lintOnly) continue;
    stale.push(file);
    if (!check) await rm(join(root, file));
  }
  const total = `${(performance.now() - start).toFixed(0)} ms`;
  const done = (result: string) => console.log(brief ? `${title}: ${result}; steps, ms: ${steps.join(", ")}` : result);
  if (lintOnly) done(`${specName}/ lints clean (0 errors, 0 warnings) in ${total}`);
  else if (check && stale.length)
    console.error(`${outName}/ is stale; run \`npm run generate\` and commit:\n  ${stale.join("\n  ")}`);
  else if (check) done(`${outName}/ matches ${specName}/ (${total})`);
  else done(`${stale.length ? `wrote ${stale.join(", ")}` : `${outName}/ already up to date`} (${total})`);
  return stale;
}

/** Generates once chokidar watches the spec's folder (docs/editing-the-spec.md, "The loop"), then after every change of
 * a spec file (.yaml, .yml, .json) in it, until `close()` (which awaits a run under way). */
export function watchSpec(options: Options) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const again = () =>
    (running = running.then(() =>
      generate(options).catch((err) => console.error(`\n${err.message}\nwaiting for changes...`)),
    ));
  const specDir = dirname(options.specRoot);
  const watcher = watch(specDir, { ignoreInitial: true })
    .on("ready", () => (console.log(`watching ${relative(process.cwd(), specDir) || "."}/ (Ctrl-C to stop)`), again()))
    .on("all", (_event, file) => {
      if (!/\.(ya?ml|json)$/.test(file)) return;
      clearTimeout(timer);
      timer = setTimeout(() => (console.log(`\n${relative(root, file)} changed`), again()), 100);
    });
  return { close: async () => (clearTimeout(timer), await watcher.close(), await running) };
}

if (isMain(import.meta)) {
  const { values } = commandLine(USAGE, {
    check: { type: "boolean" },
    watch: { type: "boolean" },
    "lint-only": { type: "boolean" },
    brief: { type: "boolean" },
    spec: { type: "string", default: join(root, "spec", "openapi.yaml") },
    out: { type: "string", default: join(root, "generated") },
  });
  const { check, brief, spec, out } = values;
  const options = { check, lintOnly: values["lint-only"], brief, specRoot: resolve(spec), outDir: resolve(out) };
  if (values.watch) watchSpec(options);
  else {
    const stale = await generate(options).catch((err: Error) => (console.error(err.message), process.exit(1)));
    process.exit(check && stale.length ? 1 : 0);
  }
}
