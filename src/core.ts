/**
 * `rainbond-openapi/core`: a core of one console for the functions of `rainbond-openapi/operations`, which take it
 * first (`getComponent(core, component)`): a bundle pays only for the operations it imports.
 *
 * @packageDocumentation
 */
export { createRainbondCore } from "./call.js";
export type { Body, OperationData, OperationInput, RainbondCore, RainbondPromise } from "./call.js";
export type { ClientOptions, LogLevel, Logger } from "./options.js";
export type { CallOptions, RetryDelay, WithResponse } from "./transport.js";
// the masking the client's own errors and logs use, for a caller who logs records (a region's `token`, `key_file`)
export { excerpt, redact } from "./redact.js";
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
  RainbondTeamNotOpenedError,
  RainbondTimeoutError,
  type RainbondErrorReason,
  type RequestInfo,
} from "./errors.js";
