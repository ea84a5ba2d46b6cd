// Benchmarks, side by side (the parts are in scripts/bench/): per-call overhead, bundle size, generation time, type-check
// cost, and how generation and type-checking grow with the spec. Prints the Markdown tables of docs/performance.md and
// writes the figures as JSON. Everything is built in a work directory under .bench/, removed at the end.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { arch, availableParallelism, constants, loadavg, platform } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { commandLine, root, scriptArgs } from "./lib/script.ts";
import { benchCalls } from "./bench/calls.ts";
import { benchCommands, children, generateSteps, tscFigures, type Measured, type Summary } from "./bench/run.ts";
import { benchSize, bundleClientForNode } from "./bench/size.ts";
import { typecheckPrograms, writeSyntheticSpec } from "./bench/synthetic-spec.ts";
import { REACH_CEILING, reachSummary, toolsListSize } from "./bench/tools-list.ts";

/** Per call, the client against the floor (fetch with a per-attempt timeout, t) and bare openapi-fetch (b). */
const TARGETS: Record<string, number> = { "c/t": 1.04, "c/b": 1.05 };
TARGETS["npm run generate"] = TARGETS["npm run generate -- --check"] = 3000; // ms
const FULL = {
  calls: { rounds: 20, calls: 250, warmup: 300, stubRounds: 15, stubCalls: 1000 },
  generationRuns: 7,
  typecheckRuns: 5,
  scale: { factors: [1, 10, 50], runs: 3, tscRuns: 3 },
  warmup: true,
};
const SMOKE: typeof FULL = {
  calls: { rounds: 3, calls: 40, warmup: 20, stubRounds: 3, stubCalls: 100 },
  generationRuns: 1,
  typecheckRuns: 1,
  scale: { factors: [2], runs: 1, tscRuns: 1 },
  warmup: false, // no untimed runs: the first `generate` writes what `--check` reads
};
/** What each part takes, in seconds, about (a full run on 2 cores; a smoke run takes a tenth): for the time left. */
const EXPECTED_SECONDS = { calls: 60, size: 5, mcp: 1, generation: 35, typecheck: 45, scale: 250 };
type Part = keyof typeof EXPECTED_SECONDS;
const PARTS = Object.keys(EXPECTED_SECONDS) as Part[];
const USAGE = `usage: npm run bench -- [--smoke] [--only <part>,<part>...] [--json <file>] [--keep]

  --smoke         few iterations, well under a minute (-> .bench/results-smoke.json)
  --only <parts>  the named parts only: ${PARTS.join(", ")}
  --json <file>   write the JSON there (default .bench/results.json)
  --keep          keep the run's work directory under .bench/`;

const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, "0")}`;

// ---- the tables: each the paragraph above it ({name} filled in), its head, and a note below it ----
const TABLES = {
  calls:
    "**Per-call overhead**: µs per call, median [p25–p75] of {rounds} interleaved rounds of {calls} sequential calls ({total} GET + {total} POST per contender), node:http server and each contender in a child process of their own, on 127.0.0.1\n|GET component, wall|POST port, wall|GET, CPU|POST, CPU\nWall: elapsed time per call. CPU: user + system time of the calling process per call (the server's is not counted), which a busy machine disturbs less. Ratios are per round, then the median.",
  stubbed:
    "Without the network (`fetch` replaced by a function answering the same bodies at once; {rounds} interleaved rounds of {calls} calls): what each contender itself costs per call, in µs\n|GET|POST",
  size: "**Size**: the size budgets (`scripts/bench/size.ts`): what a page loads up front, bundled by esbuild (platform browser, format esm, minified; openapi-fetch left outside, as `client.raw` imports it on its first call); gzip level 9\nbundle|bytes|gzip bytes|issue 21's target|`npm test`'s ceiling",
  mcp: "**MCP tools/list**: the JSON of the server's answer, which an agent reads on every turn (`scripts/bench/tools-list.ts`), tokens estimated at 4 characters each\nserver|tools|operations reached|characters|tokens, about|`npm test`'s ceiling",
  reach:
    "What reaching one of the {operations} operations outside the default listing costs an agent, once (server with --allow-write): characters of findOperations with the words of its summary (the operation among the lines shown for {found} of them), of describeOperation, and those callOperation's arguments add to its own tool's, each call and its answer (the operation's own answer not counted)\noperation|find|describe|call|total|`npm test`'s ceiling",
  modules:
    "Where the bytes of one operation with its core go, by module (where they are, from the bundle's source map): minified bytes, and gzip bytes the bundle loses without the module\nmodule|bytes|gzip bytes",
  generation:
    "**Generation**: wall ms from spawn to exit, median [p25–p75] of {runs} interleaved runs (target < 3,000 ms)\ncommand|wall ms\nWhere a `--check` goes (ms, medians, one step after the other: {steps})",
  typecheck:
    "**Type-check**: `tsc --noEmit --extendedDiagnostics` (project options, lib files included), times: median [p25–p75] of {runs} runs\nprogram|files|instantiations|types|check ms|total ms",
  scale:
    "**Scale**: synthetic specs made of copies of the real one (`scripts/bench/synthetic-spec.ts`); `node --import tsx scripts/generate.ts --spec … --out …` wall ms, median [p25–p75] of {runs} runs; tsc: instantiations / types / check ms\nspec|operations|openapi.json / schema.ts KB|generate ms|--check ms|tsc, types only|tsc, openapi-fetch consumer (each operation of one copy)",
};
const NAMES = {
  a: "a. `fetch`, hand-written URLs",
  t: "t. a with a per-attempt timeout (AbortController + timer), for reference",
  b: "b. openapi-fetch `createClient<paths>()`",
  c: 'c. this client (retries 2, timeout 30 s, `logLevel: "off"`)',
};
function table(name: keyof typeof TABLES, values: Record<string, string | number>, rows: string[][]) {
  const [text, head, note] = TABLES[name].replace(/\{(\w+)\}/g, (_, key: string) => `${values[key]}`).split("\n");
  const align = head!.split("|").map((_, i) => (i ? "---:" : "---"));
  const lines = [head!.split("|"), align, ...rows].map((row) => `| ${row.join(" | ")} |`);
  return [text, "", ...lines, "", ...(note ? [note, ""] : [])].join("\n");
}
const int = (x: number) => Math.round(x).toLocaleString("en-US");
const spread = (s: Summary, f = int) => `${f(s.median)} [${f(s.p25)}–${f(s.p75)}]`;
const fixed = (digits: number) => (s: Summary) => spread(s, (x) => x.toFixed(digits));
const [s1, s3] = [fixed(1), fixed(3)];
const mark = (value: number, target: number) => (value <= target ? "✓" : "✗ over");
const target = (name: string, s: Summary, f = s3) =>
  `${f(s)}${TARGETS[name] ? ` ${mark(s.median, TARGETS[name])}` : ""}`;
const wall = (m?: Measured) => m!.figures["wall ms"]!;
const tsc = ({ figures: f }: Measured, ...names: string[]) =>
  names.map((name) => (name.endsWith(" time") ? spread(f[name]!) : int(f[name]!.median)));
const both = <T>({ get, post }: { get: T; post: T }) => [get, post];

/** Each part: its figures (for the JSON) and its tables. */
const PART: Record<Part, (config: typeof FULL, work: string) => Promise<[unknown, string]>> = {
  async calls(config, work) {
    const c = await benchCalls({ ...config.calls, client: await bundleClientForNode(join(work, "client.mjs")) });
    const { rounds, calls, stubRounds, stubCalls } = config.calls;
    const names = Object.entries(NAMES);
    const added = (pair: string) => `added by ${pair[0]} over ${pair[2]} (µs per call)`;
    const rows = [
      ...names.map(([id, name]) => [name, ...[...both(c.wall[id]!), ...both(c.cpu[id]!)].map(s1)]),
      ...Object.entries(c.ratios).map(([pair, v]) => [
        `ratio ${pair}${TARGETS[pair] ? ` (target ≤ ${TARGETS[pair]})` : ""}`,
        ...[...both(v).map((s) => target(pair, s)), ...both(c.cpuRatios[pair]!).map(s3)],
      ]),
    ];
    const stubbed = [
      ...names.map(([id, name]) => [name, ...both(c.stubbed.wall[id]!).map(s1)]),
      ...Object.entries(c.stubbed.added).map(([pair, v]) => [added(pair), ...both(v).map(s1)]),
    ];
    const network = table("calls", { rounds, calls, total: int(rounds * calls) }, rows);
    return [c, `${network}\n${table("stubbed", { rounds: stubRounds, calls: int(stubCalls) }, stubbed)}`];
  },
  async size() {
    const size = await benchSize();
    const gzip = ({ gzip, target }: { gzip: number; target: number }) => `${int(gzip)} ${mark(gzip, target)}`;
    const rows = size.budgets.map((b) => [b.name, int(b.raw), gzip(b), int(b.target), int(b.ceiling)]);
    const modules = size.oneOperation.map((m) => [m.module, int(m.raw), int(m.gzip)]);
    return [size, `${table("size", {}, rows)}\n${table("modules", {}, modules)}`];
  },
  async mcp() {
    const sizes = toolsListSize();
    const rows = sizes.map((s) => [
      s.name,
      s.tools,
      s.operations,
      `${int(s.chars)} ${mark(s.chars, s.ceiling)}`,
      int(s.tokens),
      int(s.ceiling),
    ]);
    const reach = reachSummary();
    const ceiling = { median: REACH_CEILING.median, "90th percentile": undefined, largest: REACH_CEILING.largest };
    const costs = Object.entries(ceiling).map(([at, limit]) => {
      const c = reach[at === "90th percentile" ? "p90" : (at as "median" | "largest")];
      const total = limit === undefined ? int(c.total) : `${int(c.total)} ${mark(c.total, limit)}`;
      return [`${at}: ${c.operation}`, int(c.find), int(c.describe), int(c.call), total, limit ? int(limit) : ""];
    });
    const values = { operations: reach.operations, found: reach.foundBySummary };
    const text = (list: (string | number)[][]) => list.map((row) => row.map(String));
    return [{ sizes, reach }, `${table("mcp", {}, text(rows))}\n${table("reach", values, text(costs))}`];
  },
  async generation(config, work) {
    const out = ["--out", join(work, "generated")];
    const npm = (...args: string[]) => ({ command: "npm", args: ["run", "generate", "--", ...args, ...out] });
    const commands = [
      { id: "generate", label: "npm run generate", ...npm() },
      { id: "check", label: "npm run generate -- --check", ...npm("--check") },
      { id: "checkNode", label: "node --import tsx scripts/generate.ts --check", args: generate("--check", ...out) },
    ];
    const generation = await benchCommands(commands, config.generationRuns, config.warmup, generateSteps);
    const rows = Object.values(generation).map((v) => [`\`${v.label}\``, target(v.label, wall(v), spread)]);
    const steps = Object.entries(generation.check!.figures).map(([step, ms]) => `${step} ${int(ms.median)}`);
    return [generation, table("generation", { runs: config.generationRuns, steps: steps.slice(1).join(", ") }, rows)];
  },
  async typecheck(config, work) {
    const programs = typecheckPrograms(work, join(root, "generated"), 0, true);
    const typecheck = await benchCommands(programs, config.typecheckRuns, false, tscFigures);
    const figures = ["Files", "Instantiations", "Types", "Check time", "Total time"];
    const rows = Object.values(typecheck).map((p) => [p.label, ...tsc(p, ...figures)]);
    return [typecheck, table("typecheck", { runs: config.typecheckRuns }, rows)];
  },
  async scale({ scale: { factors, runs, tscRuns }, warmup }, work) {
    const scale = [];
    for (const factor of factors) {
      const { specPath, outDir, operations, programs } = writeSyntheticSpec(factor, join(work, `synthetic-${factor}`));
      const args = generate("--spec", specPath, "--out", outDir);
      const commands = [
        { id: "generate", label: `generate x${factor}`, args },
        { id: "check", label: `generate --check x${factor}`, args: [...args, "--check"] },
      ];
      const generation = await benchCommands(commands, runs, warmup, generateSteps);
      const typecheck = await benchCommands(programs, tscRuns, false, tscFigures);
      const kb = ["openapi.json", "schema.ts"].map((file) => statSync(join(outDir, file)).size / 1024);
      scale.push({ factor, operations, kb, generation, typecheck });
    }
    const rows = scale.map(({ factor, operations, kb, generation: g, typecheck: t }) => [
      ...[`x${factor}`, int(operations), kb.map(int).join(" / "), spread(wall(g.generate)), spread(wall(g.check))],
      ...[t.schemaOnly!, t.openapiFetch!].map((p) => tsc(p, "Instantiations", "Types", "Check time").join(" / ")),
    ]);
    return [scale, table("scale", { runs }, rows)];
  },
};
const generate = (...args: string[]) => scriptArgs("scripts/generate.ts", ...args);

const { values: o } = commandLine(USAGE, {
  smoke: { type: "boolean", default: false },
  keep: { type: "boolean", default: false },
  only: { type: "string", default: PARTS.join(",") },
  json: { type: "string" },
});
const unknown = o.only.split(",").filter((p) => !PARTS.includes(p as Part));
if (unknown.length) {
  console.error(`unknown part ${unknown.join(", ")} (parts: ${PARTS.join(", ")})\n${USAGE}`);
  process.exit(2);
}
const [config, mode, bench] = [o.smoke ? SMOKE : FULL, o.smoke ? "smoke" : "full", join(root, ".bench")];
const json = resolve(o.json ?? join(bench, `results${o.smoke ? "-smoke" : ""}.json`));
mkdirSync(bench, { recursive: true });
const work = mkdtempSync(join(bench, "run-"));
const cleanup = () => o.keep || rmSync(work, { recursive: true, force: true });
const interrupted = (signal: "SIGINT" | "SIGTERM") => {
  for (const child of children) child.kill(signal);
  cleanup();
  process.exit(128 + constants.signals[signal]); // the exit the signal would give
};
process.once("SIGINT", interrupted).once("SIGTERM", interrupted);
console.error(`bench: work directory ${relative(process.cwd(), work)}`);
const [load, results, tables] = [[loadavg()[0]!], {} as Record<string, unknown>, [] as string[]];
const parts = PARTS.filter((part) => o.only.split(",").includes(part));
const [started, pace] = [performance.now(), o.smoke ? 0.1 : 1];
const expected = (list: Part[]) => list.reduce((sum, part) => sum + EXPECTED_SECONDS[part] * pace, 0);
try {
  for (const [index, part] of parts.entries()) {
    // the time elapsed, and the time left at the pace of the parts done so far
    const [elapsed, done] = [(performance.now() - started) / 1000, expected(parts.slice(0, index))];
    const left = clock(expected(parts.slice(index)) * (done ? elapsed / done : 1));
    console.error(`bench: ${part} (${index + 1}/${parts.length}), ${clock(elapsed)} elapsed, about ${left} left`);
    [results[part], tables[index]] = await PART[part](config, work);
  }
} finally {
  cleanup();
}
const machine = { node: process.version, platform: `${platform()} ${arch()}`, cores: availableParallelism() };
const [start, end] = [...load, loadavg()[0]!].map((l) => l.toFixed(1));
const run = { mode, date: new Date().toISOString(), machine: { ...machine, load: [start, end] }, config, TARGETS };
mkdirSync(dirname(json), { recursive: true });
writeFileSync(json, `${JSON.stringify({ ...run, ...results }, null, 2)}\n`);
console.log(
  `${tables.join("\n")}\n(${mode} run, Node ${machine.node}, ${machine.cores} cores, 1-minute load average ${start} at the start and ${end} at the end; JSON: ${relative(process.cwd(), json)})`,
);
