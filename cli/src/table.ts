// Every command of the line, read from the one table `npm run generate` writes (generated/methods.json for the
// methods, generated/operations.ts for their operations' rules): one command per method of the client, its inputs
// named after the spec's parameters and body members. Nothing here reads the spec itself.
import methodsFile from "../../generated/methods.json" with { type: "json" };
import { operations, sensitiveFields, type OperationId } from "../../generated/operations.js";
import type { ClientMethod, MethodArgument } from "../../scripts/lib/methods.ts";
import type { OperationSpec, SchemaRule } from "../../src/core/table.js";

export type { ClientMethod };

/** Flags every method command has, whose names a spec parameter must not take. */
export const COMMON_FLAGS = [
  "output",
  "query",
  "all",
  "yes",
  "dry-run",
  "profile",
  "base-url",
  "body",
  "timeout-ms",
  "retries",
  "log-level",
  "help",
  "token",
];

/** One value a command takes: a flag (`--page-size`) or a positional argument (`<port>`). */
export interface Input {
  /** `page-size`, `team`, `port`. */
  name: string;
  positional: boolean;
  /** Where the value goes: a scope id, a path parameter, a query option, a body member or a shortcut's argument. */
  kind: "scope" | "path" | "option" | "member" | "argument";
  /** The spec's name (`page_size`, `body.port`): the key of its text in the table's docs. */
  spec: string;
  /** The client's name of it in messages (`component.serviceId`, `options.pageSize`, `body.port`, `port`). */
  client: string;
  rule: SchemaRule;
  required: boolean;
  /** A body member the spec marks secret: no flag, only `--body`. */
  secret?: boolean;
}

export interface MethodCommand {
  method: ClientMethod;
  operation: OperationSpec;
  /** `open-outer`. */
  name: string;
  inputs: Input[];
  /** Whether the command takes a body (`--body`). */
  body: boolean;
  /** The iterator that walks this method's pages (`--all`). */
  pager?: ClientMethod;
}

export const methods = methodsFile as unknown as ClientMethod[];
const sensitive = new Set(sensitiveFields);
export const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/_/g, "-");
const dropSuffix = (param: string) => param.replace(/_(id|name)$/, "");

/** The flag of each scope id: a scope names the id it adds (`service_id` is `--component`), the others their own. */
const scopeFlags: ReadonlyMap<string, string> = (() => {
  const flags = new Map<string, string>();
  for (const op of Object.values(operations) as OperationSpec[]) {
    for (const arg of op.args) {
      if (arg.kind !== "scope") continue;
      const params = Object.values(arg.params);
      params.forEach((param, i) => {
        if (i === params.length - 1) flags.set(param, arg.name);
        else if (!flags.has(param)) flags.set(param, dropSuffix(param));
      });
    }
  }
  return flags;
})();

/** Scope flags (`team`, `region`, `app`, `component`), for their defaults from the environment or a profile. */
export const SCOPES = [...new Set(scopeFlags.values())];

function inputsOf(method: ClientMethod, operation: OperationSpec): Input[] {
  const inputs: Input[] = [];
  const taken = new Set([...COMMON_FLAGS, ...scopeFlags.values()]);
  const name = (wanted: string, suffix: string) => {
    const chosen = taken.has(wanted) ? `${wanted}-${suffix}` : wanted;
    taken.add(chosen);
    return chosen;
  };
  const bodyRule = operation.body;
  const member = (key: string, client: string, required: boolean, kind: Input["kind"] = "member"): Input => ({
    name: name(kebab(key), "field"),
    positional: false,
    kind,
    spec: `body.${key}`,
    client,
    rule: bodyRule!.properties![key]!,
    required,
    ...(sensitive.has(key) && { secret: true }),
  });
  for (const arg of method.args as MethodArgument[]) {
    const spec = operation.args.find((a) => a.name === arg.name);
    if (arg.kind === "scope" && spec?.kind === "scope") {
      for (const [key, param] of Object.entries(spec.params)) {
        const rule = operation.pathParams[param]!;
        const flag = scopeFlags.get(param)!;
        inputs.push({
          name: flag,
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
      const rule = operation.pathParams[param]!;
      const scope = scopeFlags.get(param);
      inputs.push({
        name: scope ?? kebab(param),
        positional: !scope,
        kind: scope ? "scope" : "path",
        spec: param,
        client: arg.name,
        rule,
        required: true,
      });
    } else if (arg.kind === "options") {
      for (const [option, param] of Object.entries(operation.options ?? {})) {
        if (option === method.paging?.page) continue; // the iterator sets it
        const required = operation.requiredQuery?.includes(param) ?? false;
        const rule = operation.query![param]!;
        inputs.push({
          name: name(kebab(param), "param"),
          positional: false,
          kind: "option",
          spec: param,
          client: `${arg.name}.${option}`,
          rule,
          required,
        });
      }
    } else if (arg.kind === "body") {
      const required = new Set(bodyRule?.required ?? []);
      for (const key of Object.keys(bodyRule?.properties ?? {}))
        inputs.push(member(key, `${arg.name}.${key}`, required.has(key)));
    } else if (arg.kind === "argument" && arg.member) {
      const rule = bodyRule!.properties![arg.member]!;
      inputs.push({
        name: kebab(arg.name),
        positional: true,
        kind: "argument",
        spec: `body.${arg.member}`,
        client: arg.name,
        rule,
        required: true,
      });
    } else if (arg.kind === "argument") {
      for (const key of arg.members ?? [])
        inputs.push(member(key, `${arg.name}.${key}`, arg.required?.includes(key) ?? false, "argument"));
    }
  }
  return inputs;
}

/** The commands of each group, in the client's order. */
export function commandsByGroup(): Map<string, MethodCommand[]> {
  const groups = new Map<string, MethodCommand[]>();
  for (const method of methods) {
    const operation = operations[method.operationId as OperationId] as OperationSpec;
    const command: MethodCommand = {
      method,
      operation,
      name: kebab(method.method),
      inputs: inputsOf(method, operation),
      body: method.args.some((a) => a.kind === "body"),
      pager: methods.find((m) => m.kind === "paging" && m.via === method.name),
    };
    groups.set(method.group, [...(groups.get(method.group) ?? []), command]);
  }
  return groups;
}
