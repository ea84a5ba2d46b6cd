#!/usr/bin/env node
// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// npm run test:runtimes: the package, packed, in every runtime and TypeScript its users have (docs/runtimes.md).
//
//   1. builds and packs the package and installs the tarball into a throwaway consumer project (the package tests'
//      helpers, test/package/helpers.ts, loaded through typescript-hooks.mjs);
//   2. starts the Prism mock of the spec (scripts/prism.ts) and a loopback server that never finishes an answer;
//   3. installs the pinned runtimes and compilers into the cache folder where they are missing (cache.mjs);
//   4. runs the smoke suite (smoke.mjs) in each runtime and compiles consumer.mts with each TypeScript (matrix.mjs),
//      printing one line per row and, last, `N passed, N failed`. Exit code 1 when any row failed.
//
//   npm run test:runtimes                                   the whole matrix
//   npm run test:runtimes -- --only deno,edge,"node 22"     the rows whose names start so
//   npm run test:runtimes -- --only typescript --typescript 5.3.3,5.4.2   other TypeScript versions (e.g. to bisect)
import { transform } from "esbuild";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { commandLine } from "../lib/script.ts";
import { startPrism } from "../prism.ts";
import { buildAndPack, createConsumer, root, run } from "../../test/package/helpers.ts";
import { guardContext, launchChromium } from "../../test/browser/chromium.ts";
import { importMapOf, runInChromium } from "./browser.ts";
import { cacheRoot, installed } from "./cache.ts";
import { matrixRows, PINNED, writeEntries } from "./matrix.ts";
import { runRows } from "./outcome.ts";
import { startHangingServer } from "./servers.ts";
import { writeTypeScriptConsumer } from "./typescript.ts";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = commandLine(
  "usage: npm run test:runtimes -- [--only <row>,<row>...] [--typescript <version>,<version>...]\n\n" +
    '  --only        the rows whose names start so, e.g. deno,edge,"node 22"\n' +
    "  --typescript  the TypeScript versions of the typescript row, e.g. 5.3.3,5.4.2",
  { only: { type: "string" }, typescript: { type: "string" } },
);
const only = values.only?.split(",").map((w) => w.trim().toLowerCase());
const typescripts = values.typescript?.split(",").map((v) => v.trim()) ?? PINNED.typescript;
const print = (line) => console.log(line);

const cache = cacheRoot();
const installs = new Map();
/** Each spec installed once per run, on first need; concurrent needs share the install. */
const install = (spec) => {
  if (!installs.has(spec)) installs.set(spec, installed(spec, { root: cache, run }));
  return installs.get(spec);
};

print(`runtimes and compilers from the npm registry, cached in ${cache}`);
const packed = await buildAndPack();
const consumer = await createConsumer(packed).catch(async (err) => {
  await packed.cleanup();
  throw err;
});
const prism = await startPrism();
const hang = await startHangingServer();
let failed = true;
try {
  const config = { baseUrl: prism.url, hangUrl: hang.url, token: "smoke-token-never-shown-7f3a" };
  // the suite runs as JavaScript in every runtime (Node 20 and browsers strip no types): esbuild removes them
  const smokeSource = (await transform(await readFile(join(here, "smoke.ts"), "utf8"), { loader: "ts" })).code;
  await writeEntries(consumer.dir, config, smokeSource);
  await writeTypeScriptConsumer(consumer.dir);
  const chromiumManifest = join(root, "node_modules/@sparticuz/chromium/package.json");
  const chromiumVersion = JSON.parse(await readFile(chromiumManifest, "utf8")).version;
  const rows = matrixRows({
    run,
    install,
    consumerDir: consumer.dir,
    config,
    edgeHost: join(here, "edge-host.ts"),
    chromiumVersion,
    chromium: async (config) =>
      runInChromium({
        consumerDir: consumer.dir,
        config,
        smokeSource,
        importMap: await importMapOf(consumer.dir, run),
        launchChromium,
        guardContext,
      }),
    typescripts,
  }).filter((row) => !only || only.some((start) => row.name.toLowerCase().startsWith(start)));
  if (rows.length === 0) throw new Error(`--only ${values.only} names no row`);
  // Start every install now (the downloads overlap); each row waits for its own and fails alone if it fails.
  for (const spec of new Set(rows.flatMap((row) => row.needs))) install(spec).catch(() => {});
  const outcomes = await runRows(rows, print);
  failed = outcomes.some((o) => !o.ok);
} finally {
  await hang.close();
  await prism.stop();
  await consumer.cleanup();
  await packed.cleanup();
}
process.exitCode = failed ? 1 : 0;
