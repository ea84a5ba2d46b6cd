// The grouped client: a core, with the generated table's functions bound to it by group (`client.ports.list`), and
// openapi-fetch's client of the same console as `client.raw`, loaded on its first call (internal/openapi-fetch.ts),
// whose fetch is the core's transport. src/index.ts gives it the table's groups.
import type { Client, Middleware } from "openapi-fetch";
import type { RainbondCore } from "../core/promise.js";
import { printable, transportOf } from "./call.js";
import { createClient } from "./openapi-fetch.js";
import { rawFetch } from "./transport/raw.js";

/** Each group's functions, with the core bound: `(core, ...args) => R` becomes `(...args) => R`. */
export type Bound<G> = {
  readonly [K in keyof G]: G[K] extends (core: RainbondCore, ...args: infer A) => infer R ? (...args: A) => R : never;
};

/**
 * openapi-fetch's client of `core`'s console, made on the first request (openapi-fetch imported then), whose fetch is
 * the core's transport (internal/transport/raw.ts): the same timeout, retries, redirect rule, body cap, errors and
 * masking as a method; `use` and `eject` before then apply when it is made.
 */
function lazyRaw<P extends {}>(core: RainbondCore): Client<P> {
  type Raw = Client<P>;
  let made: Promise<Raw> | undefined;
  let client: Raw | undefined;
  const later: ((client: Raw) => void)[] = [];
  const make = async () => {
    const t = transportOf(core);
    client = (await createClient())<P>({ baseUrl: t.baseUrl, fetch: rawFetch(t), headers: t.headers });
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
 * The client of `core`: each of `groups`' functions bound to it, `raw` (openapi-fetch's client of paths `P`), and
 * `baseUrl`; printed, it shows its `baseUrl` alone.
 */
export function clientOf<G extends Record<string, object>, P extends {}>(
  core: RainbondCore,
  groups: G,
): Readonly<{ [K in keyof G]: Bound<G[K]> } & { baseUrl: string; raw: Client<P> }> {
  const bind = (group: object) =>
    Object.freeze(
      Object.fromEntries(
        Object.entries(group).map(([name, fn]) => [name, (...args: unknown[]) => fn(core, ...args)] as const),
      ),
    );
  const methods = Object.fromEntries(Object.entries(groups).map(([name, group]) => [name, bind(group)]));
  const bound = methods as { [K in keyof G]: Bound<G[K]> };
  return printable("RainbondClient", core.baseUrl, { ...bound, raw: lazyRaw<P>(core) });
}
