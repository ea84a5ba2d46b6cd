// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// What a row of the matrix comes to, and how the run says it: one line per row naming its runtime, the failed checks
// under a failing row, and the last line `N passed, N failed`.
import type { SmokeReport } from "./smoke.ts";
import { REPORT_MARK } from "./smoke.ts";

/** The smoke report an entry printed, from among whatever else the runtime printed. */
export function parseReport(stdout: string): SmokeReport {
  const line = stdout.split("\n").find((l) => l.startsWith(REPORT_MARK));
  if (!line) throw new Error(`printed no smoke report:\n${stdout.trim().slice(-2000) || "(nothing)"}`);
  return JSON.parse(line.slice(REPORT_MARK.length));
}

/**
 * A row's outcome from a smoke report: it passes when every check passed in the runtime the row started (a report
 * from another runtime, e.g. the host's Node where Node 22 was meant, fails it).
 * @param {{ runtime: string, checks: { name: string, ok: boolean, detail?: string }[] }} report
 * @param {(runtime: string) => boolean} isExpected
 */
export function judge(report: SmokeReport, isExpected: (runtime: string) => boolean, expectedText: string): Outcome {
  const failed = report.checks.filter((c) => !c.ok);
  const problems = failed.map((c) => `${c.name}: ${c.detail}`);
  if (!isExpected(report.runtime)) problems.unshift(`ran in ${report.runtime}, not in ${expectedText}`);
  if (report.checks.length === 0) problems.push("ran no checks");
  const passed = report.checks.length - failed.length;
  const inspect = report.inspect ? "" : " (it has no inspect)";
  const summary = `${passed}/${report.checks.length} checks in ${report.runtime}${inspect}`;
  return { ok: problems.length === 0, summary, problems };
}

/** The printed lines of a row: `ok` or `FAIL`, its name, and under a failure each problem. */
export function formatOutcome(name, { ok, summary, problems }) {
  const head = `${ok ? "ok  " : "FAIL"}  ${name.padEnd(36)} ${summary}`;
  return [head, ...problems.map((p) => `        ${name}: ${p.replace(/\n/g, "\n          ")}`)].join("\n");
}

export function summaryLine(outcomes: readonly Outcome[]): string {
  const passed = outcomes.filter((o) => o.ok).length;
  return `${passed} passed, ${outcomes.length - passed} failed`;
}

/**
 * Runs the rows one after the other, printing each line as it comes, with the row's time. A row that throws (its
 * runtime could not be installed, did not start, printed no report) fails with the error's message: nothing is skipped.
 * @param {{ name: string, run: () => Promise<{ ok: boolean, summary: string, problems: string[] }> }[]} rows
 * @param {(line: string) => void} print
 */
export async function runRows(
  rows: readonly { name: string; run(): Promise<Outcome> }[],
  print: (line: string) => void,
): Promise<Outcome[]> {
  const outcomes = [];
  for (const row of rows) {
    const started = Date.now();
    let outcome;
    try {
      outcome = await row.run();
    } catch (err) {
      outcome = { ok: false, summary: "failed to run", problems: [err instanceof Error ? err.message : String(err)] };
    }
    outcomes.push(outcome);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    print(formatOutcome(row.name, { ...outcome, summary: `${outcome.summary} [${seconds} s]` }));
  }
  print(summaryLine(outcomes));
  return outcomes;
}

export interface Outcome {
  ok: boolean;
  summary: string;
  problems: string[];
}
