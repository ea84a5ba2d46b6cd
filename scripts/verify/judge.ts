// Judges one answer: Prism's violations (the `sl-violations` header) turned into deviations, each with its JSON path,
// the schema and field it belongs to (the key that groups the report), what the spec says and what came. What Prism
// cannot read (a body that is not JSON, an empty one) and what is not the console's (no answer, a gateway's 502) is
// judged here from the recorded answer.
import type { Exchange } from "./recorder.js";
import { ENVELOPE_NAME, type Json, type JsonObject } from "./validator.js";

/** What came, kept raw until the report masks it (secrets found later in the run are masked too). */
export type Came =
  | { kind: "value"; value: unknown; key?: string }
  | { kind: "missing" }
  | { kind: "text"; text: string }
  | { kind: "body"; contentType: string; body: string };

export interface Deviation {
  /** Where in the answer: `$.regions[0].region_id`, or `status`, `content-type`, `request ...`. */
  path: string;
  /** The schema the field belongs to (a component's name, `console envelope`, or `<operationId> answer`). */
  schema: string;
  /** The field within that schema: `region_id`, `regions[]`, `` for the whole value. */
  field: string;
  /** What the spec says. */
  expected: string;
  came: Came;
}

export type Outcome = "conforms" | "deviates" | "error" | "refused" | "no answer";

export interface Judgement {
  outcome: Outcome;
  status?: number;
  deviations: Deviation[];
  /** Why there was no answer, and the like. */
  note?: string;
}

interface Violation {
  location: string[];
  severity?: string;
  code?: string | number;
  message: string;
}

const GATEWAY = new Set([502, 503, 504]);

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The node a local `$ref` points at. */
export function deref(doc: JsonObject, node: Json | undefined): Json | undefined {
  let at = node;
  while (isObject(at) && typeof at.$ref === "string") {
    at = at.$ref
      .slice(2)
      .split("/")
      .reduce<Json | undefined>(
        (n, key) => (isObject(n) ? n[key.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined),
        doc,
      );
  }
  return at;
}

/** The response the spec declares for a status, and its JSON media type. */
function declared(doc: JsonObject, operation: JsonObject, status: number) {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const response = deref(doc, responses[String(status)]);
  const content = isObject(response) && isObject(response.content) ? response.content : undefined;
  const media = content?.["application/json"];
  return {
    statuses: Object.keys(responses),
    response: isObject(response) ? response : undefined,
    schema: isObject(media) ? media.schema : undefined,
    hasBody: content !== undefined,
  };
}

/** `$.regions[0].region_id` for the segments of a location, arrays told by the answer itself. */
export function jsonPath(body: unknown, segments: readonly string[]): string {
  let out = "$";
  let at = body;
  for (const segment of segments) {
    if (Array.isArray(at)) out += `[${segment}]`;
    else out += /^[A-Za-z_$][\w$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
    at = isObject(at) || Array.isArray(at) ? (at as Record<string, unknown>)[segment] : undefined;
  }
  return out;
}

function valueAt(body: unknown, segments: readonly string[]): unknown {
  let at = body;
  for (const segment of segments) {
    if (!(isObject(at) || Array.isArray(at))) return undefined;
    at = (at as Record<string, unknown>)[segment];
  }
  return at;
}

/** Whether a value meets one of the verify's own `if` schemas (a `type` and `required` members, nothing else). */
function meets(schema: Json | undefined, value: unknown): boolean {
  if (!isObject(schema)) return schema !== false;
  const types = schema.type === undefined ? [] : ([] as Json[]).concat(schema.type);
  const typeOf = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  if (types.length && !types.includes(typeOf)) return false;
  const required = Array.isArray(schema.required) ? schema.required : [];
  return required.every((name) => isObject(value) && typeof name === "string" && name in value);
}

/**
 * The schema a location belongs to and the field within it: walks the schema along the answer, restarting at each
 * named schema (a component's `$ref`, or a schema the verify named), so a wrong field of `Port` is `Port.container_port`
 * whether it came from the ports list or from an added port.
 */
export function locate(doc: JsonObject, schema: Json | undefined, body: unknown, segments: readonly string[]) {
  let name: string | undefined;
  let field: string[] = [];
  let node = schema;
  let value = body;
  const resolve = () => {
    for (;;) {
      if (isObject(node) && typeof node.$ref === "string") {
        const ref = /^#\/components\/schemas\/(.+)$/.exec(node.$ref)?.[1];
        if (ref) [name, field] = [ref, []];
        node = deref(doc, node);
      } else if (isObject(node) && typeof node["x-verify-schema"] === "string") {
        [name, field] = [node["x-verify-schema"], []];
        const { ["x-verify-schema"]: _, ...rest } = node;
        node = rest;
      } else if (isObject(node) && node.if !== undefined) {
        node = meets(node.if, value) ? (node.then ?? true) : (node.else ?? true);
      } else return;
    }
  };
  for (const segment of segments) {
    resolve();
    if (Array.isArray(value)) {
      field.push("[]");
      node = isObject(node) ? node.items : undefined;
    } else {
      field.push(field.length ? `.${segment}` : segment);
      node = isObject(node) && isObject(node.properties) ? node.properties[segment] : undefined;
    }
    value = isObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[segment] : undefined;
  }
  if (!segments.length) resolve(); // the whole answer: named by its own schema, as no field holds it
  return { schema: name, field: field.join("") };
}

const quoted = (message: string, pattern: RegExp) => pattern.exec(message)?.[1];

/** One of Prism's violations as a deviation (or none, for the summary an `if` adds to its branch's own errors). */
function deviationOf(
  v: Violation,
  doc: JsonObject,
  schema: Json | undefined,
  body: unknown,
  operationId: string,
  status: number,
): Deviation | undefined {
  const [where, part, ...rest] = v.location;
  if (where === "request") {
    return {
      path: `request ${[part, ...rest].filter(Boolean).join(".")}`.trim(),
      schema: "(request the client sent)",
      field: [part, ...rest].filter(Boolean).join("."),
      expected: v.message,
      came: { kind: "text", text: "in the request the client sent" },
    } satisfies Deviation;
  }
  if (part === undefined) {
    const statuses = quoted(v.message, /status code with those defined in the document: (.*)$/);
    if (statuses !== undefined) return statusDeviation(statuses.split(","), status);
    const media = /media type "(.*)" does not match the one specified in the current response: (.*)$/.exec(v.message);
    if (media) {
      return {
        path: "content-type",
        schema: "(HTTP answer)",
        field: "content-type",
        expected: media[2]!,
        came: { kind: "text", text: media[1] || "(none)" },
      } satisfies Deviation;
    }
    return {
      path: "answer",
      schema: "(HTTP answer)",
      field: "",
      expected: v.message,
      came: { kind: "text", text: "" },
    };
  }
  if (part !== "body") {
    return {
      path: `${part} ${rest.join(".")}`.trim(),
      schema: "(HTTP answer)",
      field: `${part} ${rest.join(".")}`.trim(),
      expected: v.message,
      came: { kind: "text", text: "" },
    };
  }
  if (v.code === "if") return undefined;
  const segments = [...rest];
  let expected = v.message.replace(/^Response body (?:property \S+ )?/, "");
  let came: Came;
  const required = v.code === "required" ? quoted(v.message, /required property '(.*)'$/) : undefined;
  const extra = v.code === "additionalProperties" ? quoted(v.message, /; found '(.*)'$/) : undefined;
  if (required !== undefined) {
    segments.push(required);
    expected = "required";
    came = { kind: "missing" };
  } else if (extra !== undefined) {
    segments.push(extra);
    expected = "no such field";
    came = { kind: "value", value: valueAt(body, segments), key: extra };
  } else came = { kind: "value", value: valueAt(body, segments), key: segments.at(-1) };
  const at = locate(doc, schema, body, segments);
  return {
    path: jsonPath(body, segments),
    schema: at.schema ?? `${operationId} answer`,
    field: at.field,
    expected,
    came,
  } satisfies Deviation;
}

function statusDeviation(statuses: string[], status: number): Deviation {
  return {
    path: "status",
    schema: "(HTTP answer)",
    field: "status",
    expected: `one of ${statuses.map((s) => s.trim()).join(", ")}`,
    came: { kind: "text", text: String(status) },
  };
}

function parseViolations(header: string | null | undefined): Violation[] {
  if (!header) return [];
  try {
    const list = JSON.parse(header) as unknown;
    return Array.isArray(list) ? (list as Violation[]).filter((v) => Array.isArray(v?.location)) : [];
  } catch {
    return [{ location: ["response"], message: `Prism's violations could not be read: ${header.slice(0, 200)}` }];
  }
}

function parseJson(exchange: Exchange): { ok: true; body: unknown } | { ok: false } {
  if (!/\bjson\b/i.test(exchange.contentType ?? "")) return { ok: false };
  try {
    return { ok: true, body: JSON.parse(exchange.body ?? "") };
  } catch {
    return { ok: false };
  }
}

export interface JudgeInput {
  /** The verify's copy of the spec (validatorSpec): schemas to locate fields in. */
  doc: JsonObject;
  /** The operation object of that spec. */
  operation: JsonObject;
  operationId: string;
  exchange: Exchange;
  /** Prism's `sl-violations` for this answer. */
  violations: string | null | undefined;
}

export function judge({ doc, operation, operationId, exchange, violations }: JudgeInput): Judgement {
  if (exchange.error !== undefined || exchange.status === undefined) {
    return { outcome: "no answer", deviations: [], note: exchange.error ?? "no answer" };
  }
  const status = exchange.status;
  if (GATEWAY.has(status)) {
    return { outcome: "no answer", status, deviations: [], note: `${status} from the console or a gateway before it` };
  }
  const spec = declared(doc, operation, status);
  const all = parseViolations(violations);
  const deviations: Deviation[] = [];
  const json = parseJson(exchange);
  if (json.ok) {
    for (const v of all) {
      const d = deviationOf(v, doc, spec.schema, json.body, operationId, status);
      if (d) deviations.push(d);
    }
  } else {
    // Prism could not read this body, or read text as a string: judged here, from the recorded answer
    for (const v of all)
      if (v.location[0] === "request") deviations.push(deviationOf(v, doc, undefined, null, "", status)!);
    if (!spec.statuses.includes(String(status))) deviations.push(statusDeviation(spec.statuses, status));
    const body = exchange.body ?? "";
    const mayBeEmpty =
      Array.isArray(spec.response?.["x-console-may-send"]) && spec.response["x-console-may-send"].includes("empty");
    if (spec.hasBody && !(body.trim() === "" && mayBeEmpty)) {
      deviations.push({
        path: "$",
        schema: `${operationId} answer`,
        field: "",
        expected: "a JSON body (application/json)",
        came:
          body.trim() === ""
            ? { kind: "text", text: "an empty body" }
            : { kind: "body", contentType: exchange.contentType ?? "no content type", body },
      });
    }
  }
  const outcome: Outcome =
    status === 401 || status === 403
      ? "refused"
      : deviations.length
        ? "deviates"
        : status >= 200 && status < 300
          ? "conforms"
          : "error";
  return { outcome, status, deviations };
}
