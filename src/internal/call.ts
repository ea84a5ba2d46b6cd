// A core holds one console's transport (its options, checked once) in a WeakMap, never on a printable object; each
// operation's function (generated/functions.ts) takes the core first, prepares the request and hands it to send().
// Below the entries (src/core.ts makes cores with it): nothing here reads generated code.
import type { CallOptions, ClientOptions } from "../core/options.js";
import type { RainbondCore, RainbondPromise, WithResponse } from "../core/promise.js";
import type { Arg, OperationSpec, QueryRule } from "../core/table.js";
import { callOptions, configure, type Transport } from "./config.js";
import { fromArgs, namesOf, prepare, type RequestParts } from "./prepare.js";
import type { prepareBody, prepareQuery, queryFromOptions } from "./prepare.js";
import { secretNames } from "../core/redact.js";
import { send } from "./transport/send.js";

export type { CallOptions, RainbondCore, RainbondPromise } from "../core/promise.js";

const transports = new WeakMap<RainbondCore, Transport>();

/** The transport of `core` (a core made by makeCore). */
export const transportOf = (core: RainbondCore) => transports.get(core)!;

/** Makes a core for one console from the options of `createRainbondClient`, checked here. */
export function makeCore(options: ClientOptions): RainbondCore {
  const transport = configure(options);
  // its URL alone, as an object: the transport, token and all, lies in `transports`, which no printing walks
  const core: RainbondCore = Object.freeze({ baseUrl: transport.baseUrl });
  transports.set(core, transport);
  return core;
}

/** A promise of the data, with `withResponse()` for the Response too. */
function promiseOf<T>(result: Promise<WithResponse<T>>): RainbondPromise<T> {
  const data = result.then((r) => r.data) as RainbondPromise<T>;
  data.withResponse = () => {
    data.catch(() => {}); // the caller listens to `result` instead
    return result;
  };
  return data;
}

/**
 * The call that `start` makes once `ready` resolves (a method whose code was still loading), as a call of its own. (A
 * function, not the call: a promise resolved with a RainbondPromise would take its data, not the call.)
 */
export const later = <F, T>(ready: Promise<F>, start: (ready: F) => RainbondPromise<T>): RainbondPromise<T> =>
  promiseOf(ready.then((value) => start(value).withResponse()));

/** A call refused before it started: a rejected promise, like every method's. */
export const rejected = <T = never>(err: unknown): RainbondPromise<T> => promiseOf<T>(Promise.reject(err));

/** Sends a request made by `make` (which may throw a RainbondInputError: then nothing is sent). */
export function call<T>(core: RainbondCore, name: string, make: () => ReturnType<typeof prepare>, options: unknown) {
  try {
    const transport = transports.get(core);
    if (!transport) throw new TypeError(`${name}: the first argument must be a core made by createRainbondCore`);
    return promiseOf(send(transport, make(), callOptions(name, options)) as Promise<WithResponse<T>>);
  } catch (err) {
    return rejected<T>(err);
  }
}

/**
 * The generated table's operations by operationId, as types: each one's entry of the table (`spec`) and what it
 * answers (`data`). Empty here, below generated code: src/operations.ts fills it (declaration merging), so that
 * operation() types each function from its entry, and a table that disagrees with a function's declared type fails
 * tsc, while this module imports nothing generated.
 */
export interface TypedOperations {}

type ArgOf<A> = A extends { kind: "scope"; params: infer P }
  ? { [K in keyof P]: unknown }
  : A extends { kind: "path" }
    ? string | number
    : A extends { kind: "options" }
      ? object | undefined
      : unknown;
type ArgsOf<T extends readonly Arg[]> = { -readonly [K in keyof T]: ArgOf<T[K]> };
type Typed<Id> = Id extends keyof TypedOperations
  ? TypedOperations[Id] extends { spec: infer S extends OperationSpec; data: infer D }
    ? { spec: S; data: D }
    : never
  : { spec: OperationSpec; data: unknown };

/**
 * The function of operation `Id`: its arguments as its entry of the table says, then the call options (in a program
 * that does not read the table's types, any arguments: generated/functions.ts declares each function's type).
 */
export type OperationFunction<Id extends string> = Id extends keyof TypedOperations
  ? (
      core: RainbondCore,
      ...args: [...ArgsOf<Typed<Id>["spec"]["args"]>, CallOptions?]
    ) => RainbondPromise<Typed<Id>["data"]>
  : (core: RainbondCore, ...args: any[]) => RainbondPromise<any>;

/**
 * The request parts (RequestParts) of an operation of entry `S`: its query's and its body's where it has them, only,
 * and the rule of its time range where it has one.
 */
export type PartsOf<S> = ("query" extends keyof S
  ? {
      readonly options: typeof queryFromOptions;
      readonly query: typeof prepareQuery;
      readonly rules?: readonly QueryRule[];
    }
  : { readonly options?: never; readonly query?: never; readonly rules?: never }) &
  ("timeRange" extends keyof S ? { readonly rules: readonly QueryRule[] } : unknown) &
  ("body" extends keyof S ? { readonly body: typeof prepareBody } : { readonly body?: never });

/**
 * Makes the function of operation `Id` from its entry of the table and the code of its request parts
 * (generated/functions.ts calls it once per operation, naming the operation: the entry does not carry its operationId).
 */
export function operation<Id extends string>(
  spec: Typed<Id>["spec"],
  parts: (Id extends keyof TypedOperations ? PartsOf<Typed<Id>["spec"]> : unknown) & RequestParts,
): OperationFunction<Id> {
  const names = namesOf(spec);
  secretNames(spec.secrets ?? []); // its secret fields, masked wherever the client shows or logs a value
  const fn = (core: RainbondCore, ...args: unknown[]) =>
    call(core, spec.name, () => prepare(spec, fromArgs(spec, args, parts), names, parts), args[spec.args.length]);
  return fn as OperationFunction<Id>;
}
