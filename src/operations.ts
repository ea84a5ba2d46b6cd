// `rainbond-openapi/operations`: one function per operation of the spec (generated/functions.ts), each taking a core
// (`rainbond-openapi/core`) first; a bundle keeps only those it imports. And `requestOperation`, which sends any of
// them by operationId with the spec's names (for tools that work from the spec, such as the MCP server).
// An entry: one of the three modules of src/ that read generated/.
import { operations, type OperationId } from "../generated/operations.js";
import { RainbondInputError, type InputRule } from "./core/errors.js";
import { isRecord } from "./core/is-record.js";
import type { CallOptions } from "./core/options.js";
import type { RainbondCore, RainbondPromise } from "./core/promise.js";
import type { OperationInput, OperationSpec } from "./core/table.js";
import { secretNames } from "./core/redact.js";
import { call, rejected } from "./internal/call.js";
import { prepare, prepareBody, prepareQuery } from "./internal/prepare.js";
import { timeRange } from "./internal/time-range.js";

export * from "../generated/functions.js";
export type { OperationId };

/**
 * Sends operation `id` with its path and query parameters and body by the spec's names, checked like every call: a
 * RainbondInputError names the parameter as the spec does (`service_id`, `page_size`, `body.port`).
 */
export function requestOperation(
  core: RainbondCore,
  id: OperationId,
  input: OperationInput = {},
  options?: CallOptions,
): RainbondPromise<unknown> {
  const refuse = (argument: string, rule: string, keyword: InputRule) =>
    rejected(new RainbondInputError("requestOperation", argument, rule, keyword));
  if (typeof id !== "string" || !Object.hasOwn(operations, id))
    return refuse("id", "is not an operationId of the spec", "enum");
  const members = ["path", "query"] as const;
  if (!isRecord(input) || members.some((member) => input[member] !== undefined && !isRecord(input[member]))) {
    return refuse("input", "must be an object { path?, query?, body? } of objects", "type");
  }
  const spec = operations[id];
  const parts = { query: prepareQuery, body: prepareBody, rules: "timeRange" in spec ? [timeRange] : [] };
  secretNames((spec as OperationSpec).secrets ?? []); // as an operation's function does when it is made
  return call(core, spec.name, () => prepare(spec, input, { path: {}, query: {}, body: "body" }, parts), options);
}
