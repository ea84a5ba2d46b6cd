// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The entries of the smoke suite: the few lines that load the package the way each runtime's users do and hand its
// exports to smoke.mjs, the same file everywhere. The config (the mock's URL, the hanging server's, the token) is
// written into each entry, so no runtime needs an environment variable or a permission to read one.
import { build } from "esbuild";
import { REPORT_MARK } from "./smoke.ts";

const PACKAGE = "rainbond-openapi";
const literal = (value) => JSON.stringify(value);

/** An ES module that imports the package (Node, Bun, Deno) and prints the report. */
export function esmEntry(config) {
  return `import * as lib from ${literal(PACKAGE)};
import { smoke } from "./smoke.mjs";
console.log(${literal(REPORT_MARK)} + JSON.stringify(await smoke(lib, ${literal(config)})));
`;
}

/** A CommonJS module that requires the package (Node, Bun) and prints the report. */
export function cjsEntry(config) {
  return `const lib = require(${literal(PACKAGE)});
import("./smoke.mjs")
  .then(({ smoke }) => smoke(lib, ${literal(config)}))
  .then((report) => console.log(${literal(REPORT_MARK)} + JSON.stringify(report)));
`;
}

/**
 * The package and the suite bundled as one script for the edge runtime, as a Vercel Edge Function is bundled (the
 * `edge-light`, `worker` and `browser` export conditions, no Node builtins: an import of one fails the bundle). The
 * script leaves its report's promise on `globalThis.smokeReport`.
 */
export async function edgeBundle(consumerDir, config, smokePath) {
  const contents = `import * as lib from ${literal(PACKAGE)};
import { smoke } from ${literal(smokePath)};
globalThis.smokeReport = smoke(lib, ${literal(config)});
`;
  try {
    const result = await build({
      stdin: { contents, resolveDir: consumerDir, sourcefile: "edge-entry.mjs" },
      absWorkingDir: consumerDir,
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      conditions: ["edge-light", "worker"],
      target: "es2022",
      logLevel: "silent",
    });
    return result.outputFiles[0].text;
  } catch (err) {
    const errors = err.errors?.map((e) => `${e.location?.file ?? ""}: ${e.text}`).join("; ");
    throw new Error(`the package does not bundle for the edge runtime: ${errors ?? err.message}`, { cause: err });
  }
}

/**
 * The page Chromium opens: the package's ES modules as shipped, loaded through an import map (no bundler in between),
 * and the suite's report's promise on `window.smokeReport`. A module that fails to load (an import the browser cannot
 * resolve, such as `node:fs`) rejects that promise with the browser's message.
 */
export function browserPage(config, importMap) {
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>rainbond-openapi smoke suite</title>
<script type="importmap">${JSON.stringify({ imports: importMap })}</script>
<script type="module">
window.smokeReport = Promise.all([import(${literal(PACKAGE)}), import("/smoke.mjs")]).then(([lib, { smoke }]) =>
  smoke(lib, ${literal(config)}),
);
</script>
</html>
`;
}
