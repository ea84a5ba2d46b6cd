// What a tool needs to call operations from the spec alone, with no person choosing the values (verify): which
// parameters are ids and the ids that scope each; where an answer gives ids (a field named as the id, or marked
// `x-rainbond-id`); the request each operation can be sent with (ids, a time range's ends, the spec's examples); and
// what a create makes and which operation removes it (`x-rainbond-undo`). docs/editing-the-spec.md has the marks.
import type { AnswerIds, BodyFill, Creates, Fill, SampleRequest } from "../../surface/table.ts";
import type { Entry, Spec } from "./client-table.ts";
import { isObject, type Json, type JsonObject } from "../lib/spec.ts";

/** What these read of an operation's description (codegen/table.ts makes it): its request, schemas inlined. */
type Described = {
  parameters: { name: string; in: string; required: boolean; schema: unknown; example?: unknown }[];
  body?: { required: boolean; schema: unknown; example?: unknown } | undefined;
};

const MARK = "x-rainbond-id";
const NAME = /^[a-z][a-z0-9_]*$/;

function fail(where: string, what: string): never {
  throw new Error(`${where}: ${what} (see docs/editing-the-spec.md)`);
}

/** The ids a schema's mark names (`team_id`, or a list; `[]`: a field named as an id that holds none), if marked. */
function marked(schema: unknown): string[] | undefined {
  const mark = isObject(schema) ? schema[MARK] : undefined;
  return mark === undefined ? undefined : [mark as string | string[]].flat();
}

/** Every mark of the spec, with where it is: each must name an id some operation's request takes. */
function marks(node: Json, where: string, out: [string, string[]][] = []): [string, string[]][] {
  if (Array.isArray(node)) node.forEach((item, i) => marks(item, `${where}/${i}`, out));
  if (!isObject(node)) return out;
  if (node[MARK] !== undefined) {
    const names = marked(node)!;
    if (!names.every((name) => typeof name === "string" && NAME.test(name)))
      fail(where, `${MARK} names ids (parameters, as \`team_id\`), one or a list`);
    out.push([where, names]);
  }
  for (const [key, value] of Object.entries(node))
    if (key !== "example" && key !== "examples") marks(value, `${where}/${key}`, out);
  return out;
}

/** The names a request takes: its parameters, and its body's members (an array body's, its items'). */
function requestNames({ parameters, body }: Described): string[] {
  const schema = body?.schema as JsonObject | undefined;
  const object = isObject(schema?.items) ? schema.items : schema;
  return [...parameters.map((p) => p.name), ...Object.keys(isObject(object?.properties) ? object.properties : {})];
}

/**
 * Every id, with the path parameters that scope it: each path parameter (those before it in every path that holds it)
 * and each id a mark names (none, where no path holds it). A mark must name something a request takes.
 */
export function idsOf(spec: Spec, operations: Entry[], descriptions: Map<Entry, Described>) {
  const scopes = new Map<string, string[]>();
  for (const { pathParams } of operations) {
    const names = pathParams.map((p) => p.name);
    names.forEach((name, i) => {
      const before = names.slice(0, i);
      scopes.set(name, scopes.get(name)?.filter((p) => before.includes(p)) ?? before);
    });
  }
  const taken = new Set([...descriptions.values()].flatMap(requestNames));
  for (const [where, names] of marks(spec as unknown as Json, "#")) {
    const stray = names.find((name) => !taken.has(name));
    if (stray) fail(where, `${MARK} names \`${stray}\`, which no operation's request takes`);
    for (const name of names) if (!scopes.has(name)) scopes.set(name, []);
  }
  return Object.fromEntries([...scopes].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Where an answer (its schema, inlined) gives ids: each record that has fields holding one, by its path. A field's
 * mark, in any branch of a union, says what it holds; else its name, where it is an id's. */
export function answerIdsOf(schema: Json | undefined, ids: Record<string, string[]>): AnswerIds[] | undefined {
  const records = new Map<string, { at: string[]; marks: Map<string, string[]>; named: Set<string> }>();
  const visit = (node: Json | undefined, at: string[], depth: number) => {
    if (!isObject(node) || depth > 32) return;
    for (const key of ["allOf", "anyOf", "oneOf"])
      if (Array.isArray(node[key])) node[key].forEach((n) => visit(n, at, depth + 1));
    if (isObject(node.items)) visit(node.items, [...at, "[]"], depth + 1);
    if (!isObject(node.properties)) return;
    const key = JSON.stringify(at);
    const record = records.get(key) ?? { at, marks: new Map(), named: new Set() };
    records.set(key, record);
    for (const [name, field] of Object.entries(node.properties)) {
      const mark = marked(field);
      if (mark) record.marks.set(name, [...new Set([...(record.marks.get(name) ?? []), ...mark])]);
      else if (Object.hasOwn(ids, name)) record.named.add(name);
      visit(field, [...at, name], depth + 1);
    }
  };
  visit(schema, [], 0);
  const found = [...records.values()].flatMap(({ at, marks, named }) => {
    const fields = Object.fromEntries([
      ...[...named].filter((name) => !marks.has(name)).map((name) => [name, [name]] as const),
      ...[...marks].filter(([, holds]) => holds.length),
    ]);
    return Object.keys(fields).length ? [{ at, fields }] : [];
  });
  return found.length ? found : undefined;
}

/** An operation's request from the spec alone: the ids its required query parameters and body members are, the ends
 * of its time range, and the spec's examples for the rest; `lacks` names what has none of these. */
export function sampleOf(o: Entry, { parameters, body }: Described, ids: Record<string, string[]>) {
  const lacks: string[] = [];
  const range = o.table.timeRange;
  const fill = (name: string, schema: unknown, example: unknown, where: string): Fill | undefined => {
    const id = marked(schema)?.[0] ?? (Object.hasOwn(ids, name) ? name : undefined);
    if (id !== undefined) return { id };
    if (range && (name === range.start || name === range.end)) return { time: name === range.start ? "start" : "end" };
    const s = (isObject(schema) ? schema : {}) as JsonObject;
    const value = example ?? s.example ?? s.default ?? (Array.isArray(s.enum) ? s.enum[0] : undefined);
    if (value !== undefined) return { example: value };
    lacks.push(where);
    return undefined;
  };
  const bodyFill = (name: string, schema: unknown, example: unknown, where: string): BodyFill | undefined => {
    const s = isObject(schema) ? schema : {};
    if (marked(s) === undefined && isObject(s.items))
      return { items: bodyFill(name, s.items, Array.isArray(example) ? example[0] : undefined, `${where}[]`)! };
    if (marked(s) === undefined && isObject(s.properties)) {
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      const members = required.flatMap((key) => {
        const at = isObject(example) ? (example as JsonObject)[key] : undefined;
        const member = bodyFill(key, (s.properties as JsonObject)[key], at, `${where}.${key}`);
        return member ? [[key, member] as const] : [];
      });
      return { members: Object.fromEntries(members) };
    }
    return fill(name, s, example, where);
  };
  const query = Object.fromEntries(
    parameters
      .filter((p) => p.in === "query" && p.required)
      .flatMap((p) => {
        const value = fill(p.name, p.schema, p.example, p.name);
        return value ? [[p.name, value] as const] : [];
      }),
  );
  const sample: SampleRequest = {
    ...(Object.keys(query).length && { query }),
    ...(body?.required && { body: bodyFill("body", body.schema, body.example, "body") }),
    ...(lacks.length && { lacks }),
  };
  return sample;
}

/** What each create that names its undo (`x-rainbond-undo`) makes: the undo checked against the create, the id it
 * adds (a body member of the create), the read of what exists, and the operations that change what it made. */
export function createsOf(operations: Entry[]): Map<Entry, Creates> {
  const creates = new Map<Entry, Creates>();
  for (const o of operations) {
    if (o.undo === undefined) continue;
    const where = `${o.table.method} ${o.table.path} (${o.table.id})`;
    const undo = operations.find((u) => u.table.id === o.undo);
    if (!undo) fail(where, `x-rainbond-undo names \`${o.undo}\`, which is no operation`);
    const own = o.pathParams.map((p) => p.name);
    const [id, ...more] = undo.pathParams.map((p) => p.name).filter((name) => !own.includes(name));
    if (!undo.table.path.startsWith(`${o.table.path}/`) || id === undefined || more.length)
      fail(where, `x-rainbond-undo: ${o.undo}'s path must be this one's and the new id (\`/{id}\`)`);
    const required = (o.table.body?.required as string[] | undefined) ?? [];
    if (!required.includes(id))
      fail(where, `x-rainbond-undo: \`${id}\`, which ${o.undo} takes, must be a required member of the body`);
    const list = operations.find(
      (l) => l.table.method === "GET" && l.table.path === o.table.path && l.effect === "read",
    );
    const changes = operations
      .filter((c) => c.table.path === undo.table.path && c !== undo && c.table.method !== "GET")
      .map((c) => c.table.id);
    creates.set(o, { undo: undo.table.id, id, ...(list && { list: list.table.id }), changes });
  }
  return creates;
}
