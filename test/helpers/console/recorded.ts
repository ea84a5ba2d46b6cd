// The console's recorded exchanges (fixtures/recorded.json: every request sent to goodrain/rainbond-console at ae3f161
// when it was measured, and its answer), and what the tests need of each: the operation it went to, the request as the
// spec names its parts, and the data a caller gets (a port answer unwrapped from the console's envelope). And the
// second measurement, of all 101 operations (fixtures/whole-v1), in the same terms.
import { readFileSync } from "node:fs";
import { operations, type OperationId } from "../../../generated/operations.ts";
import type { OperationSpec } from "../../../src/core/table.ts";
import { operationOfRequest } from "../spec.js";

export interface Exchange {
  method: string;
  /** The path as sent, `/openapi/v1/...`. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  status: number;
  answer: unknown;
  /** What of the record is the project's own (the tracebacks' text, the end of a record the recording cut). */
  note?: string;
}

export const exchanges: Exchange[] = JSON.parse(
  readFileSync(new URL("fixtures/recorded.json", import.meta.url), "utf8"),
).exchanges;

/** The operation of the spec the exchange went to. */
export function operationOf(exchange: Exchange): OperationId {
  const id = operationOfRequest(exchange.method, `http://console${exchange.path}`);
  if (!id) throw new Error(`no operation of the spec for ${exchange.method} ${exchange.path}`);
  return id as OperationId;
}

/** The exchange's request by the spec's names, numbers where the spec wants them (`app_id`, `start`). */
export function inputOf(exchange: Exchange) {
  const spec: OperationSpec = operations[operationOf(exchange)];
  const names = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const pattern = new RegExp(`^${spec.path.replace(/\{\w+\}/g, "([^/]+)")}$`);
  const values = pattern.exec(exchange.path)!.slice(1);
  const typed = (rule: { type?: unknown } | undefined, value: string) =>
    rule?.type === "integer" || rule?.type === "number" ? Number(value) : decodeURIComponent(value);
  const rules: Record<string, { type?: unknown }> = { ...spec.pathParams, ...spec.query };
  const path = Object.fromEntries(names.map((name, i) => [name, typed(rules[name], values[i]!)]));
  const query = Object.fromEntries(Object.entries(exchange.query ?? {}).map(([k, v]) => [k, typed(rules[k], v)]));
  return { path, query, ...(exchange.body !== undefined && { body: exchange.body }) };
}

/** What the client hands back for a successful exchange: a port answer's member of the envelope, else the answer. */
export function dataOf(exchange: Exchange): unknown {
  const envelope = (operations[operationOf(exchange)] as { envelope?: "list" | "bean" }).envelope;
  return envelope ? (exchange.answer as { data: Record<string, unknown> }).data[envelope] : exchange.answer;
}

export const successes = exchanges.filter((e) => e.status >= 200 && e.status < 300);

/** The ids of the second measurement (fixtures/whole-v1) that are the first one's team, regions and component. */
const SAME_IDS: Record<string, string> = {
  b7e4c2a19d3f4e5a8b6c7d8e9f0a1b2c: "t0000000000000000000000000000001",
  "5a1e0c9b8d7f4e3a2b1c0d9e8f7a6b5c": "r0000000000000000000000000000001",
  "6b2f1d0c9e8a4f5b3c2d1e0f9a8b7c6d": "r0000000000000000000000000000002",
  c5f0e1d2a3b4c5d6e7f8091a2b3c4d5e: "s0000000000000000000000000000001",
};

/**
 * The same console measured again, every one of its 101 operations called (fixtures/whole-v1/answers.jsonl), as
 * exchanges of the first measurement: its team, regions and component by the first one's ids, so that one stand-in
 * speaks of one team, app and component whichever measurement an answer comes from; `operationId` as recorded.
 */
export const measuredWhole: (Exchange & { operationId: string })[] = readFileSync(
  new URL("fixtures/whole-v1/answers.jsonl", import.meta.url),
  "utf8",
)
  .split("\n")
  .filter(Boolean)
  .map((line) => {
    const e = JSON.parse(line.replace(/[0-9a-f]{32}/g, (id) => SAME_IDS[id] ?? id));
    const url = new URL(`http://console/openapi/v1${e.path}`);
    const query = url.search ? { query: Object.fromEntries(url.searchParams) } : {};
    const { method, body, status, answer } = e;
    return { operationId: e.op, method, path: url.pathname, ...query, body, status, answer, note: e.note ?? undefined };
  });
