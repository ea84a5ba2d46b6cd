// The report as text for the terminal, as Markdown (--report file.md) and as JSON (--json). All three show the same
// report, which is masked when it is built (report.ts); the text and Markdown escape control characters.
import { escapeControl } from "../../src/redact.js";
import { readMethods } from "../lib/methods.ts";
import type { OperationLine, Report } from "./report.js";

/** operationId -> the client's method that calls it (`listComponentPorts` -> `ports.list`), from generated/methods.json. */
const clientMethod = new Map(
  readMethods()
    .filter((m) => m.kind === "operation")
    .map((m) => [m.operationId, m.name]),
);
/** An operation as the report names it: its operationId and the client's method, `listComponentPorts (ports.list)`. */
const named = (operationId: string) => `${operationId} (${clientMethod.get(operationId) ?? "no method"})`;

const EXIT_MEANING = { 0: "clean", 1: "deviations", 2: "could not verify" } as const;

function outcomeOf(o: OperationLine): string {
  if (o.outcome === "error") return "error (declared)";
  return o.outcome;
}

function detailOf(o: OperationLine): string {
  const parts: string[] = [];
  if (o.deviations.length) parts.push(o.deviations.join(", "));
  if (o.outcome === "error") parts.push("an error status the spec declares, with the body it declares");
  if (o.note) parts.push(o.note);
  return parts.join("; ");
}

const pad = (text: string, width: number) => text.padEnd(width);

export function renderText(report: Report): string {
  const out: string[] = [];
  out.push(
    `verify ${report.console} against the spec (version ${report.specVersion}), ${report.write ? "read and write (--write)" : "read-only"}`,
  );
  out.push("", "Ids");
  for (const id of report.ids) out.push(`  ${pad(id.name, 10)} ${pad(id.value ?? "-", 34)} ${id.source}`);
  out.push("", "Operations");
  const width = Math.max(...report.operations.map((o) => named(o.operationId).length));
  for (const o of report.operations) {
    const status = o.status === undefined ? "   " : String(o.status);
    out.push(
      `  ${pad(outcomeOf(o), 16)} ${status}  ${pad(o.method, 6)} ${pad(named(o.operationId), width)}  ${detailOf(o)}`.trimEnd(),
    );
  }
  out.push("", report.deviations.length ? `Deviations, by schema (${report.deviations.length})` : "Deviations: none");
  for (const group of report.deviations) {
    out.push(`  ${group.title}: the spec says ${group.expected}`);
    const opWidth = Math.max(...group.occurrences.map((o) => named(o.operationId).length));
    const pathWidth = Math.max(...group.occurrences.map((o) => o.path.length));
    for (const o of group.occurrences) {
      const more = o.more ? ` (and ${o.more} more in the same answer)` : "";
      out.push(`    ${pad(named(o.operationId), opWidth)}  ${pad(o.path, pathWidth)}  came ${o.came}${more}`);
    }
  }
  out.push("");
  for (const note of report.notes) out.push(note);
  out.push("", `Result: ${report.summary} (exit ${report.exitCode}, ${EXIT_MEANING[report.exitCode]})`);
  return `${out.map(escapeControl).join("\n")}\n`; // no control character from the console reaches the terminal
}

/** A table cell: no line breaks, `|` escaped, code spans for values. */
const cell = (text: string) => text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
const code = (text: string) => (text ? `\`${text.replace(/`/g, "'")}\`` : "");

export function renderMarkdown(report: Report): string {
  const out: string[] = [];
  out.push(`# Verify: ${cell(report.console)}`, "");
  out.push(
    `Against the spec version ${report.specVersion}, ${report.write ? "read and write (`--write`)" : "read-only"}.`,
    "",
    `**Result: ${cell(report.summary)}** (exit ${report.exitCode}, ${EXIT_MEANING[report.exitCode]})`,
    "",
    "## Ids",
    "",
    "| Id | Value | Source |",
    "|---|---|---|",
  );
  for (const id of report.ids) out.push(`| ${id.name} | ${code(cell(id.value ?? ""))} | ${cell(id.source)} |`);
  out.push(
    "",
    "## Operations",
    "",
    "| Operation | Method | Status | Outcome | Deviations and notes |",
    "|---|---|---|---|---|",
  );
  for (const o of report.operations) {
    out.push(`| ${named(o.operationId)} | ${o.method} | ${o.status ?? ""} | ${outcomeOf(o)} | ${cell(detailOf(o))} |`);
  }
  out.push("", "## Deviations, by schema", "");
  if (!report.deviations.length) out.push("None.");
  for (const group of report.deviations) {
    out.push(`### ${cell(group.title)}`, "", `The spec says: ${cell(group.expected)}`, "");
    out.push("| Operation | Where | What came |", "|---|---|---|");
    for (const o of group.occurrences) {
      const more = o.more ? ` (and ${o.more} more)` : "";
      out.push(`| ${named(o.operationId)} | ${code(cell(o.path))}${more} | ${code(cell(o.came))} |`);
    }
    out.push("");
  }
  if (!report.deviations.length) out.push("");
  out.push("## Not sent, and why", "");
  for (const note of report.notes) out.push(`- ${cell(note)}`);
  return `${out.map(escapeControl).join("\n")}\n`;
}

export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
