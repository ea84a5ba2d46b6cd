// Every command of the line, read from the one table `npm run generate` writes (generated/table.json, through
// surface/table.ts): one command per method of the client, its inputs named after the spec's parameters and body
// members as the table names them. Nothing here reads the spec, or works a name out again.
import { kebab } from "../../surface/flags.js";
import { table, type ClientMethod, type Input } from "../../surface/table.js";

export { COMMON_FLAGS, kebab } from "../../surface/flags.js";
export type { ClientMethod, Input };

export interface MethodCommand {
  method: ClientMethod;
  /** `open-outer`. */
  name: string;
  inputs: Input[];
  /** Whether the command takes a body (`--body`). */
  body: boolean;
  /** The iterator that walks this method's pages (`--all`). */
  pager?: ClientMethod;
}

export const methods = table.methods;

/** Scope flags (`team`, `region`, `app`, `component`), for their defaults from the environment or a profile. */
export const SCOPES = [
  ...new Set(methods.flatMap((m) => m.inputs.filter((i) => i.kind === "scope").map((i) => i.name))),
];

/** The commands of each group, in the client's order. */
export function commandsByGroup(): Map<string, MethodCommand[]> {
  const groups = new Map<string, MethodCommand[]>();
  for (const method of methods) {
    const command: MethodCommand = {
      method,
      name: kebab(method.method),
      inputs: method.inputs,
      body: method.args.some((a) => a.kind === "body"),
      pager: methods.find((m) => m.name === method.pager),
    };
    groups.set(method.group, [...(groups.get(method.group) ?? []), command]);
  }
  return groups;
}
