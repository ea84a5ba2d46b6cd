// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Which client methods call each operation: read from generated/methods.json (scripts/methods.ts), the table of every
// method of the client that `npm run generate` writes, so the changelog names `ports.list` rather than a path, and a
// change to an operation names all its methods, shortcuts and iterators included.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readMethods } from "../lib/methods.ts";

/**
 * operationId -> the client's method names (`ports.openOuter`) that call it, from `<dir>/generated/methods.json`; an
 * empty map when `dir` has no such table (a ref from before the table existed).
 * @returns {Map<string, string[]>}
 */
export function clientMethods(dir) {
  const methods = new Map();
  if (!existsSync(join(dir, "generated", "methods.json"))) return methods;
  for (const { name, operationId } of readMethods(dir))
    methods.set(operationId, [...(methods.get(operationId) ?? []), name]);
  return methods;
}
