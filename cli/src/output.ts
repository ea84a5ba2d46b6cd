// What goes to stdout: the data alone, as JSON (the default when stdout is not a terminal), one JSON value a line,
// YAML or a table (the default on a terminal), after the `--query` JMESPath filter. Every key and value the console
// chose reaches the terminal escaped (terminal.ts): JSON and YAML stay the same data, a table shows `\x1b`. A table fits
// the terminal's width as gh's do (columns cut with `…`, never wrapped); piped, it is whole.
import { isRecord } from "../../surface/runtime.js";
import { UsageError } from "./values.js";
import { cut, escapeJson, escapeText, escapeYamlQuoted, isUnsafe, widthOf } from "./terminal.js";

export const FORMATS = ["json", "jsonl", "yaml", "table"] as const;
export type Format = (typeof FORMATS)[number];

/** How stdout shows a table: bold headers, and the terminal's width (none when piped: whole lines). */
export interface Layout {
  color: boolean;
  width?: number;
}

/** The layout of `stdout`: a terminal's width and colour (unless NO_COLOR), or none. */
export function layoutOf(io: { env: NodeJS.ProcessEnv; stdout: { isTTY?: boolean; columns?: number } }): Layout {
  const tty = Boolean(io.stdout.isTTY);
  return { color: tty && !io.env.NO_COLOR, width: tty ? io.stdout.columns || 80 : undefined };
}

const SEPARATOR = "  ";

/**
 * Applies a JMESPath expression in the JMESPath Community Edition's dialect (jmespath.site), or says what is wrong with
 * it. A backtick literal that is not JSON is a string, as jmespath.py, the AWS CLI and jp take it: `[?protocol==\`http\`]`.
 */
export async function query(data: unknown, expression: string | undefined): Promise<unknown> {
  if (expression === undefined) return data;
  const { search } = await import("@jmespath-community/jmespath");
  try {
    return search(data as Parameters<typeof search>[0], expression, { enable_legacy_literals: true });
  } catch (e) {
    throw new UsageError(`--query ${JSON.stringify(expression)}: ${(e as Error).message}`);
  }
}

/** The text stdout gets for `data` in `format`. */
export async function render(data: unknown, format: Format, layout: Layout): Promise<string> {
  if (data === undefined) return "";
  if (format === "json") return `${escapeJson(JSON.stringify(data, null, 2))}\n`;
  if (format === "jsonl") {
    const items = Array.isArray(data) ? data : [data];
    return items.map((item) => `${escapeJson(JSON.stringify(item))}\n`).join("");
  }
  if (format === "yaml") return yaml(data);
  return table(data, layout);
}

/** YAML in which every scalar holding an unsafe character, key or value, is double-quoted, and the character escaped. */
async function yaml(data: unknown): Promise<string> {
  const { Document, visit, Scalar } = (await import("yaml")).default; // CommonJS for Node: its exports
  const document = new Document(data);
  visit(document, {
    Scalar(_, node) {
      if (typeof node.value === "string" && isUnsafe(node.value.replace(/\n/g, ""))) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return escapeYamlQuoted(document.toString());
}

const cell = (value: unknown) =>
  escapeText(
    value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value),
  );

/**
 * The width of each column on a line of `width` columns, as gh's table printer shares it: columns narrower than an
 * equal share keep their width, the others share what is left, and what is still left goes to the cut ones in order.
 */
export function fitColumns(natural: readonly number[], width: number): number[] {
  const left = (widths: number[]) =>
    width - SEPARATOR.length * (natural.length - 1) - widths.reduce((sum, w) => sum + w, 0);
  if (left(natural.map(() => 0)) >= natural.reduce((sum, w) => sum + w, 0)) return [...natural];
  const widths = natural.map(() => 0);
  const share = () => Math.floor(left(widths) / widths.filter((w) => w === 0).length);
  let each = share();
  natural.forEach((w, i) => void (w < each && (widths[i] = w)));
  each = share();
  natural.forEach((w, i) => void (widths[i] === 0 && (widths[i] = Math.min(w, Math.max(1, each)))));
  let spare = left(widths);
  for (let i = 0; i < natural.length && spare > 0; i++) {
    const more = Math.min(spare, natural[i]! - widths[i]!);
    widths[i] = widths[i]! + more;
    spare -= more;
  }
  return widths;
}

/** Rows of cells as aligned columns under a header, fitted to `layout.width` when there is one. */
function grid(rows: readonly string[][], { color, width }: Layout): string {
  const natural = rows[0]!.map(() => 0);
  for (const row of rows) row.forEach((text, i) => (natural[i] = Math.max(natural[i]!, widthOf(text))));
  const widths = width === undefined ? natural : fitColumns(natural, width);
  const line = (row: readonly string[]) => {
    const cells = row.map((text, i) => {
      const shown = widths[i] === natural[i] ? text : cut(text, widths[i]!);
      return i === row.length - 1 ? shown : shown + " ".repeat(Math.max(0, widths[i]! - widthOf(shown)));
    });
    const text = cells.join(SEPARATOR).trimEnd();
    return width === undefined ? text : cut(text, width);
  };
  let out = color ? `\x1b[1m${line(rows[0]!)}\x1b[22m\n` : `${line(rows[0]!)}\n`;
  for (let i = 1; i < rows.length; i++) out += `${line(rows[i]!)}\n`;
  return out;
}

/** Lines of text, each cut to the terminal's width where there is one. */
const lines = (texts: string[], { width }: Layout) =>
  texts.map((text) => `${width === undefined ? text : cut(text, width)}\n`).join("");

/** Records as rows under their keys; one record as key and value; the one list of a page under its other members. */
function table(data: unknown, layout: Layout): string {
  if (Array.isArray(data)) {
    if (!data.length) return "(none)\n";
    if (!data.every(isRecord)) return lines(data.map(cell), layout);
    const keys = new Set<string>();
    for (const item of data) for (const key of Object.keys(item)) keys.add(key);
    const header = [...keys].map((key) => escapeText(key.toUpperCase()));
    return grid([header, ...data.map((item) => [...keys].map((key) => cell(item[key])))], layout);
  }
  if (!isRecord(data)) return lines([cell(data)], layout);
  const lists = Object.keys(data).filter((key) => Array.isArray(data[key]) && (data[key] as unknown[]).every(isRecord));
  if (lists.length === 1) {
    const rest = Object.entries(data).filter(([key]) => key !== lists[0]);
    return (
      lines(
        rest.map(([key, value]) => `${escapeText(key)}: ${cell(value)}`),
        layout,
      ) + table(data[lists[0]!], layout)
    );
  }
  return grid(
    [["KEY", "VALUE"], ...Object.entries(data).map(([key, value]) => [escapeText(key), cell(value)])],
    layout,
  );
}
