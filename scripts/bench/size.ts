// Size: src/index.ts bundled and minified by esbuild, with openapi-fetch in and external, and openapi-fetch alone. By
// module: the gzip bytes the bundle loses without the module's characters, which only the source map (read by
// node:module's SourceMap) places; esbuild's metafile counts bytes, not positions.
import { SourceMap } from "node:module";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type BuildOptions } from "esbuild";
import { root } from "../lib/script.ts";

const client = { entryPoints: [join(root, "src/index.ts")] };
const gzip = (text: string | Uint8Array) => gzipSync(text, { level: 9 }).length;
const moduleName = (file = "") => file.replace(/^.*node_modules\/([^/]+).*$/, "$1").replace(/^(\.\.\/)+/, "");

const BROWSER = { bundle: true, minify: true, platform: "browser", format: "esm", target: "es2022" } as const;
const OUT = { absWorkingDir: root, outfile: "bundle.js", sourcemap: "external", metafile: true, write: false } as const;

async function minified(entry: BuildOptions, external: string[] = []) {
  const { outputFiles, metafile } = await build({ ...entry, ...BROWSER, ...OUT, external, legalComments: "none" });
  const [map, code] = [".map", ".js"].map((ext) => outputFiles.find((f) => f.path.endsWith(ext))!);
  return { raw: code!.contents.length, gzip: gzip(code!.contents), code: code!.text, map: map!.text, metafile };
}

/** Each module's bytes in the bundle, and what gzip loses without them (what they share with the rest stays). */
type Entry = { originalSource?: string };
function byModule({ code, map, metafile, gzip: total }: Awaited<ReturnType<typeof minified>>) {
  const sourceMap = new SourceMap(JSON.parse(map));
  const source = (i: number, c: number) => moduleName((sourceMap.findEntry(i, c) as Entry).originalSource);
  const owner = code.split("\n").flatMap((line, i) => Array.from({ length: line.length + 1 }, (_, c) => source(i, c)));
  const raw = new Map<string, number>();
  for (const [file, { bytesInOutput }] of Object.entries(metafile.outputs["bundle.js"]!.inputs)) {
    if (bytesInOutput) raw.set(moduleName(file), (raw.get(moduleName(file)) ?? 0) + bytesInOutput);
  }
  const chars = code.split("");
  const without = (module: string) => gzip(chars.filter((_, at) => owner[at] !== module).join(""));
  const rows = [...raw].map(([module, bytes]) => ({ module, raw: bytes, gzip: total - without(module) }));
  return rows.sort((a, b) => b.gzip - a.gzip);
}

export async function benchSize() {
  const whole = await minified(client);
  const alone = await minified({ stdin: { contents: 'export { default } from "openapi-fetch";', resolveDir: root } });
  const { raw, gzip } = await minified(client, ["openapi-fetch"]);
  return {
    client: { raw: whole.raw, gzip: whole.gzip, byModule: byModule(whole) },
    clientWithoutOpenapiFetch: { raw, gzip },
    "openapi-fetch": { raw: alone.raw, gzip: alone.gzip },
  };
}

/** Bundles src/index.ts for Node (openapi-fetch external, so contenders b and c share it) into `outfile`. */
export async function bundleClientForNode(outfile: string): Promise<string> {
  const node: BuildOptions = { bundle: true, platform: "node", format: "esm", target: "node20", outfile };
  return build({ ...client, ...node, external: ["openapi-fetch"] }).then(() => outfile);
}
