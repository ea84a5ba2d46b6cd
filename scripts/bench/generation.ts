// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Generation time: `npm run generate` and `npm run generate -- --check` spawned as a user runs them (npm and all),
// `runs` times each, interleaved, wall time from spawn to exit; plus `node --import tsx scripts/generate.ts --check` (the same
// without npm's own start-up), and the per-step times the script prints (median over the runs).
//
// Every command is given `--out <work dir>/generated` so that a run never writes into generated/ while the spec is
// being edited; it does the same work (the first run writes the three files there, the next ones find them current,
// as a user's runs do).
import { scriptArgs } from "../lib/script.ts";
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { rotation, summarize } from "./stats.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** The benchmarks' child processes still running: stopped with the bench when it is interrupted. */
export const runningChildren = new Set();

/** Runs a command to its end: { ms, code, stdout, stderr }. */
export function timedSpawn(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { cwd: root, ...options, stdio: ["ignore", "pipe", "pipe"] });
    runningChildren.add(child);
    child.on("exit", () => runningChildren.delete(child));
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ ms: performance.now() - start, code, stdout, stderr }));
  });
}

/** The step lines of scripts/generate.ts ("  lint    123 ms  ...") as { step: ms }. */
export function parseSteps(stdout) {
  const steps = {};
  for (const m of stdout.matchAll(/^ {2}([\w-]+) +(\d+) ms/gm)) steps[m[1]] = Number(m[2]);
  return steps;
}

/**
 * Runs each command `runs` times, interleaved, after one untimed run of each (unless `warmup` is false: then the
 * first command must be the one that writes the files the others check); the median and spread of each.
 */
export async function benchCommands(commands, runs, { warmup = true } = {}) {
  if (warmup) {
    for (const c of commands) {
      const first = await timedSpawn(c.command, c.args);
      if (first.code !== 0) throw new Error(`${c.label} failed:\n${first.stdout}${first.stderr}`);
    }
  }
  const samples = Object.fromEntries(commands.map((c) => [c.id, { ms: [], steps: {} }]));
  for (let round = 0; round < runs; round++) {
    for (const c of rotation(commands, round)) {
      const run = await timedSpawn(c.command, c.args);
      if (run.code !== 0) throw new Error(`${c.label} failed:\n${run.stdout}${run.stderr}`);
      samples[c.id].ms.push(run.ms);
      for (const [step, ms] of Object.entries(parseSteps(run.stdout))) (samples[c.id].steps[step] ??= []).push(ms);
    }
  }
  return Object.fromEntries(
    commands.map((c) => [
      c.id,
      {
        command: c.label,
        wallMs: summarize(samples[c.id].ms),
        stepsMs: Object.fromEntries(Object.entries(samples[c.id].steps).map(([k, v]) => [k, summarize(v)])),
      },
    ]),
  );
}

export async function benchGeneration({ runs, workDir, warmup = true }) {
  const out = join(workDir, "generated");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const script = join(root, "scripts/generate.ts");
  return benchCommands(
    [
      { id: "generate", label: "npm run generate", command: npm, args: ["run", "generate", "--", "--out", out] },
      {
        id: "check",
        label: "npm run generate -- --check",
        command: npm,
        args: ["run", "generate", "--", "--check", "--out", out],
      },
      {
        id: "checkNode",
        label: "node scripts/generate.ts --check",
        command: process.execPath,
        args: scriptArgs(script, "--check", "--out", out),
      },
    ],
    runs,
    { warmup },
  );
}
