// The MCP server's tools, made from the bundled spec: generated/mcp-tools.json (read by mcp/src), and their list in
// docs/mcp.md.
//
// One tool per operation, named by its operationId. Its `inputSchema` is an object of the operation's path and query
// parameters by their spec names, plus the request body under `body`; its `outputSchema` is the 200/201 answer (an
// array wrapped as `{ items: [...] }`: MCP wants an object). Schemas are dereferenced with Redocly's bundler and
// cleaned: `x-` keys and examples dropped, `readOnly` members left out of inputs and `writeOnly` ones out of outputs,
// `format` left out of outputs (a console's date that is not RFC 3339 would make an MCP client refuse the answer).
// Fields marked `x-sensitive` keep no example, default or enum, and in outputs take any string as well (the server
// masks them as "[redacted]"). What a tool changes comes from the operation's `x-rainbond-effect` (default: GET reads,
// anything else writes); nothing here is about one operation in particular.
import { bundleFromString, createConfig } from "@redocly/openapi-core";
import { METHODS, type Operation, type Param, type Spec } from "./client-table.ts";
import { isObject, type Json, type JsonObject } from "./lib/spec.ts";

const IDEMPOTENT = new Set(["GET", "PUT", "DELETE"]);
const EFFECTS = {
  read: "Reads only: changes nothing.",
  write: "Changes the console (needs --allow-write).",
  destructive: "Destructive: can remove something or cut off access to it (needs --allow-write).",
};

/**
 * Cleans a dereferenced schema for one direction: "input" (what a caller sends) or "output" (what the console answers).
 * `sensitive` collects the names of the fields marked `x-sensitive`.
 */
function clean(schema: Json, direction: "input" | "output", sensitive: Set<string>): Json {
  if (Array.isArray(schema)) return schema.map((item) => clean(item, direction, sensitive));
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith("x-") || key === "example" || key === "examples") continue;
    if (key === "format" && direction === "output") continue;
    out[key] = key === "properties" ? cleanProperties(value, direction, sensitive) : clean(value, direction, sensitive);
  }
  if (Array.isArray(out.required) && isObject(out.properties)) {
    out.required = out.required.filter((name) => (name as string) in (out.properties as JsonObject));
    if (!out.required.length) delete out.required;
  }
  return out;
}

function cleanProperties(properties: Json, direction: "input" | "output", sensitive: Set<string>): JsonObject {
  const out: JsonObject = {};
  for (const [name, schema] of Object.entries(properties as Record<string, JsonObject>)) {
    if (schema[direction === "input" ? "readOnly" : "writeOnly"]) continue;
    const member = clean(schema, direction, sensitive) as JsonObject;
    if (schema["x-sensitive"]) {
      sensitive.add(name);
      for (const key of ["default", "enum", "const"]) delete member[key];
      if (direction === "output") member.type = [...new Set([member.type ?? [], "string"].flat())];
    }
    out[name] = member;
  }
  return out;
}

const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** One operation as a tool entry: the MCP tool itself, and how the server calls it. */
function toolOf(path: string, method: string, op: Operation, inherited: Param[], sensitive: Set<string>) {
  // An operation's parameter overrides the path's of the same name and place. A query parameter named like a path
  // parameter (the source declares some ids in both) is not an argument of its own: the path's value is the one used.
  const byPlace = new Map([...inherited, ...(op.parameters ?? [])].map((p) => [`${p.in} ${p.name}`, p]));
  const pathParams = [...byPlace.values()].filter((p) => p.in === "path");
  const queryParams = [...byPlace.values()].filter((p) => p.in === "query" && !byPlace.has(`path ${p.name}`));
  const input = (description: string | undefined, schema: object) =>
    clean({ description, ...schema } as JsonObject, "input", sensitive);
  const properties: JsonObject = {};
  const required = [];
  for (const p of [...pathParams, ...queryParams]) {
    properties[p.name] = input(p.description, p.schema);
    if (p.required) required.push(p.name);
  }
  const body = op.requestBody?.content?.["application/json"];
  if (body) {
    properties.body = input(op.requestBody!.description, body.schema);
    if (op.requestBody!.required) required.push("body");
  }
  const ok = op.responses["200"] ?? op.responses["201"];
  const schema = (ok?.content?.["application/json"]?.schema ?? { type: "object" }) as JsonObject;
  const answer = clean(schema, "output", sensitive) as JsonObject;
  const wrapped = answer.type === "array";
  const effect = op["x-rainbond-effect"] ?? (method === "GET" ? "read" : "write");
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

/** generated/mcp-tools.json: the tools of a bundled spec, sorted by name, and the names of its sensitive fields. */
export async function mcpTools(spec: Spec) {
  const { bundle, problems } = await bundleFromString({
    source: JSON.stringify(spec),
    absoluteRef: "/openapi.json",
    config: await createConfig({}),
    dereference: true,
  });
  if (problems.some((p) => p.severity === "error")) throw new Error("mcp-tools: unresolved references in the spec");
  const sensitive = new Set<string>();
  const tools = Object.entries((bundle.parsed as Spec).paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) =>
      toolOf(path, m.toUpperCase(), item[m]!, item.parameters ?? [], sensitive),
    ),
  );
  tools.sort((a, b) => a.tool.name.localeCompare(b.tool.name));
  return {
    $comment: "Generated by scripts/mcp-tools.ts from spec/: do not edit.",
    sensitive: [...sensitive].sort(),
    tools,
  };
}

export type McpToolsFile = Awaited<ReturnType<typeof mcpTools>>;

/** The start of docs/mcp.md's list of tools, which `npm run generate` rewrites up to TOOLS_END. */
export const TOOLS_START =
  "<!-- tools: generated by scripts/mcp-tools.ts from generated/mcp-tools.json; do not edit -->";
const TOOLS_END = "<!-- /tools -->";

/** The tools as a Markdown table: name, what it changes, the operation, its arguments (`?`: optional). */
export function toolsTable({ tools }: McpToolsFile) {
  const rows = tools.map(({ tool, operation }) => {
    const { properties, required = [] } = tool.inputSchema;
    const args = Object.keys(properties).map((name) => `\`${name}${required.includes(name) ? "" : "?"}\``);
    const path = operation.path.replace(/^\/openapi\/v1/, "");
    return `| \`${tool.name}\` | ${operation.effect} | \`${operation.httpMethod} ${path}\` | ${args.join(", ") || "none"} |`;
  });
  const head = ["<!-- prettier-ignore -->", "| Tool | Effect | Operation | Arguments |", "| --- | --- | --- | --- |"];
  return [...head, ...rows].join("\n");
}

/** `markdown` with the text between the tools markers replaced by the current table. */
export function withToolsTable(markdown: string, data: McpToolsFile) {
  const start = markdown.indexOf(TOOLS_START);
  const end = markdown.indexOf(TOOLS_END);
  if (start === -1 || end < start) throw new Error(`docs/mcp.md has no ${TOOLS_START} ... ${TOOLS_END} section`);
  return `${markdown.slice(0, start + TOOLS_START.length)}\n\n${toolsTable(data)}\n\n${markdown.slice(end)}`;
}
