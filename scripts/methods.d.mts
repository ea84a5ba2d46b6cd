/** An argument of a method, as generated/methods.json lists it. */
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
}
/** A method of the grouped client, as generated/methods.json lists it. */
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
  /** The method a shortcut or an iterator calls (`ports.update`). */
  via?: string;
  /** The body members a shortcut fixes. */
  fixed?: Record<string, unknown>;
  summary: string;
  args: MethodArgument[];
  /** The named TypeScript type it returns (`Port[]`, `AsyncGenerator<TeamRegionsResp>`). */
  returns: string;
}
export const root: string;
/** The entries of `<dir>/generated/methods.json` (dir: the project), in the client's order. */
export function readMethods(dir?: string): ClientMethod[];
/** The arguments of a call of `method` with the spec's examples; optional ones without an example are left out. */
export function exampleArgs(method: ClientMethod): unknown[];
/** Calls `method` on a client, by default with the spec's examples; an iterator's items come as an array. */
export function callMethod(client: object, method: ClientMethod, args?: unknown[]): PromiseLike<unknown>;
