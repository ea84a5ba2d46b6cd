// Every command of the line, read from the one table `npm run generate` writes (generated/table.json, through
// surface/table.ts): one command per method of the client, its inputs named after the spec's parameters and body
// members as the table names them. Nothing here reads the spec, or works a name out again.
// The bin bundles only what the command line reads of the table (cli/build.mjs): its methods, and of each operation
// the facts in OperationFacts below. A field read here that build.mjs does not keep is undefined in the bin.
import { kebab } from "../../surface/flags.js";
import type { MemberSchema } from "../../surface/request.js";
import { table, type ClientMethod, type Input, type TableOperation } from "../../surface/table.js";

export { COMMON_FLAGS, kebab } from "../../surface/flags.js";
export type { ClientMethod, Input };

/** What the command line reads of a method's operation: all that cli/build.mjs keeps of `operations`. */
export type OperationFacts = Pick<TableOperation, "idempotent" | "defect" | "findings" | "pathParams"> & {
  /** The body's schema, as the MCP tool takes it: which members the spec knows. */
  tool: { inputSchema: { properties: { body?: MemberSchema } } };
};

export interface MethodCommand {
  method: ClientMethod;
  /** `open-outer`. */
  name: string;
  /** `app-models`: the group's command (the table's `appModels`). */
  group: string;
  inputs: Input[];
  /** Whether the command takes a body (`--body`). */
  body: boolean;
  /** The iterator that walks this method's pages (`--all`). */
  pager?: ClientMethod;
  operation: OperationFacts;
  /** A GET, PUT or DELETE that the spec marks never to be sent twice (the console's destructive GETs). */
  sentOnce: boolean;
  /**
   * The scope id that names what a destructive call removes or overwrites (`apps delete`: DELETE .../apps/{app_id}):
   * typed on the command line, never a default from the environment or a profile.
   */
  target?: Input;
}

export const methods = table.methods;

/** Scope flags (`team`, `region`, `app`, `component`), for their defaults from the environment or a profile. */
export const SCOPES = [
  ...new Set(methods.flatMap((m) => m.inputs.filter((i) => i.kind === "scope").map((i) => i.name))),
];

/** The commands of each group, by the group's command (`app-models`), in the client's order. */
export function commandsByGroup(): Map<string, MethodCommand[]> {
  const groups = new Map<string, MethodCommand[]>();
  for (const method of methods) {
    const group = kebab(method.group);
    const operation = table.operations[method.operationId] as OperationFacts;
    const command: MethodCommand = {
      method,
      name: kebab(method.method),
      group,
      inputs: method.inputs,
      body: method.args.some((a) => a.kind === "body"),
      pager: methods.find((m) => m.name === method.pager),
      operation,
      sentOnce: !operation.idempotent && !method.http.startsWith("POST "),
      target:
        method.effect === "destructive"
          ? method.inputs.find((i) => i.kind === "scope" && i.spec === operation.pathParams.at(-1))
          : undefined,
    };
    groups.set(group, [...(groups.get(group) ?? []), command]);
  }
  return groups;
}
