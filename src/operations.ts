// `rainbond-openapi/operations`: one function per operation of the spec (generated/functions.ts), each taking a core
// (`rainbond-openapi/core`) first; a bundle keeps only those it imports. And `requestOperation`, which sends any of
// them by operationId with the spec's names (for tools that work from the spec, such as the MCP server).
import { operations, type OperationId } from "../generated/operations.js";
import { call, rejected } from "./call.js";
import type { CallOptions, OperationInput, RainbondCore, RainbondPromise } from "./call.js";
import { RainbondInputError, isRecord } from "./errors.js";
import { prepare, prepareBody, prepareQuery } from "./prepare.js";
import { timeRange } from "./time-range.js";

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
  const refuse = (argument: string, rule: string) =>
    rejected(new RainbondInputError("requestOperation", argument, rule));
  if (typeof id !== "string" || !Object.hasOwn(operations, id))
    return refuse("id", "is not an operationId of the spec");
  const members = ["path", "query"] as const;
  if (!isRecord(input) || members.some((member) => input[member] !== undefined && !isRecord(input[member]))) {
    return refuse("input", "must be an object { path?, query?, body? } of objects");
  }
  const spec = operations[id];
  const parts = { query: prepareQuery, body: prepareBody, rules: "timeRange" in spec ? [timeRange] : [] };
  return call(core, spec.name, () => prepare(spec, input, { path: {}, query: {}, body: "body" }, parts), options);
}
