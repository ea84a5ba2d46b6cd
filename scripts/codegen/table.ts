// generated/table.json: the one table that the command line, the MCP server, verify and the docs read, made from the
// generator's one walk of the spec (client-table.ts): every method with its inputs as each surface names them (the
// spec's name, the client's, the flag), their rules, docs and examples, what the method does; and every operation with
// its request line, effect, idempotence, origin, the ids it takes and gives (ids.ts) and its MCP tool (schemas,
// annotations). Nothing here is about one operation in particular.
import { describeEffect, mayDestroy, strongest } from "../../surface/effect.ts";
import { COMMON_FLAGS, kebab } from "../../surface/flags.ts";
import type { ClientMethod, Creates, Input, Table, TableOperation, Tool } from "../../surface/table.ts";
import { exampleOf, type Entry, type Method, type Schema, type Spec } from "./client-table.ts";
import { deref, inlined, isObject, type Json, type JsonObject } from "../lib/spec.ts";
import { answerIdsOf, createsOf, idsOf, sampleOf } from "./ids.ts";

/** A schema of the spec with every `$ref` replaced by what it points at (its `x-` marks kept). */
export type InlineSchema = { [keyword: string]: unknown };

/** An operation's request and answer by the spec's names, with their schemas inlined: what its tool is made of. */
export interface OperationDescription {
  /** The spec's description of it, for callers. */
  description?: string;
  /** Path parameters, then query parameters, as the client takes them. */
  parameters: {
    name: string;
    in: "path" | "query";
    required: boolean;
    /** A query parameter's option name in the client (`pageSize`). */
    option?: string;
    description?: string;
    schema: InlineSchema;
    /** The spec's example, as the client takes it. */
    example?: unknown;
  }[];
  body?: { required: boolean; description?: string; schema: InlineSchema; example?: unknown };
  answer: {
    /** None where the operation answers without content. */
    schema?: InlineSchema;
    /** The query parameters of a paged answer's page and page size. */
    paging?: { page: string; pageSize: string };
  };
}

/** An operation's request and answer by the spec's names, schemas inlined: what surfaces that work by those read. */
function describe(spec: Spec, o: Entry): OperationDescription {
  const schema = (node: Schema) => inlined(spec, node as Json) as InlineSchema;
  const example = (node: Schema, given?: Json) => {
    const value = exampleOf(spec, node, given ?? deref(spec, node).example);
    return value === undefined ? {} : { example: value };
  };
  const parameters = [...o.pathParams, ...o.queryParams].map((p) => ({
    name: p.name,
    in: p.in as "path" | "query",
    required: p.required === true,
    ...("option" in p && { option: p.option as string }),
    ...(p.description && { description: p.description }),
    schema: schema(p.schema),
    ...example(p.schema, p.example),
  }));
  const { body, requestBody, paging } = o;
  const param = (option: string) => o.table.options[option]!;
  return {
    ...(o.op.description && { description: o.op.description }),
    parameters,
    ...(body && {
      body: {
        required: requestBody!.required === true,
        ...(requestBody!.description && { description: requestBody!.description }),
        schema: schema(body.schema),
        ...example(body.schema, body.example),
      },
    }),
    answer: {
      ...(o.response && { schema: schema(o.response) }),
      ...(paging && { paging: { page: param(paging.page), pageSize: param(paging.pageSize) } }),
    },
  };
}

const dropSuffix = (param: string) => param.replace(/_(id|name)$/, "");

/** The flag of each scope id: a scope names the id it adds (`service_id` is `--component`), the others their own. */
function scopeFlags(operations: Entry[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (const { table } of operations) {
    for (const arg of table.args) {
      if (arg.kind !== "scope") continue;
      const params = Object.values(arg.params);
      params.forEach((param, i) => {
        if (i === params.length - 1) flags.set(param, arg.name);
        else if (!flags.has(param)) flags.set(param, dropSuffix(param));
      });
    }
  }
  return flags;
}

/** A method's inputs as the command line takes them, in the order of its arguments. */
function inputsOf(spec: Spec, entry: Method["entry"], o: Entry, flags: Map<string, string>): Input[] {
  const { table: operation } = o;
  const inputs: Input[] = [];
  const taken = new Set([...COMMON_FLAGS, ...flags.values()]);
  const name = (wanted: string, suffix: string) => {
    const chosen = taken.has(wanted) ? `${wanted}-${suffix}` : wanted;
    taken.add(chosen);
    return chosen;
  };
  const properties = o.body ? (deref(spec, o.body.schema).properties ?? {}) : {};
  const member = (key: string, client: string, required: boolean, kind: Input["kind"] = "member"): Input => ({
    name: name(kebab(key), "field"),
    positional: false,
    kind,
    spec: `body.${key}`,
    client,
    rule: operation.body!.properties![key]!,
    required,
    // decided where the spec marks it, not by its name
    ...(deref(spec, properties[key]!)["x-sensitive"] === true && { secret: true }),
  });
  for (const arg of entry.args) {
    if (arg.kind === "scope") {
      const scope = operation.args.find((a) => a.name === arg.name && a.kind === "scope") as { params: object };
      for (const [key, param] of Object.entries(scope.params as Record<string, string>)) {
        const rule = operation.pathParams[param]!;
        inputs.push({
          name: flags.get(param)!,
          positional: false,
          kind: "scope",
          spec: param,
          client: `${arg.name}.${key}`,
          rule,
          required: true,
        });
      }
    } else if (arg.kind === "path") {
      const param = arg.param!;
      const scope = flags.get(param);
      const [rule, kind] = [operation.pathParams[param]!, scope ? "scope" : "path"] as const;
      inputs.push({
        name: scope ?? kebab(param),
        positional: !scope,
        kind,
        spec: param,
        client: arg.name,
        rule,
        required: true,
      });
    } else if (arg.kind === "options") {
      for (const [option, param] of Object.entries(operation.options)) {
        if (option === entry.paging?.page) continue; // the iterator sets it
        const required = operation.requiredQuery.includes(param);
        const rule = operation.query[param]!;
        const client = `${arg.name}.${option}`;
        inputs.push({
          // the parameter's name, or the client's option where that name is no word a shell takes as it is (`match[]`)
          name: name(kebab(/^[\w-]+$/.test(param) ? param : option), "param"),
          positional: false,
          kind: "option",
          spec: param,
          client,
          rule,
          required,
        });
      }
    } else if (arg.kind === "body") {
      const required = new Set((operation.body?.required as string[] | undefined) ?? []);
      for (const key of Object.keys(operation.body?.properties ?? {}))
        inputs.push(member(key, `${arg.name}.${key}`, required.has(key)));
    } else if (arg.member) {
      const rule = operation.body!.properties![arg.member]!;
      const spec = `body.${arg.member}`;
      inputs.push({
        name: kebab(arg.name),
        positional: true,
        kind: "argument",
        spec,
        client: arg.name,
        rule,
        required: true,
      });
    } else {
      for (const key of arg.members ?? [])
        inputs.push(member(key, `${arg.name}.${key}`, arg.required?.includes(key) ?? false, "argument"));
    }
  }
  return inputs;
}

/**
 * A schema of the table for what a caller sends ("input") or what the console answers ("output"): no `x-` marks or
 * examples; a field marked `x-sensitive` has no default, enum or const to show, and is answered masked (a string).
 */
function clean(schema: Json, direction: "input" | "output"): Json {
  if (Array.isArray(schema)) return schema.map((item) => clean(item, direction));
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith("x-") || /^examples?$/.test(key) || (key === "format" && direction === "output")) continue;
    out[key] = key === "properties" ? cleanProperties(value as JsonObject, direction) : clean(value, direction);
  }
  if (direction === "input") Object.assign(out, asAgentsSend(schema));
  if (Array.isArray(out.required) && isObject(out.properties)) {
    out.required = out.required.filter((name) => (name as string) in (out.properties as JsonObject));
    if (!out.required.length) delete out.required;
  }
  return out;
}

/** The JSON types an agent sends where the client takes them too: a number for a numeric string the client accepts as
 * a number (`x-rainbond-accepts-number`), a boolean for a "true"/"false" string. The client encodes and checks them. */
function asAgentsSend(schema: JsonObject): JsonObject {
  if (schema["x-rainbond-accepts-number"]) return { type: ["string", "integer"] };
  const values = Array.isArray(schema.enum) ? [...schema.enum].sort().join() : "";
  return schema.type === "string" && values === "false,true"
    ? { type: ["boolean", "string"], enum: [true, false, "true", "false"] }
    : {};
}

function cleanProperties(properties: JsonObject, direction: "input" | "output"): JsonObject {
  const out: JsonObject = {};
  for (const [name, schema] of Object.entries(properties as Record<string, JsonObject>)) {
    if (schema[direction === "input" ? "readOnly" : "writeOnly"]) continue;
    const member = clean(schema, direction) as JsonObject;
    if (schema["x-sensitive"]) {
      for (const key of ["default", "enum", "const"]) delete member[key];
      if (direction === "output") member.type = [...new Set([member.type ?? [], "string"].flat())];
    }
    out[name] = member;
  }
  return out;
}

const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);
const input = ({ description, schema }: { description?: string; schema: InlineSchema }) =>
  clean({ ...(description && { description }), ...schema } as JsonObject, "input");

/** The MCP toolset the spec puts an operation in (`x-mcp-toolset`): `default`, the tools an MCP server lists unless
 * told otherwise; none for the others, which its groups and its discovery tools reach. */
function toolsetOf(o: Entry): TableOperation["toolset"] {
  const mark = o.op["x-mcp-toolset"];
  if (mark === undefined || mark === "default") return mark;
  const where = `${o.table.method} ${o.table.path} (${o.table.id})`;
  throw new Error(`${where}: x-mcp-toolset is \`default\` or absent (see docs/editing-the-spec.md)`);
}

/** What an operation's entry takes from the whole walk: the ids, and what it creates. */
type Across = { ids: Record<string, string[]>; creates?: Creates | undefined };

/** An operation's entry of the table: its request line, effect, origin, toolset, ids, and its MCP tool. */
function operationOf(o: Entry, description: OperationDescription, { ids, creates }: Across): TableOperation {
  const { id: name, name: method, method: http, path } = o.table;
  const toolset = toolsetOf(o);
  // Arguments are named as the spec names them; a query parameter named like a path parameter (the source declares
  // some ids in both, the console's deleteAppImportDir requires one) is not an argument of its own: the path's value
  // is sent in the query too.
  const pathParams = description.parameters.filter((p) => p.in === "path");
  const queryParams = description.parameters.filter(
    (p) => p.in === "query" && !pathParams.some((q) => q.name === p.name),
  );
  const inputs = [...pathParams, ...queryParams, ...(description.body ? [{ ...description.body, name: "body" }] : [])];
  const properties = Object.fromEntries(inputs.map((p) => [p.name, input(p)]));
  const required = inputs.filter((p) => p.required).map((p) => p.name);
  const answer = description.answer.schema && (clean(description.answer.schema as JsonObject, "output") as JsonObject);
  const wrapped = answer?.type === "array";
  const answerIds = answerIdsOf(description.answer.schema as Json | undefined, ids);
  const effect = strongest(o.effect);
  const summary = o.op.summary;
  const tool: Tool = {
    name,
    title: summary,
    description: [description.description ?? sentence(summary), describeEffect(o.effect)].join("\n\n"),
    inputSchema: {
      type: "object",
      properties: properties as Record<string, object>,
      ...(required.length && { required }),
      additionalProperties: false,
    },
    // an answer without content has no output schema: the result says so in its text
    ...(answer && {
      outputSchema: wrapped
        ? { type: "object" as const, properties: { items: answer }, required: ["items"] }
        : { ...answer, type: "object" as const },
    }),
    annotations: {
      title: summary,
      readOnlyHint: effect === "read",
      destructiveHint: mayDestroy(o.effect),
      idempotentHint: o.idempotent,
      openWorldHint: true,
    },
  };
  return {
    operationId: name,
    group: o.group,
    name: method,
    http: `${http} ${path}`,
    summary,
    effect: o.effect,
    idempotent: o.idempotent,
    source: o.origin ? "console" : "document",
    ...(toolset && { toolset }),
    ...(o.origin?.defect && { defect: o.origin.defect }),
    ...(o.origin?.findings && { findings: o.origin.findings }),
    pathParams: pathParams.map((p) => p.name),
    queryParams: description.parameters.filter((p) => p.in === "query").map((p) => p.name),
    wrapped,
    ...(description.answer.paging && { paging: description.answer.paging }),
    sample: sampleOf(o, description, ids),
    ...(answerIds && { answerIds }),
    ...(creates && { creates }),
    tool,
  };
}

/** The one table, from the walk: the methods in the client's order, the operations by operationId (sorted). */
export function tableOf(spec: Spec, walk: { operations: Entry[]; methods: Method[] }): Table {
  const flags = scopeFlags(walk.operations);
  const methods: ClientMethod[] = walk.methods.map(({ o, entry }) => {
    const pager = walk.methods.find((m) => m.entry.kind === "paging" && m.entry.via === entry.name)?.entry.name;
    const range = o.table.timeRange;
    return {
      ...entry,
      inputs: inputsOf(spec, entry, o, flags),
      ...(pager && { pager }),
      ...(range && { dates: [range.start, range.end] }),
    };
  });
  const sorted = [...walk.operations].sort((a, b) => (a.table.id < b.table.id ? -1 : 1));
  const descriptions = new Map(sorted.map((o) => [o, describe(spec, o)]));
  const ids = idsOf(spec, sorted, descriptions);
  const creates = createsOf(sorted);
  const operations = Object.fromEntries(
    sorted.map((o) => [o.table.id, operationOf(o, descriptions.get(o)!, { ids, creates: creates.get(o) })]),
  );
  return { methods, operations, ids };
}

/** The start of docs/mcp.md's list of tools, which `npm run generate` rewrites up to `<!-- /tools -->`. */
export const TOOLS_START = "<!-- tools: generated by `npm run generate` from generated/table.json; do not edit -->";

/** `markdown` with its list of tools made afresh: name, what it does, the operation, its arguments (`?`: optional). */
export function withToolsTable(markdown: string, { operations }: Table) {
  const rows = Object.values(operations).map(({ tool, effect, http }) => {
    const { properties, required = [] } = tool.inputSchema;
    const args = Object.keys(properties).map((name) => `\`${name}${required.includes(name) ? "" : "?"}\``);
    const does = typeof effect === "string" ? effect : `${strongest(effect)} (by \`${effect.by}\`)`;
    return `| \`${tool.name}\` | ${does} | \`${http.replace(" /openapi/v1", " ")}\` | ${args.join(", ") || "none"} |`;
  });
  const table = ["<!-- prettier-ignore -->", "| Tool | Effect | Operation | Arguments |", "| --- | --- | --- | --- |"];
  const at = markdown.search(/<!-- tools: generated by [^>]*-->/);
  const end = markdown.indexOf("<!-- /tools -->");
  if (at === -1 || end < at) throw new Error(`docs/mcp.md has no ${TOOLS_START} ... <!-- /tools --> section`);
  return `${markdown.slice(0, at)}${TOOLS_START}\n\n${[...table, ...rows].join("\n")}\n\n${markdown.slice(end)}`;
}
