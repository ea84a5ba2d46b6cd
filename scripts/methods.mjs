// The client's methods as every tool reads them: generated/methods.json, which `npm run generate` writes from the spec
// (scripts/client-table.mjs): each method of the grouped client (operations, shortcuts, iterators) in the client's
// order, with its operation, arguments and the spec's examples. No tool parses src/ or probes the client for them.
// Also how to call a method with those examples: the start tour, the bench and the tests call through callMethod.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The entries of `<dir>/generated/methods.json`, in the client's order. */
export function readMethods(dir = root) {
  return JSON.parse(readFileSync(join(dir, "generated", "methods.json"), "utf8"));
}

/** The arguments of a call of `method` with the spec's examples; optional ones without an example are left out. */
export function exampleArgs(method) {
  const args = method.args.map((arg) => {
    if (arg.example === undefined && !arg.optional) throw new Error(`${method.name}: no example for ${arg.name}`);
    return arg.example;
  });
  while (args.length && args.at(-1) === undefined) args.pop();
  return args;
}

/**
 * Calls `method` on a client (`client.ports.openOuter(...args)`, by default with the spec's examples) and returns what
 * the method returns, untouched (the bench measures it); an iterator is consumed with for-await, into an array.
 */
export function callMethod(client, method, args = exampleArgs(method)) {
  const answer = client[method.group][method.method](...args);
  return method.kind === "paging" ? itemsOf(answer) : answer;
}

/** Every item of an async iterator (Array.fromAsync, which Node 20 lacks). */
async function itemsOf(iterator) {
  const items = [];
  for await (const item of iterator) items.push(item);
  return items;
}
