// What the parts share: summaries of repeated measurements (a median and its spread, never one sample), contenders
// rotated round by round so that drift and noise fall on all of them alike, and commands timed from spawn to exit.
import { execFile, type ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { root } from "../lib/script.ts";

export interface Summary {
  median: number;
  p25: number;
  p75: number;
  mad: number;
  min: number;
  max: number;
  n: number;
  samples: number[];
}

/** The q-quantile (0..1) of sorted numbers, linearly interpolated. */
function quantile(sorted: number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = sorted[Math.floor(at)] ?? NaN;
  return lo + ((sorted[Math.ceil(at)] ?? NaN) - lo) * (at - Math.floor(at));
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  const mad = quantile(
    sorted.map((x) => Math.abs(x - median)).sort((a, b) => a - b),
    0.5,
  );
  const [p25, p75] = [quantile(sorted, 0.25), quantile(sorted, 0.75)];
  return { median, p25, p75, mad, min: sorted[0] ?? NaN, max: sorted.at(-1) ?? NaN, n: sorted.length, samples };
}

export const rotation = <T>(items: T[], round: number): T[] => {
  const k = round % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
};

/** The bench's child processes still running: stopped with it when it is interrupted. */
export const children = new Set<ChildProcess>();

export interface Command {
  id: string;
  label: string;
  /** process.execPath unless given */
  command?: string;
  args: string[];
  /** The figures a run prints (a step's ms, tsc's counts), to summarize over the runs. */
  figures: (stdout: string) => Record<string, number>;
}

export interface Measured {
  label: string;
  wallMs: Summary;
  figures: Record<string, Summary>;
}

const exec = promisify(execFile);

async function timed({ label, command = process.execPath, args }: Command): Promise<{ ms: number; stdout: string }> {
  const start = performance.now();
  const run = exec(command, args, { cwd: root, maxBuffer: 1 << 26 });
  children.add(run.child);
  try {
    const { stdout } = await run;
    return { ms: performance.now() - start, stdout };
  } catch (err) {
    const { stdout = "", stderr = "" } = err as { stdout?: string; stderr?: string };
    throw new Error(`${label} failed:\n${stdout}${stderr}`);
  } finally {
    children.delete(run.child);
  }
}

/**
 * Each command `runs` times, interleaved, after an untimed run of each if `warmup` (without it, the first command
 * must be the one that writes what the others read): the wall time from spawn to exit and the figures it printed.
 */
export async function benchCommands(commands: Command[], runs: number, warmup: boolean) {
  const samples = commands.map(() => ({ wallMs: [] as number[], figures: {} as Record<string, number[]> }));
  for (let round = warmup ? -1 : 0; round < runs; round++) {
    for (const i of rotation([...commands.keys()], Math.max(round, 0))) {
      const { ms, stdout } = await timed(commands[i]!);
      if (round < 0) continue;
      samples[i]!.wallMs.push(ms);
      for (const [name, value] of Object.entries(commands[i]!.figures(stdout))) {
        (samples[i]!.figures[name] ??= []).push(value);
      }
    }
  }
  const map = <T, U>(o: Record<string, T>, f: (v: T) => U) =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
  return Object.fromEntries(
    commands.map((c, i): [string, Measured] => [
      c.id,
      { label: c.label, wallMs: summarize(samples[i]!.wallMs), figures: map(samples[i]!.figures, summarize) },
    ]),
  );
}

/** The step lines scripts/generate.ts prints ("  lint    123 ms"): { step: ms }. */
export const generateSteps = (stdout: string) =>
  Object.fromEntries([...stdout.matchAll(/^ {2}([\w-]+) +(\d+) ms/gm)].map(([, step, ms]) => [step!, Number(ms)]));

/** The figures of `tsc --extendedDiagnostics` ("Instantiations: 123", "Check time: 0.51s"), times in ms. */
export const tscFigures = (stdout: string) =>
  Object.fromEntries(
    [...stdout.matchAll(/^(\w[\w ]*):\s+([\d.]+)(s|K)?$/gm)].map(([, name, value, unit]) => [
      name!,
      Number(value) * (unit === "s" ? 1000 : 1),
    ]),
  );
