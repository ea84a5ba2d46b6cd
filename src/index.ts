/**
 * A typed client of the Rainbond console's Open API v1.
 *
 * @packageDocumentation
 */
export { createRainbondClient, type RainbondClient } from "./client.js";
export * from "./core.js";
export { toSamples, type Sample } from "./monitor.js";
export type * from "../generated/types.js";
// The grouped client's interfaces, by name. Not `export type *`: that re-exports the table `groups` too, and the
// declaration bundler then declares it a value that the entry does not export at run time. The table stays inside:
// createRainbondClient binds it; rainbond-openapi/operations has one function per operation, for a bundle apart.
export type {
  AppsApi,
  ComponentsApi,
  GatewayApi,
  MonitorApi,
  PortsApi,
  RainbondGroups,
  RegionsApi,
  TeamsApi,
} from "../generated/groups.js";
/**
 * The spec's generated types (openapi-typescript), for use with `client.raw`. Left out of the guide: the API reference
 * documents them.
 *
 * @ignore
 */
export type { components, operations, paths } from "../generated/schema.js";
