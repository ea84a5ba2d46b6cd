// How the MCP server ships: a package of its own in mcp/, so that the client's package gains no dependency; its bin is
// plain JS that needs nothing but the SDK (the client is bundled in). And docs/mcp.md lists the tools as generated.
//
// mcp/ is not an npm workspace: changesets (the release) takes a workspace root for no package, and the client is the
// root. The SDK's packages are devDependencies of the root (the tests and the bin in a clone resolve them there) at
// the versions mcp/package.json depends on; the root keeps the 1.x line's SDK too, whose Client most tests drive.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { withToolsTable } from "../../../scripts/codegen/table.ts";
import { root } from "../../helpers/readme.js";
import { bin, table } from "../../helpers/mcp/helpers.js";

const json = (path: string) => JSON.parse(readFileSync(join(root, path), "utf8"));
/** `npm pack --dry-run --json` of the package in `dir`: its files and manifest, without running scripts. */
function packed(dir: string): { files: { path: string }[]; name: string } {
  const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: join(root, dir),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  return JSON.parse(output)[0];
}

test("the client's package gains no MCP dependency and packs nothing of mcp/", () => {
  const manifest = json("package.json");
  expect(manifest.workspaces).toBeUndefined();
  expect(Object.keys(manifest.dependencies)).toEqual(["openapi-fetch"]);
  for (const [name, version] of Object.entries(json("mcp/package.json").dependencies))
    expect(manifest.devDependencies[name], name).toBe(version);
  const pack = packed(".");
  expect(pack.name).toBe("rainbond-openapi");
  expect(pack.files.map((f) => f.path).filter((path) => /mcp/.test(path))).toEqual([]);
});

test("the MCP package depends on the SDK's v2 server packages alone, pinned, and packs its bin", () => {
  const manifest = json("mcp/package.json");
  expect(Object.keys(manifest.dependencies)).toEqual(["@modelcontextprotocol/node", "@modelcontextprotocol/server"]);
  for (const version of Object.values(manifest.dependencies)) expect(version).toMatch(/^\d+\.\d+\.\d+$/); // exact
  expect(manifest.bin).toEqual({ "rainbond-openapi-mcp": "dist/cli.js" });
  const pack = packed("mcp");
  expect(pack.files.map((f) => f.path).sort()).toEqual(["README.md", "dist/cli.js", "package.json"]);
  const code = readFileSync(bin, "utf8");
  expect(code.startsWith("#!/usr/bin/env node\n")).toBe(true);
  const imported = [...code.matchAll(/\bfrom\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1] ?? m[2]);
  expect(imported.filter((name) => !/^(node:|@modelcontextprotocol\/(server|node)\b)/.test(name!))).toEqual([]);
});

test("docs/mcp.md lists the tools as generated (npm run generate rewrites the list)", () => {
  const docs = readFileSync(join(root, "docs/mcp.md"), "utf8");
  expect(docs).toBe(withToolsTable(docs, table));
  for (const { tool } of Object.values(table.operations)) expect(docs).toContain(`| \`${tool.name}\` |`);
});
