// createRainbondClient: a core, with the generated table's functions bound to it by group (`client.ports.list`), and
// openapi-fetch's client of the same console as `client.raw`, loaded on its first call: a bundle that never calls it
// keeps openapi-fetch in a chunk of its own, not loaded.
import type { Client, Middleware } from "openapi-fetch";
import { groups, type RainbondGroups } from "../generated/groups.js";
import type { paths } from "../generated/schema.js";
import { createRainbondCore, later, printable, type ClientOptions, type RainbondCore } from "./call.js";
import type { RainbondPromise } from "./call.js";

/** A client of one console. Independent of any other: no global state. */
export interface RainbondClient extends RainbondGroups {
  readonly baseUrl: string;
  /** The underlying openapi-fetch client, typed by the spec's `paths`; it sends the token too. Loaded on its first call. */
  readonly raw: Client<paths>;
}

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

/** A group's methods bound to `core`: each loads the group's code on the first call of any of them. */
function bindGroup(core: RainbondCore, [load, calls, iterators]: (typeof groups)[string]) {
  type Method = (core: RainbondCore, ...args: unknown[]) => unknown;
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
 * Makes a client of one Rainbond console. Each group's code (`client.ports`) is loaded on the first call of one of
 * its methods: a page carries up front only what every call needs.
 *
 * @example
 * const client = createRainbondClient({ baseUrl: "http://127.0.0.1:7070", token: process.env.RAINBOND_TOKEN! });
 * const component = { teamId: "q8k2mz5d", regionName: "rainbond", appId: 12, serviceId: "gr3f9c2a" };
 * const ports = await client.ports.list(component);
 */
export function createRainbondClient(options: ClientOptions): RainbondClient {
  const core = createRainbondCore(options);
  const bound = Object.fromEntries(Object.entries(groups).map(([name, group]) => [name, bindGroup(core, group)]));
  return printable("RainbondClient", core.baseUrl, {
    ...(bound as unknown as RainbondGroups),
    raw: lazyRaw(core.baseUrl, options),
  });
}
