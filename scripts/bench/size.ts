// Size: the package's size budgets, measured as a browser bundle: esbuild (ESM, minified, code splitting), gzip level
// 9, of what a page loads up front: the entry and the chunks it imports statically, not a chunk it loads on demand
// (openapi-fetch, which client.raw imports on its first call). test/size-budget.test.ts holds each entry to its
// ceiling; the bench reports them against issue 21's targets. By module: the gzip bytes a bundle loses without the
// module's characters, which only the source maps (read by node:module's SourceMap) place.
import { SourceMap } from "node:module";
import { join, relative, sep } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type BuildOptions } from "esbuild";
import { root } from "../lib/script.ts";

/** Each budget: what a bundle imports, issue 21's target and the ceiling `npm test` holds it to (today's size). */
export const BUDGETS = {
  "one operation with its core": {
    entry: `import { createRainbondCore } from "./src/core.ts"; import { getComponent } from "./src/operations.ts";
      export const call = (url: string) => getComponent(createRainbondCore({ baseUrl: url, token: "t" }), {} as never);`,
    target: 4 * 1024,
    ceiling: 7_950,
  },
  "the grouped client": {
    entry: `import { createRainbondClient } from "./src/index.ts";
      export const make = (url: string) => createRainbondClient({ baseUrl: url, token: "t" });`,
    target: 8 * 1024,
    ceiling: 11_250,
  },
  "toSamples alone": { entry: `export { toSamples } from "./src/index.ts";`, target: 512, ceiling: 512 },
};

const gzip = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;
/** `src/x.ts`, a package's name, or the bundle's entry. */
const moduleName = (file = "") =>
  file === "<stdin>" ? "(the entry)" : file.replace(/^.*node_modules\/([^/]+).*$/, "$1").replace(/^(\.\.\/)+/, "");

/** The browser bundle of `entry` (module source); `upFront`: its files a page loads before any `import()`. */
export async function bundle(entry: string) {
  const { outputFiles, metafile } = await build({
    stdin: { contents: entry, resolveDir: root, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    splitting: true,
    outdir: join(root, ".bench/size"), // nothing is written
    absWorkingDir: root,
    write: false,
    metafile: true,
    sourcemap: "external",
    logLevel: "silent",
    legalComments: "none",
  });
  const { outputs } = metafile;
  const upFront = new Set<string>();
  const visit = (file: string) => {
    if (upFront.has(file)) return;
    upFront.add(file);
    for (const i of outputs[file]!.imports) if (i.kind === "import-statement") visit(i.path);
  };
  visit(Object.keys(outputs).find((file) => outputs[file]!.entryPoint === "<stdin>")!);
  const path = (file: { path: string }) => relative(root, file.path).split(sep).join("/");
  const code = outputFiles.filter((file) => upFront.has(path(file)));
  const maps = code.map((file) => outputFiles.find((map) => map.path === `${file.path}.map`)!.text);
  const raw = code.reduce((sum, file) => sum + file.contents.length, 0);
  return { outputs, upFront, code, maps, raw, gzip: gzip(Buffer.concat(code.map((file) => file.contents))) };
}

/** Each module's bytes up front, and what gzip loses without them (what they share with the rest stays). */
export function byModule({ code, maps }: Awaited<ReturnType<typeof bundle>>) {
  const owners = code.flatMap((file, i) => {
    const map = new SourceMap(JSON.parse(maps[i]!));
    const source = (line: number, column: number) =>
      moduleName((map.findEntry(line, column) as { originalSource?: string }).originalSource);
    return file.text
      .split("\n")
      .flatMap((text, line) => Array.from({ length: text.length + 1 }, (_, c) => source(line, c)));
  });
  const text = code.map((file) => `${file.text}\n`).join("");
  const [chars, total] = [text.split(""), gzip(Buffer.from(text))];
  const modules = [...new Set(owners)].filter(Boolean);
  const without = (module: string) => gzip(Buffer.from(chars.filter((_, at) => owners[at] !== module).join("")));
  const rows = modules.map((module) => ({
    module,
    raw: owners.filter((owner) => owner === module).length,
    gzip: total - without(module),
  }));
  return rows.sort((a, b) => b.gzip - a.gzip);
}

/** Every budget's bundle, and where the bytes of one operation with its core go. */
export async function benchSize() {
  const sizes = [];
  for (const [name, { entry, target, ceiling }] of Object.entries(BUDGETS)) {
    const { raw, gzip } = await bundle(entry);
    sizes.push({ name, raw, gzip, target, ceiling });
  }
  const oneOperation = byModule(await bundle(BUDGETS["one operation with its core"].entry));
  return { budgets: sizes, oneOperation };
}

/** Bundles src/index.ts for Node (openapi-fetch external, so contenders b and c share it) into `outfile`. */
export async function bundleClientForNode(outfile: string): Promise<string> {
  const node: BuildOptions = { bundle: true, platform: "node", format: "esm", target: "node20", outfile };
  return build({ entryPoints: [join(root, "src/index.ts")], ...node, external: ["openapi-fetch"] }).then(() => outfile);
}
