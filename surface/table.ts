// The one table (generated/table.json, written by `npm run generate` from the spec): every method of the client and
// every operation, as the command line, the MCP server, verify and the docs read them. Nothing here works anything out
// of the spec again: it types the file and finds entries in it.
import generated from "../generated/table.json" with { type: "json" };
import type { SchemaRule } from "../src/core/table.js";
import type { Effect, EffectRule } from "./effect.js";

export type { Effect, EffectRule, SchemaRule };

/** One positional argument of a client method. */
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

/** One value a method takes, as the command line names it: a flag (`--page-size`) or a positional argument (`<port>`). */
export interface Input {
  /** The flag or the positional argument: `page-size`, `team`, `port`. */
  name: string;
  positional: boolean;
  /** Where the value goes: a scope id, a path parameter, a query option, a body member or a shortcut's argument. */
  kind: "scope" | "path" | "option" | "member" | "argument";
  /** The spec's name (`page_size`, `body.port`): the key of its text in the method's docs. */
  spec: string;
  /** The client's name of it in messages (`component.serviceId`, `options.pageSize`, `body.port`, `port`). */
  client: string;
  rule: SchemaRule;
  required: boolean;
  /** A member the spec marks secret: never a flag (it would show in process lists), only `--body`. */
  secret?: boolean;
}

/** A method of the grouped client (`ports.openOuter`): an operation's own, a shortcut or an iterator. */
export interface ClientMethod {
  /** `ports.openOuter` */
  name: string;
  method: string;
  kind: "operation" | "shortcut" | "paging";
  operationId: string;
  group: string;
  /** What a call does; for a method whose effect depends on a body member, the strongest it may have (`effectBy`). */
  effect: Effect;
  effectBy?: EffectRule;
  /** `PUT /openapi/v1/...` */
  http: string;
  /** The method a shortcut or an iterator calls (`ports.update`), and the body members a shortcut fixes. */
  via?: string;
  fixed?: Record<string, unknown>;
  /** An iterator's options that carry the page number (which it sets itself) and the page size. */
  paging?: { page: string; pageSize: string };
  /** The iterator that walks this method's pages (`regions.iterateForTeam`). */
  pager?: string;
  summary: string;
  /** The spec's text for callers: the operation's description (key ""), its parameters' (`page_size`) and its body
   * members' (`body.port`). */
  docs: Record<string, string>;
  args: MethodArgument[];
  /** The values it takes, by their command-line names, in the order of the arguments. */
  inputs: Input[];
  /** The query parameters that hold times (a time range's start and end): a date is taken for them. */
  dates?: string[];
  /** The named TypeScript type it returns (`Port[]`, `AsyncGenerator<TeamRegionsResp>`). */
  returns: string;
}

/** An MCP tool, as the protocol lists it. */
export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, object>; required?: string[] } & Record<string, unknown>;
  /** None where the operation answers without content. */
  outputSchema?: { type: "object" } & Record<string, unknown>;
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/** A value a tool puts in a request it makes from the spec alone, with no person choosing it (verify): the id of that
 * name it knows, a time of a range it reads (its start or end), or the spec's example (as the client takes it). */
export type Fill = { id: string } | { time: "start" | "end" } | { example: unknown };
/** A request body to fill: a value, an array of one item, or an object of its required members. */
export type BodyFill = Fill | { items: BodyFill } | { members: Record<string, BodyFill> };

/** The request of an operation as the spec alone makes it (each path parameter is the id of its name). */
export interface SampleRequest {
  /** The required query parameters. */
  query?: Record<string, Fill>;
  /** The body, where one is required. */
  body?: BodyFill;
  /** Required values that are neither ids nor given an example by the spec: no request is made from it alone. */
  lacks?: string[];
}

/** Where an answer gives ids: the records at `at` (a path through what the client returns: member names, `[]` for an
 * array's items; none for the answer itself) and, for each field of them that holds an id, the ids it holds. */
export interface AnswerIds {
  at: string[];
  fields: Record<string, string[]>;
}

/** What a create makes, and how a tool removes it again (`x-rainbond-undo`). */
export interface Creates {
  /** The operation that removes what it made. */
  undo: string;
  /** The id the undo's path adds to the create's: a body member of the create, so known before it is sent. */
  id: string;
  /** The read at the create's path (`GET`): what exists already. */
  list?: string;
  /** The other operations at the undo's path, which change what it made. */
  changes: string[];
}

/** An operation of the spec, as the surfaces that work by its names (the MCP server, verify) read it. */
export interface TableOperation {
  operationId: string;
  /** The client's group (`ports`): the MCP server's --tools serves groups. */
  group: string;
  /** The client's method that calls it (`ports.list`). */
  name: string;
  /** `GET /openapi/v1/...` */
  http: string;
  summary: string;
  /** What a call does (the spec's mark): an effect, or a rule by a body member's value. */
  effect: Effect | EffectRule;
  /** Whether a failed attempt may be sent again (src's retry policy reads the same fact from the runtime table). */
  idempotent: boolean;
  /** Where the spec's description of it comes from: the source document, or the console itself (its evidence). */
  source: "document" | "console";
  /** The MCP server's toolset the spec puts it in (`x-mcp-toolset`): `default`, listed unless told otherwise. */
  toolset?: "default";
  /** The console's defect (an operation that fails on this console whatever the request), with its findings. */
  defect?: string;
  findings?: number[];
  pathParams: string[];
  /** Its query parameters; one named like a path parameter takes the path parameter's value (the tool has one
   * argument for both). */
  queryParams: string[];
  /** The answer is an array, given to MCP as `{ items: [...] }`. */
  wrapped: boolean;
  paging?: { page: string; pageSize: string };
  /** Its request as the spec alone makes it. */
  sample: SampleRequest;
  /** Where its answer gives ids (a field named as the id, or marked `x-rainbond-id`). */
  answerIds?: AnswerIds[];
  /** What it creates and how to remove it, where the spec says (`x-rainbond-undo`). */
  creates?: Creates;
  tool: Tool;
}

export interface Table {
  methods: ClientMethod[];
  operations: Record<string, TableOperation>;
  /** Every id: each path parameter and each id a mark names, with the path parameters that scope it (those before it
   * in every path that holds it: `service_id` is within `team_id`, `region_name`, `app_id`). */
  ids: Record<string, string[]>;
}

/** The table of this build. */
export const table = generated as unknown as Table;
