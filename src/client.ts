// createRainbondClient: a core, with the generated table's functions bound to it by group (`client.ports.list`), and
// openapi-fetch's client of the same console as `client.raw`, loaded on its first call: a bundle that never calls it
// keeps openapi-fetch in a chunk of its own, not loaded.
import type { Client, Middleware } from "openapi-fetch";
import { groups, type RainbondGroups } from "../generated/groups.js";
import type { paths } from "../generated/schema.js";
import { createRainbondCore, printable, type ClientOptions, type RainbondCore } from "./call.js";

/** A client of one console. Independent of any other: no global state. */
export interface RainbondClient extends RainbondGroups {
  readonly baseUrl: string;
  /** The underlying openapi-fetch client, typed by the spec's `paths`; it sends the token too. Loaded on its first call. */
  readonly raw: Client<paths>;
}

type Bound<G> = {
  readonly [K in keyof G]: G[K] extends (core: RainbondCore, ...args: infer A) => infer R ? (...args: A) => R : never;
};

/**
 * openapi-fetch's client, made on the first request by `import("openapi-fetch")` (whose `default` is `createClient`,
 * also where a CommonJS build gets `module.exports`); `use` and `eject` before then apply when it is made.
 */
function lazyRaw(baseUrl: string, options: ClientOptions): Client<paths> {
  let made: Promise<Client<paths>> | undefined;
  let client: Client<paths> | undefined;
  const later: ((client: Client<paths>) => void)[] = [];
  const headers = { ...options.headers, authorization: options.token };
  const make = async () => {
    const { default: create } = await import("openapi-fetch");
    const createClient = typeof create === "function" ? create : (create as { default: typeof create }).default;
    client = createClient<paths>({ baseUrl, fetch: options.fetch ?? globalThis.fetch, headers });
    client.use(...(options.middleware ?? []));
    for (const step of later.splice(0)) step(client);
    return client;
  };
  const then = (step: (client: Client<paths>) => void) => (client ? step(client) : void later.push(step));
  const methods = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE", "request"] as const;
  const send =
    (method: string) =>
    async (...args: unknown[]) =>
      ((await (made ??= make())) as unknown as Record<string, (...args: unknown[]) => unknown>)[method]!(...args);
  return Object.freeze({
    ...Object.fromEntries(methods.map((method) => [method, send(method)])),
    use: (...middleware: Middleware[]) => then((client) => client.use(...middleware)),
    eject: (...middleware: Middleware[]) => then((client) => client.eject(...middleware)),
  }) as unknown as Client<paths>;
}

/**
 * Makes a client of one Rainbond console.
 *
 * @example
 * const client = createRainbondClient({ baseUrl: "http://127.0.0.1:7070", token: process.env.RAINBOND_TOKEN! });
 * const component = { teamId: "q8k2mz5d", regionName: "rainbond", appId: 12, serviceId: "gr3f9c2a" };
 * const ports = await client.ports.list(component);
 */
export function createRainbondClient(options: ClientOptions): RainbondClient {
  const core = createRainbondCore(options);
  const bind = (group: object) =>
    Object.freeze(
      Object.fromEntries(
        Object.entries(group).map(([name, fn]) => [name, (...args: unknown[]) => fn(core, ...args)] as const),
      ),
    );
  const methods = Object.fromEntries(Object.entries(groups).map(([name, group]) => [name, bind(group)]));
  const bound = methods as { [G in keyof typeof groups]: Bound<(typeof groups)[G]> } satisfies RainbondGroups;
  return printable("RainbondClient", core.baseUrl, { ...bound, raw: lazyRaw(core.baseUrl, options) });
}
