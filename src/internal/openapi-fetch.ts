// openapi-fetch, loaded on first use (by client.raw, and by a call that runs middleware): a bundle that never uses it
// keeps it in a chunk of its own, not loaded.
import type createClientOf from "openapi-fetch";

let loaded: Promise<typeof createClientOf> | undefined;

/** openapi-fetch's `createClient`: its `default` export, also where a CommonJS build gets `module.exports`. */
export const createClient = () =>
  (loaded ??= import("openapi-fetch").then(({ default: create }) =>
    typeof create === "function" ? create : (create as { default: typeof create }).default,
  ));
