#!/usr/bin/env node
// npm run verify -- --base-url <console origin> [--team <id> --region <name> --app <id> --component <id>] [--write]
//                   [--json] [--report <file.md>]      (the token in RAINBOND_TOKEN; see docs/verifying-a-console.md)
//
// The verify is TypeScript (scripts/verify/*.ts) and sends its requests through the client in src/, which Node 20
// cannot run as it is: esbuild bundles main.ts with src/ into a temporary module (some 100 ms), imported here. No
// build of dist/ is needed or touched. The scripts it imports (prism.mjs, methods.mjs) stay outside the bundle: each
// finds what it reads (Prism, generated/methods.json) from its own place.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

const dir = await mkdtemp(join(tmpdir(), "rainbond-verify-cli-"));
let code = 2;
try {
  const outfile = join(dir, "verify.mjs");
  await build({
    entryPoints: [join(root, "scripts/verify/main.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    logLevel: "silent",
    plugins: [
      {
        name: "scripts-outside",
        setup(b) {
          b.onResolve({ filter: /\.mjs$/ }, (args) => ({
            path: pathToFileURL(resolve(args.resolveDir, args.path)).href,
            external: true,
          }));
        },
      },
    ],
  });
  const { main } = await import(pathToFileURL(outfile).href);
  code = await main(
    process.argv.slice(2),
    process.env,
    { root },
    {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
    },
  );
} catch (err) {
  process.stderr.write(`verify: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
process.exitCode = code;
