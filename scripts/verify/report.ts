// The report: per operation its status and deviations, the deviations grouped by schema and field (one wrong field
// of `Port` shows once, with every operation that sent it), the ids used, and the exit code. Built masked: every value
// that came from the console goes through src/redact.ts (the fields the spec marks `x-sensitive`: key_file,
// market_access_key, region tokens) with the token and every secret value seen during the run, so no rendering of it
// (terminal, Markdown, JSON) can show one. The whole report is masked once more at the end, so that a secret the
// console put in a key, an id or a field name (a title, a JSON path) is masked too.
import { MASK, SENSITIVE, excerpt, maskText, redact } from "../../src/redact.js";
import type { Came, Deviation, Outcome } from "./judge.js";
import { ID_LABELS, NEVER_SENT, type IdName } from "./operations.js";

/** What happened to one operation, before masking. */
export interface OperationResult {
  operationId: string;
  method: string;
  path: string;
  outcome: Outcome | "not tried" | "not sent" | "never sent";
  status?: number;
  note?: string;
  deviations: Deviation[];
}

export interface IdLine {
  name: string;
  value?: string;
  /** `given`, `found in <operationId>`, or `not found`. */
  source: string;
}

export interface OperationLine {
  operationId: string;
  method: string;
  path: string;
  outcome: OperationResult["outcome"];
  status?: number;
  note?: string;
  /** The titles of its deviation groups. */
  deviations: string[];
}

export interface Occurrence {
  operationId: string;
  /** The first place it was seen in this operation's answer. */
  path: string;
  came: string;
  /** How many more places of the same answer (array items) had it. */
  more: number;
}

export interface DeviationGroup {
  /** `Port.container_port`, `status`, ... */
  title: string;
  schema: string;
  field: string;
  expected: string;
  occurrences: Occurrence[];
}

export interface Report {
  console: string;
  specVersion: string;
  write: boolean;
  ids: IdLine[];
  operations: OperationLine[];
  deviations: DeviationGroup[];
  /** Operations deliberately left out, and why. */
  notes: string[];
  exitCode: 0 | 1 | 2;
  summary: string;
}

export interface ReportInput {
  console: string;
  specVersion: string;
  write: boolean;
  ids: Partial<Record<IdName, string | number>>;
  idSources: Partial<Record<IdName, string>>;
  results: OperationResult[];
  /** The token and the secret values seen in the answers (secretsIn). */
  secrets: readonly string[];
  portUsed?: number;
}

/** A value that came from the console, as the report shows it: secret fields and values masked, cut short. */
export function showCame(came: Came, secrets: readonly string[]): string {
  switch (came.kind) {
    case "missing":
      return "(missing)";
    case "text":
      return maskText(came.text, secrets);
    case "body":
      return `not JSON (${maskText(came.contentType, secrets)}): ${excerpt(came.body, secrets, 80)}`;
    case "value": {
      if (came.value === undefined) return "(missing)";
      if (came.key !== undefined && SENSITIVE.has(came.key) && came.value !== null) return MASK;
      const shown = maskText(JSON.stringify(redact(came.value, secrets)), secrets);
      return shown.length > 100 ? `${shown.slice(0, 100)}…` : shown;
    }
  }
}

const titleOf = (d: Pick<Deviation, "schema" | "field">) =>
  d.schema === "(HTTP answer)" ? d.field || "answer" : d.field ? `${d.schema}.${d.field}` : d.schema;

export function buildReport(input: ReportInput): Report {
  const { secrets } = input;
  const groups = new Map<string, DeviationGroup>();
  const operations: OperationLine[] = input.results.map((r) => {
    const titles: string[] = [];
    for (const d of r.deviations) {
      const key = JSON.stringify([d.schema, d.field, d.expected]);
      let group = groups.get(key);
      if (!group) {
        group = { title: titleOf(d), schema: d.schema, field: d.field, expected: d.expected, occurrences: [] };
        groups.set(key, group);
      }
      const seen = group.occurrences.find((o) => o.operationId === r.operationId);
      if (seen) seen.more++;
      else
        group.occurrences.push({ operationId: r.operationId, path: d.path, came: showCame(d.came, secrets), more: 0 });
      if (!titles.includes(group.title)) titles.push(group.title);
    }
    return {
      operationId: r.operationId,
      method: r.method,
      path: r.path,
      outcome: r.outcome,
      ...(r.status === undefined ? {} : { status: r.status }),
      ...(r.note === undefined ? {} : { note: maskText(r.note, secrets) }),
      deviations: titles,
    };
  });
  const ids: IdLine[] = (Object.keys(ID_LABELS) as IdName[]).map((name) => {
    const value = input.ids[name];
    return {
      name: ID_LABELS[name],
      ...(value === undefined ? {} : { value: String(value) }),
      source: value === undefined ? "not found" : (input.idSources[name] ?? "given"),
    };
  });
  const notes = [
    `Never sent, with or without --write: ${NEVER_SENT.map((n) => `${n.operationId} (${n.why})`).join("; ")}. ` +
      "Rule creation and installs cannot be undone through the API.",
    input.write
      ? `--write: the port operations ran as one sequence on a free port${input.portUsed === undefined ? "" : ` (${input.portUsed})`} ` +
        "of the component: add it, change its alias, delete it. The delete is sent even when a step before it " +
        "fails, and only left out when the console refused the add."
      : "Read-only: the port operations addComponentPort, updateComponentPort and deleteComponentPort need --write.",
  ];
  const deviations = [...groups.values()];
  const refused = operations.find((o) => o.outcome === "refused");
  const unanswered = operations.filter((o) => o.outcome === "no answer");
  const deviating = operations.filter((o) => o.deviations.length);
  let exitCode: Report["exitCode"] = 0;
  let summary = `every answer conforms to the spec (${operations.filter((o) => o.status !== undefined).length} operations answered)`;
  if (refused) {
    exitCode = 2;
    summary = `the console refused the token: ${refused.operationId} answered ${refused.status}`;
  } else if (unanswered.length) {
    exitCode = 2;
    summary = `no answer from the console to ${unanswered.map((o) => `${o.operationId} (${o.note ?? "no answer"})`).join(", ")}`;
  } else if (deviations.length) {
    exitCode = 1;
    summary = `${deviations.length} deviation(s) from the spec, in ${deviating.length} operation(s)`;
  }
  // every string, keys, ids, titles and JSON paths included: a console may echo a secret anywhere
  return redact(
    {
      console: input.console,
      specVersion: input.specVersion,
      write: input.write,
      ids,
      operations,
      deviations,
      notes,
      exitCode,
      summary,
    },
    secrets,
  ) as Report;
}
