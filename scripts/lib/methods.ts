// The client's methods as the tools read them: the `methods` of generated/table.json, the one table `npm run generate`
// writes from the spec (scripts/codegen/table.ts), each in the client's order with its operation, arguments and the
// spec's examples. No tool parses src/ or probes the client for them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ClientMethod, Table } from "../../surface/table.ts";
import { root } from "./script.ts";

export type { ClientMethod, MethodArgument } from "../../surface/table.ts";

/** generated/table.json of the project in `dir`. */
export function readTable(dir = root): Table {
  return JSON.parse(readFileSync(join(dir, "generated", "table.json"), "utf8"));
}

export function readMethods(dir = root): ClientMethod[] {
  return readTable(dir).methods;
}

/** The arguments of a call of `method` with the spec's examples; optional ones without an example are left out. */
export function exampleArgs(method: ClientMethod): unknown[] {
  const args = method.args.map((arg) => {
    if (arg.example === undefined && !arg.optional) throw new Error(`${method.name}: no example for ${arg.name}`);
    return arg.example;
  });
  while (args.length && args.at(-1) === undefined) args.pop();
  return args;
}

/**
 * Calls `method` on a client (`client.ports.openOuter(...args)`, by default with the spec's examples) and returns what
 * it returns, untouched (the bench measures it); an iterator's items are collected into an array.
 */
export function callMethod(client: object, method: ClientMethod, args = exampleArgs(method)): PromiseLike<unknown> {
  const group = (client as Record<string, Record<string, (...args: unknown[]) => unknown>>)[method.group]!;
  const answer = group[method.method]!(...args);
  return method.kind === "paging" ? itemsOf(answer as AsyncIterable<unknown>) : (answer as PromiseLike<unknown>);
}

/** Array.fromAsync, which Node 20 lacks. */
async function itemsOf(iterator: AsyncIterable<unknown>): Promise<unknown[]> {
  const items = [];
  for await (const item of iterator) items.push(item);
  return items;
}
