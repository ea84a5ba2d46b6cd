// `npm run verify -- --overlay <file>` (docs/verifying-a-console.md, "Writing what it finds as an overlay"): the run's
// deviations as OpenAPI Overlay actions for a maintainer to review and add to the spec's overlay (spec/
// console.overlay.yaml, 1.1). One action per departure, whichever operations showed it, each with a JSONPath into the
// bundled spec (where that overlay applies) and a description of what was seen: schema and field, operation, status,
// where in the answer. No value the console sent is written but an enum value, nor an action holding a secret the run
// has seen. The actions use `update` and `remove` only, which apply alike under Overlay 1.0 and 1.1. A description
// quotes what the console chose (the field, where it came) as a code span, as the departures page shows it; a field
// whose name no tool can carry (`__proto__`, invisible characters: scripts/lib/console-text.ts) gets no action.
import { writeFile } from "node:fs/promises";
import { stringify } from "openapi-format";
import { sensitiveFields } from "../../generated/operations.js";
import { codeSpan, showName, whyOdd } from "../lib/console-text.ts";
import { OVERLAY_FILE, deref, isObject, type Json, type JsonObject } from "../lib/spec.ts";
import type { Deviation } from "./judge.ts";
import type { OperationResult } from "./result.ts";
import { holdsSecret } from "./secrets.ts";

export type OverlayAction = { target: string; description: string; update?: Json; remove?: true } & Partial<Evidence>;
/** What the departures page (scripts/codegen/departures-page.ts) reads of each action, as verify knows it; a maintainer who
 * adds the action to the spec's overlay reviews them, and numbers it (`x-finding`) where a measurement describes it. */
type Evidence = { "x-meets": string; "x-client": string; "x-evidence": string[] };

/** What the client does once an action of verify's is in the spec's overlay: what the console sends is declared. */
const CLIENT_FOLLOWS =
  "The spec follows the console: the client's types and answer checks, the MCP tools' output schemas and the mock take what it sends.";
export type Overlay = { overlay: "1.1.0"; info: { title: string; version: string }; actions: OverlayAction[] };

/** A key of the spec, or a step of an answer's JSON path (`index`: an array item). */
type Step = { key: string; index?: true };
type Place = string[];

/** What one action says, by kind, and where in the spec. */
type Kind =
  | { kind: "property"; properties: Place; name: string; types: Set<string> }
  | { kind: "schema"; place: Place; types: Set<string>; values: Json[] }
  | { kind: "keyword"; place: Place; keyword: string }
  | { kind: "required"; schema: Place; name: string }
  | { kind: "status"; responses: Place; status: string; response: JsonObject };
/** Where a departure was seen: an operation, its answer's status and the first place in it. */
type Seen = { operationId: string; status: number | undefined; where: string };
/** One departure: its action's kind and place, what was seen, and where: per operation, its status and first path. */
type Departure = Kind & { title: string; what: Set<string>; seen: Map<string, Seen> };

/** AJV's messages for the keywords a console's answer can fail, as Prism passes them on. */
const KEYWORDS: [RegExp, string][] = [
  [/^must match format /, "format"],
  [/^must match pattern /, "pattern"],
  [/^must be >= /, "minimum"],
  [/^must be <= /, "maximum"],
  [/^must be > /, "exclusiveMinimum"],
  [/^must be < /, "exclusiveMaximum"],
  [/^must NOT have fewer than \d+ characters/, "minLength"],
  [/^must NOT have more than \d+ characters/, "maxLength"],
  [/^must NOT have fewer than \d+ items/, "minItems"],
  [/^must NOT have more than \d+ items/, "maxItems"],
];
const SENSITIVE = new Set<string>(sensitiveFields);

/** The steps of a JSON path as judge.ts writes it: `$.name`, `[0]` (an array item), `["other key"]`. */
function steps(path: string): Step[] | undefined {
  const out: Step[] = [];
  const token = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  token.lastIndex = 1;
  while (token.lastIndex < path.length) {
    const m = token.exec(path);
    if (!m) return undefined;
    out.push(m[2] !== undefined ? { key: m[2], index: true } : { key: m[1] ?? JSON.parse(m[3]!) });
  }
  return path.startsWith("$") ? out : undefined;
}

/** A place as an RFC 9535 JSONPath: `$.components.schemas.Port`, `$.paths['/openapi/v1/...'].get`. */
export const jsonPath = (place: Place) =>
  "$" + place.map((key) => (/^[A-Za-z_][\w]*$/.test(key) ? `.${key}` : `[${quote(key)}]`)).join("");

const typeOf = (value: unknown) =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : Number.isInteger(value)
        ? "integer"
        : typeof value === "object"
          ? "object"
          : typeof value;

/** The value at `place` of `doc`. */
const at = (doc: JsonObject, place: Place): Json | undefined =>
  place.reduce<Json | undefined>((node, key) => (isObject(node) ? node[key] : undefined), doc);
const unescapeKey = (key: string) => key.replace(/~1/g, "/").replace(/~0/g, "~");

/** The place a local `$ref` at `place` leads to, followed to the end (as deref follows it); else `place`. */
function follow(doc: JsonObject, place: Place): Place {
  const node = at(doc, place);
  if (!isObject(node) || typeof node.$ref !== "string" || !node.$ref.startsWith("#/")) return place;
  deref(doc, node); // throws on a reference that leads nowhere, or round in circles
  const ref = node.$ref.slice(2).split("/").map(unescapeKey);
  return follow(doc, ref);
}

/** Where the schema of an answer lives in `doc`: an operation's response (itself maybe a `$ref`), its JSON media. */
function answerSchema(doc: JsonObject, result: OperationResult): Place {
  const operation = ["paths", result.path, result.method.toLowerCase()];
  return [...follow(doc, [...operation, "responses", String(result.status)]), "content", "application/json", "schema"];
}

/**
 * The place in `doc` of the schema a deviation names and of its field: judge.ts names the schema the field belongs to
 * (a component, `console envelope`, `<operationId> answer`) and the field within it; the answer's JSON path gives the
 * steps, the last ones being the field's. A field inside the envelope's member is in the answer's own schema.
 */
function placeOf(doc: JsonObject, result: OperationResult, d: Deviation, path: Step[]): Place | undefined {
  const field = (tail: Step[]) => tail.map((s, i) => (s.index ? "[]" : i ? `.${s.key}` : s.key)).join("");
  const count = [...path.keys(), path.length].find((n) => field(path.slice(path.length - n)) === d.field);
  if (count === undefined) return undefined;
  let tail = path.slice(path.length - count);
  let base: Place;
  if (d.schema === "console envelope") {
    const media = at(doc, answerSchema(doc, result).slice(0, -1));
    const member =
      isObject(media) && typeof media["x-console-envelope"] === "string" ? media["x-console-envelope"] : "";
    const keys = member.split(".");
    const inMember = keys.every((key, i) => tail[i]?.key === key && !tail[i]?.index);
    [base, tail] = inMember
      ? [answerSchema(doc, result), tail.slice(keys.length)]
      : [["components", "x-console-envelope"], tail];
  } else if (d.schema === `${result.operationId} answer`) base = answerSchema(doc, result);
  else if (isObject(at(doc, ["components", "schemas", d.schema]))) base = ["components", "schemas", d.schema];
  else return undefined;
  let place = base;
  for (const step of tail) {
    if (at(doc, place) === undefined) return undefined;
    place = [...follow(doc, place), ...(step.index ? ["items"] : ["properties", step.key])];
  }
  return place; // the field itself may be missing from the spec: an extra one
}

/** The departures the run's deviations show; `left`: what no action can say (a body that is not JSON); `refused`: the
 * fields whose names no tool can carry, and why. */
function departuresOf(doc: JsonObject, results: readonly OperationResult[]) {
  const departures = new Map<string, Departure>();
  const left: string[] = [];
  const refused = new Set<string>();
  for (const result of results) {
    const { operationId, status, method } = result;
    /** The departure of `kind` (one per place and name), with what was seen and where. */
    const depart = <K extends Kind>(kind: K, title: string, what: string, where: string) => {
      const { types: _, values: __, response: ___, ...identity } = kind as Kind & Record<string, unknown>;
      const key = JSON.stringify(identity);
      const departure = (departures.get(key) ?? { ...kind, title, what: new Set(), seen: new Map() }) as K & Departure;
      departures.set(key, departure);
      departure.what.add(what);
      if (!departure.seen.has(operationId)) departure.seen.set(operationId, { operationId, status, where });
      return departure;
    };
    for (const d of result.deviations) {
      const title =
        d.schema === "(HTTP answer)" ? `${operationId} ${d.field}` : [d.schema, d.field].filter(Boolean).join(".");
      if (d.schema === "(HTTP answer)" && d.field === "status") {
        const responses = ["paths", result.path, method.toLowerCase(), "responses"];
        const kind = { kind: "status" as const, responses, status: String(status), response: undeclared(doc, result) };
        depart(kind, title, "a status the spec does not declare for the operation", "status");
        continue;
      }
      const path = steps(d.path);
      const place = path && placeOf(doc, result, d, path);
      const value = d.came.kind === "value" ? d.came.value : undefined;
      const came = article(typeOf(value));
      const keyword = KEYWORDS.find(([message]) => message.test(d.expected))?.[1];
      // a field the spec lacks, or lacks in `required`: the place of the object it belongs to, and its name
      const object = place?.at(-2) === "properties" ? follow(doc, place.slice(0, -2)) : undefined;
      const name = place?.at(-1) ?? "";
      const odd = object && whyOdd(name);
      if (odd) refused.add(`the field ${showName(cut(name))} of ${d.schema}: ${odd}`);
      else if (object && d.expected === "no such field") {
        const kind = {
          kind: "property" as const,
          properties: [...object, "properties"],
          name,
          types: new Set<string>(),
        };
        depart(kind, title, "a field the spec does not declare", d.path).types.add(typeOf(value));
      } else if (object && d.expected === "required") {
        depart({ kind: "required", schema: object, name }, title, "missing, though the spec requires it", d.path);
      } else if (place === undefined || at(doc, place) === undefined) left.push(`${title} (${d.expected})`);
      else if (/^must be [a-z]+(,[a-z]+)*$/.test(d.expected)) {
        const kind = { kind: "schema" as const, place, types: new Set<string>(), values: [] as Json[] };
        const departure = depart(kind, title, `came ${came} where the spec says ${d.expected}`, d.path);
        departure.types.add(typeOf(value));
        if (value === null && Array.isArray((at(doc, place) as JsonObject).enum)) departure.values.push(null);
      } else if (d.expected.startsWith("must be equal to one of the allowed values")) {
        const kind = { kind: "schema" as const, place, types: new Set<string>(), values: [] as Json[] };
        depart(kind, title, "came a value its enum lacks", d.path).values.push(value as Json);
      } else if (keyword)
        depart(
          { kind: "keyword", place, keyword },
          title,
          `came ${came} that fails \`${keyword}\` (${d.expected})`,
          d.path,
        );
      else left.push(`${title} (${d.expected})`);
    }
  }
  return { departures: [...departures.values()], left, refused: [...refused] };
}

const cut = (name: string) => (name.length > 80 ? `${name.slice(0, 80)}…` : name);
const article = (type: string) => (type === "null" ? "null" : `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`);
const quote = (name: string) => `'${name.replace(/[\\']/g, (c) => `\\${c}`)}'`;

/** The response to declare for a status the console answered: the declared 2xx's for a 2xx, else the errors' body. */
function undeclared(doc: JsonObject, result: OperationResult): JsonObject {
  const responses = at(doc, ["paths", result.path, result.method.toLowerCase(), "responses"]) as JsonObject;
  const success = (result.status ?? 0) >= 200 && (result.status ?? 0) < 300;
  const like = Object.keys(responses).find((s) => (success ? /^2/.test(s) : /^[45]/.test(s)));
  const declared = like === undefined ? undefined : deref<Json>(doc, responses[like]!);
  const description = "Answered by the console; not in the interface's document.";
  if (!isObject(declared) || !isObject(declared.content)) return { description };
  const media = declared.content["application/json"];
  return success
    ? { ...structuredClone(declared), description }
    : { description, content: { "application/json": { schema: isObject(media) ? media.schema! : {} } } };
}

/** The types to declare for `seen`, given those `declared`: null only beside another type, integer within number. */
function typesFor(seen: Set<string>, declared: string[] = []) {
  const known = (t: string) => declared.includes(t) || (t === "integer" && declared.includes("number"));
  return [...seen].filter((t) => !known(t));
}

/** The action of one departure: an `update` (a field, a type, an enum value, a status) or a `remove`. */
function actionOf(doc: JsonObject, d: Departure): OverlayAction | undefined {
  const seen = [...d.seen.values()].map((s) => `${codeSpan(s.operationId)} (${s.status}) at ${codeSpan(s.where)}`);
  const description = `${codeSpan(d.title)}: ${[...d.what].join("; ")}. Seen in ${seen.join(", ")}.`;
  switch (d.kind) {
    case "property": {
      const schema: JsonObject = { description: "Sent by the console; not in the interface's document." };
      const types = [...d.types].filter((t) => t !== "null");
      if (types.length) schema.type = d.types.has("null") ? [...types, "null"] : types.length > 1 ? types : types[0]!;
      if (SENSITIVE.has(d.name)) schema["x-sensitive"] = true;
      return { target: jsonPath(d.properties), description, update: { [d.name]: schema } };
    }
    case "schema": {
      const node = at(doc, d.place) as JsonObject;
      const declared = [node.type ?? []].flat() as string[];
      const update: JsonObject = {};
      const added = typesFor(d.types, declared);
      // the update merges: an array grows by what it brings, a string is replaced (openapi-format, Overlay 1.0 and 1.1)
      if (added.length) update.type = Array.isArray(node.type) ? added : [...declared, ...added];
      if (d.values.length) update.enum = d.values.filter((v, i) => d.values.indexOf(v) === i);
      return Object.keys(update).length ? { target: jsonPath(d.place), description, update } : undefined;
    }
    case "keyword":
      return { target: jsonPath([...d.place, d.keyword]), description, remove: true };
    case "required":
      return { target: `${jsonPath([...d.schema, "required"])}[?@ == ${quote(d.name)}]`, description, remove: true };
    case "status":
      return { target: jsonPath(d.responses), description, update: { [d.status]: d.response } };
  }
}

/**
 * The overlay of a run: `doc` the spec the run checked against (generated/openapi.json), `results` its operations with
 * their deviations (unmasked), `secrets` the secrets it saw. `withheld`: actions left out as they would show a secret;
 * `left`: deviations no action can describe (a body that is not JSON, a media type), to fix by hand; `refused`: the
 * fields whose names no tool can carry, and why (one whose name holds a secret, unnamed).
 */
export function overlayOf(
  doc: JsonObject,
  results: readonly OperationResult[],
  secrets: readonly string[],
  origin: string,
) {
  const { departures, left, refused } = departuresOf(doc, results);
  const all = departures.flatMap((d) => {
    const action = actionOf(doc, d);
    if (!action) return [];
    const { target, description, ...change } = action;
    const meets = `The console's answer departs from the spec: ${[...d.what].join("; ")}.`;
    const evidence = [...d.seen.values()].map(
      (s) => `npm run verify against ${origin}: ${s.operationId} (${s.status}) at ${s.where}`,
    );
    return [{ target, description, "x-meets": meets, "x-client": CLIENT_FOLLOWS, "x-evidence": evidence, ...change }];
  });
  const actions = all.filter((a) => !holdsSecret(JSON.stringify(a), secrets));
  const version = String((doc.info as JsonObject | undefined)?.version ?? "?");
  const title = `What npm run verify found at ${origin} that the spec ${version} does not say`;
  const overlay: Overlay = { overlay: "1.1.0", info: { title, version }, actions };
  return {
    overlay,
    withheld: all.length - actions.length,
    left: left.filter((l) => !holdsSecret(l, secrets)),
    refused: refused.map((why) => (holdsSecret(why, secrets) ? "a field whose name holds a secret" : why)),
  };
}

/** What verify hands main with --overlay. */
export type Found = { overlay?: ReturnType<typeof overlayOf> };

/** Writes the overlay to `file` (YAML, or JSON for `.json`) when it has actions; the line that says what was done. */
export async function writeOverlay(file: string, { overlay, withheld, left, refused }: NonNullable<Found["overlay"]>) {
  const notes = [
    withheld ? `${withheld} withheld, as they would show a secret` : "",
    ...refused.map((why) => `none for ${why}`),
    left.length ? `${left.length} deviation(s) no action describes, to fix by hand (see the report)` : "",
  ].filter(Boolean);
  const also = notes.length ? `; ${notes.join("; ")}` : "";
  if (!overlay.actions.length) return `no overlay action to write, ${file} not written${also}`;
  await writeFile(file, await stringify(overlay, { format: /\.json$/i.test(file) ? "json" : "yaml" }));
  return `wrote ${overlay.actions.length} overlay action(s) to ${file}, to review and add to spec/${OVERLAY_FILE}${also}`;
}
