// Size: the size budgets as what a page loads up front, as one browser bundle (esbuild, ESM, minified), gzip level 9.
// openapi-fetch stays outside it: client.raw imports it on its first call, and a bundler puts it in a chunk of its own.
// By module: the gzip bytes the bundle loses without the module's characters, which only the source map places.
import { SourceMap } from "node:module";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type BuildOptions } from "esbuild";
import { root } from "../lib/script.ts";

/**
 * Each budget: what a bundle imports, issue 21's target, and the ceiling `npm test` holds it to: the team's decided
 * ceilings, 8,192 and 12,288 B. Issue 35's masking of a secret in every form a console echoes it (about 175 B) and its
 * warning of a token bound for plain http (about 115 B) were paid for by savings: the checks only bodies and queries
 * need moved behind them (validate.ts's MORE_RULES and MORE_LIMITS, prepare.ts's asDigits), a core that is its URL
 * alone (the grouped client keeps its printing), and shorter code and text in the masking, transport and errors
 * (docs/performance.md says where the bytes go).
 */
/** A budget: its entry, issue 21's target, the ceiling, and whether it is measured whole (unsplit). */
export type Budget = { entry: string; target: number; ceiling: number; whole?: boolean };

export const BUDGETS = {
  "one operation with its core": {
    entry: `export { createRainbondCore } from "./src/core.ts"; export { getComponent } from "./src/operations.ts";`,
    whole: true,
    target: 4096,
    ceiling: 8_192,
  },
  "the grouped client": {
    entry: `export { createRainbondClient } from "./src/index.ts";`,
    target: 8192,
    ceiling: 12_288,
  },
  // Measured whole, as rollup and webpack bundle it: split, esbuild keeps every `import()` target of the entry's
  // modules as a chunk even where nothing calls it (the grouped client's groups), and imports the chunks they share
  // with the entry for evaluation order, though the entry uses none of their code.
  "toSamples alone": { entry: `export { toSamples } from "./src/index.ts";`, target: 512, ceiling: 512, whole: true },
} satisfies Record<string, Budget>;

const gzip = (text: string) => gzipSync(text, { level: 9 }).length;
/** `src/x.ts`, or the bundle's entry (the bundle is of the project's own modules: openapi-fetch is left out). */
const moduleName = (file = "") => (file === "<stdin>" ? "(the entry)" : file.replace(/^(\.\.\/)+/, ""));

/**
 * The browser bundle of `entry` (module source), split as a bundler splits it (what `import()` reaches goes in chunks
 * of its own), and what a page loads up front: the entry's file and the chunks it imports statically (`code`, `raw`,
 * `gzip`, each file gzipped on its own as a server sends it); how those files import what they leave outside (`imports`);
 * and every file with its gzip bytes and whether it loads up front (`files`).
 */
export async function bundle(entry: string, { whole = false }: Partial<Budget> = {}) {
  const outdir = join(root, ".bench/size"); // nothing is written
  const { outputFiles, metafile } = await build({
    stdin: { contents: entry, resolveDir: root, loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    splitting: !whole,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    external: ["openapi-fetch"],
    outdir,
    entryNames: "entry",
    write: false,
    metafile: true,
    sourcemap: "external",
    logLevel: "silent",
    legalComments: "none",
  });
  const text = (path: string) => outputFiles.find((file) => file.path === join(root, path))!.text;
  const outputs = metafile.outputs;
  const entryPath = Object.keys(outputs).find((path) => outputs[path]!.entryPoint === "entry.ts")!;
  const upFront = new Set<string>();
  const visit = (path: string) => {
    if (upFront.has(path)) return;
    upFront.add(path);
    for (const i of outputs[path]!.imports) if (i.kind === "import-statement" && !i.external) visit(i.path);
  };
  visit(entryPath);
  const files = Object.keys(outputs)
    .filter((path) => path.endsWith(".js"))
    .map((path) => ({ path, gzip: gzip(text(path)), upFront: upFront.has(path) }));
  const loaded = [...upFront].map(text);
  return {
    code: loaded.join("\n"),
    map: text(`${entryPath}.map`),
    // what the files a page loads up front import, the entry's and its chunks': openapi-fetch, say
    imports: [...upFront].flatMap((path) => outputs[path]!.imports),
    raw: loaded.reduce((sum, code) => sum + Buffer.byteLength(code), 0),
    gzip: files.filter((f) => f.upFront).reduce((sum, f) => sum + f.gzip, 0),
    files,
  };
}

/** Each module's bytes in the bundle, and what gzip loses without them (what they share with the rest stays). */
export function byModule({ code, map }: Awaited<ReturnType<typeof bundle>>) {
  const sourceMap = new SourceMap(JSON.parse(map));
  const source = (line: number, column: number) =>
    moduleName((sourceMap.findEntry(line, column) as { originalSource?: string }).originalSource);
  const lines = code.split("\n");
  const owners = lines.flatMap((text, line) => Array.from({ length: text.length + 1 }, (_, c) => source(line, c)));
  const [chars, total] = [`${code}\n`.split(""), gzip(`${code}\n`)];
  const without = (module: string) => gzip(chars.filter((_, at) => owners[at] !== module).join(""));
  const modules = [...new Set(owners)].filter(Boolean);
  const rows = modules.map((module) => ({
    module,
    raw: owners.filter((owner) => owner === module).length,
    gzip: total - without(module),
  }));
  return rows.sort((a, b) => b.gzip - a.gzip);
}

/** Every budget's bundle, and where the bytes of the first (one operation with its core) go. */
export async function benchSize() {
  const bundles = await Promise.all(Object.values(BUDGETS).map((budget) => bundle(budget.entry, budget)));
  const budgets = Object.entries(BUDGETS).map(([name, budget], i) => {
    const { raw, gzip } = bundles[i]!;
    return { name, raw, gzip, ...budget };
  });
  return { budgets, oneOperation: byModule(bundles[0]!) };
}

/** Bundles src/index.ts for Node (openapi-fetch external, so contenders b and c share it) into `outfile`. */
export async function bundleClientForNode(outfile: string): Promise<string> {
  const node: BuildOptions = { bundle: true, platform: "node", format: "esm", target: "node20", outfile };
  return build({ entryPoints: [join(root, "src/index.ts")], ...node, external: ["openapi-fetch"] }).then(() => outfile);
}
