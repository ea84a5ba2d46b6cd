// Module hooks that let Node 20 import the repository's TypeScript helpers (test/package/helpers.ts for packing and
// installing the package, test/browser/chromium.ts for Chromium), so the matrix reuses them instead of copying them.
// Node runs TypeScript itself only from 22.18 (type stripping); until the oldest supported Node does, esbuild (already
// a devDependency, for the build) strips the types of each .ts file as it loads. Nothing else is changed: each module
// keeps its own URL, so `import.meta.url` and relative imports work as they do under vitest.
//
// Registered by `node --import ./scripts/runtimes/typescript-hooks.mjs` (see `npm run test:runtimes`).
import { readFile } from "node:fs/promises";
import { register } from "node:module";
import { transform } from "esbuild";

if (!import.meta.url.includes("?hooks")) register(`${import.meta.url}?hooks`);

/** `./x.js` written in TypeScript sources means `./x.ts` when only that exists (the NodeNext convention). */
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    const fromTs = context.parentURL?.endsWith(".ts") && /^\.\.?\/.*\.js$/.test(specifier);
    if (!fromTs) throw err;
    return nextResolve(specifier.replace(/\.js$/, ".ts"), context);
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
  const source = await readFile(new URL(url), "utf8");
  const { code } = await transform(source, { loader: "ts", format: "esm", target: "node20", sourcefile: url });
  return { format: "module", source: code, shortCircuit: true };
}
