// The package's build (`npm run build`, which scripts/build.ts runs through tsdown's API; `prepare` for git installs):
// tsdown bundles src/ into dist/ for `import` and for `require`, with declarations for each, as "exports" names them.
//
//   dist/{index,core,operations}.js and .d.ts      ESM: rainbond-openapi, /core and /operations
//   dist/{index,core,operations}.cjs and .d.cts    CommonJS, with CommonJS declarations
//   dist/chunks/<chunk>.{js,cjs,d.ts,d.cts}        code the entries share, split out once per format, so that an
//                                                  error class is one class whichever entry it was imported from;
//                                                  in a folder of their own, so that no chunk can take an entry's
//                                                  file name (a chunk named like an entry once did, and the entry's
//                                                  declarations went to core2.d.ts)
//   dist/openapi.json                              the bundled spec (generated/openapi.json), as /openapi.json
//
// openapi-fetch stays a dependency (imported, not bundled). No source maps: they would point at src/, which is not
// published. `scripts/build.ts --out-dir <dir>` builds elsewhere (the package tests do).
import { defineConfig } from "tsdown";

export default defineConfig({
  entry: { index: "src/index.ts", core: "src/core.ts", operations: "src/operations.ts" },
  format: ["esm", "cjs"],
  platform: "neutral",
  target: "es2022",
  dts: { sourcemap: false },
  hash: false,
  // tsdown's own chunk names (a function that picks .d.ts or .d.cts for declarations), under chunks/
  outputOptions: ({ chunkFileNames: name }) => ({
    chunkFileNames: typeof name === "function" ? (chunk) => `chunks/${name(chunk)}` : `chunks/${name}`,
  }),
  copy: ["generated/openapi.json"],
  failOnWarn: true,
  checks: { pluginTimings: false },
});
