// What a call gives and what it runs on, as a caller sees them: a core of one console, and a call's promise.
export type { CallOptions } from "./options.js";

/** A connection to one console, for the functions of `rainbond-openapi/operations`. Holds nothing printable but its URL. */
export interface RainbondCore {
  readonly baseUrl: string;
}

/** The data of a call, and the Response it came from. */
export interface WithResponse<T> {
  data: T;
  response: Response;
}

/** A call's result: await it for the data, or call `withResponse()` for the data and the raw `Response`. */
export interface RainbondPromise<T> extends Promise<T> {
  withResponse(): Promise<WithResponse<T>>;
}
