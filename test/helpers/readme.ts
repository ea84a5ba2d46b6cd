// The examples of the README and of docs/ are tested: a section's ```ts block is written under test/.tmp/
// (git-ignored) with its import of "rainbond-openapi" pointed at src/index.ts, type-checked under strict, and run.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { vi } from "vitest";
import { root } from "../../scripts/lib/script.ts";

export { root };

/** The text between `<!-- section:NAME (owner: ...) -->` and `<!-- /section:NAME -->` of `file` (from the project). */
export function docSection(file: string, name: string): string {
  const text = readFileSync(join(root, file), "utf8");
  const open = new RegExp(`<!-- section:${name} \\(owner: [a-z]+\\) -->`).exec(text);
  const end = text.indexOf(`<!-- /section:${name} -->`);
  if (!open || end === -1) throw new Error(`${file} has no ${name} section`);
  return text.slice(open.index + open[0].length, end);
}

/** The ```ts blocks of a section. */
export function tsBlocks(section: string): string[] {
  return [...section.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** A fresh directory under test/.tmp/ (one per run: other runs may share the tree) and its removal. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  mkdirSync(join(root, "test/.tmp"), { recursive: true });
  const dir = mkdtempSync(join(root, `test/.tmp/${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes `code` into `dir` as `name`, importing the package and its subpaths from src/; returns the file's path. */
export function writeExample(dir: string, name: string, code: string): string {
  const entry = (module: string) =>
    relative(dir, join(root, `src/${module}.js`))
      .split("\\")
      .join("/");
  const file = join(dir, name);
  const local = code.replace(
    /from "rainbond-openapi(?:\/(core|operations))?"/g,
    (_, sub?: string) => `from "${entry(sub ?? "index")}"`,
  );
  writeFileSync(file, local);
  return file;
}

/** Type-checks files under the project's options with `strict`; returns the diagnostics per file, as text. */
export function typeCheck(files: string[]): Map<string, string[]> {
  const configFile = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  const options: ts.CompilerOptions = {
    ...parsed.options,
    strict: true,
    noEmit: true,
    types: ["node"],
    declaration: false,
    declarationMap: false,
  };
  const program = ts.createProgram(files, options);
  const byFile = new Map<string, string[]>(files.map((f) => [f.split("\\").join("/"), []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file?.fileName ?? "";
    const list = byFile.get(file) ?? byFile.set(file, []).get(file)!;
    list.push(`${relative(root, file)}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
  }
  return byFile;
}

/** What an example printed: `log` with console.log, `other` with console.warn, error, info and debug (stderr). */
export interface Printed {
  log: string[];
  other: string[];
}

/**
 * Runs an example (vitest imports its TypeScript) with `env` set, returning what it printed, line by line. Nothing it
 * prints reaches the test run's output.
 */
export async function runExample(file: string, env: Record<string, string>): Promise<Printed> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  const printed: Printed = { log: [], other: [] };
  const text = (args: unknown[]) => args.map(String).join(" ");
  const spies = [
    vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.log.push(text(args))),
    ...(["warn", "error", "info", "debug"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.other.push(text(args))),
    ),
  ];
  try {
    await import(pathToFileURL(file).href);
  } finally {
    for (const spy of spies) spy.mockRestore();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  return printed;
}
