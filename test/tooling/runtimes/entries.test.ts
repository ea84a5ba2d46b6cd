// How the matrix loads the package in the edge runtime and in Chromium, on tiny fixture packages (no runtime
// installed): a package that imports a Node builtin does not bundle for the edge runtime, and the failure names it;
// a clean one bundles entry.mjs into a script with nothing of Node in it, which prints the report; the browser's import
// map points at the files Node resolves for `import`.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { run } from "../../../scripts/lib/pack.ts";
import { edgeBundle, importMapOf, parseReport, writeEntries } from "../../../scripts/runtimes/entries.ts";

let consumer: string;
beforeEach(async () => {
  consumer = await mkdtemp(join(tmpdir(), "rainbond-runtimes-entries-"));
});
afterEach(() => rm(consumer, { recursive: true, force: true }));

const config = { baseUrl: "http://127.0.0.1:1", hangUrl: "http://127.0.0.1:2", token: "t0ken" };

/** node_modules/<name> with a package.json ("exports": import and require entries) and the given ESM entry. */
async function fixturePackage(name: string, esm: string, dependencies: Record<string, string> = {}) {
  const dir = join(consumer, "node_modules", name);
  await mkdir(join(dir, "dist"), { recursive: true });
  const exports = { ".": { import: "./dist/index.js", require: "./dist/index.cjs" } };
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name, version: "1.0.0", type: "module", exports, dependencies }),
  );
  await writeFile(join(dir, "dist/index.js"), esm);
  await writeFile(join(dir, "dist/index.cjs"), "module.exports = {};\n");
}

/** The entries, with a stand-in for smoke.mjs that reports what the package exports. */
const fixtureEntries = () =>
  writeEntries(
    consumer,
    config,
    "export const smoke = async (lib, config) => ({ exports: Object.keys(lib), config });\n",
  );

describe("the edge bundle", () => {
  test("of a package that imports a Node builtin fails, naming the edge runtime and the import", async () => {
    await fixturePackage(
      "rainbond-openapi",
      'import { readFileSync } from "node:fs";\nexport const read = readFileSync;\n',
    );
    await fixtureEntries();
    await expect(edgeBundle(consumer)).rejects.toThrow(
      'the package does not bundle for the edge runtime: node_modules/rainbond-openapi/dist/index.js: Could not resolve "node:fs"',
    );
  });

  test("of a clean package is one script, with no Node in it, that prints the report", async () => {
    await fixturePackage("openapi-fetch", "export default function createClient() {}\n");
    await fixturePackage(
      "rainbond-openapi",
      'import createClient from "openapi-fetch";\nexport const createRainbondClient = () => createClient();\n',
    );
    await fixtureEntries();
    const script = await edgeBundle(consumer);
    expect(script).not.toMatch(/\brequire\(|node:/);
    // a bare V8 context: no process, no require, no module system
    const printed = new Promise<string>((log) => runInNewContext(script, { console: { log } }));
    expect(parseReport(await printed)).toEqual({ exports: ["createRainbondClient"], config });
  });
});

test("the browser's import map names the ESM entry of the package and of each dependency", async () => {
  await fixturePackage("openapi-fetch", "export default 1;\n");
  await fixturePackage("rainbond-openapi", 'export { default } from "openapi-fetch";\n', { "openapi-fetch": "1.0.0" });
  expect(await importMapOf(consumer, run)).toEqual({
    "rainbond-openapi": "/node_modules/rainbond-openapi/dist/index.js",
    "openapi-fetch": "/node_modules/openapi-fetch/dist/index.js",
  });
});
