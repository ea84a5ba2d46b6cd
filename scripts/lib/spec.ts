// The one spec walker of the scripts and tests: reading the bundled spec (generated/openapi.json), following a local
// `$ref` to what it points at, and naming the component schema a `$ref` names. The generator, the verify, the bench's
// synthetic specs and the tests' spec helpers all go through these.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./script.ts";

/** A node of a JSON document: what JSON.parse returns. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `<dir>/generated/openapi.json`, the spec as `npm run generate` bundles it (dir: the project). */
export function readSpec(dir = root): JsonObject {
  return JSON.parse(readFileSync(join(dir, "generated", "openapi.json"), "utf8"));
}

/** The node a local `$ref` (`#/components/...`) points at, followed to the end; any other node as it is. */
export function deref<T = Json>(doc: object, node: T): T {
  let at: unknown = node;
  for (let hops = 0; isObject(at) && typeof at.$ref === "string"; hops++) {
    const ref = at.$ref;
    if (hops > 32 || !ref.startsWith("#/")) throw new Error(`unresolvable $ref ${ref}`);
    at = ref
      .slice(2)
      .split("/")
      .reduce<unknown>((n, key) => (isObject(n) ? n[key.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined), doc);
    if (at === undefined) throw new Error(`unresolvable $ref ${ref}`);
  }
  return at as T;
}

/** `node` with every local `$ref` inside it replaced by what it points at (the spec has no cycles). */
export function inlined(doc: object, node: Json, depth = 0): Json {
  if (depth > 64) throw new Error("inlined: a $ref cycle");
  const at = deref(doc, node);
  if (Array.isArray(at)) return at.map((item) => inlined(doc, item, depth + 1));
  if (!isObject(at)) return at;
  return Object.fromEntries(Object.entries(at).map(([key, value]) => [key, inlined(doc, value, depth + 1)]));
}

/** The schema a `$ref` names (`#/components/schemas/Port` -> `Port`), if it names one. */
export function refName(node: unknown): string | undefined {
  const ref = isObject(node) ? node.$ref : undefined;
  return typeof ref === "string" ? /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1] : undefined;
}
