#!/usr/bin/env node
// npm run build: src/ + generated/ -> dist/, the package's contents in both module formats ("exports" in package.json):
//
//   dist/src/*.js, dist/generated/*.js      ESM with .d.ts declarations (tsc -p tsconfig.json), for `import`
//   dist/cjs/index.cjs                      one CommonJS bundle of every entry (esbuild; openapi-fetch stays an
//                                           external require), for `require`; dist/cjs/{core,operations}.cjs
//                                           re-export it
//   dist/cjs/src/*.d.cts, dist/cjs/generated/*.d.cts
//                                           the same declarations as CommonJS types: copies whose relative specifiers
//                                           end in .cjs, so TypeScript sees a CommonJS module behind `require`
//   dist/openapi.json                       the bundled spec (generated/openapi.json), as `rainbond-openapi/openapi.json`
//
// Dual rather than ESM-only: `require("rainbond-openapi")` then works on every Node the package supports (>= 20, also
// before 20.19, where require(esm) needs a flag), and publint and `attw --pack .` pass under the strict profile with no
// rule ignored. The price is the dual-package hazard: a process that both imports and requires the package gets two
// copies, so an error from one copy is not `instanceof` the other's classes (`err.name` still tells them apart).
//
// The .map files stay in dist/ for work in this repository; package.json "files" leaves them out of the package
// (they point at src/, which is not published).
//
//   node scripts/build.mjs                   build dist/
//   node scripts/build.mjs --out-dir <dir>   build into <dir> instead (the package tests build into a temp copy)
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { "out-dir": { type: "string" } } });
const out = resolve(values["out-dir"] ?? join(root, "dist"));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const started = Date.now();

/**
 * Leaves every package (openapi-fetch) to `require`, reading its `default` export the way TypeScript and Babel do:
 * `exports.default` when the module sets `__esModule`. Left alone, esbuild would apply Node's ESM rule to src/ (this
 * package is `"type": "module"`), where a CommonJS module's default export is `module.exports` itself, and
 * `createClient` would be openapi-fetch's exports object. Routing each package import through a small ESM module of its
 * own (a namespace with no package.json, so not Node-ESM) gives that module the `__esModule` interop.
 * @type {import("esbuild").Plugin}
 */
const externalPackagesWithEsModuleInterop = {
  name: "external-packages-with-esmodule-interop",
  setup(b) {
    const isPackage = /^[^./]/;
    b.onResolve({ filter: isPackage }, (args) =>
      args.namespace === "interop" ? { path: args.path, external: true } : { path: args.path, namespace: "interop" },
    );
    b.onLoad({ filter: /.*/, namespace: "interop" }, (args) => ({
      contents: `export * from ${JSON.stringify(args.path)};\nexport { default } from ${JSON.stringify(args.path)};\n`,
      loader: "js",
    }));
  },
};

/** The package's entries (package.json "exports"): `rainbond-openapi`, `/core` and `/operations`. */
const ENTRIES = ["index", "core", "operations"];

rmSync(out, { recursive: true, force: true });

// ESM + declarations, and the CommonJS bundle, at the same time (tsc in its own process).
const esm = new Promise((resolveRun, rejectRun) => {
  const child = spawn(process.execPath, [tsc, "-p", join(root, "tsconfig.json"), "--outDir", out], {
    stdio: "inherit",
  });
  child.once("error", rejectRun);
  child.once("exit", (code, signal) =>
    code === 0 ? resolveRun() : rejectRun(new Error(`tsc failed (${signal ?? code})`)),
  );
});
// One CommonJS bundle holds every entry (so that an error class is one class whichever subpath required it); each
// subpath's .cjs re-exports it.
const cjs = build({
  stdin: {
    contents: ENTRIES.map((name) => `export * from "./src/${name}.ts";`).join("\n"),
    resolveDir: root,
    sourcefile: "entries.ts",
    loader: "ts",
  },
  outfile: join(out, "cjs/index.cjs"),
  bundle: true,
  plugins: [externalPackagesWithEsModuleInterop],
  format: "cjs",
  platform: "neutral",
  target: "es2022",
  logLevel: "warning",
});
await Promise.all([esm, cjs]);

// The CommonJS declarations: each .d.ts as a .d.cts whose relative imports name the .cjs siblings.
for (const dir of ["src", "generated"]) {
  mkdirSync(join(out, "cjs", dir), { recursive: true });
  for (const name of readdirSync(join(out, dir)).filter((n) => n.endsWith(".d.ts"))) {
    const text = readFileSync(join(out, dir, name), "utf8")
      .replace(/((?:from|import)\s*\(?\s*)(["'])(\.\.?\/[^"']*)\.js\2/g, "$1$2$3.cjs$2")
      .replace(/^\/\/# sourceMappingURL=.*\n?/m, "");
    writeFileSync(join(out, "cjs", dir, name.replace(/\.d\.ts$/, ".d.cts")), text);
  }
}

for (const name of ENTRIES.slice(1))
  writeFileSync(join(out, `cjs/${name}.cjs`), 'module.exports = require("./index.cjs");\n');
copyFileSync(join(root, "generated/openapi.json"), join(out, "openapi.json"));
console.log(`built ${out} (ESM, CommonJS, declarations) in ${Date.now() - started} ms`);
