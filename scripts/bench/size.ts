// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Size: the client's entry (src/index.ts) bundled and minified for the browser by esbuild (platform browser, format
// esm), in raw bytes and gzip bytes (zlib level 9), with openapi-fetch bundled in and with it marked external; and
// openapi-fetch alone, for reference. Sizes do not vary between runs: measured once.
import { gzipSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

async function minified(entry, external, { byModule = false } = {}) {
  const result = await esbuild.build({
    sourcemap: byModule ? "external" : false,
    outfile: "bundle.js",
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
  const code = result.outputFiles.find((f) => f.path.endsWith(".js"));
  const bytes = code.contents;
  const size = { raw: bytes.length, gzip: gzip(bytes) };
  if (byModule)
    size.byModule = bytesByModule(code.text, JSON.parse(result.outputFiles.find((f) => f.path.endsWith(".map")).text));
  return size;
}

const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The fields of one segment of a source map's `mappings` (base64 VLQ). */
function decodeSegment(text) {
  const fields = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return fields;
}

/**
 * Where the bytes of a bundle come from, by source module (from its source map): each module's minified bytes, and
 * what it costs in gzip: the bundle's gzip size minus that of the bundle without the module's bytes (so what it shares
 * with the rest compresses into the rest). Sorted, largest first.
 */
function bytesByModule(code, map) {
  const owner = new Array(code.length).fill(-1); // the index in map.sources of the module each character comes from
  const lines = code.split("\n");
  let offset = 0;
  let source = 0;
  lines.forEach((line, i) => {
    let column = 0;
    const starts = [];
    for (const segment of (map.mappings.split(";")[i] ?? "").split(",").filter(Boolean)) {
      const [dColumn, dSource] = decodeSegment(segment);
      column += dColumn;
      if (dSource !== undefined) {
        source += dSource;
        starts.push([column, source]);
      }
    }
    starts.forEach(([from, src], k) => owner.fill(src, offset + from, offset + (starts[k + 1]?.[0] ?? line.length)));
    offset += line.length + 1;
  });
  const total = gzip(Buffer.from(code));
  return map.sources
    .map((name, index) => {
      const kept = [...code].filter((_, at) => owner[at] !== index).join("");
      const raw = code.length - kept.length;
      return {
        module: name.includes("node_modules/")
          ? name.replace(/^.*node_modules\/([^/]+).*$/, "$1")
          : name.replace(/^(\.\.\/)+/, ""),
        raw,
        gzip: total - gzip(Buffer.from(kept)),
      };
    })
    .filter((m) => m.raw > 0)
    .sort((a, b) => b.gzip - a.gzip);
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
    out.client = await minified(entry, [], { byModule: true });
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
