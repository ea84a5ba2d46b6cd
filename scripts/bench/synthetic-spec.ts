// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// A synthetic spec `factor` times the size of the real one, to show how generation and type-checking cost grow.
//
// Copy 0 is generated/openapi.json itself (already bundled: one JSON document); copy k (1..factor-1) clones every path
// item under /openapi/v1/s<k>/..., every operationId as <id>_s<k>, every client group as <group>S<k>, and every
// component (schemas, parameters, responses, ...; not the security schemes) as <Name>_s<k>, with the copy's $refs
// pointing at the copy's components.
// The result lints clean with the project's redocly.yaml like the original, so the same pipeline runs on it:
//   node scripts/generate.ts --spec <dir>/openapi.json --out <dir>/generated
// Next to it go the type-check programs of that scale: schema-only.ts (the generated types, imported) and
// consumer-openapi-fetch.ts (createClient<paths>() calling every operation of the last copy, with the spec's
// examples as arguments), each with its tsconfig.json.
//
//   node scripts/bench/synthetic-spec.ts --factor 10 [--out .bench/synthetic-10]   write it and run the pipeline
import { scriptArgs } from "../lib/script.ts";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { deref } from "../client-table.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const METHODS = ["get", "put", "post", "delete", "patch"];
const COMPONENT_KINDS = ["schemas", "parameters", "responses", "requestBodies", "headers", "examples", "pathItems"];

/** Deep copy of `node` with every `$ref` to a component renamed by `rename`. */
function copyRenamingRefs(node, rename) {
  if (Array.isArray(node)) return node.map((v) => copyRenamingRefs(v, rename));
  if (node === null || typeof node !== "object") return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === "$ref" && typeof value === "string" ? rename(value) : copyRenamingRefs(value, rename);
  }
  return out;
}

/** The synthetic document (a plain object) made of `factor` copies of `spec`. */
export function syntheticSpec(spec, factor) {
  if (!Number.isInteger(factor) || factor < 1) throw new Error(`factor must be a positive integer (got ${factor})`);
  const out = { ...spec, paths: {}, components: { ...spec.components } };
  for (const kind of COMPONENT_KINDS) if (spec.components?.[kind]) out.components[kind] = {};
  for (let k = 0; k < factor; k++) {
    const suffix = k === 0 ? "" : `_s${k}`;
    const rename = (ref) => {
      const m = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref);
      return m && COMPONENT_KINDS.includes(m[1]) ? `#/components/${m[1]}/${m[2]}${suffix}` : ref;
    };
    for (const [path, item] of Object.entries(spec.paths)) {
      const newPath = k === 0 ? path : path.replace(/^\/openapi\/v1/, `/openapi/v1/s${k}`);
      const copy = copyRenamingRefs(item, rename);
      for (const method of METHODS.filter((m) => copy[m]?.operationId)) {
        copy[method].operationId += suffix;
        if (k > 0) copy[method]["x-rainbond-group"] += `S${k}`; // the copy's methods in a group of their own
      }
      out.paths[newPath] = copy;
    }
    for (const kind of COMPONENT_KINDS) {
      for (const [name, value] of Object.entries(spec.components?.[kind] ?? {})) {
        out.components[kind][`${name}${suffix}`] = copyRenamingRefs(value, rename);
      }
    }
  }
  return out;
}

// ---- the type-check programs of one scale ----

/** A value of a parameter's schema: its example, else one of its type. */
function sampleOf(spec, param) {
  const schema = deref(spec, param.schema) ?? {};
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  return type === "integer" || type === "number" ? 1 : type === "boolean" ? true : "1";
}

/** consumer-openapi-fetch.ts of a spec: every operation of copy `k`, through createClient<paths>(). */
export function openapiFetchConsumer(spec, k) {
  const prefix = k === 0 ? null : `/openapi/v1/s${k}/`;
  const calls = [];
  for (const [path, rawItem] of Object.entries(spec.paths)) {
    if (prefix ? !path.startsWith(prefix) : /^\/openapi\/v1\/s\d+\//.test(path)) continue;
    const item = deref(spec, rawItem);
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = { path: {}, query: {} };
      for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
        const p = deref(spec, raw);
        if (p.in === "path" || (p.in === "query" && p.required)) params[p.in][p.name] = sampleOf(spec, p);
      }
      const init = {};
      if (Object.keys(params.path).length || Object.keys(params.query).length) {
        init.params = Object.fromEntries(Object.entries(params).filter(([, v]) => Object.keys(v).length));
      }
      const body = deref(spec, op.requestBody)?.content?.["application/json"];
      if (body) init.body = body.example ?? Object.values(body.examples ?? {})[0]?.value ?? {};
      calls.push(
        `  results.push((await client.${method.toUpperCase()}(${JSON.stringify(path)}, ${JSON.stringify(init)})).data);`,
      );
    }
  }
  return `// Generated by scripts/bench/synthetic-spec.ts: every operation of one copy, through openapi-fetch.
import createClient from "openapi-fetch";
import type { paths } from "./generated/schema.js";

const client = createClient<paths>({ baseUrl: "http://127.0.0.1:7070", headers: { Authorization: "t" } });

export async function callEveryOperation(): Promise<unknown[]> {
  const results: unknown[] = [];
${calls.join("\n")}
  return results;
}
`;
}

/** A tsconfig.json in `dir` checking only `files` (paths relative to dir), with the project's compiler options. */
export function writeTsconfig(dir, name, files) {
  const config = {
    extends: relative(dir, join(root, "tsconfig.json")),
    compilerOptions: { noEmit: true, declaration: false, declarationMap: false, sourceMap: false, incremental: false },
    files,
    include: [],
  };
  const path = join(dir, name);
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return path;
}

/**
 * Writes the synthetic spec of `factor` into `dir` (openapi.json, schema-only.ts, consumer-openapi-fetch.ts and
 * their tsconfigs). Returns what the benchmarks need; the pipeline is run separately (runPipeline).
 */
export function writeSyntheticSpec({ factor, dir, source = join(root, "generated/openapi.json") }) {
  const spec = syntheticSpec(JSON.parse(readFileSync(source, "utf8")), factor);
  mkdirSync(join(dir, "generated"), { recursive: true });
  const specPath = join(dir, "openapi.json");
  const text = JSON.stringify(spec, null, 2);
  writeFileSync(specPath, text);
  writeFileSync(
    join(dir, "schema-only.ts"),
    `// Generated by scripts/bench/synthetic-spec.ts: only the generated types, imported and named.
import type { components, operations, paths } from "./generated/schema.js";

export type GeneratedTypes = [paths, components, operations];
`,
  );
  writeFileSync(join(dir, "consumer-openapi-fetch.ts"), openapiFetchConsumer(spec, factor - 1));
  let operations = 0;
  for (const item of Object.values(spec.paths)) for (const m of METHODS) if (item[m]) operations++;
  return {
    factor,
    dir,
    specPath,
    outDir: join(dir, "generated"),
    operations,
    schemas: Object.keys(spec.components?.schemas ?? {}).length,
    specBytes: Buffer.byteLength(text),
    tsconfigs: {
      schemaOnly: writeTsconfig(dir, "tsconfig.schema-only.json", ["schema-only.ts"]),
      openapiFetch: writeTsconfig(dir, "tsconfig.consumer-openapi-fetch.json", ["consumer-openapi-fetch.ts"]),
    },
  };
}

/** The pipeline on a synthetic spec: `node scripts/generate.ts --spec <spec> --out <dir> [...extra]`, synchronously. */
export function runPipeline(synthetic, extra = []) {
  const args = [
    ...scriptArgs("scripts/generate.ts"),
    "--spec",
    synthetic.specPath,
    "--out",
    synthetic.outDir,
    ...extra,
  ];
  return spawnSync(process.execPath, args, { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const value = (flag, fallback) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : fallback);
  const factor = Number(value("--factor", "10"));
  const dir = resolve(value("--out", join(root, ".bench", `synthetic-${factor}`)));
  const synthetic = writeSyntheticSpec({ factor, dir });
  console.log(
    `synthetic spec x${factor}: ${synthetic.operations} operations, ${synthetic.schemas} schemas, ` +
      `${(synthetic.specBytes / 1024).toFixed(0)} KB -> ${relative(process.cwd(), synthetic.specPath)}`,
  );
  const run = runPipeline(synthetic);
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  process.exitCode = run.status ?? 1;
}
