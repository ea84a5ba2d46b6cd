// A core holds one console's transport (its options, checked once) in a WeakMap, never on a printable object; each
// operation's function (generated/functions.ts) takes the core first, prepares the request and hands it to send().
// Below the entries (src/core.ts makes cores with it): nothing here reads generated code.
import type { ClientOptions } from "../core/options.js";
import type { RainbondCore, RainbondPromise, WithResponse } from "../core/promise.js";
import type { OperationSpec } from "../core/table.js";
import { callOptions, configure, type Transport } from "./config.js";
import { fromArgs, namesOf, prepare, type RequestParts } from "./prepare.js";
import { send } from "./transport/send.js";

export type { CallOptions, RainbondCore, RainbondPromise } from "../core/promise.js";

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

/** The transport of `core` (a core made by makeCore). */
export const transportOf = (core: RainbondCore) => transports.get(core)!;

/** Makes a core for one console from the options of `createRainbondClient`, checked here. */
export function makeCore(options: ClientOptions): RainbondCore {
  const transport = configure(options);
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

/** The function of an operation (its type is generated/functions.ts's, which declares each). */
export type OperationFunction = (core: RainbondCore, ...args: any[]) => RainbondPromise<any>;

/**
 * Makes the function of operation `Id` from its entry of the table and the code of its request parts
 * (generated/functions.ts calls it once per operation, naming the operation: the entry does not carry its operationId,
 * and declares the function's type; test/types.test-d.ts checks that each declaration agrees with the table).
 */
export function operation<Id extends string>(spec: OperationSpec, parts: RequestParts): OperationFunction {
  const names = namesOf(spec);
  return (core, ...args) =>
    call(core, spec.name, () => prepare(spec, fromArgs(spec, args, parts), names, parts), args[spec.args.length]);
}
