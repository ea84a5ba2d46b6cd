#!/usr/bin/env node
// Builds the MCP bundle (mcp/dist/rainbond-openapi-mcp.mcpb), which a user installs in one step (Claude Desktop and
// other clients that take .mcpb files): manifest.json beside server/cli.js, the server with the SDK bundled in, so that
// it needs nothing but Node. @anthropic-ai/mcpb validates the manifest and packs the folder. `node bundle.mjs <file>`
// writes it there instead (the release names it with its version). Says on stdout what it built and where.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildServer } from "./build.mjs";

const here = dirname(fileURLToPath(import.meta.url));
export const BUNDLE = join(here, "dist", "rainbond-openapi-mcp.mcpb");
const out = process.argv[2] ? resolve(process.argv[2]) : BUNDLE;
const staging = join(here, "dist", `bundle-${process.pid}`);
/** The mcpb command of the clone's devDependencies. */
const run = (...args) => execFileSync(join(here, "..", "node_modules", ".bin", "mcpb"), args, { encoding: "utf8" });

rmSync(staging, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });
try {
  await buildServer(join(staging, "server", "cli.js"), []);
  copyFileSync(join(here, "manifest.json"), join(staging, "manifest.json"));
  run("validate", join(staging, "manifest.json"));
  run("pack", staging, out);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
const { version } = JSON.parse(readFileSync(join(here, "manifest.json"), "utf8"));
const where = relative(process.cwd(), out);
const size = `${Math.round(statSync(out).size / 1000)} kB`;
process.stdout.write(
  `Built ${where.startsWith("..") || isAbsolute(where) ? out : where} (${size}): the MCP bundle of ` +
    `rainbond-openapi-mcp ${version}, the server with its SDK inside and a validated manifest. Install it in a ` +
    "client that takes .mcpb files (Claude Desktop: open the file); docs/mcp.md says more.\n",
);
