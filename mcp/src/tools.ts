// The tools, as `npm run generate` made them from the client's table (generated/mcp-tools.json), and what the server needs of
// them: which are listed, how arguments are checked against a tool's inputSchema, and how they split into the
// operation's path, query and body.
import type { Tool } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import generated from "../../generated/mcp-tools.json" with { type: "json" };
import type { OperationInput } from "../../src/core/table.js";

/** How the server calls a tool's operation (from the table's entry of it). */
export interface OperationInfo {
  /** The client's group of it (`ports`): --tools serves groups. */
  group: string;
  effect: "read" | "write" | "destructive";
  /** `GET /openapi/v1/...` */
  http: string;
  pathParams: string[];
  queryParams: string[];
  /** The answer is an array, given as `{ items: [...] }`. */
  wrapped: boolean;
  paging?: { page: string; pageSize: string };
}

export interface ToolEntry {
  tool: Tool & { inputSchema: Tool["inputSchema"] & { properties: Record<string, object> } };
  operation: OperationInfo;
}

const file = generated as unknown as { tools: ToolEntry[] };

/** Every tool of the spec, by name. */
export const entries: ReadonlyMap<string, ToolEntry> = new Map(file.tools.map((entry) => [entry.tool.name, entry]));

/** The groups of tools, as --tools names them. */
export const GROUPS: readonly string[] = [...new Set([...entries.values()].map((e) => e.operation.group))].sort();

/** What a server serves: all tools, or those of some groups or names (--tools); those that change the console too. */
export interface Selection {
  allowWrite: boolean;
  /** Groups (`ports`) and tool names (`getComponent`); all tools when absent. */
  tools?: readonly string[];
}

/** The names of `selection.tools` that are no group nor tool. */
export function unknownSelection({ tools = [] }: Selection): string[] {
  return tools.filter((name) => !GROUPS.includes(name) && !entries.has(name));
}

/** The tools a server lists and serves, sorted by name: those that change nothing, or all with --allow-write; of the
 * groups or names of --tools only, when given. */
export function servedTools({ allowWrite, tools }: Selection): ToolEntry[] {
  return [...entries.values()].filter(
    ({ tool, operation }) =>
      (allowWrite || operation.effect === "read") &&
      (!tools || tools.includes(operation.group) || tools.includes(tool.name)),
  );
}

const validator = new AjvJsonSchemaValidator();
const checks = new Map<object, (value: unknown) => string | undefined>();

/** Checks `value` against `schema` (compiled once); returns what is wrong, fields named as `body.port`, or undefined. */
export function mismatch(schema: object, value: unknown, root: string): string | undefined {
  let check = checks.get(schema);
  if (!check) {
    const validate = validator.getValidator(schema as Parameters<typeof validator.getValidator>[0]);
    check = (v) => {
      const result = validate(v);
      return result.valid
        ? undefined
        : result.errorMessage?.replace(/\bdata(\/[^\s,]*)?/g, (_, at = "") => field(at, root));
    };
    checks.set(schema, check);
  }
  return check(value);
}

/** An instance path as a field: "/body/port" -> "body.port", "/items/0/x" -> "items[0].x", "" -> the root's name. */
function field(at: string, root: string): string {
  if (!at) return root;
  return at
    .slice(1)
    .split("/")
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i ? `.${part}` : part))
    .join("");
}

/**
 * Arguments that are not the tool's, named one by one, or undefined. Everything else is the client's to check, with
 * its own messages (`body.port must be a port number from 1 to 65535`), before anything is sent.
 */
export function unknownArguments(entry: ToolEntry, args: Record<string, unknown>): string | undefined {
  const unknown = Object.keys(args).filter((name) => !Object.hasOwn(entry.tool.inputSchema.properties, name));
  if (!unknown.length) return undefined;
  const known = Object.keys(entry.tool.inputSchema.properties).join(", ") || "none";
  return `${unknown.join(", ")}: not an argument of ${entry.tool.name} (its arguments: ${known})`;
}

/** The arguments as the operation's path, query and body. */
export function inputOf({ operation }: ToolEntry, args: Record<string, unknown>): OperationInput {
  const pick = (names: string[]) =>
    Object.fromEntries(names.filter((name) => args[name] !== undefined).map((name) => [name, args[name]]));
  return {
    path: pick(operation.pathParams),
    query: pick(operation.queryParams),
    body: args.body,
  };
}
