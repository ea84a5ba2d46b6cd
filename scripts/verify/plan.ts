// What the verify sends, read from the one table (generated/table.json) alone: every operation whose effect is `read`,
// each once the ids it needs are known (given, or found in an earlier answer), the most specific first; where each id
// is found (a field named as the id, or marked `x-rainbond-id`: the table's `answerIds`), and only within the ids
// that scope it; and, with --write, what a create makes, changes and removes again (`x-rainbond-undo`: the table's
// `creates`). No operation is named here: a read operation added to the spec is verified by `npm run generate` alone.
import { effectOf, strongest, type Effect } from "../../surface/effect.ts";
import type { BodyFill, ClientMethod, Fill, Table, TableOperation } from "../../surface/table.ts";
import { isObject } from "../lib/spec.ts";

/** The ids known in a run, by the spec's names (`team_id`, `service_id`): given, or found in answers. */
export type Ids = Record<string, string | number>;

/** The values of a request by the spec's names, as `requestOperation` takes them. */
export type Request = { path: Ids; query?: Record<string, unknown>; body?: unknown };

/** Every operation whose effect is `read` (whatever a body could say), in the table's order. */
export const readOperations = (table: Table) =>
  Object.values(table.operations).filter((o) => strongest(o.effect) === "read");

/** The ids a request made from the spec alone needs: its path parameters and the ids its query and body take. */
export function needs(operation: TableOperation): string[] {
  const found = new Set(operation.pathParams);
  const walk = (fill: BodyFill) => {
    if ("id" in fill) found.add(fill.id);
    else if ("items" in fill) walk(fill.items);
    else if ("members" in fill) Object.values(fill.members).forEach(walk);
  };
  Object.values(operation.sample.query ?? {}).forEach(walk);
  if (operation.sample.body) walk(operation.sample.body);
  return [...found];
}

/** Why `operation` cannot be sent with `ids` (the ids it lacks, or values the spec does not give), if it cannot. */
export function lacking(operation: TableOperation, ids: Ids): string | undefined {
  if (operation.sample.lacks) return `the spec gives no value for ${operation.sample.lacks.join(", ")}`;
  const missing = needs(operation).filter((id) => ids[id] === undefined);
  return missing.length ? `no ${missing.join(", ")} given or found` : undefined;
}

/** The next read to send: of those that can be sent, the one that needs the most ids (its answer belongs to the ids
 * known so far, so the ids it gives do too), then the table's order. */
export function nextRead(pending: readonly TableOperation[], ids: Ids): TableOperation | undefined {
  const ready = pending.filter((o) => lacking(o, ids) === undefined);
  return ready.sort((a, b) => needs(b).length - needs(a).length)[0];
}

/** How far back a time range reaches: the last ten minutes. */
const RANGE_MS = 600_000;

/** The request `operation` makes from the spec alone with `ids` (every one it needs known), at `now`. */
export function requestOf(operation: TableOperation, ids: Ids, now: Date): Request {
  const value = (fill: Fill): unknown =>
    "id" in fill
      ? ids[fill.id]
      : "time" in fill
        ? fill.time === "end"
          ? now
          : new Date(+now - RANGE_MS)
        : fill.example;
  const body = (fill: BodyFill): unknown =>
    "items" in fill
      ? [body(fill.items)]
      : "members" in fill
        ? Object.fromEntries(Object.entries(fill.members).map(([key, member]) => [key, body(member)]))
        : value(fill);
  const { query, body: sent } = operation.sample;
  return {
    path: Object.fromEntries(operation.pathParams.map((param) => [param, ids[param]!])),
    ...(query && { query: Object.fromEntries(Object.entries(query).map(([name, fill]) => [name, value(fill)])) }),
    ...(sent && { body: body(sent) }),
  };
}

/** The ids a request was sent with: its path's, and those its query and body took. */
export function idsOf(operation: TableOperation, ids: Ids): Ids {
  return Object.fromEntries(needs(operation).map((id) => [id, ids[id]!]));
}

type Row = Record<string, unknown>;

/** The records of `data` at `at` (member names, `[]` for an array's items). */
function recordsAt(data: unknown, at: readonly string[]): Row[] {
  let values = [data];
  for (const step of at)
    values = values.flatMap((v) => (step === "[]" ? (Array.isArray(v) ? v : []) : isObject(v) ? [v[step]] : []));
  return values.filter(isObject);
}

/** A value an id can take: a non-empty string, or a non-negative integer. */
const usable = (value: unknown): value is string | number =>
  (typeof value === "string" && value !== "") || (Number.isSafeInteger(value) && (value as number) >= 0);

/**
 * The ids an answer of `operation` gives that `ids` lacks: from each record where the table says ids are, the first
 * value of each, if the ids that scope it (`table.ids`) are the ones known, as the request or the record has them. An
 * id that scopes another is taken first, so one record can give a team, its region and its app. `refuse` keeps out
 * what must never go into a URL (a secret the run has seen).
 */
export function idsFound(
  table: Table,
  operation: TableOperation,
  sent: Ids,
  data: unknown,
  known: Ids,
  refuse: (value: string | number) => boolean = () => false,
) {
  const found: Ids = {};
  const depth = (id: string) => table.ids[id]?.length ?? 0;
  for (const { at, fields } of operation.answerIds ?? []) {
    for (const record of recordsAt(data, at)) {
      const own: Ids = {};
      for (const [field, holds] of Object.entries(fields)) {
        const value = record[field];
        if (usable(value) && !refuse(value)) for (const id of holds) own[id] ??= value;
      }
      const scope = { ...own, ...sent };
      for (const id of Object.keys(own).sort((a, b) => depth(a) - depth(b))) {
        const ids = { ...known, ...found };
        const within = (table.ids[id] ?? []).every((p) => ids[p] !== undefined && String(scope[p]) === String(ids[p]));
        if (ids[id] === undefined && within) found[id] = own[id]!;
      }
    }
  }
  return found;
}

// ---- --write ---------------------------------------------------------------------------------------------------------

/** The first new number tried for what a create makes (a port): above those a component usually takes. */
export const FIRST_NEW = 20000;

/** The first value from `from` up that none of `used` is (compared as text: a port listed as 8080 or "8080"). */
export function unused(used: readonly unknown[], from = FIRST_NEW): number {
  const taken = new Set(used.map(String));
  let value = from;
  while (taken.has(String(value))) value++;
  return value;
}

/** The records of an answer of `operation` that hold id `id`, each with its value (the ports a component has). */
export function recordsWith(operation: TableOperation, data: unknown, id: string): [unknown, Row][] {
  return (operation.answerIds ?? []).flatMap(({ at, fields }) => {
    const holding = Object.keys(fields).filter((field) => fields[field]!.includes(id));
    return recordsAt(data, at).flatMap((record) =>
      holding.flatMap((field) => (usable(record[field]) ? [[record[field], record] as [unknown, Row]] : [])),
    );
  });
}

/** The creates --write may send: those the table says how to remove, whose path holds every id `within` names. */
export const creates = (table: Table, within: readonly string[]) =>
  Object.values(table.operations).filter((o) => o.creates && within.every((id) => o.pathParams.includes(id)));

/** A call that changes what a create made: the method (a shortcut, or the operation's own), its body, its effect. */
export interface Change {
  method: ClientMethod;
  body: unknown;
  effect: Effect;
}

/**
 * The calls of `operation` that change what a create made, each with the body it sends: a shortcut's fixed members and
 * the members it takes, or the operation's own required members; each member the made thing's own value where its
 * record has one (its `k8s_service_name`, say: what it has stays as it is), else the spec's example.
 */
export function changesOf(table: Table, operation: TableOperation, record: Row, ids: Ids, now: Date): Change[] {
  return table.methods
    .filter((m) => m.operationId === operation.operationId && m.kind !== "paging")
    .flatMap((method) => {
      let body: unknown;
      if (method.kind === "shortcut") {
        const taken = method.args.find((a) => a.kind === "argument");
        const members = taken?.member ? { [taken.member]: taken.example } : ((taken?.example ?? {}) as Row);
        const own = Object.entries(members).map(([key, example]) => [key, record[key] ?? example]);
        body = { ...method.fixed, ...Object.fromEntries(own) };
      } else {
        if (lacking(operation, ids)) return [];
        const made = requestOf(operation, ids, now).body;
        body = isObject(made) ? Object.fromEntries(Object.entries(made).map(([k, v]) => [k, record[k] ?? v])) : made;
      }
      return [{ method, body, effect: effectOf(operation.effect, body) }];
    });
}
