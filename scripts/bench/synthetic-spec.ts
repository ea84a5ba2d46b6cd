// Synthetic specs `factor` times the real one, to show how generation and type-checking cost grow, and the type-check
// programs of a spec. Copy 0 is generated/openapi.json itself; copy k clones every path under /openapi/v1/s<k>/...,
// every operationId (and the undo it names) as <id>_s<k>, every client group as <group>S<k> and every component (not
// the security schemes) as <Name>_s<k>, its $refs pointing at the copy's components. It lints clean like the original:
// the same pipeline runs.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { exampleArgs, readMethods, type ClientMethod } from "../lib/methods.ts";
import { root } from "../lib/script.ts";
import { deref, isObject, readSpec, type Json, type JsonObject } from "../lib/spec.ts";
import type { Command } from "./run.ts";

const METHODS = ["get", "put", "post", "delete", "patch"];
const KINDS = ["schemas", "parameters", "responses", "requestBodies", "headers", "examples", "pathItems"];
const objectAt = (node: Json | undefined, key: string) => (isObject(node) && isObject(node[key]) ? node[key] : {});
/** A value of its type for a parameter whose schema has no example (else "1"). */
const SAMPLES: JsonObject = { integer: 1, number: 1, boolean: true };
const copyPath = (path: string, k: number) => path.replace(/^\/openapi\/v1/, `/openapi/v1${k ? `/s${k}` : ""}`);

/** Every operation of copy `k`, called through openapi-fetch with the spec's examples. */
function openapiFetchCalls(k: number, spec = readSpec()): string[] {
  return Object.entries(objectAt(spec, "paths")).flatMap(([path, raw]) => {
    const item = deref(spec, raw) as JsonObject;
    return METHODS.filter((m) => isObject(item[m])).map((method) => {
      const op = objectAt(item, method);
      const params: Record<string, JsonObject> = {};
      for (const p of [item.parameters, op.parameters].flat().filter(isObject)) {
        const { in: where, name, required, schema = {} } = deref(spec, p);
        const { example, type } = deref(spec, schema) as JsonObject;
        const sample = example ?? SAMPLES[`${type}`] ?? "1";
        if (where === "path" || (where === "query" && required)) (params[where] ??= {})[`${name}`] = sample;
      }
      const init: JsonObject = Object.keys(params).length ? { params } : {};
      const body = objectAt(objectAt(deref(spec, op.requestBody ?? null), "content"), "application/json");
      if (Object.keys(body).length) init.body = body.example!;
      return `client.${method.toUpperCase()}(${JSON.stringify(copyPath(path, k))}, ${JSON.stringify(init)})`;
    });
  });
}

/**
 * Writes the type-check programs of `generated`/schema.ts into `dir`, each with a tsconfig.json extending the
 * project's: the types alone; openapi-fetch calling every operation of copy `copy`; and, with `client`, the client
 * (src/index.ts) calling every operation's method with the spec's examples. Their tsc commands.
 */
export function typecheckPrograms(dir: string, generated: string, copy = 0, client = false): Command[] {
  const from = (file: string) => JSON.stringify(relative(dir, file).replace(/^(?!\.)/, "./"));
  const types = `import type { components, operations, paths } from ${from(join(generated, "schema.js"))};\n`;
  const program = (id: string, name: string, head: string, calls?: string[]): Command => {
    const label = calls ? `${name}, ${calls.length} calls` : name;
    const list = (calls ?? []).map((call) => `  await ${call},\n`).join("");
    const body = calls ? `export const calls = async (): Promise<unknown[]> => [\n${list}];\n` : "";
    writeFileSync(join(dir, `${id}.ts`), `${head}${body}`);
    const compilerOptions = { noEmit: true, declaration: false, declarationMap: false, sourceMap: false };
    const config = { extends: join(root, "tsconfig.json"), compilerOptions, files: [`${id}.ts`], include: [] };
    writeFileSync(join(dir, `tsconfig.${id}.json`), JSON.stringify(config));
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    return { id, label, args: [tsc, "-p", join(dir, `tsconfig.${id}.json`), "--extendedDiagnostics"] };
  };
  const fetchHead = `import createClient from "openapi-fetch";
${types}const client = createClient<paths>({ baseUrl: "http://x" });\n`;
  const programs = [
    program("schemaOnly", "generated types only", `${types}export type Types = [paths, components, operations];\n`),
    program("openapiFetch", "openapi-fetch consumer", fetchHead, openapiFetchCalls(copy)),
  ];
  if (!client) return programs;
  const methods = readMethods().filter((m) => m.kind === "operation");
  const args = (m: ClientMethod) => exampleArgs(m).map((arg) => JSON.stringify(arg) ?? "undefined");
  const calls = methods.map((m) => `client.${m.group}.${m.method}(${args(m)})`);
  const head = `import { createRainbondClient } from ${from(join(root, "src/index.js"))};
const client = createRainbondClient({ baseUrl: "http://x", token: "t" });\n`;
  return [...programs, program("client", "client consumer", head, calls)];
}

/** Writes the spec `factor` times the real one, and its type-check programs, into `dir`. */
export function writeSyntheticSpec(factor: number, dir: string) {
  const spec = readSpec();
  const [paths, components]: [JsonObject, JsonObject] = [{}, { ...objectAt(spec, "components") }];
  const text = JSON.stringify({ paths: spec.paths, components: spec.components });
  const refs = new RegExp(`"#/components/(?:${KINDS.join("|")})/[^"/]+(?=")`, "g");
  let operations = 0;
  for (let k = 0; k < factor; k++) {
    const suffix = k === 0 ? "" : `_s${k}`;
    const copy = JSON.parse(text.replace(refs, (ref) => `${ref}${suffix}`)) as Record<string, JsonObject>;
    for (const [path, item] of Object.entries(copy.paths!)) {
      for (const op of METHODS.map((m) => objectAt(item, m)).filter((op) => op.operationId)) {
        op.operationId = `${op.operationId}${suffix}`;
        if (op["x-rainbond-undo"]) op["x-rainbond-undo"] = `${op["x-rainbond-undo"]}${suffix}`; // the copy's own undo
        if (k > 0) op["x-rainbond-group"] = `${op["x-rainbond-group"]}S${k}`; // the copy's methods in a group of their own
        operations++;
      }
      paths[copyPath(path, k)] = item;
    }
    for (const kind of KINDS.filter((kind) => kind in components)) {
      const named = Object.entries(objectAt(copy.components, kind)).map(([name, v]) => [`${name}${suffix}`, v]);
      components[kind] = { ...objectAt(components, kind), ...Object.fromEntries(named) };
    }
  }
  const [outDir, specPath] = [join(dir, "generated"), join(dir, "openapi.json")];
  mkdirSync(outDir, { recursive: true });
  writeFileSync(specPath, JSON.stringify({ ...spec, paths, components }, null, 2));
  return { specPath, outDir, operations, programs: typecheckPrograms(dir, outDir, factor - 1) };
}
