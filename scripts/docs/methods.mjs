// The client's methods as the documentation shows them: one row per method of the client, with the operation of the
// spec it calls, its arguments and what it returns. Nothing here is written by hand per method:
//
//   which methods there are, their arguments and return types   src/api.ts (the area interfaces), read with the
//                                                               TypeScript parser; src/client.ts names the areas
//   which operation a method calls                              src/endpoints.ts (the endpoint table)
//   what a method outside the table calls                       asked of the client itself: such a method (ports.openOuter,
//                                                               regions.iterateForTeam, ...) delegates to a table method
//                                                               of its area, so the table methods are replaced by
//                                                               recorders and the method is called once
//   method, path, summary, tag and answer of an operation       generated/openapi.json
//
// Used by scripts/readme-table.mjs (the README's table of methods) and scripts/docs.mjs (code samples in the
// reference, links from the guide to the reference).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { importBundled } from "../import-bundled.mjs";

export const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** The published site (GitHub Pages of the repository in package.json): the reference is its front page. */
export function siteUrl() {
  const { repository } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const [, owner, name] = /github\.com\/([^/]+)\/([^/.]+)/.exec(repository.url ?? repository) ?? [];
  return `https://${owner}.github.io/${name}/`;
}

/** The reference's address of an operation, relative to the site (Redoc routes `#/<tag>/<operationid>`). */
export const referenceAnchor = (operation) =>
  `#/${operation.tag.toLowerCase().replace(/\s+/g, "-")}/${operation.operationId.toLowerCase()}`;

let loaded;
/** src/endpoints.ts and createRainbondClient, bundled by esbuild and loaded in this process (once). */
export function loadClient() {
  loaded ??= bundleClient();
  return loaded;
}

function bundleClient() {
  return importBundled({
    stdin: {
      contents: `export { endpoints, paramNames } from "./src/endpoints.ts";
                 export { createRainbondClient } from "./src/client.ts";`,
      resolveDir: root,
      loader: "ts",
    },
  });
}

/** The area interfaces of src/api.ts, by the client's area names (src/client.ts's RainbondClient). */
function readApi() {
  const parse = (file) =>
    ts.createSourceFile(file, readFileSync(join(root, file), "utf8"), ts.ScriptTarget.Latest, true);
  const interfaces = (source) =>
    new Map(source.statements.filter(ts.isInterfaceDeclaration).map((node) => [node.name.text, node]));
  const api = interfaces(parse("src/api.ts"));
  const client = interfaces(parse("src/client.ts")).get("RainbondClient");
  const areas = new Map();
  for (const member of client.members) {
    const type = member.type?.getText();
    if (!ts.isPropertySignature(member) || !api.has(type)) continue;
    const methods = api
      .get(type)
      .members.filter(ts.isMethodSignature)
      .map((node) => ({
        name: node.name.getText(),
        params: node.parameters.map((p) => ({
          name: p.name.getText(),
          optional: Boolean(p.questionToken),
          type: p.type.getText(),
        })),
        returns: node.type.getText(),
      }));
    areas.set(member.name.getText(), { api: type, methods });
  }
  return areas;
}

const SCOPES = { RegionScope: "region", AppScope: "app", ComponentScope: "component" };

/**
 * What a method outside the endpoint table calls: its area's table methods are replaced by recorders on a client of
 * nowhere (nothing is sent), and the method is called with placeholders. Returns the table method it called and the
 * members of the body it fixed (e.g. `{ action: "open_outer" }`).
 */
async function delegation(createRainbondClient, tableMethods, area, method) {
  const client = createRainbondClient({ baseUrl: "http://127.0.0.1:9", token: "probe", logLevel: "off" });
  const calls = [];
  const originals = {};
  for (const name of tableMethods) {
    originals[name] = client[area][name];
    client[area][name] = (...args) => {
      calls.push({ name, args });
      return Promise.resolve({ total: 0, regions: [] });
    };
  }
  const placeholder = new Proxy({}, { get: (_, key) => (key === Symbol.toPrimitive ? () => "" : placeholder) });
  try {
    const result = client[area][method.name](...method.params.map(() => placeholder));
    if (typeof result?.next === "function") await result.next();
    else await result;
  } finally {
    Object.assign(client[area], originals);
  }
  if (calls.length !== 1) throw new Error(`${area}.${method.name}: calls no method of the endpoint table`);
  const [{ name, args }] = calls;
  const fixed = {};
  for (const arg of args) {
    if (arg === placeholder || typeof arg !== "object" || arg === null) continue;
    for (const [key, value] of Object.entries(arg)) if (typeof value === "string") fixed[key] = value;
  }
  return { name, fixed };
}

/** Every operation of the spec by operationId: method, path, summary, tag and the schema of its success answer. */
export function operationsOf(spec) {
  const byId = {};
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op?.operationId) continue;
      const status = Object.keys(op.responses).find((code) => code.startsWith("2"));
      let response = op.responses[status];
      if (response?.$ref) response = spec.components.responses[response.$ref.split("/").pop()];
      byId[op.operationId] = {
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        summary: op.summary,
        tag: op.tags[0],
        answer: response?.content?.["application/json"]?.schema,
        operation: op,
        pathItem: item,
      };
    }
  }
  return byId;
}

/** A schema's name as the reference shows it: `Port`, `Port[]`. */
function schemaName(schema) {
  if (!schema) return "nothing";
  if (schema.$ref) return schema.$ref.split("/").pop();
  if (schema.type === "array") return `${schemaName(schema.items)}[]`;
  return schema.type ?? "object";
}

/** A return type of src/api.ts in the spec's words: `RainbondPromise<Data<"getRegion">>` is `RegionInfoR`. */
function returnsOf(text, operations) {
  return text
    .replace(/Data<"(\w+)">/g, (_, id) => schemaName(operations[id].answer))
    .replace(/Schemas\["(\w+)"\]/g, "$1")
    .replace(/^RainbondPromise<(.*)>$/s, "$1")
    .replace(/^AsyncGenerator<([^,]+),.*>$/s, "AsyncGenerator<$1>");
}

/**
 * One row per method of the client, in the order of src/api.ts:
 * { area, api (its interface in src/api.ts), name, operation (see operationsOf), via?: { name, fixed },
 *   params: [{ name, optional, type, scope? }], returns, endpoint?: the entry of src/endpoints.ts }.
 */
export async function clientMethods(spec = JSON.parse(readFileSync(join(root, "generated/openapi.json"), "utf8"))) {
  const { endpoints, paramNames, createRainbondClient } = await loadClient();
  const operations = operationsOf(spec);
  const rows = [];
  for (const [area, { api, methods }] of readApi()) {
    const table = endpoints[area] ?? {};
    for (const method of methods) {
      let endpoint = table[method.name];
      let via;
      if (!endpoint) {
        via = await delegation(createRainbondClient, Object.keys(table), area, method);
        endpoint = table[via.name];
      }
      const params = method.params
        .filter((p) => p.name !== "call")
        .map((p) => (SCOPES[p.type] ? { ...p, scope: SCOPES[p.type] } : p));
      rows.push({
        area,
        api,
        name: method.name,
        operation: operations[endpoint.op],
        endpoint: table[method.name],
        via,
        params,
        returns: returnsOf(method.returns, operations),
      });
    }
  }
  return { rows, paramNames, operations };
}

/**
 * The path as the table shows it: without `/openapi/v1`, and where a scope argument fills its leading parameters, what
 * follows them (`…/ports/{port}`; `…/services/{service_id}` when nothing does).
 */
export function shortPath({ operation, params }) {
  const path = operation.path.replace(/^\/openapi\/v1/, "");
  const scope = params.find((p) => p.scope)?.scope;
  if (!scope) return path;
  const last = { region: "{region_name}", app: "{app_id}", component: "{service_id}" }[scope];
  const after = path.indexOf(last) + last.length;
  // nothing after the scope: from the "/" before the literal segment that precedes its last parameter
  return `…${after < path.length ? path.slice(after) : path.slice(path.lastIndexOf("/", path.indexOf(last) - 2))}`;
}
