// A reader of the interface's source document (spec/source/rainbond-openapi-v1.md): the records of section 2
// (attribute tables, and the inline lists of 2.5-2.10), the body tables of section 4, the codes of section 3 and the
// endpoint table. It throws on a phrase it cannot read rather than guess, so that a change of the document shows.

/** A field's type as the source words it. */
export type SourceType =
  | { kind: "scalar"; type: "string" | "integer" | "number" | "boolean"; format?: string; nullable: boolean }
  | { kind: "array"; items: SourceType; nullable: boolean }
  /** A record the source names (its own table or list), e.g. `Data`, `TCP rule record`. */
  | { kind: "record"; name: string; nullable: boolean }
  /** An object written out in place: `{ key string, value string }`. */
  | { kind: "object"; fields: SourceField[]; nullable: boolean };

/** Values a field may take: `closed` when the source lists the allowed values, open when it only names some. */
export interface SourceValues {
  closed: boolean;
  values: unknown[];
}

export interface SourceField {
  name: string;
  type: SourceType;
  /** undefined where the source does not say ("not shown"). */
  required: boolean | undefined;
  readOnly: boolean;
  values?: SourceValues;
}

export interface SourceRecord {
  /** The source's name: `Port`, `configuration`, `TCP rule record`, `Operation 4 body`, ... */
  name: string;
  /** Where it is defined, e.g. `2.6` or `4`. */
  section: string;
  /** How: an attribute table, an inline list, or prose deriving it from another record ("Same fields as ..."). */
  origin: "table" | "list" | "derived";
  fields: SourceField[];
}

export interface Endpoint {
  number: number;
  method: string;
  path: string;
  /** The parameter names the source gives the operation: its path's placeholders, and every name in backticks in
   *  its "### Operation N" section (query parameters, body fields, the parameters said to be "declared as path
   *  parameters"). */
  names: string[];
}

export interface SourceDocument {
  records: SourceRecord[];
  /** Region status codes (section 3). */
  statusCodes: string[];
  endpoints: Endpoint[];
}

const SCALARS = new Set(["string", "integer", "number", "boolean"]);

/** Splits at `sep` outside (), [], {} and backticks. */
export function splitTop(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let tick = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "`") tick = !tick;
    else if (!tick && "([{".includes(c)) depth++;
    else if (!tick && ")]}".includes(c)) depth--;
    else if (!tick && depth === 0 && text.startsWith(sep, i)) {
      parts.push(text.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

/** A type phrase: `string or null`, `string, date-time`, `array of X`, `{ key string, value string }`, a record name. */
export function parseType(phrase: string, fieldName: string): SourceType {
  let text = phrase.trim();
  // a trailing explanation in parentheses: "string (component id)", "object (the Http shape above)"
  let shape: string | undefined;
  const paren = /^(.*?)\s*\(([^()]*)\)$/.exec(text);
  if (paren && !text.startsWith("{")) {
    text = paren[1]!;
    shape = /^the (\w+) shape above$/.exec(paren[2]!)?.[1];
  }
  let nullable = false;
  const orNull = /^(.*?),? or null$/.exec(text);
  if (orNull) {
    nullable = true;
    text = orNull[1]!;
  }
  text = text.replace(/^an? /, "");
  let m: RegExpExecArray | null;
  if ((m = /^(string|integer|number|boolean), ([\w-]+)$/.exec(text))) {
    return { kind: "scalar", type: m[1] as "string", format: m[2], nullable };
  }
  if (SCALARS.has(text)) return { kind: "scalar", type: text as "string", nullable };
  if ((m = /^array of (.+)$/.exec(text))) return { kind: "array", items: parseType(m[1]!, fieldName), nullable };
  if ((m = /^\{(.*)\}$/.exec(text))) {
    const fields = splitTop(m[1]!, ",").map((item) => {
      const [name, ...type] = item.split(/\s+/);
      if (!name || type.length === 0) throw new Error(`cannot read the inline field "${item}" of ${fieldName}`);
      return { name, type: parseType(type.join(" "), name), required: undefined, readOnly: false };
    });
    return { kind: "object", fields, nullable };
  }
  if (text === "object") return { kind: "record", name: shape ?? fieldName, nullable };
  if ((m = /^(\w+)-shaped records?$/.exec(text))) return { kind: "record", name: m[1]!, nullable };
  if ((m = /^(.+?) records$/.exec(text))) return { kind: "record", name: `${m[1]} record`, nullable };
  if (/^[A-Z][A-Za-z0-9]*$/.test(text)) return { kind: "record", name: text, nullable };
  throw new Error(`cannot read the type "${phrase}" of ${fieldName}`);
}

/** The values a "Meaning" text allows or names. */
function valuesOf(meaning: string, statusCodes: string[]): SourceValues | undefined {
  const list = (text: string) =>
    text
      .replace(/\.$/, "")
      .split(/,\s*|\s+and\s+/)
      .map((v) => v.replace(/`/g, "").trim())
      .filter((v) => v !== "");
  let m: RegExpExecArray | null;
  if ((m = /allowed values(?: in requests)?:\s*(.+)$/i.exec(meaning))) return { closed: true, values: list(m[1]!) };
  if (/see section 3\b/.test(meaning)) return { closed: true, values: statusCodes };
  const defs = [...meaning.matchAll(/(\d+) = /g)].map((d) => Number(d[1]));
  if (defs.length >= 2) return { closed: true, values: defs };
  if ((m = /(?:the values named are|values named:|the only value named is)\s*(.+)$/i.exec(meaning))) {
    return { closed: false, values: list(m[1]!) };
  }
  return undefined;
}

function typed(values: SourceValues | undefined, type: SourceType): SourceValues | undefined {
  if (!values) return undefined;
  if (type.kind === "scalar" && (type.type === "integer" || type.type === "number")) {
    return { ...values, values: values.values.map(Number) };
  }
  return { ...values, values: values.values.map(String) };
}

interface Table {
  header: string[];
  rows: string[][];
  end: number;
}

function readTable(lines: string[], start: number): Table {
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\|/, "")
      .replace(/\|$/, "")
      .split("|")
      .map((c) => c.trim());
  const header = cells(lines[start]!);
  let i = start + 2; // skip the |---| line
  const rows: string[][] = [];
  while (i < lines.length && lines[i]!.trim().startsWith("|")) rows.push(cells(lines[i++]!));
  return { header, rows, end: i };
}

function recordFromTable(
  name: string,
  section: string,
  table: Table,
  statusCodes: string[],
  defaults: { type?: string; required?: boolean },
): SourceRecord {
  const col = (label: string) => table.header.findIndex((h) => h.toLowerCase() === label);
  const [field, type, required, meaning, allowed] = ["field", "type", "required", "meaning", "allowed values"].map(col);
  if (field === -1) throw new Error(`the table of ${name} has no Field column`);
  const fields = table.rows.map((row): SourceField => {
    const fieldName = row[field!]!.replace(/`/g, "");
    const typeText = type !== -1 ? row[type!]! : defaults.type;
    if (!typeText) throw new Error(`no type for ${name}.${fieldName}`);
    const parsed = parseType(typeText, fieldName);
    const req = required !== -1 ? row[required!]! : undefined;
    const allowedText = allowed !== -1 ? row[allowed!]! : "";
    const values = allowedText
      ? { closed: true, values: allowedText.split(/,\s*/).map((v) => v.replace(/`/g, "").trim()) }
      : meaning !== -1
        ? valuesOf(row[meaning!]!, statusCodes)
        : undefined;
    return {
      name: fieldName,
      type: parsed,
      required:
        req === undefined ? defaults.required : /^yes\b/i.test(req) ? true : /^no\b/i.test(req) ? false : undefined,
      readOnly: req !== undefined && /read-only/.test(req),
      values: typed(values, parsed),
    };
  });
  return { name, section, origin: "table", fields };
}

type Marker = { required: boolean; all: boolean } | undefined;

function marker(text: string | undefined): Marker {
  if (!text) return undefined;
  const m = /^(all )?(required|optional)$/.exec(text.trim());
  return m ? { required: m[2] === "required", all: m[1] !== undefined } : undefined;
}

/**
 * An inline list: "`a` integer (required), `b` array of X (required)", "`a` (string, required, meaning)",
 * "`a` string required", groups split by ";" that end in "(all optional)" or "(required)", a final "all required".
 */
export function parseInlineFields(recordName: string, definition: string): SourceField[] {
  const fields: (SourceField & { marker: Marker })[] = [];
  let recordMarker: Marker;
  for (const group of splitTop(definition, ";")) {
    const inGroup: (SourceField & { marker: Marker })[] = [];
    for (const item of splitTop(group, ",")) {
      const m = /^`([^`]+)`\s*(.*)$/s.exec(item);
      if (!m) {
        const mk = marker(item);
        if (!mk?.all) throw new Error(`cannot read "${item}" in ${recordName}`);
        recordMarker = mk;
        continue;
      }
      const [, name, rest] = m as unknown as [string, string, string];
      let typeText: string;
      let mk: Marker;
      let readOnly = false;
      if (rest.startsWith("(") && rest.endsWith(")")) {
        // `name` (type, required|optional, meaning)
        const parts = splitTop(rest.slice(1, -1), ",").flatMap((p) => splitTop(p, ";"));
        typeText = parts[0]!;
        for (const p of parts.slice(1)) {
          mk ??= marker(p);
          if (p === "read-only") readOnly = true;
        }
      } else {
        const paren = /^(.*?)\s*\(([^()]*)\)$/.exec(rest);
        typeText = rest;
        if (paren && marker(paren[2])) {
          typeText = paren[1]!;
          mk = marker(paren[2]);
        }
        const suffix = /^(.*?)\s+(required|optional)$/.exec(typeText);
        if (suffix) {
          typeText = suffix[1]!;
          mk = marker(suffix[2]);
        }
      }
      inGroup.push({ name, type: parseType(typeText, name), required: undefined, readOnly, marker: mk });
    }
    // a marker on the last field of a group speaks for the group when it says "all", or when no other field has one
    const last = inGroup.at(-1)?.marker;
    const speaksForGroup = last && (last.all || inGroup.slice(0, -1).every((f) => f.marker === undefined));
    for (const f of inGroup) f.required = (f.marker ?? (speaksForGroup ? last : undefined))?.required;
    fields.push(...inGroup);
  }
  return fields.map(({ marker: _marker, ...f }) => ({ ...f, required: f.required ?? recordMarker?.required }));
}

/** The index of the first `sep` outside (), [], {} and backticks, or -1. */
function indexTop(text: string, sep: string): number {
  let depth = 0;
  let tick = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "`") tick = !tick;
    else if (!tick && "([{".includes(c)) depth++;
    else if (!tick && ")]}".includes(c)) depth--;
    else if (!tick && depth === 0 && text.startsWith(sep, i)) return i;
  }
  return -1;
}

/** The text of an inline definition after "Name ...:": a `{ ... }` block, or up to the end of its first sentence. */
function definitionAfterColon(rest: string): string | undefined {
  const colon = indexTop(rest, ":");
  if (colon === -1) return undefined;
  const text = rest.slice(colon + 1).trim();
  if (text.startsWith("{")) {
    let depth = 0;
    for (let i = 0; i < text.length; i++) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}" && --depth === 0) return text.slice(1, i);
    }
    throw new Error(`unbalanced braces in "${rest}"`);
  }
  const sentence = /^(.*?)\.(?:\s+[A-Z]|\s*$)/s.exec(text);
  return sentence ? sentence[1] : text;
}

function sectionText(md: string, number: string): string[] {
  const lines = md.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`## ${number}. `));
  if (start === -1) throw new Error(`no section ${number}`);
  const end = lines.findIndex((l, i) => i > start && /^## \d+\. /.test(l));
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

export function readSourceDocument(md: string): SourceDocument {
  // section 3: the region status codes
  const s3 = sectionText(md, "3");
  const codeTable = readTable(
    s3,
    s3.findIndex((l) => /^\|\s*Code\s*\|/.test(l)),
  );
  const statusCodes = codeTable.rows.map((r) => r[0]!);

  const records: SourceRecord[] = [];
  const bySection = new Map<string, SourceRecord>();
  const byName = (name: string) => {
    const found = records.find((r) => r.name === name);
    if (!found) throw new Error(`no record ${name} before it is referred to`);
    return found;
  };

  // section 2
  const lines = sectionText(md, "2");
  let section = "2";
  let pending: { name: string; defaults: { type?: string; required?: boolean } } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let m: RegExpExecArray | null;
    if ((m = /^### (2\.\d+) (.*)$/.exec(line))) {
      section = m[1]!;
      const name = /^([A-Z]\w*)(?: \(|$)/.exec(m[2]!)?.[1];
      pending = name ? { name, defaults: {} } : undefined;
    } else if (line.trim().startsWith("|")) {
      if (!pending) throw new Error(`a table in section ${section} without a record name (line "${line}")`);
      const table = readTable(lines, i);
      const record = recordFromTable(pending.name, section, table, statusCodes, pending.defaults);
      records.push(record);
      if (!bySection.has(section)) bySection.set(section, record);
      pending = undefined;
      i = table.end - 1;
    } else if ((m = /^Same fields as (2\.\d+) except: (.*?) are absent; (.*?)\. All other fields keep/.exec(line))) {
      // 2.5: HTTPGatewayRule, derived from 2.4
      const name = pending?.name;
      const base = bySection.get(m[1]!);
      if (!name || !base) throw new Error(`cannot derive the record of section ${section}`);
      const absent = new Set([...m[2]!.matchAll(/`(\w+)`/g)].map((a) => a[1]!));
      const fields = base.fields.filter((f) => !absent.has(f.name)).map((f) => ({ ...f }));
      for (const clause of splitTop(m[3]!, ";")) {
        const c = /^`(\w+)` is (.*)$/.exec(clause);
        if (!c) throw new Error(`cannot read "${clause}" in section ${section}`);
        const field: SourceField = { name: c[1]!, type: undefined as never, required: undefined, readOnly: false };
        for (const part of splitTop(c[2]!, ",")) {
          const mk = marker(part);
          if (mk) field.required = mk.required;
          else if (part === "read-only") field.readOnly = true;
          else field.type = parseType(part, field.name);
        }
        if (!field.type) throw new Error(`no type in "${clause}"`);
        const at = fields.findIndex((f) => f.name === field.name);
        if (at === -1) fields.push(field);
        else fields[at] = field;
      }
      records.push({ name, section, origin: "derived", fields });
      pending = undefined;
    } else if ((m = /^`(\w+)` = \{(.*)\}\.?$/.exec(line))) {
      records.push({ name: m[1]!, section, origin: "list", fields: parseInlineFields(m[1]!, m[2]!) });
    } else if ((m = /^\*\*(.+?)\*\*(.*)$/.exec(line))) {
      const name = m[1]!;
      const rest = m[2]!;
      const derived = /Same fields as (\w+), with `(\w+)` required \(([^,)]+)[^)]*\), plus `(\w+)`\./.exec(rest);
      if (derived) {
        // Http: the fields of UpdatePostHTTPGatewayRule, one more required, plus `configuration`
        const base = byName(derived[1]!);
        const after = /Requiredness of the fields after `(\w+)`: not shown/.exec(rest)?.[1];
        const cut = after === undefined ? Infinity : base.fields.findIndex((f) => f.name === after);
        const fields = base.fields.map((f, index) => ({ ...f, required: index > cut ? undefined : f.required }));
        const made = fields.find((f) => f.name === derived[2]);
        if (!made) throw new Error(`${name}: no field ${derived[2]} in ${base.name}`);
        made.required = true;
        made.type = parseType(derived[3]!, made.name);
        // the added member is an object described by its own table further on (a record named like the field)
        fields.push({
          name: derived[4]!,
          type: parseType("object", derived[4]!),
          required: undefined,
          readOnly: false,
        });
        records.push({ name, section, origin: "derived", fields });
        pending = undefined;
      } else if (/:\s*$/.test(rest)) {
        pending = {
          name,
          defaults: /all fields required strings?/.test(rest) ? { type: "string", required: true } : {},
        };
      } else {
        const definition = definitionAfterColon(rest.replace(/^\s*object\s*:/, ":"));
        if (definition === undefined) throw new Error(`cannot read the definition of ${name}`);
        records.push({ name, section, origin: "list", fields: parseInlineFields(name, definition) });
        pending = undefined;
      }
    }
  }

  // section 4: the endpoint table and the body tables of the operations
  const s4 = sectionText(md, "4");
  const endpointTable = readTable(
    s4,
    s4.findIndex((l) => /^\|\s*#\s*\|\s*Method\s*\|/.test(l)),
  );
  const endpoints: Endpoint[] = [];
  for (const [number, method, path] of endpointTable.rows) {
    const same = /^same path as (\d+)(?:, plus (\S+))?$/.exec(path!);
    const resolved = same
      ? `${endpoints.find((e) => e.number === Number(same[1]))?.path ?? "?"}${same[2] ?? ""}`
      : path!.replace(/`/g, "");
    const placeholders = [...resolved.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    endpoints.push({ number: Number(number), method: method!, path: resolved, names: placeholders });
  }
  let operation: string | undefined;
  for (let i = 0; i < s4.length; i++) {
    const line = s4[i]!;
    const op = /^### Operation (\d+):/.exec(line);
    if (op) operation = op[1];
    const endpoint = operation === undefined ? undefined : endpoints.find((e) => e.number === Number(operation));
    if (endpoint) endpoint.names.push(...[...line.matchAll(/`(\w+)`/g)].map((m) => m[1]!));
    if (!op && operation && /\bBody:\s*$/.test(line)) {
      const start = s4.findIndex((l, j) => j > i && l.trim().startsWith("|"));
      const table = readTable(s4, start);
      records.push(recordFromTable(`Operation ${operation} body`, "4", table, statusCodes, {}));
      i = table.end - 1;
    }
  }
  return { records, statusCodes, endpoints };
}
