// The TypeScript consumer of the runtime matrix (scripts/runtimes/consumer.ts) stays whole: it imports every public
// export of the package, and it compiles here against src/ (strict, unused imports refused), each `@ts-expect-error`
// standing for an error the types really raise. The matrix compiles it against the packed package under each
// TypeScript; this catches a consumer gone stale in seconds, without installing any.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, expect, test } from "vitest";
import { run } from "../../../scripts/lib/pack.ts";
import { root } from "../../../scripts/lib/script.ts";

const consumerPath = join(root, "scripts/runtimes/consumer.ts");
let consumer: string;
let dir: string;

beforeAll(async () => {
  consumer = await readFile(consumerPath, "utf8");
  dir = await mkdtemp(join(tmpdir(), "rainbond-runtimes-consumer-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/**
 * The names a module of src/ makes public by name: its `export { ... } from` statements, and those of the modules it
 * re-exports whole (`export * from "./core.js"`). The generated record types (`export type * from "../generated/..."`)
 * are left to the type tests: the consumer names a few of them.
 */
async function exportedNames(file: string): Promise<string[]> {
  const source = parse(file, await readFile(file, "utf8"));
  const names: string[] = [];
  for (const s of source.statements) {
    if (!ts.isExportDeclaration(s)) continue;
    if (s.exportClause && ts.isNamedExports(s.exportClause))
      names.push(...s.exportClause.elements.map((e) => e.name.text));
    else if (!s.isTypeOnly && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)) {
      names.push(...(await exportedNames(join(file, "..", s.moduleSpecifier.text.replace(/\.js$/, ".ts")))));
    }
  }
  return names;
}

/** The names a module imports from the package. */
function importedNames(source: ts.SourceFile): string[] {
  return source.statements.flatMap((s) =>
    ts.isImportDeclaration(s) &&
    ts.isStringLiteral(s.moduleSpecifier) &&
    s.moduleSpecifier.text === "rainbond-openapi" &&
    s.importClause?.namedBindings &&
    ts.isNamedImports(s.importClause.namedBindings)
      ? s.importClause.namedBindings.elements.map((e) => e.name.text)
      : [],
  );
}

const parse = (path: string, text: string) => ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);

test("imports every public export of src/index.ts", async () => {
  const exported = (await exportedNames(join(root, "src/index.ts"))).sort();
  expect(exported.length).toBeGreaterThan(30);
  expect(importedNames(parse("consumer.mts", consumer))).toEqual(expect.arrayContaining(exported));
});

/**
 * Compiles each of `modules` (file name: source), "rainbond-openapi" mapped to src/index.ts, in one tsc run (one
 * program: each compile of src/ takes seconds); resolves with tsc's output.
 */
async function compile(modules: Record<string, string>) {
  const files = Object.keys(modules).map((name) => join(dir, name));
  await Promise.all(Object.values(modules).map((text, i) => writeFile(files[i]!, text)));
  const compilerOptions = {
    module: "esnext",
    moduleResolution: "bundler",
    strict: true,
    noUnusedLocals: true,
    noEmit: true,
    target: "ES2022",
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    types: [],
    skipLibCheck: true,
    paths: { "rainbond-openapi": [join(root, "src/index.ts")] },
  };
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files }));
  return run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", dir]).then(
    () => "",
    (err: Error) => err.message,
  );
}

test("compiles against src/ (an unneeded @ts-expect-error fails it), and each directive hides a real error", async () => {
  const directives = [...consumer.matchAll(/\/\/ @ts-expect-error (.*)\n/g)];
  expect(directives.length).toBeGreaterThanOrEqual(4);
  const [first] = directives;
  // The consumer, and beside it the consumer with its first directive turned into a plain comment.
  const output = await compile({
    "consumer.mts": consumer,
    "unchecked.mts": consumer.replace(first![0], `// ${first![1]}\n`),
  });
  expect(output).toMatch(/unchecked\.mts\(\d+,\d+\): error TS2322: Type 'string' is not assignable/);
  expect(output.split("\n").filter((line) => /error TS/.test(line) && !/unchecked\.mts\(/.test(line))).toEqual([]);
});
