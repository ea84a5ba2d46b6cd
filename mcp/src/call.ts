// requestOperation(core, operationId, input, call): one operation of the spec, by its spec-named input, through the
// client (input checks, typed errors, retries, timeouts, abort and secret masking underneath).
//
// A stand-in for `rainbond-openapi/core` until it lands: it calls today's grouped client, `client[group][method]`
// (the spec's x-rainbond-group and x-rainbond-method), turning the spec-named input into the method's positional
// arguments by the client's conventions: a scope object ({ teamId, regionName, appId?, serviceId? }) where the path has
// a region, the other path ids on their own, the body, then an options object of camelCase query names (or the name a
// parameter's x-rainbond-name gives). A RainbondInputError names the spec's field again (`service_id`, `body.port`).
import { createRainbondClient, RainbondInputError, type CallOptions, type ClientOptions } from "rainbond-openapi";
import { entryOf } from "./tools.js";

export interface RainbondCore {
  readonly client: ReturnType<typeof createRainbondClient>;
}

export interface OperationInput {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** The path parameters a scope object carries, as the client names them. */
const SCOPE = ["team_id", "region_name", "app_id", "service_id"];
const camel = (name: string) => name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

export function createRainbondCore(options: ClientOptions): RainbondCore {
  return { client: createRainbondClient(options) };
}

export async function requestOperation(
  core: RainbondCore,
  operationId: string,
  input: OperationInput,
  call?: CallOptions,
): Promise<unknown> {
  const { operation } = entryOf(operationId);
  const scoped = operation.pathParams.includes("region_name");
  const args: unknown[] = [];
  if (scoped) {
    const ids = operation.pathParams.filter((name) => SCOPE.includes(name));
    args.push(Object.fromEntries(ids.map((name) => [camel(name), input.path?.[name]])));
  }
  for (const name of operation.pathParams) if (!scoped || !SCOPE.includes(name)) args.push(input.path?.[name]);
  if (operation.body) args.push(input.body);
  if (operation.queryParams.length) {
    const given = operation.queryParams.filter((p) => input.query?.[p.name] !== undefined);
    args.push(Object.fromEntries(given.map((p) => [p.option ?? camel(p.name), input.query?.[p.name]])));
  }
  const method = (core.client as unknown as Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>>)[
    operation.group
  ]?.[operation.method];
  if (!method) throw new Error(`the client has no method ${operation.group}.${operation.method} for ${operationId}`);
  try {
    return await method(...args, call);
  } catch (err) {
    throw err instanceof RainbondInputError ? specNamed(err, operationId) : err;
  }
}

/** The client's error again, naming the argument as the spec does: `component.serviceId` -> `service_id`. */
function specNamed(err: RainbondInputError, operationId: string): RainbondInputError {
  const { operation } = entryOf(operationId);
  const params = [...operation.pathParams, ...operation.queryParams.map((p) => p.name)];
  const byClientName = new Map(params.map((name) => [camel(name), name]));
  for (const p of operation.queryParams) if (p.option) byClientName.set(p.option, p.name);
  const [first = "", second, ...rest] = err.argument.split(".");
  const tail = (parts: string[]) => parts.map((part) => `.${part}`).join("");
  let argument: string;
  const after = [second ?? "", ...rest].filter(Boolean);
  if (byClientName.has(first))
    argument = `${byClientName.get(first)}${tail(after)}`; // teamId, port, ...
  else if (first !== "body" && second !== undefined && byClientName.has(second)) {
    argument = `${byClientName.get(second)}${tail(rest)}`; // component.serviceId, options.pageSize, ...
  } else argument = `body${tail(after)}`; // the body, whatever the method calls it (body, list)
  // the rule may name another argument the client's way too ("must be before options.end")
  const rule = err.message
    .slice(`${err.operation}: ${err.argument} `.length)
    .replace(/\b(\w+)\.(\w+)\b/g, (text, first: string, name: string) =>
      first !== "body" && byClientName.has(name) ? byClientName.get(name)! : text,
    );
  return new RainbondInputError(operationId, argument, rule);
}
