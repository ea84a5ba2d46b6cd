/**
 * `rainbond-openapi/core`: a core of one console for the functions of `rainbond-openapi/operations`, which take it
 * first (`getComponent(core, component)`): a bundle pays only for the operations it imports.
 *
 * @packageDocumentation
 */
export {
  createRainbondCore,
  type Body,
  type OperationData,
  type OperationInput,
  type RainbondCore,
  type RainbondPromise,
} from "./call.js";
export type { ClientOptions } from "./options.js";
export type { CallOptions, RetryDelay, WithResponse } from "./transport.js";
export type { LogLevel, Logger } from "./options.js";
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
