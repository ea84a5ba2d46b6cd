// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The MCP server's tools, made from the bundled spec: generated/mcp-tools.json (read by mcp/src).
//
// One tool per operation, named by its operationId. Its `inputSchema` is an object of the operation's path and query
// parameters by their spec names, plus the request body under `body`; its `outputSchema` is the 200/201 answer (an
// array wrapped as `{ items: [...] }`: MCP wants an object). Schemas are dereferenced with Redocly's bundler and
// cleaned: `x-` keys and examples dropped, `readOnly` members left out of inputs and `writeOnly` ones out of outputs,
// `format` left out of outputs (a console's date that is not RFC 3339 would make an MCP client refuse the answer).
// Fields marked `x-sensitive` keep no example, default or enum, and in outputs take any string as well (the server
// masks them as "[redacted]"). What a tool changes comes from the operation's `x-rainbond-effect` (default: GET reads,
// anything else writes); nothing here is about one operation in particular.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleFromString, createConfig } from "@redocly/openapi-core";
import { commandLine } from "./lib/script.ts";

const METHODS = ["get", "put", "post", "delete", "patch"];
const IDEMPOTENT = new Set(["GET", "PUT", "DELETE"]);
const EFFECTS = {
  read: "Reads only: changes nothing.",
  write: "Changes the console (needs --allow-write).",
  destructive: "Destructive: can remove something or cut off access to it (needs --allow-write).",
};
/** Keywords that describe a value rather than constrain it, dropped from every schema. */
const DROPPED = new Set(["example", "examples"]);

/**
 * Cleans a dereferenced schema for one direction: "input" (what a caller sends) or "output" (what the console answers).
 * `sensitive` collects the names of the fields marked `x-sensitive`.
 */
function clean(schema, direction, sensitive) {
  if (Array.isArray(schema)) return schema.map((item) => clean(item, direction, sensitive));
  if (typeof schema !== "object" || schema === null) return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith("x-") || DROPPED.has(key) || (key === "format" && direction === "output")) continue;
    out[key] = key === "properties" ? cleanProperties(value, direction, sensitive) : clean(value, direction, sensitive);
  }
  if (out.required && out.properties) {
    out.required = out.required.filter((name) => name in out.properties);
    if (!out.required.length) delete out.required;
  }
  return out;
}

function cleanProperties(properties, direction, sensitive) {
  const out = {};
  const hidden = direction === "input" ? "readOnly" : "writeOnly";
  for (const [name, schema] of Object.entries(properties)) {
    if (schema[hidden]) continue;
    let member = clean(schema, direction, sensitive);
    if (schema["x-sensitive"]) {
      sensitive.add(name);
      const { default: _d, enum: _e, const: _c, ...rest } = member;
      member = rest;
      if (direction === "output") member.type = [...new Set([rest.type ?? [], "string"].flat())];
    }
    out[name] = member;
  }
  return out;
}

const effectOf = (method, op) => op["x-rainbond-effect"] ?? (method === "GET" ? "read" : "write");

function sentence(text) {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** One operation as a tool entry: the MCP tool itself, and how the server calls it. */
function toolOf(path, method, op, inherited, sensitive) {
  // An operation's parameter overrides the path's of the same name and place. A query parameter named like a path
  // parameter (the source declares some ids in both) is not an argument of its own: the path's value is the one used.
  const byPlace = new Map([...inherited, ...(op.parameters ?? [])].map((p) => [`${p.in} ${p.name}`, p]));
  const pathParams = [...byPlace.values()].filter((p) => p.in === "path");
  const queryParams = [...byPlace.values()].filter((p) => p.in === "query" && !byPlace.has(`path ${p.name}`));
  const properties = {};
  const required = [];
  for (const p of [...pathParams, ...queryParams]) {
    properties[p.name] = clean({ description: p.description, ...p.schema }, "input", sensitive);
    if (p.required) required.push(p.name);
  }
  const body = op.requestBody?.content?.["application/json"];
  if (body) {
    properties.body = clean({ description: op.requestBody.description, ...body.schema }, "input", sensitive);
    if (op.requestBody.required) required.push("body");
  }
  const ok = op.responses["200"] ?? op.responses["201"];
  const answer = clean(ok?.content?.["application/json"]?.schema ?? { type: "object" }, "output", sensitive);
  const wrapped = answer.type === "array";
  const effect = effectOf(method, op);
  const paging = op["x-rainbond-paging"];
  return {
    tool: {
      name: op.operationId,
      title: op.summary,
      description: [sentence(op.summary), op.description, EFFECTS[effect]].filter(Boolean).join("\n\n"),
      inputSchema: { type: "object", properties, ...(required.length && { required }), additionalProperties: false },
      outputSchema: wrapped
        ? { type: "object", properties: { items: answer }, required: ["items"] }
        : { ...answer, type: "object" },
      annotations: {
        title: op.summary,
        readOnlyHint: effect === "read",
        destructiveHint: effect === "destructive",
        idempotentHint: IDEMPOTENT.has(method),
        openWorldHint: true,
      },
    },
    operation: {
      group: op["x-rainbond-group"],
      method: op["x-rainbond-method"],
      effect,
      httpMethod: method,
      path,
      pathParams: pathParams.map((p) => p.name),
      queryParams: queryParams.map((p) => ({
        name: p.name,
        ...(p["x-rainbond-name"] && { option: p["x-rainbond-name"] }),
      })),
      body: Boolean(body),
      wrapped,
      ...(paging && { paging: { page: paging.page, pageSize: paging["page-size"] } }),
    },
  };
}

/** The tools of a bundled spec, as `{ sensitive, tools }`, sorted by name. */
export async function mcpTools(spec: object): Promise<McpToolsFile> {
  const config = await createConfig({});
  const { bundle, problems } = await bundleFromString({
    source: JSON.stringify(spec),
    absoluteRef: "/openapi.json",
    config,
    dereference: true,
  });
  if (problems.some((p) => p.severity === "error")) throw new Error("mcp-tools: unresolved references in the spec");
  const sensitive = new Set();
  const tools = [];
  for (const [path, item] of Object.entries(bundle.parsed.paths ?? {})) {
    for (const method of METHODS) {
      if (item[method]) tools.push(toolOf(path, method.toUpperCase(), item[method], item.parameters ?? [], sensitive));
    }
  }
  tools.sort((a, b) => a.tool.name.localeCompare(b.tool.name));
  return { sensitive: [...sensitive].sort(), tools };
}

/** generated/mcp-tools.json's content, formatted with the project's prettier settings. */
export async function mcpToolsJson(spec, prettierConfigFile) {
  const prettier = await import("prettier");
  const config = (await prettier.resolveConfig(prettierConfigFile)) ?? {};
  const data = { $comment: "Generated by scripts/mcp-tools.ts from spec/: do not edit.", ...(await mcpTools(spec)) };
  return prettier.format(JSON.stringify(data), { ...config, parser: "json" });
}

// ---- docs/mcp.md's list of tools ----------------------------------------------------------------------------------

const DOCS_START = "<!-- tools: generated by scripts/mcp-tools.ts from generated/mcp-tools.json; do not edit -->";
const DOCS_END = "<!-- /tools -->";

/** The tools as a Markdown table: name, what it changes, the operation, its arguments (`?`: optional). */
export function toolsTable({ tools }) {
  const rows = tools.map(({ tool, operation }) => {
    const { properties, required = [] } = tool.inputSchema;
    const args = Object.keys(properties).map((name) => `\`${name}${required.includes(name) ? "" : "?"}\``);
    const path = operation.path.replace(/^\/openapi\/v1/, "");
    return `| \`${tool.name}\` | ${operation.effect} | \`${operation.httpMethod} ${path}\` | ${args.join(", ") || "none"} |`;
  });
  return [
    "<!-- prettier-ignore -->",
    "| Tool | Effect | Operation | Arguments |",
    "| --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

/** `markdown` with the text between the tools markers replaced by the current table. */
export function withToolsTable(markdown, data) {
  const start = markdown.indexOf(DOCS_START);
  const end = markdown.indexOf(DOCS_END);
  if (start === -1 || end < start) throw new Error(`docs/mcp.md has no ${DOCS_START} ... ${DOCS_END} section`);
  return `${markdown.slice(0, start + DOCS_START.length)}\n\n${toolsTable(data)}\n\n${markdown.slice(end)}`;
}

// `node scripts/mcp-tools.ts --docs` rewrites that table from generated/mcp-tools.json (test/mcp/docs.test.ts fails
// while it is stale).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = commandLine(
    "usage: node scripts/mcp-tools.ts --docs\n\n  --docs   rewrite the list of tools in docs/mcp.md from generated/mcp-tools.json",
    { docs: { type: "boolean" } },
  );
  if (values.docs) {
    const root = fileURLToPath(new URL("..", import.meta.url));
    const docs = join(root, "docs/mcp.md");
    const data = JSON.parse(readFileSync(join(root, "generated/mcp-tools.json"), "utf8"));
    writeFileSync(docs, withToolsTable(readFileSync(docs, "utf8"), data));
    console.log(`wrote the list of ${data.tools.length} tools into docs/mcp.md`);
  }
}

export interface McpToolsFile {
  sensitive: string[];
  tools: {
    tool: {
      name: string;
      title: string;
      description: string;
      inputSchema: { type: "object"; properties: Record<string, object>; required?: string[] };
      outputSchema: { type: "object" };
      annotations: Record<string, string | boolean>;
    };
    operation: { group: string; method: string; effect: string; httpMethod: string; path: string; wrapped: boolean };
  }[];
}
