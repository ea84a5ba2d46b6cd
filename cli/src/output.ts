// What goes to stdout: the data alone, as JSON (the default when stdout is not a terminal), one JSON value a line,
// YAML or a table (the default on a terminal), after the `--query` JMESPath filter. Server text in a table has its
// control characters escaped, so an answer cannot move the cursor or colour the terminal.
import { escapeControl } from "../../src/core/redact.js";
import { isRecord } from "../../src/core/is-record.js";
import { UsageError } from "./values.js";

export const FORMATS = ["json", "jsonl", "yaml", "table"] as const;
export type Format = (typeof FORMATS)[number];

const MAX_CELL = 48;

/** Applies a JMESPath expression (the JMESPath Community edition), or says what is wrong with it. */
export async function query(data: unknown, expression: string | undefined): Promise<unknown> {
  if (expression === undefined) return data;
  const { search } = await import("@jmespath-community/jmespath");
  try {
    return search(data as Parameters<typeof search>[0], expression);
  } catch (e) {
    throw new UsageError(`--query ${JSON.stringify(expression)}: ${(e as Error).message}`);
  }
}

/** The text stdout gets for `data` in `format`. */
export async function render(data: unknown, format: Format, color: boolean): Promise<string> {
  if (data === undefined) return "";
  if (format === "json") return `${JSON.stringify(data, null, 2)}\n`;
  if (format === "jsonl")
    return (Array.isArray(data) ? data : [data]).map((item) => `${JSON.stringify(item)}\n`).join("");
  if (format === "yaml") return (await import("yaml")).default.stringify(data); // CommonJS for Node: its exports
  return table(data, color);
}

const cell = (value: unknown) => {
  const text = escapeControl(
    value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value),
  );
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
};

function grid(rows: string[][], color: boolean): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  const [head, ...body] = rows.map(line);
  return `${color ? `\x1b[1m${head}\x1b[22m` : head}\n${body.map((row) => `${row}\n`).join("")}`;
}

/** Records as rows under their keys; one record as key and value; the one list of a page under its other members. */
function table(data: unknown, color: boolean): string {
  if (Array.isArray(data)) {
    if (!data.length) return "(none)\n";
    if (!data.every(isRecord)) return data.map((item) => `${cell(item)}\n`).join("");
    const keys = [...new Set(data.flatMap((item) => Object.keys(item)))];
    return grid([keys.map((k) => k.toUpperCase()), ...data.map((item) => keys.map((k) => cell(item[k])))], color);
  }
  if (!isRecord(data)) return `${cell(data)}\n`;
  const lists = Object.keys(data).filter((key) => Array.isArray(data[key]) && (data[key] as unknown[]).every(isRecord));
  if (lists.length === 1) {
    const rest = Object.entries(data).filter(([key]) => key !== lists[0]);
    return rest.map(([key, value]) => `${key}: ${cell(value)}\n`).join("") + table(data[lists[0]!], color);
  }
  return grid(
    [["KEY", "VALUE"], ...Object.entries(data).map(([key, value]) => [escapeControl(key), cell(value)])],
    color,
  );
}
