// The console's recorded exchanges (fixtures/recorded.json: every request sent to goodrain/rainbond-console at ae3f161
// when it was measured, and its answer), and what the tests need of each: the operation it went to, the request as the
// spec names its parts, and the data a caller gets (a port answer unwrapped from the console's envelope).
import { readFileSync } from "node:fs";
import { operations, type OperationId } from "../../generated/operations.ts";
import type { OperationSpec } from "../../src/core/table.ts";
import { operationOfRequest } from "../helpers/spec.js";

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
