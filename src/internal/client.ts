// The grouped client: a core, with the generated table's functions bound to it by group (`client.ports.list`), each
// group's code loaded on its first call, and
// openapi-fetch's client of the same console as `client.raw`, loaded on its first call (internal/openapi-fetch.ts),
// whose fetch is the core's transport. src/index.ts gives it the table's groups.
import type { Client, Middleware } from "openapi-fetch";
import type { RainbondCore, RainbondPromise } from "../core/promise.js";
import { later, transportOf } from "./call.js";
import { createClient } from "./openapi-fetch.js";
import { rawFetch } from "./transport/raw.js";

/**
 * The directory of a client's groups (generated/groups/index.ts): each group's loader of its functions (each taking the
 * core first), the names of those that answer a promise, and those of its iterators, space-separated.
 */
export type GroupDirectory = Readonly<Record<string, readonly [() => Promise<{ methods: object }>, string, string]>>;

type Method = (core: RainbondCore, ...args: unknown[]) => unknown;

/** A group's methods bound to `core`: the group's code is loaded on the first call of any of them. */
function bindGroup(core: RainbondCore, [load, calls, iterators]: GroupDirectory[string]) {
  let loaded: Promise<Record<string, Method>> | undefined;
  const method = async (name: string) => (await (loaded ??= load().then((m) => m.methods as never)))[name]!;
  const bound: Record<string, unknown> = {};
  for (const name of calls.split(" ").filter(Boolean)) {
    bound[name] = (...args: unknown[]) => later(method(name), (fn) => fn(core, ...args) as RainbondPromise<unknown>);
  }
  for (const name of iterators.split(" ").filter(Boolean)) {
    bound[name] = async function* (...args: unknown[]) {
      yield* (await method(name))(core, ...args) as AsyncGenerator<unknown>;
    };
  }
  return Object.freeze(bound);
}

/**
 * openapi-fetch's client of `core`'s console, made on the first request (openapi-fetch imported then), whose fetch is
 * the core's transport (internal/transport/raw.ts): the same timeout, retries, redirect rule, body cap, errors and
 * masking as a method; `use` and `eject` before then apply when it is made.
 */
function lazyRaw<P extends {}>(core: RainbondCore, notReplayable: readonly string[]): Client<P> {
  type Raw = Client<P>;
  let made: Promise<Raw> | undefined;
  let client: Raw | undefined;
  const later: ((client: Raw) => void)[] = [];
  const make = async () => {
    const t = transportOf(core);
    client = (await createClient())<P>({ baseUrl: t.baseUrl, fetch: rawFetch(t, notReplayable), headers: t.headers });
    client.use(...t.middleware);
    for (const step of later.splice(0)) step(client);
    return client;
  };
  const then = (step: (client: Raw) => void) => (client ? step(client) : void later.push(step));
  const methods = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE", "request"] as const;
  const send =
    (method: string) =>
    async (...args: unknown[]) =>
      ((await (made ??= make())) as unknown as Record<string, (...args: unknown[]) => unknown>)[method]!(...args);
  return Object.freeze({
    ...Object.fromEntries(methods.map((method) => [method, send(method)])),
    use: (...middleware: Middleware[]) => then((client) => client.use(...middleware)),
    eject: (...middleware: Middleware[]) => then((client) => client.eject(...middleware)),
  }) as unknown as Raw;
}

/**
 * The client of `core`: each method of the groups of `directory` bound to it (a group's code loaded on its first call),
 * `raw` (openapi-fetch's client of paths `P`, never sending again a request of `notReplayable`: `GET /users/{id}/close`),
 * and `baseUrl`; printed, it shows its `baseUrl` alone.
 */
export function clientOf<G, P extends {}>(
  core: RainbondCore,
  directory: GroupDirectory,
  notReplayable: readonly string[],
): Readonly<G & { baseUrl: string; raw: Client<P> }> {
  const bound = Object.fromEntries(Object.entries(directory).map(([name, group]) => [name, bindGroup(core, group)]));
  const { baseUrl } = core;
  const describe = () => `RainbondClient { baseUrl: ${JSON.stringify(baseUrl)} }`;
  const inspect = Symbol.for("nodejs.util.inspect.custom");
  const members = { ...(bound as G), raw: lazyRaw<P>(core, notReplayable) };
  return Object.freeze({ baseUrl, ...members, toJSON: () => ({ baseUrl }), toString: describe, [inspect]: describe });
}
