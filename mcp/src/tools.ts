// The tools, as `npm run generate` made them from the spec (the operations of generated/table.json, read through
// surface/table.ts), and what the server needs of them: which are listed, how arguments are checked against a tool's
// inputSchema, and how they split into the operation's path, query and body.
import type { Tool } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import type { OperationInput } from "../../surface/runtime.js";
import { strongest } from "../../surface/effect.js";
import { unknownMembers, type MemberSchema } from "../../surface/request.js";
import { table, type TableOperation } from "../../surface/table.js";

/** A tool and its operation, as the table gives them. */
export interface ToolEntry {
  tool: Tool & { inputSchema: Tool["inputSchema"] & { properties: Record<string, object> } };
  operation: TableOperation;
}

/** Every tool of the spec, by name. */
export const entries: ReadonlyMap<string, ToolEntry> = new Map(
  Object.values(table.operations).map((operation) => [
    operation.tool.name,
    { tool: operation.tool as ToolEntry["tool"], operation },
  ]),
);

/** The groups of tools, as --tools names them: the client's. */
export const GROUPS: readonly string[] = [...new Set([...entries.values()].map((e) => e.operation.group))].sort();

/**
 * The names --tools takes besides groups and tools: `default`, the tools the spec marks `x-mcp-toolset: default` and
 * the discovery tools, which reach every other operation served (what a server lists when --tools is not given);
 * `discovery`, those three tools alone; `all`, every tool listed.
 */
export const KEYWORDS = ["default", "discovery", "all"] as const;

/** What a server serves: the tools of some groups, names and keywords (--tools; `default` when absent), and whether
 * those that change the console too (--allow-write). */
export interface Selection {
  allowWrite: boolean;
  /** Groups (`ports`), tool names (`getComponent`) and KEYWORDS; `["default"]` when absent. */
  tools?: readonly string[];
}

/** The names of `selection.tools` that are no group, tool nor keyword. */
export function unknownSelection({ tools = [] }: Selection): string[] {
  const known = (name: string) =>
    GROUPS.includes(name) || entries.has(name) || (KEYWORDS as readonly string[]).includes(name);
  return tools.filter((name) => !known(name));
}

/** Whether a tool only reads (served without --allow-write). */
export const readsOnly = ({ operation }: ToolEntry) => strongest(operation.effect) === "read";

/** The tools of the operations a server lists itself, sorted by name: those the selection names (a group, a name,
 * `all`, or `default`'s toolset), of those that change nothing unless --allow-write. */
export function listedTools({ allowWrite, tools = ["default"] }: Selection): ToolEntry[] {
  const named = ({ tool, operation }: ToolEntry) =>
    tools.includes("all") ||
    tools.includes(operation.group) ||
    tools.includes(tool.name) ||
    (tools.includes("default") && operation.toolset === "default");
  return [...entries.values()].filter((entry) => (allowWrite || readsOnly(entry)) && named(entry));
}

/** Whether a server serves the discovery tools: when the selection names them (`discovery`, or `default`) and some
 * operation it serves is not listed. */
export function discovers(selection: Selection): boolean {
  const { tools = ["default"] } = selection;
  if (!tools.includes("default") && !tools.includes("discovery")) return false;
  return listedTools(selection).length < servedOperations(selection).length;
}

/** The operations a server runs a call of: those it lists, and with the discovery tools every other one, of those that
 * change nothing unless --allow-write. */
export function servedOperations(selection: Selection): ToolEntry[] {
  const { tools = ["default"] } = selection;
  const all = tools.includes("default") || tools.includes("discovery") || tools.includes("all");
  return all ? listedTools({ ...selection, tools: ["all"] }) : listedTools(selection);
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
export function unknownArguments({ name, inputSchema }: Tool, args: Record<string, unknown>): string | undefined {
  const properties = inputSchema.properties ?? {};
  const unknown = Object.keys(args).filter((arg) => !Object.hasOwn(properties, arg));
  if (!unknown.length) return undefined;
  const known = Object.keys(properties).join(", ") || "none";
  return `${unknown.join(", ")}: not an argument of ${name} (its arguments: ${known})`;
}

/** The members of a body that the spec does not know, named (at most five) with those it does, or undefined: such a
 * call is refused before anything is asked or sent, as the client itself would send them. */
export function unknownBodyMembers(entry: ToolEntry, body: unknown): string | undefined {
  const schema = entry.tool.inputSchema.properties.body as MemberSchema | undefined;
  const unknown = schema ? unknownMembers(schema, body, "body") : [];
  if (!unknown.length) return undefined;
  const { object, known } = unknown[0]!;
  const named = unknown.slice(0, 5).map((member) => member.at);
  const more = unknown.length > named.length ? ` and ${unknown.length - named.length} more` : "";
  const verb = named.length > 1 ? "are not members" : "is not a member";
  return `${named.join(", ")}${more} ${verb} the spec knows (${object}'s members: ${known.join(", ") || "none"})`;
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
