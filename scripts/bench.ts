// Benchmarks, side by side: per-call overhead, bundle size, generation time, type-check cost, and how generation and
// type-checking grow with the spec (the parts are in scripts/bench/). Prints Markdown tables (docs/performance.md)
// and writes the figures as JSON. Every figure is a median over repeated rounds with its spread, the contenders of a
// part interleaved round by round. Everything is built in a work directory under .bench/, removed at the end.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { commandLine, isMain, root, scriptArgs } from "./lib/script.ts";
import { readSpec } from "./lib/spec.ts";
import { benchCalls, NAMES } from "./bench/calls.ts";
import { benchCommands, children, generateSteps, tscFigures, type Measured, type Summary } from "./bench/run.ts";
import { benchSize, bundleClientForNode } from "./bench/size.ts";
import { typecheckPrograms, writeSyntheticSpec } from "./bench/synthetic-spec.ts";

const PARTS = ["calls", "size", "generation", "typecheck", "scale"] as const;
type Part = (typeof PARTS)[number];
/** Per call, the client against the floor (fetch with a per-attempt timeout) and against bare openapi-fetch. */
const TARGETS: Record<string, number> = { "c/t": 1.04, "c/b": 1.05, clientGzipBytes: 8 * 1024, generationMs: 3000 };
const FULL = {
  // 5,000 GET + 5,000 POST per contender over the network; then 15 rounds of 1,000 with fetch stubbed
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
const EXPECTED_SECONDS: Record<Part, number> = { calls: 60, size: 5, generation: 35, typecheck: 45, scale: 250 };

const USAGE = `usage: npm run bench -- [--smoke] [--only <part>,<part>...] [--json <file>] [--keep]

  --smoke         few iterations, well under a minute (-> .bench/results-smoke.json)
  --only <parts>  the named parts only: ${PARTS.join(", ")}
  --json <file>   write the JSON there (default .bench/results.json)
  --keep          keep the run's work directory under .bench/`;

const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, "0")}`;

/**
 * Progress on stderr as each part starts: the time elapsed and the time left (the parts still to run, at the pace of
 * those done so far against EXPECTED_SECONDS), redrawn every second on a terminal.
 */
function progress(parts: Part[], scale: number) {
  const tty = process.stderr.isTTY;
  const started = performance.now();
  const expected = (list: Part[]) => list.reduce((sum, part) => sum + EXPECTED_SECONDS[part] * scale, 0);
  let index = 0;
  let partStarted = started;
  let timer: NodeJS.Timeout | undefined;
  const draw = () => {
    const now = performance.now();
    const pace = index > 0 ? (partStarted - started) / 1000 / expected(parts.slice(0, index)) : 1;
    const current = Math.max(0, expected([parts[index]!]) * pace - (now - partStarted) / 1000);
    const left = current + expected(parts.slice(index + 1)) * pace;
    const line = `bench: ${parts[index]} (${index + 1}/${parts.length}), ${clock((now - started) / 1000)} elapsed, about ${clock(left)} left`;
    process.stderr.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
  };
  return {
    part(part: Part) {
      index = parts.indexOf(part);
      partStarted = performance.now();
      draw();
      clearInterval(timer);
      if (tty) timer = setInterval(draw, 1000).unref();
    },
    end() {
      clearInterval(timer);
      if (tty) process.stderr.write(`\r\x1b[2K`);
    },
  };
}

// ---- the tables ----
type Results = Partial<{
  calls: Awaited<ReturnType<typeof benchCalls>>;
  size: Awaited<ReturnType<typeof benchSize>>;
  generation: Record<string, Measured>;
  typecheck: Record<string, Measured>;
  scale: Record<
    string,
    { factor: number; operations: number; kb: { openapiJson: number; schemaTs: number } } & Record<
      "generation" | "typecheck",
      Record<string, Measured>
    >
  >;
}>;

const [f1, f3] = [(x: number) => x.toFixed(1), (x: number) => x.toFixed(3)];
const int = (x: number) => Math.round(x).toLocaleString("en-US");
const spread = (s: Summary, fmt: (x: number) => string) => `${fmt(s.median)} [${fmt(s.p25)}–${fmt(s.p75)}]`;
const mark = (ok: boolean) => (ok ? "✓" : "✗ over");
const table = (head: string[], rows: string[][]) =>
  [head, head.map((_, i) => (i ? "---:" : "---")), ...rows]
    .map((r) => `| ${r.join(" | ")} |`)
    .join("\n")
    .replace("| --- |", "|---|");

export function renderTables(r: Results): string {
  const out: string[] = [];
  if (r.calls) {
    const c = r.calls;
    const ids = Object.keys(c.wall) as (keyof typeof NAMES)[];
    const target = (pair: string, s: Summary) =>
      `${spread(s, f3)}${TARGETS[pair] ? ` ${mark(s.median <= TARGETS[pair])}` : ""}`;
    out.push(
      `**Per-call overhead**: µs per call, median [p25–p75] of ${c.rounds} interleaved rounds of ${c.callsPerRound} ` +
        `sequential calls (${int(c.rounds * c.callsPerRound)} GET + ${int(c.rounds * c.callsPerRound)} POST per contender), ` +
        `node:http server and each contender in a child process of their own, on 127.0.0.1`,
      table(
        ["", "GET component, wall", "POST port, wall", "GET, CPU", "POST, CPU"],
        [
          ...ids.map((id) => [
            NAMES[id],
            ...[c.wall, c.cpu].flatMap((d) => [d[id]!.get, d[id]!.post]).map((s) => spread(s, f1)),
          ]),
          ...Object.entries(c.ratios).map(([pair, v]) => [
            `ratio ${pair}${TARGETS[pair] ? ` (target ≤ ${TARGETS[pair]})` : ""}`,
            target(pair, v.get),
            target(pair, v.post),
            spread(c.cpuRatios[pair]!.get, f3),
            spread(c.cpuRatios[pair]!.post, f3),
          ]),
        ],
      ),
      "Wall: elapsed time per call. CPU: user + system time of the calling process per call (the server's is not " +
        "counted), which a busy machine disturbs less. Ratios are per round, then the median.",
      `Without the network (\`fetch\` replaced by a function answering the same bodies at once; ${c.stubbed.rounds} ` +
        `interleaved rounds of ${int(c.stubbed.callsPerRound)} calls): what each contender itself costs per call, in µs`,
      table(
        ["", "GET", "POST"],
        [
          ...ids.map((id) => [NAMES[id], spread(c.stubbed.wall[id]!.get, f1), spread(c.stubbed.wall[id]!.post, f1)]),
          ...Object.entries(c.stubbed.added).map(([p, v]) => [
            `added by ${p[0]} over ${p[2]} (µs per call)`,
            spread(v.get, f1),
            spread(v.post, f1),
          ]),
        ],
      ),
    );
  }
  if (r.size) {
    const s = r.size;
    out.push(
      "**Size**: `src/index.ts` bundled by esbuild (platform browser, format esm, minified); gzip level 9",
      table(
        ["bundle", "bytes", "gzip bytes"],
        [
          [
            `client incl. openapi-fetch (target < ${int(TARGETS.clientGzipBytes!)} B gzip)`,
            int(s.client.raw),
            `${int(s.client.gzip)} ${mark(s.client.gzip < TARGETS.clientGzipBytes!)}`,
          ],
          [
            "client, openapi-fetch external",
            int(s.clientWithoutOpenapiFetch.raw),
            int(s.clientWithoutOpenapiFetch.gzip),
          ],
          ["openapi-fetch alone", int(s["openapi-fetch"].raw), int(s["openapi-fetch"].gzip)],
        ],
      ),
      "Where the bytes of the client incl. openapi-fetch go, by module (esbuild's metafile, and the bundle's source map " +
        "for where they are): minified bytes, and gzip bytes the bundle loses without the module",
      table(
        ["module", "bytes", "gzip bytes"],
        s.client.byModule.map((m) => [m.module, int(m.raw), int(m.gzip)]),
      ),
    );
  }
  if (r.generation) {
    const g = r.generation;
    out.push(
      `**Generation**: wall ms from spawn to exit, median [p25–p75] of ${g.check!.wallMs.n} interleaved runs (target < 3,000 ms)`,
      table(
        ["command", "wall ms"],
        Object.values(g).map((v) => {
          const target = v.label.startsWith("npm") ? ` ${mark(v.wallMs.median < TARGETS.generationMs!)}` : "";
          return [`\`${v.label}\``, `${spread(v.wallMs, int)}${target}`];
        }),
      ),
      `Where a \`--check\` goes (ms, medians, one step after the other: ${Object.entries(g.check!.figures)
        .map(([step, ms]) => `${step} ${int(ms.median)}`)
        .join(", ")})`,
    );
  }
  if (r.typecheck) {
    const rows = Object.values(r.typecheck).map(({ label, figures: f }) => [
      label,
      ...["Files", "Instantiations", "Types"].map((k) => int(f[k]!.median)),
      spread(f["Check time"]!, int),
      spread(f["Total time"]!, int),
    ]);
    out.push(
      `**Type-check**: \`tsc --noEmit --extendedDiagnostics\` (project options, lib files included), times: median [p25–p75] of ${Object.values(r.typecheck)[0]!.wallMs.n} runs`,
      table(["program", "files", "instantiations", "types", "check ms", "total ms"], rows),
    );
  }
  if (r.scale) {
    const tsc = ({ figures: f }: Measured) =>
      `${int(f.Instantiations!.median)} / ${int(f.Types!.median)} / ${spread(f["Check time"]!, int)}`;
    const rows = Object.values(r.scale).map((v) => [
      `x${v.factor}`,
      int(v.operations),
      `${int(v.kb.openapiJson)} / ${int(v.kb.schemaTs)}`,
      spread(v.generation.generate!.wallMs, int),
      spread(v.generation.check!.wallMs, int),
      tsc(v.typecheck.schemaOnly!),
      tsc(v.typecheck.openapiFetch!),
    ]);
    out.push(
      `**Scale**: synthetic specs made of copies of the real one (\`scripts/bench/synthetic-spec.ts\`); ` +
        `\`node --import tsx scripts/generate.ts --spec … --out …\` wall ms, median [p25–p75] of ${Object.values(r.scale)[0]!.generation.check!.wallMs.n} runs; ` +
        `tsc: instantiations / types / check ms`,
      table(
        [
          "spec",
          "operations",
          "openapi.json / schema.ts KB",
          "generate ms",
          "--check ms",
          "tsc, types only",
          "tsc, openapi-fetch consumer (17 calls)",
        ],
        rows,
      ),
    );
  }
  return out.map((block) => `${block}\n`).join("\n");
}

async function main() {
  const { values } = commandLine(USAGE, {
    smoke: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    only: { type: "string", default: PARTS.join(",") },
    json: { type: "string" },
  });
  const unknown = values.only.split(",").filter((p) => !PARTS.includes(p as Part));
  if (unknown.length) {
    console.error(`unknown part ${unknown.join(", ")} (parts: ${PARTS.join(", ")})\n${USAGE}`);
    process.exit(2);
  }
  const parts = PARTS.filter((part) => values.only.split(",").includes(part));
  const json = resolve(values.json ?? join(root, ".bench", values.smoke ? "results-smoke.json" : "results.json"));
  const config = values.smoke ? SMOKE : FULL;
  mkdirSync(join(root, ".bench"), { recursive: true });
  const workDir = mkdtempSync(join(root, ".bench", "run-"));
  const cleanup = () => values.keep || rmSync(workDir, { recursive: true, force: true });
  // Ctrl-C or a SIGTERM: the children stopped and the work directory removed, then the exit the signal would give
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.once(signal, () => {
      for (const child of children) child.kill(signal);
      cleanup();
      process.exit(code);
    });
  }
  console.error(`bench: work directory ${relative(process.cwd(), workDir)}`);
  const machine = {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cores: availableParallelism(),
    loadAverageAtStart: loadavg()[0]!,
    loadAverageAtEnd: 0,
  };
  const results: Results = {};
  const shown = progress(parts, values.smoke ? 0.1 : 1);
  const generate = (...args: string[]) => scriptArgs("scripts/generate.ts", ...args);
  try {
    for (const part of parts) {
      shown.part(part);
      if (part === "calls")
        results.calls = await benchCalls({
          ...config.calls,
          client: await bundleClientForNode(join(workDir, "client.mjs")),
        });
      if (part === "size") results.size = await benchSize();
      if (part === "generation") {
        const out = ["--out", join(workDir, "generated")];
        results.generation = await benchCommands(
          [
            {
              id: "generate",
              label: "npm run generate",
              command: "npm",
              args: ["run", "generate", "--", ...out],
              figures: generateSteps,
            },
            {
              id: "check",
              label: "npm run generate -- --check",
              command: "npm",
              args: ["run", "generate", "--", "--check", ...out],
              figures: generateSteps,
            },
            {
              id: "checkNode",
              label: "node --import tsx scripts/generate.ts --check",
              args: generate("--check", ...out),
              figures: generateSteps,
            },
          ],
          config.generationRuns,
          config.warmup,
        );
      }
      if (part === "typecheck") {
        results.typecheck = await benchCommands(
          typecheckPrograms(workDir, readSpec(), join(root, "generated"), true),
          config.typecheckRuns,
          false,
        );
      }
      if (part === "scale") {
        results.scale = {};
        for (const factor of config.scale.factors) {
          const s = writeSyntheticSpec(factor, join(workDir, `synthetic-${factor}`));
          const args = generate("--spec", s.specPath, "--out", s.outDir);
          const generation = await benchCommands(
            [
              { id: "generate", label: `generate x${factor}`, args, figures: generateSteps },
              { id: "check", label: `generate --check x${factor}`, args: [...args, "--check"], figures: generateSteps },
            ],
            config.scale.runs,
            config.warmup,
          );
          const kb = (file: string) => statSync(join(s.outDir, file)).size / 1024;
          const typecheck = await benchCommands(s.programs, config.scale.tscRuns, false);
          results.scale[`x${factor}`] = {
            factor,
            operations: s.operations,
            kb: { openapiJson: kb("openapi.json"), schemaTs: kb("schema.ts") },
            generation,
            typecheck,
          };
        }
      }
    }
  } finally {
    shown.end();
    cleanup();
  }
  machine.loadAverageAtEnd = loadavg()[0]!;
  mkdirSync(dirname(json), { recursive: true });
  const mode = values.smoke ? "smoke" : "full";
  writeFileSync(
    json,
    `${JSON.stringify({ mode, date: new Date().toISOString(), machine, targets: TARGETS, ...results }, null, 2)}\n`,
  );
  console.log(renderTables(results));
  console.log(
    `(${mode} run, Node ${machine.node}, ${machine.cores} cores, 1-minute load average ${machine.loadAverageAtStart.toFixed(1)} at the start and ` +
      `${machine.loadAverageAtEnd.toFixed(1)} at the end; JSON: ${relative(process.cwd(), json)})`,
  );
}

if (isMain(import.meta)) {
  main().catch((err: Error) => {
    console.error(err.stack ?? err.message);
    process.exit(1);
  });
}
