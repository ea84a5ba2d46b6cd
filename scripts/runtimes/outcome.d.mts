import type { SmokeReport } from "./smoke.mjs";

export interface Outcome {
  ok: boolean;
  summary: string;
  problems: string[];
}
export function parseReport(stdout: string): SmokeReport;
export function judge(report: SmokeReport, isExpected: (runtime: string) => boolean, expectedText: string): Outcome;
export function formatOutcome(name: string, outcome: Outcome): string;
export function summaryLine(outcomes: readonly Outcome[]): string;
export function runRows(
  rows: readonly { name: string; run(): Promise<Outcome> }[],
  print: (line: string) => void,
): Promise<Outcome[]>;
