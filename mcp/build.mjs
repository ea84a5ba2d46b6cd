#!/usr/bin/env node
// Builds the bin: mcp/src/cli.ts -> mcp/dist/cli.js, one ESM file for Node >= 20 with the client (../src, through the
// `paths` of mcp/tsconfig.json) and generated/table.json bundled in; @modelcontextprotocol/server and /node stay
// dependencies. bundle.mjs builds it with them inside, for the MCP bundle. Written to a temporary file and renamed, so
// that a build racing another (two test files) never leaves half a file. Prints nothing on success: `npm run mcp`
// runs it before the server, whose stdout carries only JSON-RPC.
import { chmodSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
export const SDK = ["@modelcontextprotocol/server", "@modelcontextprotocol/server/*", "@modelcontextprotocol/node"];

/** Writes the server to `out` as one file, leaving the modules of `external` to be imported. */
export async function buildServer(out, external = SDK) {
  const { outputFiles } = await build({
    entryPoints: [join(here, "src", "cli.ts")],
    tsconfig: join(here, "tsconfig.json"),
    bundle: true,
    write: false,
    platform: "node",
    target: "node20",
    format: "esm",
    outfile: out,
    external,
    banner: { js: "#!/usr/bin/env node" },
    legalComments: "none",
    logLevel: "warning",
  });
  mkdirSync(dirname(out), { recursive: true });
  const temporary = `${out}.${process.pid}.tmp`;
  writeFileSync(temporary, outputFiles[0].contents);
  chmodSync(temporary, 0o755);
  renameSync(temporary, out);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer(join(here, "dist", "cli.js"));
