// Size budgets, deterministic: the package's entries bundled for the browser by esbuild (ESM, minified, openapi-fetch
// bundled in), gzip level 9. A bundle grows with what it imports: one operation with its core, the whole grouped client,
// toSamples alone. The ceilings are today's sizes with a little room, so that growth is a decision: issue 21 asks for
// 4 KB and 8 KB, which the runtime does not reach with every behaviour of issue 20 in each bundle (docs/performance.md).
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { expect, test } from "vitest";
import { root } from "./helpers/readme.js";

async function gzipOf(contents: string): Promise<number> {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
    legalComments: "none",
  });
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length;
}

const BUDGETS = {
  "one operation with its core": [
    `import { createRainbondCore } from "./src/core.ts"; import { getComponent } from "./src/operations.ts";
     export const call = (url: string) => getComponent(createRainbondCore({ baseUrl: url, token: "t" }), {} as never);`,
    7_900,
  ],
  "the grouped client": [
    `import { createRainbondClient } from "./src/index.ts";
     export const make = (url: string) => createRainbondClient({ baseUrl: url, token: "t" });`,
    13_400,
  ],
  "toSamples alone": [`export { toSamples } from "./src/index.ts";`, 512],
} as const;

test.each(Object.entries(BUDGETS))("%s stays within its gzip budget", async (_, [entry, budget]) => {
  expect(await gzipOf(entry)).toBeLessThanOrEqual(budget);
});

test("a bundle pays only for the operations it imports", async () => {
  const one = await gzipOf(`export { getComponent } from "./src/operations.ts"; export * from "./src/core.ts";`);
  const all = await gzipOf(`export * from "./src/operations.ts"; export * from "./src/core.ts";`);
  expect(all - one).toBeGreaterThan(1500);
});
