// createRainbondClient: a core, with the generated table's functions bound to it by group (`client.ports.list`), and
// openapi-fetch's client of the same console as `client.raw`.
import openapiFetch, { type Client } from "openapi-fetch";
import { groups, type RainbondGroups } from "../generated/groups.js";
import type { paths } from "../generated/schema.js";
import { createRainbondCore, printable, type ClientOptions, type RainbondCore } from "./call.js";

/**
 * openapi-fetch's `createClient`. In the CommonJS build a default import of a CommonJS module follows Node's rule for
 * ES modules (this package is `"type": "module"`) and yields `module.exports`, whose `default` it is
 * (rolldown/tsdown#1054); in ES modules it is the import itself.
 */
const createClient: typeof openapiFetch =
  typeof openapiFetch === "function" ? openapiFetch : (openapiFetch as { default: typeof openapiFetch }).default;

/** A client of one console. Independent of any other: no global state. */
export interface RainbondClient extends RainbondGroups {
  readonly baseUrl: string;
  /** The underlying openapi-fetch client, typed by the spec's `paths`; it sends the token too. */
  readonly raw: Client<paths>;
}

type Bound<G> = {
  readonly [K in keyof G]: G[K] extends (core: RainbondCore, ...args: infer A) => infer R ? (...args: A) => R : never;
};

/** Each function of `group` with `core` as its first argument, frozen. */
function bind<G extends object>(core: RainbondCore, group: G): Bound<G> {
  const entries = Object.entries(group).map(([name, fn]) => [name, (...args: unknown[]) => fn(core, ...args)]);
  return Object.freeze(Object.fromEntries(entries)) as Bound<G>;
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
  const { baseUrl } = core;
  const headers = { ...options.headers, authorization: options.token };
  const raw = createClient<paths>({ baseUrl, fetch: options.fetch ?? globalThis.fetch, headers });
  raw.use(...(options.middleware ?? []));
  const bound = Object.fromEntries(Object.entries(groups).map(([name, group]) => [name, bind(core, group)]));
  const methods: RainbondGroups = bound as { [G in keyof typeof groups]: Bound<(typeof groups)[G]> };
  return printable("RainbondClient", baseUrl, { ...methods, raw });
}
