// The client's methods (generated/table.json) joined to the spec's operations, and where each is in the reference:
// for the methods page (codegen/methods-page.ts) and the docs site.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readMethods, type ClientMethod } from "./methods.ts";
import { root } from "./script.ts";
import { readSpec } from "./spec.ts";

/** What the docs read of an OpenAPI document; the rest is carried along untouched. */
export interface Spec {
  info: { title: string; version: string };
  servers?: { description?: string; variables?: Record<string, { default?: string; description?: string }> }[];
  externalDocs?: { description?: string; url: string };
  paths: Record<string, Record<string, { operationId?: string; tags?: string[]; [key: string]: unknown }>>;
}
export type Operation = { operationId: string; method: string; path: string; tag: string };
export type MethodRow = ClientMethod & { operation: Operation };

const packageFile = readFileSync(join(root, "package.json"), "utf8");
export const packageJson: { version: string; repository: { url: string } } = JSON.parse(packageFile);
const [, owner, name] = /github\.com\/([^/]+)\/([^/.]+)/.exec(packageJson.repository.url) ?? [];
/** The published site (GitHub Pages of package.json's repository): the reference is its front page. */
export const siteUrl = `https://${owner}.github.io/${name}/`;

/** The reference's address of an operation, relative to the site (Redoc routes `#/<tag>/<operationid>`). */
export const referenceAnchor = ({ tag, operationId }: Operation) =>
  `#/${tag.toLowerCase().replace(/\s+/g, "-")}/${operationId.toLowerCase()}`;

/** Each method of the client with the operation it calls, and the spec's operations, in order; default generated/. */
export function clientMethods({ spec = readSpec() as object, methods = readMethods() } = {}) {
  const operations = Object.entries((spec as Spec).paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) =>
      op?.operationId ? [{ operationId: op.operationId, method: method.toUpperCase(), path, tag: op.tags![0]! }] : [],
    ),
  );
  const rows: MethodRow[] = methods.map((method) => {
    const operation = operations.find((op) => op.operationId === method.operationId);
    if (!operation) throw new Error(`${method.name}: the spec has no operation ${method.operationId}`);
    return { ...method, operation };
  });
  return { rows, operations };
}

/** The names of a method's arguments, an optional one marked `?`. */
export const argumentNames = ({ args }: ClientMethod) => args.map((arg) => arg.name + (arg.optional ? "?" : ""));

/** The path without `/openapi/v1`, and after the parameters a scope fills (`…/ports/{port}`; `…/services/{service_id}`). */
export function shortPath({ operation, args }: MethodRow): string {
  const path = operation.path.replace(/^\/openapi\/v1/, "");
  if (!args.some((arg) => arg.kind === "scope")) return path;
  // the scope fills every path parameter that no argument of its own takes
  const own = new Set(args.filter((arg) => arg.kind === "path").map((arg) => `{${arg.param}}`));
  const last = path
    .match(/\{\w+\}/g)!
    .filter((param) => !own.has(param))
    .at(-1)!;
  const after = path.indexOf(last) + last.length;
  // nothing after the scope: from the "/" before the literal segment that precedes its last parameter
  return `…${after < path.length ? path.slice(after) : path.slice(path.lastIndexOf("/", path.indexOf(last) - 2))}`;
}
