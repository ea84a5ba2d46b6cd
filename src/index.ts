/**
 * A typed client of the Rainbond console's Open API v1.
 *
 * @packageDocumentation
 */
export { createRainbondClient, type RainbondClient } from "./client.js";
export * from "./core.js";
export { toSamples, type Sample } from "./monitor.js";
export type * from "../generated/types.js";
export type * from "../generated/groups.js";
/**
 * The spec's generated types (openapi-typescript), for use with `client.raw`. Left out of the guide: the API reference
 * documents them.
 *
 * @ignore
 */
export type { components, operations, paths } from "../generated/schema.js";
