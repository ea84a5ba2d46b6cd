// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Type-check cost: `tsc --noEmit --extendedDiagnostics -p <tsconfig>` on small programs, `runs` times each,
// interleaved. Instantiations, types, symbols and lines are the same every run; check and total times vary and are
// given as median and spread. Every program must check without errors.
import { join, dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { timedSpawn } from "./generation.ts";
import { writeTsconfig } from "./synthetic-spec.ts";
import { rotation, summarize } from "./stats.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin/tsc");

/** The figures of one `tsc --extendedDiagnostics` run. */
export async function tscDiagnostics(tsconfig) {
  const run = await timedSpawn(process.execPath, [tsc, "-p", tsconfig, "--noEmit", "--extendedDiagnostics"]);
  if (run.code !== 0) {
    throw new Error(
      `tsc -p ${relative(root, tsconfig)} reported errors:\n${run.stdout.split("\nFiles:")[0]}${run.stderr}`,
    );
  }
  const num = (label) => {
    const m = new RegExp(`^${label}:\\s+([\\d.]+)(s|K)?$`, "m").exec(run.stdout);
    if (!m) throw new Error(`no "${label}" in the output of tsc -p ${tsconfig}`);
    return m[2] === "s" ? Number(m[1]) * 1000 : Number(m[1]);
  };
  return {
    files: num("Files"),
    linesOfTypeScript: num("Lines of TypeScript"),
    symbols: num("Symbols"),
    types: num("Types"),
    instantiations: num("Instantiations"),
    memoryKB: num("Memory used"),
    checkMs: num("Check time"),
    totalMs: num("Total time"),
    wallMs: run.ms,
  };
}

/** programs: [{ id, label, tsconfig }] -> { id: { label, counts..., checkMs: summary, totalMs: summary } }. */
export async function benchPrograms(programs, runs) {
  const samples = Object.fromEntries(programs.map((p) => [p.id, []]));
  for (let round = 0; round < runs; round++) {
    for (const p of rotation(programs, round)) samples[p.id].push(await tscDiagnostics(p.tsconfig));
  }
  return Object.fromEntries(
    programs.map((p) => {
      const runsOf = samples[p.id];
      const first = runsOf[0];
      return [
        p.id,
        {
          program: p.label,
          files: first.files,
          linesOfTypeScript: first.linesOfTypeScript,
          symbols: first.symbols,
          types: first.types,
          instantiations: first.instantiations,
          memoryKB: summarize(runsOf.map((r) => r.memoryKB)),
          checkMs: summarize(runsOf.map((r) => r.checkMs)),
          totalMs: summarize(runsOf.map((r) => r.totalMs)),
          wallMs: summarize(runsOf.map((r) => r.wallMs)),
        },
      ];
    }),
  );
}

/** The programs of the real spec: generated types alone, bare openapi-fetch, and the client (if it exists). */
export async function benchTypecheck({ runs, workDir, withClient }) {
  const bench = (file) => relative(workDir, join(root, "scripts/bench", file));
  const programs = [
    { id: "schemaOnly", label: "generated types only (scripts/bench/schema-only.ts)", file: "schema-only.ts" },
    {
      id: "openapiFetch",
      label: "openapi-fetch consumer, 17 calls (scripts/bench/consumer-openapi-fetch.ts)",
      file: "consumer-openapi-fetch.ts",
    },
  ];
  if (withClient) {
    programs.push({
      id: "client",
      label: "client consumer, 17 calls (scripts/bench/consumer.ts)",
      file: "consumer.ts",
    });
  }
  for (const p of programs) p.tsconfig = writeTsconfig(workDir, `tsconfig.${p.id}.json`, [bench(p.file)]);
  return benchPrograms(programs, runs);
}
