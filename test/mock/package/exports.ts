// Every entry of the package's "exports", as a project that installed the tarball meets it, in ESM and in CommonJS:
// the names its declarations export (and which of them are values, as TypeScript judges it), the names it exports at
// run time (as Node loads it), and a strict consumer that imports each declared name. The entries are read from the
// installed package.json, not listed here: a new entry is checked the day it is added.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ts from "typescript";
import { run } from "../../../scripts/lib/pack.ts";

export const FORMATS = ["esm", "cjs"] as const;
export type Format = (typeof FORMATS)[number];
/** An entry's names: `values` are those a consumer can use as values, `types` the rest; each sorted. */
export type Names = { values: string[]; types: string[] };
/** Per format, per specifier (`rainbond-openapi/core`), what the entry exports. */
export type ExportMap = Record<Format, Record<string, Names>>;
export type RuntimeMap = Record<Format, Record<string, string[]>>;

/** Each subpath of "exports" that has declarations (a `types` condition), as the specifier a user imports. */
export async function codeEntries(consumerDir: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(installedManifest(consumerDir), "utf8")) as {
    name: string;
    exports: Record<string, unknown>;
  };
  const typed = (target: unknown): boolean =>
    !!target && typeof target === "object" && Object.entries(target).some(([k, v]) => k === "types" || typed(v));
  return Object.entries(manifest.exports)
    .filter(([, target]) => typed(target))
    .map(([subpath]) => (subpath === "." ? manifest.name : `${manifest.name}/${subpath.replace(/^\.\//, "")}`));
}

export const installedManifest = (consumerDir: string) =>
  join(consumerDir, "node_modules/rainbond-openapi/package.json");

// How each format's probe loads entry i: an .mts imports it (the `import` condition, the .d.ts), a .cts requires it
// (the `require` condition, the .d.cts).
const PROBE: Record<Format, { file: string; load: (name: string, specifier: string) => string }> = {
  esm: { file: "probe.mts", load: (name, spec) => `import * as ${name} from ${JSON.stringify(spec)};` },
  cjs: { file: "probe.cts", load: (name, spec) => `import ${name} = require(${JSON.stringify(spec)});` },
};
const PROBE_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  types: [],
  strict: true,
  skipLibCheck: true,
  noEmit: true,
};

/**
 * What each entry's declarations export, per format, as the TypeScript compiler sees them from a consumer: first the
 * names (the module's exports), then which are values: `entry.name` type-checks for a value and for nothing else
 * (an interface, a type alias, a value exported with `export type`).
 */
export async function declaredExports(consumerDir: string, specifiers: readonly string[]): Promise<ExportMap> {
  const dir = join(consumerDir, "probe");
  await mkdir(dir, { recursive: true });
  const file = (format: Format) => join(dir, PROBE[format].file);
  // Each probe: line i loads entry i as e<i>, then the lines of `body`.
  const compile = async (body: (format: Format) => string[]) => {
    for (const format of FORMATS) {
      const loads = specifiers.map((spec, i) => PROBE[format].load(`e${i}`, spec));
      await writeFile(file(format), [...loads, ...body(format), "export {};"].join("\n"));
    }
    return ts.createProgram(FORMATS.map(file), PROBE_OPTIONS);
  };

  const first = await compile(() => []);
  const checker = first.getTypeChecker();
  const declared = (format: Format) =>
    first
      .getSourceFile(file(format))!
      .statements.slice(0, specifiers.length)
      .flatMap((statement, entry) => exportsOf(checker, statement).map((name) => ({ entry, name })));
  const uses = { esm: declared("esm"), cjs: declared("cjs") };

  // One line per declared name, `void e<entry>.<name>;`: the lines the compiler rejects are the names that are not
  // values.
  const second = await compile((format) => uses[format].map(({ entry, name }) => `void e${entry}.${name};`));
  const result = {} as ExportMap;
  for (const format of FORMATS) {
    const source = second.getSourceFile(file(format))!;
    const diagnostics = second.getSemanticDiagnostics(source);
    const lines = diagnostics.map((d) => source.getLineAndCharacterOfPosition(d.start!).line - specifiers.length);
    const rejected = new Set(lines);
    const names = (entry: number, value: boolean) =>
      uses[format]
        .filter((use, line) => use.entry === entry && rejected.has(line) !== value)
        .map((use) => use.name)
        .sort();
    const entries = specifiers.map((spec, entry) => [spec, { values: names(entry, true), types: names(entry, false) }]);
    result[format] = Object.fromEntries(entries);
  }
  return result;
}

/** The names the module that `statement` (`import * as` or `import = require`) loads exports. */
function exportsOf(checker: ts.TypeChecker, statement: ts.Statement): string[] {
  let specifier: ts.Expression | undefined;
  if (ts.isImportDeclaration(statement)) specifier = statement.moduleSpecifier;
  else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference))
    specifier = statement.moduleReference.expression;
  const module = specifier && checker.getSymbolAtLocation(specifier);
  return module ? checker.getExportsOfModule(module).map((symbol) => symbol.name) : [];
}

/** What each entry exports at run time: the keys of its module namespace after `import`, of `require`'s object. */
export async function runtimeExports(consumerDir: string, specifiers: readonly string[]): Promise<RuntimeMap> {
  const list = JSON.stringify(specifiers);
  const print = (load: string) =>
    `Promise.all(${list}.map(async (s) => [s, Object.keys(${load}).sort()])).then((e) => console.log(JSON.stringify(Object.fromEntries(e))));`;
  const [esm, cjs] = await Promise.all([
    run(process.execPath, ["--input-type=module", "-e", print("await import(s)")], { cwd: consumerDir }),
    run(process.execPath, ["--input-type=commonjs", "-e", print("require(s)")], { cwd: consumerDir }),
  ]);
  return { esm: JSON.parse(esm.stdout), cjs: JSON.parse(cjs.stdout) };
}

/** The strict consumers' settings: Node's own resolution and a bundler's. Both resolve the same declaration files,
 *  so only the first type-checks them too (skipLibCheck off): that is most of a compile's time. */
export const CONSUMER_SETTINGS = {
  nodenext: { module: "nodenext", moduleResolution: "nodenext", skipLibCheck: false },
  bundler: { module: "preserve", moduleResolution: "bundler", skipLibCheck: true },
} as const;
export type ConsumerSetting = keyof typeof CONSUMER_SETTINGS;

// How the strict consumer uses entry i's values: named imports in the .mts, `import x = require()` in the .cts.
const USE_VALUES: Record<Format, { file: string; use: (i: number, spec: string, values: string[]) => string[] }> = {
  esm: {
    file: "consumer.mts",
    use: (i, spec, values) => [
      `import { ${values.map((v) => `${v} as v${i}_${v}`).join(", ")} } from ${JSON.stringify(spec)};`,
      `void [${values.map((v) => `v${i}_${v}`).join(", ")}];`,
    ],
  },
  cjs: {
    file: "consumer.cts",
    use: (i, spec, values) => [
      `import e${i} = require(${JSON.stringify(spec)});`,
      `void [${values.map((v) => `e${i}.${v}`).join(", ")}];`,
    ],
  },
};

/**
 * A consumer that imports every name of every entry: as values, those declared as values and those Node finds at
 * run time; as types (`import type`, which a .cts resolves with the `require` condition), the other declared names. In
 * an .mts and a .cts, with a tsconfig per setting; returns their paths. Types are re-exported rather than used, so
 * that a generic one needs no type arguments.
 */
export async function writeStrictConsumer(
  consumerDir: string,
  declared: ExportMap,
  runtime: RuntimeMap,
): Promise<Record<ConsumerSetting, string>> {
  const dir = join(consumerDir, "strict");
  await mkdir(dir, { recursive: true });
  for (const format of FORMATS) {
    const lines = Object.entries(declared[format]).flatMap(([spec, { values, types }], i) => [
      ...USE_VALUES[format].use(i, spec, [...new Set([...values, ...runtime[format][spec]!])]),
      `import type { ${types.map((t) => `${t} as t${i}_${t}`).join(", ")} } from ${JSON.stringify(spec)};`,
      `export type { ${types.map((t) => `t${i}_${t}`).join(", ")} };`,
    ]);
    await writeFile(join(dir, USE_VALUES[format].file), `${lines.join("\n")}\n`);
  }
  const files = FORMATS.map((format) => USE_VALUES[format].file);
  const paths = {} as Record<ConsumerSetting, string>;
  for (const [setting, options] of Object.entries(CONSUMER_SETTINGS) as [ConsumerSetting, object][]) {
    const compilerOptions = { ...options, strict: true, noEmit: true, types: [] };
    const tsconfig = { compilerOptions: { ...compilerOptions, target: "ES2022", lib: ["ES2022", "DOM"] }, files };
    paths[setting] = join(dir, `tsconfig.${setting}.json`);
    await writeFile(paths[setting], JSON.stringify(tsconfig, null, 2));
  }
  return paths;
}
