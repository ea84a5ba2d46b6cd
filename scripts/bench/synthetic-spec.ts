// Synthetic specs `factor` times the real one, to show how generation and type-checking cost grow; and the type-check
// programs of a spec's types (written, not kept: the same programs serve the real spec and the synthetic ones).
// Copy 0 is generated/openapi.json itself; copy k clones every path under /openapi/v1/s<k>/..., every operationId as
// <id>_s<k>, every client group as <group>S<k> and every component (not the security schemes) as <Name>_s<k>, its
// $refs pointing at the copy's components. It lints clean like the original, so the same pipeline runs on it.
//
//   node --import tsx scripts/bench/synthetic-spec.ts --factor 10 [--out .bench/synthetic-10]   write it, run the pipeline
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { exampleArgs, readMethods } from "../lib/methods.ts";
import { commandLine, isMain, root, scriptArgs } from "../lib/script.ts";
import { deref, isObject, readSpec, type Json, type JsonObject } from "../lib/spec.ts";
import { tscFigures, type Command } from "./run.ts";

const METHODS = ["get", "put", "post", "delete", "patch"];
const KINDS = ["schemas", "parameters", "responses", "requestBodies", "headers", "examples", "pathItems"];
const objectAt = (node: Json | undefined, key: string): JsonObject => {
  const value = isObject(node) ? node[key] : undefined;
  return isObject(value) ? value : {};
};

/** Deep copy of `node` with every `$ref` renamed by `rename`. */
const copy = (node: Json, rename: (ref: string) => string): Json =>
  Array.isArray(node)
    ? node.map((v) => copy(v, rename))
    : isObject(node)
      ? Object.fromEntries(
          Object.entries(node).map(([k, v]) => [
            k,
            k === "$ref" && typeof v === "string" ? rename(v) : copy(v, rename),
          ]),
        )
      : node;

/** The document made of `factor` copies of `spec`. */
export function syntheticSpec(spec: JsonObject, factor: number): JsonObject {
  if (!Number.isInteger(factor) || factor < 1) throw new Error(`factor must be a positive integer (got ${factor})`);
  const paths: JsonObject = {};
  const components: JsonObject = { ...objectAt(spec, "components") };
  for (const kind of KINDS) if (kind in components) components[kind] = {};
  for (let k = 0; k < factor; k++) {
    const suffix = k === 0 ? "" : `_s${k}`;
    const rename = (ref: string) => {
      const m = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref);
      return m && KINDS.includes(m[1]!) ? `${ref}${suffix}` : ref;
    };
    for (const [path, item] of Object.entries(objectAt(spec, "paths"))) {
      const clone = copy(item, rename) as JsonObject;
      for (const op of METHODS.map((m) => clone[m]).filter(isObject)) {
        op.operationId = `${op.operationId}${suffix}`;
        if (k > 0) op["x-rainbond-group"] = `${op["x-rainbond-group"]}S${k}`; // the copy's methods in a group of their own
      }
      paths[k === 0 ? path : path.replace(/^\/openapi\/v1/, `/openapi/v1/s${k}`)] = clone;
    }
    for (const kind of KINDS) {
      for (const [name, value] of Object.entries(objectAt(objectAt(spec, "components"), kind))) {
        objectAt(components, kind)[`${name}${suffix}`] = copy(value, rename);
      }
    }
  }
  return { ...spec, paths, components };
}

/** A value of a parameter's schema: its example, else one of its type. */
function sampleOf(spec: JsonObject, param: JsonObject): Json {
  const schema = deref(spec, objectAt(param, "schema"));
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0] ?? null;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  return type === "integer" || type === "number" ? 1 : type === "boolean" ? true : "1";
}

const copyOf = (path: string) => Number(/^\/openapi\/v1\/s(\d+)\//.exec(path)?.[1] ?? 0);

/** The calls of every operation of the last copy of `spec` through openapi-fetch, with the spec's examples. */
function openapiFetchCalls(spec: JsonObject): string[] {
  const last = Math.max(...Object.keys(objectAt(spec, "paths")).map(copyOf));
  return Object.entries(objectAt(spec, "paths")).flatMap(([path, raw]) => {
    const item = deref(spec, raw) as JsonObject;
    return METHODS.filter((m) => isObject(item[m]) && copyOf(path) === last).map((method) => {
      const op = objectAt(item, method);
      const params: Record<string, JsonObject> = {};
      for (const p of [item.parameters, op.parameters].flat().filter(isObject)) {
        const { in: where, name, required } = deref(spec, p);
        if (where === "path" || (where === "query" && required)) {
          (params[where] ??= {})[String(name)] = sampleOf(spec, deref(spec, p));
        }
      }
      const init: JsonObject = Object.keys(params).length ? { params } : {};
      const body = objectAt(objectAt(deref(spec, op.requestBody ?? null), "content"), "application/json");
      if (Object.keys(body).length)
        init.body = body.example ?? objectAt(Object.values(objectAt(body, "examples"))[0], "value");
      return `client.${method.toUpperCase()}(${JSON.stringify(path)}, ${JSON.stringify(init)})`;
    });
  });
}

/** `to` as an import from a file in `dir`. */
const importPath = (dir: string, to: string) => relative(dir, to).replace(/^(?!\.)/, "./");

/**
 * Writes the type-check programs of `spec`'s types (`generated`/schema.ts) into `dir`, each with a tsconfig.json
 * extending the project's: the types alone; openapi-fetch calling every operation (of the last copy); and, with
 * `client`, the client (src/index.ts) calling every operation's method with the spec's examples. Their tsc commands.
 */
export function typecheckPrograms(dir: string, spec: JsonObject, generated: string, client = false): Command[] {
  const types = `import type { components, operations, paths } from "${importPath(dir, join(generated, "schema.js"))}";`;
  const program = (id: string, label: string, head: string, calls?: string[]): Command => {
    const list = calls
      ? `export const calls = async (): Promise<unknown[]> => [\n${calls.map((c) => `  await ${c},\n`).join("")}];\n`
      : "";
    writeFileSync(join(dir, `${id}.ts`), `${head}\n${list}`);
    const compilerOptions = { noEmit: true, declaration: false, declarationMap: false, sourceMap: false };
    const tsconfig = join(dir, `tsconfig.${id}.json`);
    const config = { extends: join(root, "tsconfig.json"), compilerOptions, files: [`${id}.ts`], include: [] };
    writeFileSync(tsconfig, JSON.stringify(config));
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    return { id, label, args: [tsc, "-p", tsconfig, "--extendedDiagnostics"], figures: tscFigures };
  };
  const viaFetch = openapiFetchCalls(spec);
  const programs = [
    program(
      "schemaOnly",
      "generated types only",
      `${types}\nexport type GeneratedTypes = [paths, components, operations];`,
    ),
    program(
      "openapiFetch",
      `openapi-fetch consumer, ${viaFetch.length} calls`,
      `import createClient from "openapi-fetch";
${types}
const client = createClient<paths>({ baseUrl: "http://127.0.0.1:7070" });`,
      viaFetch,
    ),
  ];
  if (!client) return programs;
  const methods = readMethods().filter((m) => m.kind === "operation");
  const head = `import { createRainbondClient } from "${importPath(dir, join(root, "src/index.js"))}";
const client = createRainbondClient({ baseUrl: "http://127.0.0.1:7070", token: "t" });`;
  const calls = methods.map(
    (m) => `client.${m.group}.${m.method}(${exampleArgs(m).map((a) => JSON.stringify(a) ?? "undefined")})`,
  );
  return [...programs, program("client", `client consumer, ${methods.length} calls`, head, calls)];
}

/** Writes the spec `factor` times the real one and its type-check programs into `dir`. */
export function writeSyntheticSpec(factor: number, dir: string) {
  const spec = syntheticSpec(readSpec(), factor);
  const outDir = join(dir, "generated");
  mkdirSync(outDir, { recursive: true });
  const specPath = join(dir, "openapi.json");
  writeFileSync(specPath, JSON.stringify(spec, null, 2));
  const items = Object.values(objectAt(spec, "paths")).filter(isObject);
  const operations = items.reduce((n, item) => n + METHODS.filter((m) => isObject(item[m])).length, 0);
  return { specPath, outDir, operations, programs: typecheckPrograms(dir, spec, outDir) };
}

if (isMain(import.meta)) {
  const usage = "usage: node --import tsx scripts/bench/synthetic-spec.ts [--factor <n>] [--out <dir>]";
  const { values } = commandLine(usage, { factor: { type: "string", default: "10" }, out: { type: "string" } });
  const factor = Number(values.factor);
  const synthetic = writeSyntheticSpec(factor, resolve(values.out ?? join(root, ".bench", `synthetic-${factor}`)));
  console.log(
    `synthetic spec x${factor}: ${synthetic.operations} operations -> ${relative(process.cwd(), synthetic.specPath)}`,
  );
  const args = scriptArgs("scripts/generate.ts", "--spec", synthetic.specPath, "--out", synthetic.outDir);
  process.exitCode = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" }).status ?? 1;
}
