/**
 * A typed client of the Rainbond console's Open API v1.
 *
 * @packageDocumentation
 */
// How src/ reads, top down, each layer importing only those below it:
//   index.ts, core.ts, operations.ts   the package's entries, the only modules here that read generated/
//   generated/                         the table, its functions and groups, made from the spec
//   internal/                          the machinery generated code calls: checks (validate, prepare), a call and
//                                      its core (call), the transport (transport/, one concern a module), iterators,
//                                      shortcuts, the grouped client
//   core/                              what the entries make public and the rest builds on: the table's types (a
//                                      leaf), options, a call's promise, the error hierarchy, masking
// This entry gives the runtime the table's groups.
import { createRainbondCore } from "./core.js"; // first: its generated/operations.ts leads the bundle, which gzip likes
import type { Client } from "openapi-fetch";
import type { RainbondGroups } from "../generated/groups.js";
import { groups } from "../generated/groups/index.js";
import { notReplayable } from "../generated/not-replayable.js";
import type { paths } from "../generated/schema.js";
import type { ClientOptions } from "./core/options.js";
import { clientOf } from "./internal/client.js";

export * from "./core.js";
export { toSamples, type Sample } from "./core/monitor.js";
export type * from "../generated/types.js";
// The grouped client's interfaces (`PortsApi`, `RainbondGroups`, ...): generated/groups.ts holds types only; the
// groups' functions are in generated/groups/, loaded by createRainbondClient on a group's first call.
export type * from "../generated/groups.js";
/**
 * The spec's generated types (openapi-typescript), for use with `client.raw`. Left out of the guide: the API reference
 * documents them.
 *
 * @ignore
 */
export type { components, operations, paths } from "../generated/schema.js";

/** A client of one console. Independent of any other: no global state. */
export interface RainbondClient extends RainbondGroups {
  readonly baseUrl: string;
  /**
   * openapi-fetch's client of the same console, typed by the spec's `paths`, loaded on its first call. Its fetch is
   * this client's transport: a raw call has the methods' timeout (`timeoutMs` per attempt), retries (the same policy,
   * by method: a POST is sent again only when the connection was refused, and so is a GET the console does not treat
   * as idempotent, `/users/{user_id}/close` or `/delete`), redirect rule, body cap
   * (`maxResponseBytes`), logging and masking. An answer of any status comes back as openapi-fetch returns it
   * (`{ data, response }`, or `{ error, response }` for a non-2xx one, after the retries its status allows, with its
   * body masked as a method's error body is: secret fields and the token replaced, `error_trace` dropped, a body that
   * is not JSON as a short excerpt); the console's data is not unwrapped from its envelope or checked against the spec.
   * A call without an answer rejects with the methods' errors: RainbondTimeoutError, RainbondConnectionError,
   * RainbondAbortError (its `signal`), RainbondRedirectError (a redirect to another origin) and
   * RainbondResponseTooLargeError. Middleware (the options' and `raw.use`'s) runs once per call, around its attempts.
   */
  readonly raw: Client<paths>;
}

/**
 * Makes a client of one Rainbond console. The code of each group of methods (`client.ports`) is loaded on the first
 * call of one of them: a page carries up front only what every call needs.
 *
 * @example
 * const client = createRainbondClient({ baseUrl: "http://127.0.0.1:7070", token: process.env.RAINBOND_TOKEN! });
 * const component = { teamId: "q8k2mz5d", regionName: "rainbond", appId: 12, serviceId: "gr3f9c2a" };
 * const ports = await client.ports.list(component);
 */
export function createRainbondClient(options: ClientOptions): RainbondClient {
  return clientOf<RainbondGroups, paths>(createRainbondCore(options), groups, notReplayable);
}
