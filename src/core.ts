/**
 * `rainbond-openapi/core`: a core of one console for the functions of `rainbond-openapi/operations`, which take it
 * first (`getComponent(core, component)`): a bundle pays only for the operations it imports.
 *
 * @packageDocumentation
 */
// An entry: with src/index.ts and src/operations.ts, the only modules of src/ that read generated/. It gives the
// runtime below it (src/core/, src/internal/) the spec's names of secret fields before any core it makes or any
// masking it exports runs: they are defined here, not re-exported, and each gives them first.
import { sensitiveFields } from "../generated/sensitive.js";
import type { operations } from "../generated/schema.js";
import type { ClientOptions } from "./core/options.js";
import type { RainbondCore } from "./core/promise.js";
import * as masking from "./core/redact.js";
import { makeCore } from "./internal/call.js";

/** Gives the masking every name of a secret field the spec has, once, before it masks a caller's value (an operation
 * gives its own as its function is made): a call, not a statement of this module, so that a bundle of neither carries
 * the names. */
const withSecretNames = () => void (masking.SENSITIVE.size || masking.secretNames(sensitiveFields));

export type { OperationInput } from "./core/table.js";
export type { RainbondCore, RainbondPromise, WithResponse } from "./core/promise.js";
export type { CallOptions, ClientOptions, IterationLimits, LogLevel, Logger } from "./core/options.js";
export type { RetryDelay } from "./core/retry.js";
export {
  RainbondAbortError,
  RainbondApiError,
  RainbondAuthError,
  RainbondBadRequestError,
  RainbondConflictError,
  RainbondConnectionError,
  RainbondError,
  RainbondInputError,
  RainbondIterationLimitError,
  RainbondNotFoundError,
  RainbondRateLimitError,
  RainbondRedirectError,
  RainbondResponseError,
  RainbondResponseTooLargeError,
  RainbondServerError,
  RainbondTeamNotOpenedError,
  RainbondTimeoutError,
  type InputRule,
  type IterationLimit,
  type RainbondErrorReason,
  type RequestInfo,
} from "./core/errors.js";

type SuccessOf<R> = R extends { 200: { content: { "application/json": infer T } } }
  ? T
  : R extends { 201: { content: { "application/json": infer T } } }
    ? T
    : void; // an answer without content
/** What operation `O` answers on success, as the spec declares it. */
export type OperationData<O extends keyof operations> = SuccessOf<operations[O]["responses"]>;
/** The request body of operation `O`, as the spec declares it. */
export type Body<O extends keyof operations> = NonNullable<operations[O]["requestBody"]>["content"]["application/json"];

/**
 * Makes a core for one Rainbond console; the options are those of `createRainbondClient`, checked here.
 *
 * @example
 * const core = createRainbondCore({ baseUrl: "http://127.0.0.1:7070", token: process.env.RAINBOND_TOKEN! });
 * const component = await getComponent(core, { teamId: "q8k2mz5d", regionName: "rainbond", appId: 12, serviceId: "gr3f9c2a" });
 */
export function createRainbondCore(options: ClientOptions): RainbondCore {
  return makeCore(options);
}

// the masking the client's own errors and logs use, for a caller who logs records (a region's `token`, `key_file`)

/**
 * A deep copy of `value` with the fields the spec marks secret masked (`[redacted]`), `error_trace` dropped and any
 * other server traceback replaced, and each of `secrets` replaced wherever it appears, in keys too; below 32 levels,
 * `[too deep]`.
 */
export function redact(value: unknown, secrets: readonly string[]): unknown {
  withSecretNames();
  return masking.redact(value, [...secrets]); // a copy: the masking keeps what matches a list it was given
}

/**
 * A short, safe, one-line excerpt of a body that is not JSON (an HTML page, say): tags, `secrets` and the values of
 * the fields the spec marks secret removed. Reads only the first 4,096 characters, and a secret that begins within
 * them to its end: one that begins past them is never read, not even in part. Secrets are masked as sent, as an HTML
 * page escapes them, and again once the entities are decoded.
 */
export function excerpt(text: string, secrets: readonly string[], max?: number): string {
  withSecretNames();
  return masking.excerpt(text, [...secrets], max);
}
