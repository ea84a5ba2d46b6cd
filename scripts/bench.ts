#!/usr/bin/env node
// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Benchmarks, side by side: per-call overhead, bundle size, generation time, type-check cost, and how generation and
// type-checking grow with the spec. Prints the figures as Markdown tables and writes them as JSON.
//
//   npm run bench                      the full run (about 7 minutes on 2 cores)   -> .bench/results.json
//   npm run bench -- --smoke           few iterations, well under a minute          -> .bench/results-smoke.json
//   npm run bench -- --only calls,size the named parts only (calls, size, generation, typecheck, scale)
//   npm run bench -- --json <file>     write the JSON there instead
//
// Every figure is a median over repeated rounds with its spread (p25-p75, and MAD in the JSON), the contenders of a
// part interleaved round by round so that a noisy machine affects them alike. The parts live in scripts/bench/.
// Contender c (the client in src/) is measured once src/index.ts exists; src/index.ts is bundled with esbuild into
// the run's work directory under .bench/ (removed at the end), never loaded through a TypeScript loader.
import { existsSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { commandLine, scriptArgs } from "./lib/script.ts";
import { benchSize, bundleClientForNode } from "./bench/size.ts";
import { benchGeneration, runningChildren } from "./bench/generation.ts";
import { benchTypecheck } from "./bench/typecheck.ts";
import { benchScale } from "./bench/scale.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const PARTS = ["calls", "size", "generation", "typecheck", "scale"];

const TARGETS = {
  // per call, the client against the floor: fetch with a per-attempt timeout (issue 21 §5)
  "c/t": 1.04,
  "c/b": 1.05,
  clientGzipBytes: 8 * 1024,
  generationMs: 3000,
};

const FULL = {
  // 5,000 GET + 5,000 POST per contender over the network; then 15 rounds of 1,000 with fetch stubbed
  calls: { rounds: 20, calls: 250, warmup: 300, stubRounds: 15, stubCalls: 1000 },
  generationRuns: 7,
  typecheckRuns: 5,
  scale: { factors: [1, 10, 50], runs: 3, tscRuns: 3 },
  warmup: true,
};
const SMOKE = {
  calls: { rounds: 3, calls: 40, warmup: 20, stubRounds: 3, stubCalls: 100 },
  generationRuns: 1,
  typecheckRuns: 1,
  scale: { factors: [2], runs: 1, tscRuns: 1 },
  warmup: false, // no untimed runs: the first `generate` writes what `--check` reads
};

/** What each part takes, in seconds, about (a full run on 2 cores; smoke runs take a tenth): for the time left. */
const EXPECTED_SECONDS = { calls: 60, size: 5, generation: 35, typecheck: 45, scale: 250 };

const USAGE = `usage: npm run bench -- [--smoke] [--only <part>,<part>...] [--json <file>] [--keep]

  --smoke         few iterations, well under a minute (-> .bench/results-smoke.json)
  --only <parts>  the named parts only: ${PARTS.join(", ")}
  --json <file>   write the JSON there (default .bench/results.json)
  --keep          keep the run's work directory under .bench/`;

function parseOptions() {
  const { values } = commandLine(USAGE, {
    smoke: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    only: { type: "string", default: PARTS.join(",") },
    json: { type: "string" },
  });
  const only = values.only.split(",");
  for (const p of only) {
    if (!PARTS.includes(p)) {
      console.error(`unknown part ${p} (parts: ${PARTS.join(", ")})\n${USAGE}`);
      process.exit(2);
    }
  }
  const json = values.json
    ? resolve(values.json)
    : join(root, ".bench", values.smoke ? "results-smoke.json" : "results.json");
  return { smoke: values.smoke, keep: values.keep, only, json };
}

const clock = (seconds) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, "0")}`;

/**
 * Progress on stderr, part by part: on a terminal one line redrawn every second with the time elapsed and the time
 * left (the parts still to run, at the pace of those done so far against EXPECTED_SECONDS); otherwise one line as each
 * part starts.
 */
function progress(parts, scale) {
  const tty = process.stderr.isTTY;
  const started = performance.now();
  const expected = (list) => list.reduce((sum, part) => sum + EXPECTED_SECONDS[part] * scale, 0);
  let index = -1;
  let partStarted = started;
  let timer;
  const line = () => {
    const now = performance.now();
    const elapsed = (now - started) / 1000;
    const done = expected(parts.slice(0, index));
    const pace = done > 0 ? (partStarted - started) / 1000 / done : 1;
    const current = Math.max(0, EXPECTED_SECONDS[parts[index]] * scale * pace - (now - partStarted) / 1000);
    const left = current + expected(parts.slice(index + 1)) * pace;
    return `bench: ${parts[index]} (${index + 1}/${parts.length}), ${clock(elapsed)} elapsed, about ${clock(left)} left`;
  };
  const draw = () => process.stderr.write(`\r\x1b[2K${line()}`);
  return {
    part(name) {
      index = parts.indexOf(name);
      partStarted = performance.now();
      if (!tty) return console.error(`bench: ${name} (${index + 1}/${parts.length})...`);
      draw();
      clearInterval(timer);
      timer = setInterval(draw, 1000);
      timer.unref();
    },
    end() {
      clearInterval(timer);
      if (tty && index >= 0) process.stderr.write(`\r\x1b[2K`);
    },
  };
}

/** Runs scripts/bench/calls.ts in a fresh process and returns its JSON. */
function runCalls(options) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, scriptArgs("scripts/bench/calls.ts", JSON.stringify(options)), {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    });
    runningChildren.add(child);
    child.on("exit", () => runningChildren.delete(child));
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolvePromise(JSON.parse(out)) : reject(new Error(`the per-call benchmark exited with ${code}`)),
    );
  });
}

// ---- the tables ----

const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
const f3 = (x) => x.toFixed(3);
const int = (x) => Math.round(x).toLocaleString("en-US");
const spread = (s, fmt) => `${fmt(s.median)} [${fmt(s.p25)}–${fmt(s.p75)}]`;
const mark = (ok) => (ok ? "✓" : "✗ over");
const table = (head, rows) =>
  [
    `| ${head.join(" | ")} |`,
    `|${head.map((_, i) => (i ? "---:" : "---")).join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");

export function renderTables(r) {
  const out = [];
  if (r.calls) {
    const c = r.calls;
    out.push(
      `**Per-call overhead**: µs per call, median [p25–p75] of ${c.rounds} interleaved rounds of ${c.callsPerRound} ` +
        `sequential calls (${int(c.callsPerContender.get)} GET + ${int(c.callsPerContender.post)} POST per contender), ` +
        `node:http server and each contender in a child process of their own, on 127.0.0.1`,
      "",
    );
    const names = {
      a: "a. `fetch`, hand-written URLs",
      t: "t. a with a per-attempt timeout (AbortController + timer), for reference",
      b: "b. openapi-fetch `createClient<paths>()`",
      c: 'c. this client (retries 2, timeout 30 s, `logLevel: "off"`)',
    };
    const rows = Object.entries(c.contenders).map(([id, v]) => [
      names[id],
      spread(v.getMicros, f1),
      spread(v.postMicros, f1),
      spread(v.getCpuMicros, f1),
      spread(v.postCpuMicros, f1),
    ]);
    for (const [name, v] of Object.entries(c.ratios)) {
      const target = TARGETS[name];
      const label = target ? `ratio ${name} (target ≤ ${target})` : `ratio ${name}`;
      const cell = (s) => `${spread(s, f3)}${target ? ` ${mark(s.median <= target)}` : ""}`;
      const cpu = c.cpuRatios[name];
      rows.push([label, cell(v.get), cell(v.post), spread(cpu.get, f3), spread(cpu.post, f3)]);
    }
    out.push(table(["", "GET component, wall", "POST port, wall", "GET, CPU", "POST, CPU"], rows), "");
    out.push(
      "Wall: elapsed time per call. CPU: user + system time of the calling process per call (the server's is not " +
        "counted), which a busy machine disturbs less. Ratios are per round, then the median.",
      "",
    );
    const st = c.stubbed;
    const stubRows = Object.entries(st.contenders).map(([id, v]) => [
      names[id],
      spread(v.getMicros, f1),
      spread(v.postMicros, f1),
    ]);
    for (const [pair, v] of Object.entries(st.addedMicros)) {
      stubRows.push([`added by ${pair[0]} over ${pair[2]} (µs per call)`, spread(v.get, f1), spread(v.post, f1)]);
    }
    out.push(
      `Without the network (\`fetch\` replaced by a function answering the same bodies at once; ${st.rounds} ` +
        `interleaved rounds of ${int(st.callsPerRound)} calls): what each contender itself costs per call, in µs`,
      "",
    );
    out.push(table(["", "GET", "POST"], stubRows), "");
  }
  if (r.size) {
    const s = r.size;
    const rows = [];
    if (s.client) {
      rows.push([
        `client incl. openapi-fetch (target < ${int(TARGETS.clientGzipBytes)} B gzip)`,
        int(s.client.raw),
        `${int(s.client.gzip)} ${mark(s.client.gzip < TARGETS.clientGzipBytes)}`,
      ]);
      rows.push([
        "client, openapi-fetch external",
        int(s.clientWithoutOpenapiFetch.raw),
        int(s.clientWithoutOpenapiFetch.gzip),
      ]);
    }
    rows.push(["openapi-fetch alone", int(s["openapi-fetch"].raw), int(s["openapi-fetch"].gzip)]);
    out.push("**Size**: `src/index.ts` bundled by esbuild (platform browser, format esm, minified); gzip level 9", "");
    out.push(table(["bundle", "bytes", "gzip bytes"], rows), "");
    if (s.client?.byModule) {
      out.push(
        "Where the bytes of the client incl. openapi-fetch go, by module (from the bundle's source map): minified bytes, " +
          "and gzip bytes the bundle loses without the module",
        "",
      );
      out.push(
        table(
          ["module", "bytes", "gzip bytes"],
          s.client.byModule.map((m) => [m.module, int(m.raw), int(m.gzip)]),
        ),
        "",
      );
    }
  }
  if (r.generation) {
    const g = r.generation;
    const n = g.check.wallMs.n;
    const rows = Object.values(g).map((v) => {
      const target = v.command.startsWith("npm") ? ` ${mark(v.wallMs.median < TARGETS.generationMs)}` : "";
      return [`\`${v.command}\``, `${spread(v.wallMs, int)}${target}`];
    });
    out.push(
      `**Generation**: wall ms from spawn to exit, median [p25–p75] of ${n} interleaved runs (target < 3,000 ms)`,
      "",
    );
    out.push(table(["command", "wall ms"], rows), "");
    const steps = g.check.stepsMs;
    out.push(
      `Where a \`--check\` goes (ms, medians, one step after the other: ${Object.entries(steps)
        .map(([step, ms]) => `${step} ${int(ms.median)}`)
        .join(", ")})`,
      "",
    );
  }
  if (r.typecheck) {
    const rows = Object.values(r.typecheck).map((v) => [
      v.program,
      int(v.files),
      int(v.instantiations),
      int(v.types),
      spread(v.checkMs, int),
      spread(v.totalMs, int),
    ]);
    const n = Object.values(r.typecheck)[0].checkMs.n;
    out.push(
      `**Type-check**: \`tsc --noEmit --extendedDiagnostics\` (project options, lib files included), times: median [p25–p75] of ${n} runs`,
      "",
    );
    out.push(table(["program", "files", "instantiations", "types", "check ms", "total ms"], rows), "");
  }
  if (r.scale) {
    const rows = Object.values(r.scale).map((v) => [
      `x${v.factor}`,
      int(v.operations),
      `${int(v.bytes.openapiJson / 1024)} / ${int(v.bytes.schemaTs / 1024)}`,
      spread(v.generation.generate.wallMs, int),
      spread(v.generation.check.wallMs, int),
      `${int(v.typecheck.schemaOnly.instantiations)} / ${int(v.typecheck.schemaOnly.types)} / ${spread(v.typecheck.schemaOnly.checkMs, int)}`,
      `${int(v.typecheck.openapiFetch.instantiations)} / ${int(v.typecheck.openapiFetch.types)} / ${spread(v.typecheck.openapiFetch.checkMs, int)}`,
    ]);
    const first = Object.values(r.scale)[0];
    out.push(
      `**Scale**: synthetic specs made of copies of the real one (\`scripts/bench/synthetic-spec.ts\`); ` +
        `\`node --import tsx scripts/generate.ts --spec … --out …\` wall ms, median [p25–p75] of ${first.generation.check.wallMs.n} runs; ` +
        `tsc: instantiations / types / check ms`,
      "",
    );
    out.push(
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
      "",
    );
  }
  return out.join("\n");
}

async function main() {
  const args = parseOptions();
  const config = args.smoke ? SMOKE : FULL;
  const withClient = existsSync(join(root, "src/index.ts"));
  await mkdir(join(root, ".bench"), { recursive: true });
  const workDir = await mkdtemp(join(root, ".bench", "run-"));
  // Ctrl-C or a SIGTERM: the running children are stopped and the work directory removed (unless --keep), then the
  // exit a signal would give.
  for (const [signal, number] of [
    ["SIGINT", 2],
    ["SIGTERM", 15],
  ]) {
    process.once(signal, () => {
      for (const child of runningChildren) child.kill(signal);
      if (!args.keep) rmSync(workDir, { recursive: true, force: true });
      process.exit(128 + number);
    });
  }
  console.error(`bench: work directory ${relative(process.cwd(), workDir)}`);
  const results = {
    mode: args.smoke ? "smoke" : "full",
    date: new Date().toISOString(),
    machine: {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cores: availableParallelism(),
      loadAverageAtStart: loadavg()[0],
    },
    withClient,
  };
  const parts = PARTS.filter((part) => args.only.includes(part));
  const shown = progress(parts, args.smoke ? 0.1 : 1);
  try {
    if (args.only.includes("calls")) {
      shown.part("calls");
      const client = withClient ? await bundleClientForNode(join(workDir, "client.mjs")) : null;
      results.calls = await runCalls({ ...config.calls, client });
    }
    if (args.only.includes("size")) {
      shown.part("size");
      results.size = await benchSize({ withClient });
    }
    if (args.only.includes("generation")) {
      shown.part("generation");
      results.generation = await benchGeneration({ runs: config.generationRuns, workDir, warmup: config.warmup });
    }
    if (args.only.includes("typecheck")) {
      shown.part("typecheck");
      results.typecheck = await benchTypecheck({ runs: config.typecheckRuns, workDir, withClient });
    }
    if (args.only.includes("scale")) {
      shown.part("scale");
      results.scale = await benchScale({ ...config.scale, workDir, warmup: config.warmup });
    }
  } finally {
    shown.end();
    if (!args.keep) await rm(workDir, { recursive: true, force: true });
  }
  results.machine.loadAverageAtEnd = loadavg()[0];
  results.targets = TARGETS;
  await mkdir(dirname(args.json), { recursive: true });
  await writeFile(args.json, `${JSON.stringify(results, null, 2)}\n`);
  console.log(renderTables(results));
  const { node, cores, loadAverageAtStart: l0, loadAverageAtEnd: l1 } = results.machine;
  console.log(
    `(${results.mode} run, Node ${node}, ${cores} cores, 1-minute load average ${l0.toFixed(1)} at the start and ` +
      `${l1.toFixed(1)} at the end; JSON: ${relative(process.cwd(), args.json)})`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err.stack ?? err.message);
    process.exit(1);
  });
}
