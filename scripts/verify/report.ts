// The report: per operation its status and deviations, the deviations grouped by schema and field (one wrong field of
// `Port` shows once, with every operation that sent it), the ids used, the exit code; as JSON (--json), text or
// Markdown (--report). Built masked by the client's own masking, keys and paths included: no rendering shows a secret.
import { excerpt, redact } from "../../src/core.ts";
import { escapeUnsafe } from "../../surface/escape.ts";
import { readMethods } from "../lib/methods.ts";
import type { Came, Deviation, Judgement, Outcome } from "./judge.ts";
import type { VerifyOptions } from "./options.ts";
import type { Ids } from "./plan.ts";
import type { OperationResult, Written } from "./result.ts";

/** The deviations of one field of one schema (`Port.container_port`, `status`), whichever operations sent them. */
export interface DeviationGroup extends Omit<Deviation, "path" | "came"> {
  title: string;
  /** Per operation (per call, where it is a shortcut), the first place it was seen in its answer, and how many more
   * places (array items) had it. */
  occurrences: { operationId: string; call?: string; path: string; came: string; more: number }[];
}

/** The report: JSON as --json prints it, and what the text and Markdown show. */
export type Report = ReturnType<typeof buildReport>;

/** What a run gathered: the ids (given, found and where, needed), each operation's result, the secrets seen, what
 * --write made, and the scope of each id (to list them in order). */
export interface Run {
  ids: Ids;
  given: Ids;
  found: Record<string, string>;
  needed: readonly string[];
  results: OperationResult[];
  secrets: readonly string[];
  written: Written[];
  scopes: Record<string, string[]>;
}

/** A value that came from the console, as the report shows it: secret fields and values masked, cut short. */
function show(came: Came, secrets: readonly string[]): string {
  if (came.kind === "text") return came.text;
  if (came.kind === "body") return `not JSON (${came.contentType}): ${excerpt(came.body, secrets, 80)}`;
  if (came.value === undefined) return "(missing)";
  // masked as the member it is: a secret field's value whole, any other value's secret fields and values
  const [masked] = Object.values(redact({ [came.key ?? ""]: came.value }, secrets) as object);
  const shown = JSON.stringify(masked) ?? "(a server stack trace, not shown)"; // redact drops `error_trace`
  return shown.length > 100 ? `${shown.slice(0, 100)}…` : shown;
}

/** How many operations of each kind: read (sent, or not tried for want of an id), console defects, --write's. */
function countsOf(results: readonly OperationResult[]) {
  const ops = (keep: (r: OperationResult) => boolean) => new Set(results.filter(keep).map((r) => r.operationId)).size;
  const read = (r: OperationResult) => (r.phase ?? "read") === "read";
  return {
    operations: ops(() => true),
    read: ops(read),
    readSent: ops((r) => read(r) && r.outcome !== "not tried"),
    notTried: ops((r) => r.outcome === "not tried"),
    defects: ops((r) => r.defect === "shown"),
    defectsNotShown: ops((r) => r.defect === "not shown"),
    written: results.filter((r) => r.phase === "write" && r.status !== undefined).length,
    neverSent: ops((r) => r.outcome === "never sent"),
  };
}

/** The never-sent operations by why (what a call of them does): one note each. */
function neverSentNotes(results: readonly OperationResult[]): string[] {
  const byWhy = new Map<string, string[]>();
  for (const r of results.filter((r) => r.outcome === "never sent"))
    byWhy.set(r.note!, [...(byWhy.get(r.note!) ?? []), r.operationId]);
  return [...byWhy].map(([why, ops]) => `Never sent, with or without --write (${why}): ${ops.join(", ")}.`);
}

/** What --write did: per create, what it made and whether that is gone again. */
function writeNotes(write: boolean, results: readonly OperationResult[], written: readonly Written[]): string[] {
  const unsent = results.filter((r) => r.phase === "write" && r.outcome === "not sent");
  if (!write) {
    const ops = [...new Set(unsent.map((r) => r.operationId))];
    return ops.length ? [`Read-only: ${ops.join(", ")} need --write (a sequence that removes what it makes).`] : [];
  }
  const made = (w: Written) =>
    Object.entries(w.made)
      .map(([id, value]) => `${id} ${value}`)
      .join(", ");
  return written.map((w) =>
    w.created === undefined
      ? `--write: ${w.operationId} may have made ${made(w)}: it did not answer, nor did the list again; check it.`
      : !w.created
        ? `--write: ${w.operationId} made nothing (${made(w)}), so nothing was changed or removed.`
        : `--write: ${w.operationId} made ${made(w)}, which was ${w.removed ? "removed again" : "NOT removed: remove it"}.`,
  );
}

/** The report of a run, masked: every string, keys included, as a console may echo a secret anywhere. */
export function buildReport({ baseUrl, write }: VerifyOptions, specVersion: string, run: Run) {
  const { given, found, results, secrets, written, scopes } = run;
  const groups = new Map<string, DeviationGroup>();
  const operations = results.map(({ deviations, ...result }) => {
    const { operationId, call } = result;
    const titles = new Set<string>();
    for (const { path, came, ...d } of deviations) {
      const key = JSON.stringify([d.schema, d.field, d.expected]);
      const title = d.schema === "(HTTP answer)" ? d.field || "answer" : [d.schema, d.field].filter(Boolean).join(".");
      const group = groups.get(key) ?? { title, ...d, occurrences: [] };
      groups.set(key, group);
      const seen = group.occurrences.find((o) => o.operationId === operationId && o.call === call);
      if (seen) seen.more++;
      else group.occurrences.push({ operationId, ...(call && { call }), path, came: show(came, secrets), more: 0 });
      titles.add(group.title);
    }
    return { ...result, deviations: [...titles] };
  });
  // each id's value and where it came from: `given`, `found in <operationId>`, or `not found`; those scoped by fewer
  // ids first (a team before its region)
  const names = [...new Set([...Object.keys(given), ...Object.keys(found), ...run.needed])];
  const depth = (id: string) => scopes[id]?.length ?? 0;
  names.sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1));
  const ids = names.map((name) => {
    const value = run.ids[name] === undefined ? {} : { value: `${run.ids[name]}` };
    return { name, ...value, source: value.value === undefined ? "not found" : (found[name] ?? "given") };
  });
  const counts = countsOf(results);
  const notes = [...writeNotes(write, results, written), ...neverSentNotes(results)];
  const deviations = [...groups.values()];
  const refused = operations.find((o) => o.outcome === "refused");
  const unanswered = operations.filter((o) => o.outcome === "no answer");
  const deviating = operations.filter((o) => o.deviations.length).length;
  const answered = operations.filter((o) => o.status !== undefined).length;
  const lost = written.some((w) => w.created !== false && !w.removed);
  const [exitCode, summary]: [0 | 1 | 2, string] = refused
    ? [2, `the console refused the token: ${refused.operationId} answered ${refused.status}`]
    : unanswered.length
      ? [2, `no answer from the console to ${unanswered.map((o) => `${o.operationId} (${o.note})`).join(", ")}`]
      : deviations.length
        ? [1, `${deviations.length} deviation(s) from the spec, in ${deviating} operation(s)`]
        : [0, `every answer conforms to the spec (${answered} answers)`];
  const report = {
    console: baseUrl,
    specVersion,
    write,
    ids,
    counts,
    operations,
    deviations,
    notes,
    exitCode: lost && exitCode === 0 ? 1 : exitCode,
    summary: lost && exitCode === 0 ? "--write left what it made behind (see the notes)" : summary,
  };
  return redact(report, secrets) as typeof report;
}

/** operationId -> the client's method that calls it, as the report names an operation: `<operationId> (<group>.<method>)`. */
const methods = new Map(readMethods().flatMap((m) => (m.kind === "operation" ? [[m.operationId, m.name]] : [])));
const named = (operationId: string, call?: string) =>
  `${operationId} (${call ?? methods.get(operationId) ?? "no method"})`;
const EXIT_MEANING = { 0: "clean", 1: "deviations", 2: "could not verify" } as const;
const OUTCOMES: Partial<Record<OperationResult["outcome"], string>> = {
  error: "error (declared)",
  defect: "console defect",
};

/** The report as text for a terminal or as Markdown: the same sections, tables and words. */
export function render(report: Report, markdown = false): string {
  const code = (text: string) => (markdown && text ? `\`${text.replace(/`/g, "'")}\`` : text);
  const cell = (text: string) => text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
  const mode = report.write ? "read and write (--write)" : "read-only";
  const out = [`${markdown ? "# " : ""}Verify ${report.console}`, ""];
  out.push(`Against the spec version ${report.specVersion}, ${mode}.`);
  /** A heading and its table (columns padded in text), or its lines when there is no table head. */
  const block = (title: string, head: string[], rows: string[][], level = 2) => {
    if (!markdown) {
      const width = (i: number) => Math.max(...rows.map((r) => r[i]!.length));
      const lines = rows.map((r) => `${"  ".repeat(level - 1)}${r.map((c, i) => c.padEnd(width(i))).join("  ")}`);
      return out.push(...(level === 2 ? ["", title] : [`  ${title}`]), ...lines.map((line) => line.trimEnd()));
    }
    out.push("", `${"#".repeat(level)} ${cell(title)}`, ...(rows.length ? [""] : []));
    if (head.length) out.push(`| ${head.join(" | ")} |`, `|${"---|".repeat(head.length)}`);
    return out.push(...rows.map((r) => (head.length ? `| ${r.map(cell).join(" | ")} |` : cell(r.join(" ")))));
  };
  const ids = report.ids.map((id) => [id.name, code(id.value ?? "-"), id.source]);
  block("Ids", ["Id", "Value", "Source"], ids);
  const declared = "an error status the spec declares, with the body it declares";
  const operations = report.operations
    .filter((o) => o.phase !== "never")
    .map((o) => {
      const detail = [o.deviations.join(", "), o.outcome === "error" ? declared : "", o.note ?? ""];
      const outcome = OUTCOMES[o.outcome] ?? o.outcome;
      const name = named(o.operationId, o.call);
      return [outcome, String(o.status ?? ""), o.method, name, detail.filter(Boolean).join("; ")];
    });
  block("Operations", ["Outcome", "Status", "Method", "Operation", "Deviations and notes"], operations);
  const c = report.counts;
  const counted = [
    `${c.operations} operations in the spec: ${c.read} read, of which ${c.readSent} sent and ${c.notTried} not tried for want of an id;`,
    `${c.defects} known console defect(s) shown${c.defectsNotShown ? `, ${c.defectsNotShown} not shown (fixed?)` : ""};`,
    `${c.written} request(s) of --write; ${c.neverSent} never sent.`,
  ];
  block("Counts", [], [[counted.join(" ")]]);
  block(`Deviations, by schema (${report.deviations.length})`, [], report.deviations.length ? [] : [["None."]]);
  for (const group of report.deviations) {
    const rows = group.occurrences.map((o) => {
      const more = o.more ? ` (and ${o.more} more in the same answer)` : "";
      return [named(o.operationId, o.call), code(o.path) + more, `${markdown ? "" : "came "}${code(o.came)}`];
    });
    block(`${group.title}: the spec says ${group.expected}`, ["Operation", "Where", "What came"], rows, 3);
  }
  const notes = report.notes.map((note) => ["-", note]);
  block("Not sent, and why", [], notes);
  const result = `Result: ${report.summary} (exit ${report.exitCode}, ${EXIT_MEANING[report.exitCode]})`;
  out.push("", markdown ? `**${cell(result)}**` : result);
  return `${out.map((line) => escapeUnsafe(line)).join("\n")}\n`;
}
