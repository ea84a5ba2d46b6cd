// How a user installs the server in one step: the MCP bundle (.mcpb, built and validated with @anthropic-ai/mcpb),
// which runs with nothing but Node, and server.json for the MCP Registry, which names the npm package.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { root } from "../helpers/readme.js";

const json = (path: string) => JSON.parse(readFileSync(join(root, path), "utf8"));
const mcpb = join(root, "node_modules/.bin/mcpb");
const bundle = join(root, "mcp/dist/rainbond-openapi-mcp.mcpb");
const unpacked = mkdtempSync(join(tmpdir(), "rainbond-mcpb-")); // outside the clone: no node_modules to lean on

beforeAll(() => {
  execFileSync(process.execPath, [join(root, "mcp/bundle.mjs")], { stdio: "pipe" });
  execFileSync(mcpb, ["unpack", bundle, unpacked], { stdio: "pipe" });
}, 120_000);
afterAll(() => rmSync(unpacked, { recursive: true, force: true }));

test("the bundle's manifest is valid, of the package's version, and takes the token as a secret", () => {
  const manifest = json("mcp/manifest.json");
  expect(manifest.version).toBe(json("mcp/package.json").version);
  expect(manifest.user_config.token).toMatchObject({ sensitive: true, required: true });
  expect(manifest.server.mcp_config.env).toEqual({ RAINBOND_TOKEN: "${user_config.token}" });
  execFileSync(mcpb, ["validate", join(unpacked, "manifest.json")], { stdio: "pipe" }); // throws when invalid
  expect(JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8"))).toEqual(manifest);
});

test("the bundled server runs with nothing but Node", () => {
  const run = spawnSync(process.execPath, [join(unpacked, "server/cli.js"), "--help"], {
    cwd: unpacked,
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/^Usage: rainbond-openapi-mcp --base-url <origin>/);
});

test("server.json names the package, its mcpName and version, and the token as a secret", () => {
  const [server, pkg] = [json("mcp/server.json"), json("mcp/package.json")];
  expect(server.name).toBe(pkg.mcpName);
  expect([server.version, server.packages[0].version, server.packages[0].identifier]).toEqual([
    pkg.version,
    pkg.version,
    pkg.name,
  ]);
  expect(server.description.length).toBeLessThanOrEqual(100); // the registry's limit
  expect(server.packages[0].environmentVariables).toEqual([
    expect.objectContaining({ name: "RAINBOND_TOKEN", isSecret: true }),
  ]);
});
