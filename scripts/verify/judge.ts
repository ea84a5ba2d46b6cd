// Judges one answer: Prism's violations (`sl-violations`) as deviations, each with its JSON path, the schema and field
// it belongs to (the key that groups the report), what the spec says and what came; and, from the recorded answer, what
// Prism cannot read (a body that is not JSON, an empty one) or is not the console's (no answer, a gateway's 502, a
// redirect elsewhere, a body past the cap).
import { deref, isObject, refName, type Json, type JsonObject } from "../lib/spec.ts";
import type { Exchange } from "./validator.ts";

/** What came, kept raw until the report masks it (secrets found later in the run are masked too). */
export type Came =
  | { kind: "value"; value: unknown; key?: string | undefined }
  | { kind: "text"; text: string }
  | { kind: "body"; contentType: string; body: string };

export interface Deviation {
  /** Where: a JSON path (`$.regions[0].region_id`), or `status`, `content-type`, `request ...`. */
  path: string;
  /** The schema it belongs to (a component's name, `console envelope`, `<operationId> answer`, `(HTTP answer)`), the
   * field within it (`regions[]`, `` for the whole value), what the spec says and what came. */
  schema: string;
  field: string;
  expected: string;
  came: Came;
}

/** `defect`: an operation the spec marks as failing on this console (`x-console-operation.defect`) failed. */
export type Outcome = "conforms" | "deviates" | "error" | "defect" | "refused" | "no answer";

/** An answer judged; `note`: why no answer came. */
export type Judgement = { outcome: Outcome; status?: number; deviations: Deviation[]; note?: string | undefined };
type Violation = { location: string[]; code?: string | number; message: string };

/** Whether a value meets one of the verify's own `if` schemas: `{ type: "null" }`, `{ type: "object", required }`. */
const meets = ({ type, required = [] }: JsonObject, value: unknown) =>
  type === "null" ? value === null : isObject(value) && (required as string[]).every((name) => name in value);

/**
 * Walks the answer and its schema along a location: the JSON path (`$.regions[0].region_id`, arrays told by the answer
 * itself), the value there, and the named schema it belongs to with the field within it. The name restarts at each
 * component's `$ref` (or schema the verify named), so a wrong field of `Port` is `Port.container_port` wherever it came.
 */
function locate(doc: JsonObject, schema: Json | undefined, body: unknown, segments: readonly string[]) {
  let [name, field, path, node, value] = [undefined as string | undefined, [] as string[], "$", schema, body];
  const resolve = () => {
    for (;;) {
      if (!isObject(node)) return;
      const named = refName(node) ?? node["x-verify-schema"];
      if (typeof named === "string") [name, field] = [named, []];
      if (typeof node.$ref === "string") node = deref(doc, node);
      else if (typeof node["x-verify-schema"] === "string") node = { ...node, "x-verify-schema": null };
      else if (node.if !== undefined)
        node = isObject(node.if) && meets(node.if, value) ? (node.then ?? true) : (node.else ?? true);
      else return;
    }
  };
  for (const s of segments) {
    resolve();
    const list = Array.isArray(value);
    field.push(list ? "[]" : field.length ? `.${s}` : s);
    path += list ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`;
    const properties = isObject(node) && !list ? node.properties : undefined;
    node = isObject(node) && list ? node.items : isObject(properties) ? properties[s] : undefined;
    value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[s] : undefined;
  }
  if (!segments.length) resolve(); // the whole answer: named by its own schema, as no field holds it
  return { schema: name, field: field.join(""), path, value };
}

function http(field: string, expected: string, text = ""): Deviation {
  return { path: field || "answer", schema: "(HTTP answer)", field, expected, came: { kind: "text", text } };
}
const statusDeviation = (statuses: string[], status: number) =>
  http("status", `one of ${statuses.map((s) => s.trim()).join(", ")}`, String(status));

export function parsed(text = ""): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** Judges `exchange`, an answer to `operation` (an operation of `doc`, the verify's copy of the spec). */
export function judge(doc: JsonObject, operation: JsonObject, operationId: string, exchange: Exchange): Judgement {
  const { status, error, body = "", contentType } = exchange;
  if (error !== undefined || status === undefined) return { outcome: "no answer", deviations: [], note: error };
  if ([502, 503, 504].includes(status)) {
    return { outcome: "no answer", status, deviations: [], note: `${status} from the console or a gateway before it` };
  }
  // what the client did not take as an answer: a redirect it does not follow, a body past the verify's cap
  const { redirect, cut } = exchange;
  if (redirect !== undefined) {
    const expected = "an answer from the console's origin (a redirect elsewhere is not followed, nor sent the token)";
    return { outcome: "deviates", status, deviations: [http("redirect", expected, `${status} to ${redirect}`)] };
  }
  if (cut !== undefined) {
    const expected = `at most ${cut} bytes (the verify reads no more)`;
    return {
      outcome: "deviates",
      status,
      deviations: [http("body size", expected, `more: not read past ${cut} bytes`)],
    };
  }
  const responses = isObject(operation.responses) ? operation.responses : {};
  const response = deref(doc, responses[String(status)]);
  const content = isObject(response) && isObject(response.content) ? response.content : undefined;
  const media = content?.["application/json"];
  const json = /\bjson\b/i.test(contentType ?? "") ? parsed(body) : undefined;
  const whole = { path: "$", schema: `${operationId} answer`, field: "" };

  /** One of Prism's violations as a deviation (or none, for the summary an `if` adds to its branch's own errors). */
  const deviationOf = ({ location: [where, part, ...rest], code, message }: Violation): Deviation | undefined => {
    if (where === "request") {
      const field = [part, ...rest].filter(Boolean).join(".");
      const came = { kind: "text", text: "in the request the client sent" } as const;
      return { path: `request ${field}`.trim(), schema: "(request the client sent)", field, expected: message, came };
    }
    if (part === undefined) {
      const statuses = /status code with those defined in the document: (.*)$/.exec(message)?.[1];
      const media = /media type "(.*)" does not match the one specified in the current response: (.*)$/.exec(message);
      if (statuses !== undefined) return statusDeviation(statuses.split(","), status);
      return media ? http("content-type", media[2]!, media[1] || "(none)") : http("", message);
    }
    if (part !== "body") return http(`${part} ${rest.join(".")}`.trim(), message);
    if (code === "if") return undefined;
    const required = code === "required" ? /required property '(.*)'$/.exec(message)?.[1] : undefined;
    const extra = code === "additionalProperties" ? /; found '(.*)'$/.exec(message)?.[1] : undefined;
    const segments = [...rest, ...[required ?? extra ?? []].flat()];
    const schema = isObject(media) ? media.schema : undefined;
    const { schema: name, field, path, value } = locate(doc, schema, json?.value, segments);
    const stated = message.replace(/^Response body (property \S+ )?/, "");
    const expected = required ? "required" : extra ? "no such field" : stated;
    const came: Came = required ? { kind: "text", text: "(missing)" } : { kind: "value", value, key: segments.at(-1) };
    return { path, schema: name ?? whole.schema, field, expected, came };
  };

  const list = parsed(exchange.violations ?? "[]");
  const unread = `Prism's violations could not be read: ${exchange.violations?.slice(0, 200)}`;
  let violations: Violation[] = !list ? [{ location: ["response"], message: unread }] : [];
  if (Array.isArray(list?.value)) violations = list.value.filter((v: Partial<Violation>) => Array.isArray(v?.location));
  // Prism could not read a body that is not JSON, or read text as a string: judged here, from the recorded answer
  if (!json) violations = violations.filter((v) => v.location[0] === "request");
  const deviations = violations.map(deviationOf).filter((d) => d !== undefined);
  if (!json) {
    if (!(String(status) in responses)) deviations.push(statusDeviation(Object.keys(responses), status));
    const maySend = isObject(response) ? response["x-console-may-send"] : undefined;
    if (content && !(body.trim() === "" && Array.isArray(maySend) && maySend.includes("empty"))) {
      const came: Came = body.trim()
        ? { kind: "body", contentType: contentType ?? "no content type", body }
        : { kind: "text", text: "an empty body" };
      deviations.push({ ...whole, expected: "a JSON body (application/json)", came });
    }
  }
  const ok = status >= 200 && status < 300;
  const outcome =
    status === 401 || status === 403 ? "refused" : deviations.length ? "deviates" : ok ? "conforms" : "error";
  return { outcome, status, deviations };
}
