/**
 * A typed client of the Rainbond console's Open API v1.
 *
 * @packageDocumentation
 */
export { createRainbondClient, type ClientOptions, type RainbondClient } from "./client.js";
export type {
  AddPortInput,
  AppScope,
  AppsApi,
  Body,
  ComponentScope,
  ComponentsApi,
  Data,
  GatewayApi,
  MonitorApi,
  Port,
  PortProtocol,
  PortsApi,
  RainbondPromise,
  RegionScope,
  RegionsApi,
  Sample,
  TeamsApi,
} from "./api.js";
export {
  RainbondAbortError,
  RainbondApiError,
  RainbondAuthError,
  RainbondBadRequestError,
  RainbondConflictError,
  RainbondConnectionError,
  RainbondError,
  RainbondInputError,
  RainbondNotFoundError,
  RainbondRateLimitError,
  RainbondRedirectError,
  RainbondResponseError,
  RainbondResponseTooLargeError,
  RainbondServerError,
  RainbondTimeoutError,
  type RequestInfo,
} from "./errors.js";
export type { LogLevel, Logger } from "./logger.js";
export { toSamples } from "./monitor.js";
export type { CallOptions, RetryDelay, WithResponse } from "./transport.js";
/**
 * The spec's generated types (openapi-typescript), for use with `client.raw`. Left out of the guide: the API reference
 * documents them.
 *
 * @ignore
 */
export type { components, operations, paths } from "../generated/schema.js";
