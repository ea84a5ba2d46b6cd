// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The client's methods as the documentation shows them: generated/methods.json (scripts/methods.ts), one row per
// method of the client, each joined to the operation of the spec it calls (method, path and tag, which make its
// address in the reference). Used by scripts/readme-table.ts (the README's table of methods) and scripts/docs.ts
// (code samples in the reference, links from the guide to the reference).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readMethods } from "../lib/methods.ts";
import { root } from "../lib/script.ts";

export { root };

/** The published site (GitHub Pages of the repository in package.json): the reference is its front page. */
export function siteUrl() {
  const { repository } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const [, owner, name] = /github\.com\/([^/]+)\/([^/.]+)/.exec(repository.url ?? repository) ?? [];
  return `https://${owner}.github.io/${name}/`;
}

/** The reference's address of an operation, relative to the site (Redoc routes `#/<tag>/<operationid>`). */
export const referenceAnchor = (operation) =>
  `#/${operation.tag.toLowerCase().replace(/\s+/g, "-")}/${operation.operationId.toLowerCase()}`;

/** Every operation of the spec by operationId, in the spec's order: its method, path and tag. */
export function operationsOf(spec) {
  const byId = {};
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op?.operationId)
        byId[op.operationId] = { operationId: op.operationId, method: method.toUpperCase(), path, tag: op.tags[0] };
    }
  }
  return byId;
}

/**
 * One row per method of the client, in the client's order: its entry of generated/methods.json (see
 * scripts/methods.d.mts) with `operation` (see operationsOf). By default from generated/.
 */
export function clientMethods({
  spec = JSON.parse(readFileSync(join(root, "generated/openapi.json"), "utf8")),
  methods = readMethods(),
} = {}) {
  const operations = operationsOf(spec);
  const rows = methods.map((method) => {
    const operation = operations[method.operationId];
    if (!operation) throw new Error(`${method.name}: the spec has no operation ${method.operationId}`);
    return { ...method, operation };
  });
  return { rows, operations };
}

/**
 * The path as the table shows it: without `/openapi/v1`, and where a scope argument fills its leading parameters, what
 * follows them (`…/ports/{port}`; `…/services/{service_id}` when nothing does).
 */
export function shortPath({ operation, args }) {
  const path = operation.path.replace(/^\/openapi\/v1/, "");
  if (!args.some((arg) => arg.kind === "scope")) return path;
  // the scope fills every path parameter that no argument of its own takes
  const own = new Set(args.filter((arg) => arg.kind === "path").map((arg) => `{${arg.param}}`));
  const last = path.match(/\{\w+\}/g).findLast((param) => !own.has(param));
  const after = path.indexOf(last) + last.length;
  // nothing after the scope: from the "/" before the literal segment that precedes its last parameter
  return `…${after < path.length ? path.slice(after) : path.slice(path.lastIndexOf("/", path.indexOf(last) - 2))}`;
}
