// The report: per operation its status and deviations, the deviations grouped by schema and field (one wrong field of
// `Port` shows once, with every operation that sent it), the ids used, the exit code; as JSON (--json), text or
// Markdown (--report). Built masked by the client's own masking, keys and paths included: no rendering shows a secret.
import { sensitiveFields } from "../../generated/operations.js";
import { excerpt, redact } from "../../src/index.ts";
import { escapeUnsafe } from "../../surface/escape.ts";
import { readMethods } from "../lib/methods.ts";
import type { Came, Deviation, Judgement, Outcome } from "./judge.ts";
import type { VerifyOptions } from "./main.ts";
import { ID_NAMES, NEVER_SENT, label, type IdName, type Ids } from "./operations.ts";

/** What happened to one operation, before masking. */
export type OperationResult = Omit<Judgement, "outcome"> &
  Record<"operationId" | "method" | "path", string> & { outcome: Outcome | "not tried" | "not sent" | "never sent" };
/** The deviations of one field of one schema (`Port.container_port`, `status`), whichever operations sent them. */
export interface DeviationGroup extends Omit<Deviation, "path" | "came"> {
  title: string;
  /** Per operation, the first place it was seen in its answer, and how many more places (array items) had it. */
  occurrences: { operationId: string; path: string; came: string; more: number }[];
}

/** The report: JSON as --json prints it, and what the text and Markdown show. */
export type Report = ReturnType<typeof buildReport>;

/** What a run gathered: the ids and where each was found, each operation's result, the secrets seen, the port used. */
export interface Run {
  ids: Ids;
  found: Partial<Record<IdName, string>>;
  results: OperationResult[];
  secrets: readonly string[];
  portUsed?: number | undefined;
}

const SENSITIVE = new Set<string>(sensitiveFields);

/** `secrets` and the values of the fields the spec marks `x-sensitive` in `value` (a region's token, say). */
export function secretsSeen(secrets: readonly string[], value: unknown): string[] {
  if (typeof value !== "object" || value === null) return [...secrets];
  const secret = (key: string, item: unknown) => typeof item === "string" && item !== "" && SENSITIVE.has(key);
  return Object.entries(value).reduce<string[]>(
    (found, [key, item]) => (secret(key, item) ? [...found, item as string] : secretsSeen(found, item)),
    [...secrets],
  );
}

/** Whether `text` is, or holds, one of `secrets` (or a private key), as the masking sees it. */
export const holdsSecret = (text: string, secrets: readonly string[]) => redact(text, secrets) !== text;

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

/** The report of a run, masked: every string, keys included, as a console may echo a secret anywhere. */
export function buildReport({ baseUrl, write }: VerifyOptions, specVersion: string, run: Run) {
  const { found, results, secrets, portUsed } = run;
  const groups = new Map<string, DeviationGroup>();
  const operations = results.map(({ deviations, ...result }) => {
    const { operationId } = result;
    const titles = new Set<string>();
    for (const { path, came, ...d } of deviations) {
      const key = JSON.stringify([d.schema, d.field, d.expected]);
      const title = d.schema === "(HTTP answer)" ? d.field || "answer" : [d.schema, d.field].filter(Boolean).join(".");
      const group = groups.get(key) ?? { title, ...d, occurrences: [] };
      groups.set(key, group);
      const seen = group.occurrences.find((o) => o.operationId === operationId);
      if (seen) seen.more++;
      else group.occurrences.push({ operationId, path, came: show(came, secrets), more: 0 });
      titles.add(group.title);
    }
    return { ...result, deviations: [...titles] };
  });
  // each id's value and where it came from: `given`, `found in <operationId>`, or `not found`
  const ids = ID_NAMES.map((id) => {
    const value = run.ids[id] === undefined ? {} : { value: `${run.ids[id]}` };
    return { name: label(id), ...value, source: value.value === undefined ? "not found" : (found[id] ?? "given") };
  });
  const port = portUsed === undefined ? "" : ` (${portUsed})`;
  const notes = [
    `Never sent, with or without --write: ${NEVER_SENT.map((n) => `${n.operationId} (${n.why})`).join("; ")}. ` +
      "Rule creation and installs cannot be undone through the API.",
    write
      ? `--write: the port operations ran as one sequence on a free port${port} of the component: add it, change ` +
        "its alias, delete it. The delete is sent even when a step before it fails, and only left out when the " +
        "console refused the add."
      : "Read-only: the port operations addComponentPort, updateComponentPort and deleteComponentPort need --write.",
  ];
  const deviations = [...groups.values()];
  const refused = operations.find((o) => o.outcome === "refused");
  const unanswered = operations.filter((o) => o.outcome === "no answer");
  const deviating = operations.filter((o) => o.deviations.length).length;
  const answered = operations.filter((o) => o.status !== undefined).length;
  const [exitCode, summary]: [0 | 1 | 2, string] = refused
    ? [2, `the console refused the token: ${refused.operationId} answered ${refused.status}`]
    : unanswered.length
      ? [2, `no answer from the console to ${unanswered.map((o) => `${o.operationId} (${o.note})`).join(", ")}`]
      : deviations.length
        ? [1, `${deviations.length} deviation(s) from the spec, in ${deviating} operation(s)`]
        : [0, `every answer conforms to the spec (${answered} operations answered)`];
  const report = { console: baseUrl, specVersion, write, ids, operations, deviations, notes, exitCode, summary };
  return redact(report, secrets) as typeof report;
}

/** operationId -> the client's method that calls it: `listComponentPorts (ports.list)` (generated/table.json). */
const methods = new Map(readMethods().flatMap((m) => (m.kind === "operation" ? [[m.operationId, m.name]] : [])));
const named = (operationId: string) => `${operationId} (${methods.get(operationId) ?? "no method"})`;
const EXIT_MEANING = { 0: "clean", 1: "deviations", 2: "could not verify" } as const;

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
  const operations = report.operations.map((o) => {
    const detail = [o.deviations.join(", "), o.outcome === "error" ? declared : "", o.note ?? ""];
    const outcome = o.outcome === "error" ? "error (declared)" : o.outcome;
    return [outcome, String(o.status ?? ""), o.method, named(o.operationId), detail.filter(Boolean).join("; ")];
  });
  block("Operations", ["Outcome", "Status", "Method", "Operation", "Deviations and notes"], operations);
  block(`Deviations, by schema (${report.deviations.length})`, [], report.deviations.length ? [] : [["None."]]);
  for (const group of report.deviations) {
    const rows = group.occurrences.map((o) => {
      const more = o.more ? ` (and ${o.more} more in the same answer)` : "";
      return [named(o.operationId), code(o.path) + more, `${markdown ? "" : "came "}${code(o.came)}`];
    });
    block(`${group.title}: the spec says ${group.expected}`, ["Operation", "Where", "What came"], rows, 3);
  }
  const notes = report.notes.map((note) => ["-", note]);
  block("Not sent, and why", [], notes);
  const result = `Result: ${report.summary} (exit ${report.exitCode}, ${EXIT_MEANING[report.exitCode]})`;
  out.push("", markdown ? `**${cell(result)}**` : result);
  return `${out.map(escapeUnsafe).join("\n")}\n`;
}
