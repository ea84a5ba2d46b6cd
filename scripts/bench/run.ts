// What the parts share: a median and its spread over repeated measurements (never one sample), contenders rotated
// round by round so that drift and noise fall on all of them alike, and commands timed from spawn to exit.
import { execFile, type ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { root } from "../lib/script.ts";

export type Summary = Record<"median" | "p25" | "p75" | "mad" | "min" | "max" | "n", number> & { samples: number[] };
/** `args` for `command` (default: this Node), `id` naming its results. */
export type Command = { id: string; label: string; args: string[]; command?: string };
/** What a command took ("wall ms", from spawn to exit) and what it printed (a step's ms, tsc's counts). */
export type Measured = { label: string; figures: Record<string, Summary> };

/** The q-quantile (0..1) of sorted numbers, linearly interpolated. */
function quantile(sorted: number[], q: number): number {
  const [at, lo] = [(sorted.length - 1) * q, sorted[Math.floor((sorted.length - 1) * q)] ?? NaN];
  return lo + ((sorted[Math.ceil(at)] ?? NaN) - lo) * (at - Math.floor(at));
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const [median, p25, p75] = [0.5, 0.25, 0.75].map((q) => quantile(sorted, q)) as [number, number, number];
  const deviations = sorted.map((x) => Math.abs(x - median)).sort((a, b) => a - b);
  const mad = quantile(deviations, 0.5);
  return { median, p25, p75, mad, min: sorted[0] ?? NaN, max: sorted.at(-1) ?? NaN, n: sorted.length, samples };
}

export const mapValues = <T, U>(record: Record<string, T>, f: (value: T) => U) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value)]));
export const rotation = <T>(items: T[], round: number) => items.map((_, i) => items[(i + round) % items.length]!);

/** The bench's child processes still running: stopped with it when it is interrupted. */
export const children = new Set<ChildProcess>();
export const tracked = <T extends ChildProcess>(child: T): T => {
  children.add(child);
  return child.once("exit", () => children.delete(child));
};

async function timed({ label, command = process.execPath, args }: Command): Promise<{ ms: number; stdout: string }> {
  const start = performance.now();
  const run = promisify(execFile)(command, args, { cwd: root, maxBuffer: 1 << 26 });
  tracked(run.child);
  const failed = ({ stdout, stderr }: Record<string, string>) => new Error(`${label} failed:\n${stdout}${stderr}`);
  const { stdout } = await run.catch((err) => Promise.reject(failed(err)));
  return { stdout, ms: performance.now() - start };
}

/** Each command `runs` times, interleaved, after an untimed run of each if `warmup` (without it, the first command
 * must be the one that writes what the others read), what it took and the figures `parse` finds in what it printed. */
export async function benchCommands(commands: Command[], runs: number, warmup: boolean, parse: typeof tscFigures) {
  const samples = commands.map(() => ({}) as Record<string, number[]>);
  for (let round = warmup ? -1 : 0; round < runs; round++) {
    for (const i of rotation([...commands.keys()], Math.max(round, 0))) {
      const { ms, stdout } = await timed(commands[i]!);
      const figures = Object.entries({ "wall ms": ms, ...parse(stdout) });
      for (const [name, value] of round < 0 ? [] : figures) (samples[i]![name] ??= []).push(value);
    }
  }
  const figures = samples.map((s) => mapValues(s, summarize));
  return Object.fromEntries(commands.map(({ id, label }, i) => [id, { label, figures: figures[i]! } as Measured]));
}

/** The figures a command printed, by `pattern` (name, value, unit), times in ms. */
const parser = (pattern: RegExp) => (stdout: string) =>
  Object.fromEntries(
    [...stdout.matchAll(pattern)].map(([, name, n, s]) => [name!, Number(n) * (s === "s" ? 1000 : 1)]),
  );
/** The step lines scripts/generate.ts prints ("  lint    123 ms"). */
export const generateSteps = parser(/^ {2}([\w-]+) +(\d+) (ms)/gm);
/** What `tsc --extendedDiagnostics` prints ("Instantiations: 123", "Check time: 0.51s"). */
export const tscFigures = parser(/^(\w[\w ]*):\s+([\d.]+)(s|K)?$/gm);
