// A core holds one console's transport (its options, checked once) in a WeakMap, never on a printable object; each
// operation's function (generated/functions.ts) takes the core first, prepares the request and hands it to send().
import type { OperationId, operations as table } from "../generated/operations.js";
import type { operations } from "../generated/schema.js";
import { transportOf, callOptions, type ClientOptions, type Transport } from "./options.js";
import { fromArgs, namesOf, prepare } from "./prepare.js";
import type { prepareBody, prepareQuery, queryFromOptions } from "./prepare.js";
import type { Arg, OperationInput, OperationSpec, QueryRule, RequestParts } from "./prepare.js";
import { send, type CallOptions, type WithResponse } from "./transport.js";

export type { CallOptions, ClientOptions, OperationInput, WithResponse };

/** A connection to one console, for the functions of `rainbond-openapi/operations`. Holds nothing printable but its URL. */
export interface RainbondCore {
  readonly baseUrl: string;
}

/** A call's result: await it for the data, or call `withResponse()` for the data and the raw `Response`. */
export interface RainbondPromise<T> extends Promise<T> {
  withResponse(): Promise<WithResponse<T>>;
}

type SuccessOf<R> = R extends { 200: { content: { "application/json": infer T } } }
  ? T
  : R extends { 201: { content: { "application/json": infer T } } }
    ? T
    : void; // an answer without content
/** What operation `O` answers on success, as the spec declares it. */
export type OperationData<O extends keyof operations> = SuccessOf<operations[O]["responses"]>;
/** The request body of operation `O`, as the spec declares it. */
export type Body<O extends keyof operations> = NonNullable<operations[O]["requestBody"]>["content"]["application/json"];

const transports = new WeakMap<RainbondCore, Transport>();

/** A frozen object that prints and serialises as its `baseUrl` alone (`Kind { baseUrl: "..." }`): no token shows. */
export function printable<T extends object>(
  kind: string,
  baseUrl: string,
  members: T,
): Readonly<T & { baseUrl: string }> {
  const describe = () => `${kind} { baseUrl: ${JSON.stringify(baseUrl)} }`;
  const inspect = Symbol.for("nodejs.util.inspect.custom");
  return Object.freeze({ baseUrl, ...members, toJSON: () => ({ baseUrl }), toString: describe, [inspect]: describe });
}

/**
 * Makes a core for one Rainbond console; the options are those of `createRainbondClient`, checked here.
 *
 * @example
 * const core = createRainbondCore({ baseUrl: "http://127.0.0.1:7070", token: process.env.RAINBOND_TOKEN! });
 * const component = await getComponent(core, { teamId: "q8k2mz5d", regionName: "rainbond", appId: 12, serviceId: "gr3f9c2a" });
 */
export function createRainbondCore(options: ClientOptions): RainbondCore {
  const transport = transportOf(options);
  const core = printable("RainbondCore", transport.baseUrl, {});
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

type ArgOf<A> = A extends { kind: "scope"; params: infer P }
  ? { [K in keyof P]: unknown }
  : A extends { kind: "path" }
    ? string | number
    : A extends { kind: "options" }
      ? object | undefined
      : unknown;
type ArgsOf<T extends readonly Arg[]> = { -readonly [K in keyof T]: ArgOf<T[K]> };
/** The function of operation `Id`: its arguments as the table says, then the call options. */
export type OperationFunction<Id extends OperationId> = (
  core: RainbondCore,
  ...args: [...ArgsOf<(typeof table)[Id]["args"]>, CallOptions?]
) => RainbondPromise<OperationData<Id>>;

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
export function operation<Id extends OperationId>(
  spec: (typeof table)[Id] & OperationSpec,
  parts: PartsOf<(typeof table)[Id]> & RequestParts,
): OperationFunction<Id> {
  const names = namesOf(spec);
  return (core, ...args) =>
    call(core, spec.name, () => prepare(spec, fromArgs(spec, args, parts), names, parts), args[spec.args.length]);
}
