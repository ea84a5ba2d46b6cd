// Size: the client's entry (src/index.ts) bundled and minified for the browser by esbuild (platform browser, format
// esm), in raw bytes and gzip bytes (zlib level 9), with openapi-fetch bundled in and with it marked external; and
// openapi-fetch alone, for reference. Sizes do not vary between runs: measured once.
import { gzipSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

async function minified(entry, external) {
  const result = await esbuild.build({
    ...entry,
    bundle: true,
    minify: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    external,
    write: false,
    logLevel: "silent",
    legalComments: "none",
  });
  const bytes = result.outputFiles[0].contents;
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

export async function benchSize({ withClient }) {
  const out = {
    "openapi-fetch": await minified(
      { stdin: { contents: 'export { default } from "openapi-fetch";', resolveDir: root, loader: "js" } },
      [],
    ),
  };
  if (withClient) {
    const entry = { entryPoints: [join(root, "src/index.ts")] };
    out.client = await minified(entry, []);
    out.clientWithoutOpenapiFetch = await minified(entry, ["openapi-fetch"]);
  }
  return out;
}

/** Bundles src/index.ts for Node (openapi-fetch external, so contenders b and c share it) into `outfile`. */
export async function bundleClientForNode(outfile) {
  await esbuild.build({
    entryPoints: [join(root, "src/index.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["openapi-fetch"],
    outfile,
    logLevel: "silent",
  });
  return outfile;
}
