// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The TypeScript half of the matrix: consumer.mts compiled against the installed package by each pinned TypeScript,
// strict and without skipLibCheck (so the shipped declarations, and openapi-fetch's, are checked too), under two
// settings a consumer has:
//
//   nodenext  module/moduleResolution nodenext; as types.mts (ESM: the .d.ts tree) and types.cts (CommonJS: .d.cts)
//   bundler   module esnext, moduleResolution bundler (the Vite template's); the same two files
//
// `module: esnext` rather than `preserve` keeps the settings valid down to TypeScript 5.0, for finding the oldest
// version that works (`--typescript` picks versions; see docs/runtimes.md).
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const SETTINGS = {
  nodenext: { module: "nodenext", moduleResolution: "nodenext" },
  bundler: { module: "esnext", moduleResolution: "bundler" },
};

const consumerSource = join(dirname(fileURLToPath(import.meta.url)), "consumer.ts");

/** Writes the consumer's sources and one tsconfig per setting into the consumer project. */
export async function writeTypeScriptConsumer(dir) {
  await mkdir(join(dir, "types"), { recursive: true });
  await copyFile(consumerSource, join(dir, "types/types.mts"));
  await copyFile(consumerSource, join(dir, "types/types.cts"));
  for (const [setting, options] of Object.entries(SETTINGS)) {
    const compilerOptions = {
      ...options,
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noUnusedLocals: true,
      skipLibCheck: false,
      target: "ES2022",
      lib: ["ES2022", "DOM"],
      types: [],
      noEmit: true,
    };
    const tsconfig = { compilerOptions, files: ["types/types.mts", "types/types.cts"] };
    await writeFile(join(dir, `tsconfig.${setting}.json`), JSON.stringify(tsconfig, null, 2) + "\n");
  }
}

/**
 * Compiles the consumer with the TypeScript installed in `typescriptDir` (TypeScript 7's `bin/tsc` is a launcher of the
 * native compiler in its platform package: the same command works for every version).
 */
export async function compileConsumer({ run, consumerDir, typescriptDir, setting, version }) {
  const tsc = join(typescriptDir, "node_modules/typescript/bin/tsc");
  const { stdout } = await run(process.execPath, [tsc, "--version"]);
  const reported = stdout.trim().replace(/^Version /, "");
  const problems = reported === version ? [] : [`tsc says it is ${reported}, not ${version}`];
  try {
    await run(process.execPath, [tsc, "-p", `tsconfig.${setting}.json`], { cwd: consumerDir, timeoutMs: 300_000 });
  } catch (err) {
    const output = err.message.split("\n").slice(1).join("\n").trim();
    problems.push(`the consumer does not compile:\n${output.split("\n").slice(0, 20).join("\n")}`);
  }
  return { ok: problems.length === 0, summary: `strict, no skipLibCheck, .mts and .cts (tsc ${reported})`, problems };
}
