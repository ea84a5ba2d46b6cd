// The client's methods as every tool reads them: generated/methods.json, written by `npm run generate` from the spec
// (client-table.ts): each method of the grouped client (operations, shortcuts, iterators) in the client's order, with
// its operation, arguments and the spec's examples. No tool parses src/ or probes the client for them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./script.ts";

export interface MethodArgument {
  name: string;
  kind: "scope" | "path" | "body" | "options" | "argument";
  /** Its TypeScript type, as the client declares it. */
  type: string;
  optional: boolean;
  /** The spec's parameter, for a path argument (`team_id`). */
  param?: string;
  /** The spec's example, as the client takes it (numbers where it takes numbers). */
  example?: unknown;
  /** A shortcut's argument: the body member it gives, or the members of the object it is (and those required). */
  member?: string;
  members?: string[];
  required?: string[];
}

export interface ClientMethod {
  /** `ports.openOuter` */
  name: string;
  method: string;
  kind: "operation" | "shortcut" | "paging";
  operationId: string;
  group: string;
  effect: "read" | "write" | "destructive";
  /** `PUT /openapi/v1/...` */
  http: string;
  /** The method a shortcut or an iterator calls (`ports.update`), and the body members a shortcut fixes. */
  via?: string;
  fixed?: Record<string, unknown>;
  /** An iterator's options that carry the page number (which it sets itself) and the page size. */
  paging?: { page: string; pageSize: string };
  summary: string;
  /** The spec's text for callers: the operation's description (key ""), its parameters' (`page_size`) and its body
   * members' (`body.port`), for help pages (the command line's). */
  docs: Record<string, string>;
  args: MethodArgument[];
  /** The named TypeScript type it returns (`Port[]`, `AsyncGenerator<TeamRegionsResp>`). */
  returns: string;
  /** An operation's own entry only: its request and answer by the spec's names, with their schemas. */
  operationSpec?: OperationDescription;
}

/** A schema of the spec with every `$ref` replaced by what it points at (its `x-` marks kept). */
export type InlineSchema = { [keyword: string]: unknown };

/** An operation as a surface that works by the spec's names (the MCP server, a command line) reads it. */
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
    schema: InlineSchema;
    /** The query parameters of a paged answer's page and page size. */
    paging?: { page: string; pageSize: string };
  };
}

export function readMethods(dir = root): ClientMethod[] {
  return JSON.parse(readFileSync(join(dir, "generated", "methods.json"), "utf8"));
}

/** The arguments of a call of `method` with the spec's examples; optional ones without an example are left out. */
export function exampleArgs(method: ClientMethod): unknown[] {
  const args = method.args.map((arg) => {
    if (arg.example === undefined && !arg.optional) throw new Error(`${method.name}: no example for ${arg.name}`);
    return arg.example;
  });
  while (args.length && args.at(-1) === undefined) args.pop();
  return args;
}

/**
 * Calls `method` on a client (`client.ports.openOuter(...args)`, by default with the spec's examples) and returns what
 * it returns, untouched (the bench measures it); an iterator's items are collected into an array.
 */
export function callMethod(client: object, method: ClientMethod, args = exampleArgs(method)): PromiseLike<unknown> {
  const group = (client as Record<string, Record<string, (...args: unknown[]) => unknown>>)[method.group]!;
  const answer = group[method.method]!(...args);
  return method.kind === "paging" ? itemsOf(answer as AsyncIterable<unknown>) : (answer as PromiseLike<unknown>);
}

/** Array.fromAsync, which Node 20 lacks. */
async function itemsOf(iterator: AsyncIterable<unknown>): Promise<unknown[]> {
  const items = [];
  for await (const item of iterator) items.push(item);
  return items;
}
