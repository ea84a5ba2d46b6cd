// How a user installs the server in one step: the MCP bundle (.mcpb, built and validated with @anthropic-ai/mcpb),
// which runs with nothing but Node, as a client runs it (its settings put into the manifest's mcp_config by mcpb's own
// substitution), and server.json for the MCP Registry, which names the npm package.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { getMcpConfigForManifest, type McpbManifestAny, type McpbUserConfigValues } from "@anthropic-ai/mcpb";
import { afterAll, beforeAll, expect, test } from "vitest";
import { toolList } from "../../../mcp/src/discovery.ts";
import { root } from "../../helpers/readme.js";
import { nodeOverStdio, textOf } from "../../helpers/mcp/helpers.js";

const json = (path: string) => JSON.parse(readFileSync(join(root, path), "utf8"));
const mcpb = join(root, "node_modules/.bin/mcpb");
const bundle = join(root, "mcp/dist/rainbond-openapi-mcp.mcpb");
const unpacked = mkdtempSync(join(tmpdir(), "rainbond-mcpb-")); // outside the clone: no node_modules to lean on
let said = "";

beforeAll(() => {
  said = execFileSync(process.execPath, [join(root, "mcp/bundle.mjs")], { cwd: root, encoding: "utf8" });
  execFileSync(mcpb, ["unpack", bundle, unpacked], { stdio: "pipe" });
}, 120_000);
afterAll(() => rmSync(unpacked, { recursive: true, force: true }));

test("node mcp/bundle.mjs says what it built and where, in one line", () => {
  const { version } = json("mcp/manifest.json");
  expect(said.startsWith(`Built ${join("mcp", "dist", "rainbond-openapi-mcp.mcpb")} (`)).toBe(true);
  expect(said).toMatch(/ \(\d+ kB\): the MCP bundle of rainbond-openapi-mcp [^ ]+, .*open the file.*\n$/);
  expect(said).toContain(`rainbond-openapi-mcp ${version},`);
  expect(said.split("\n")).toHaveLength(2); // one line
});

test("the bundle's manifest is valid, of the package's version, and takes the token as a secret", () => {
  const manifest = json("mcp/manifest.json");
  expect(manifest.version).toBe(json("mcp/package.json").version);
  expect(manifest.user_config.token).toMatchObject({ sensitive: true, required: true });
  expect(manifest.server.mcp_config.env).toEqual({
    RAINBOND_TOKEN: "${user_config.token}",
    RAINBOND_MCP_ALLOW_WRITE: "${user_config.allow_write}",
  });
  expect(manifest.user_config.allow_write).toMatchObject({ type: "boolean", default: false });
  expect(manifest.user_config.allow_write.description).toMatch(/confirm.*a client that cannot ask sends nothing/);
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

/** The unpacked bundle started as a client starts it: the manifest's mcp_config, with `settings` put in by mcpb. */
async function startBundle(settings: McpbUserConfigValues) {
  const manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8")) as McpbManifestAny;
  const userConfig = { base_url: "http://127.0.0.1:9", token: "bundle-token-1234", ...settings };
  const config = await getMcpConfigForManifest({
    manifest,
    extensionPath: unpacked,
    systemDirs: {},
    userConfig,
    pathSeparator: sep,
  });
  expect(config?.command).toBe("node"); // Node alone: this test's own
  return nodeOverStdio(config!.args ?? [], config!.env ?? {});
}
const names = (allowWrite: boolean) => toolList({ allowWrite }).map((tool) => tool.name);

test("allow_write: off by default (the operations that read), on serves them all", async () => {
  for (const [settings, allowWrite] of [
    [{}, false],
    [{ allow_write: false }, false],
    [{ allow_write: true }, true],
  ] as const) {
    const server = await startBundle(settings);
    try {
      const { tools } = await server.client.listTools();
      expect(
        tools.map((tool) => tool.name),
        JSON.stringify(settings),
      ).toEqual(names(allowWrite));
      // the same tools listed; what callOperation reaches is not
      expect(tools.find((tool) => tool.name === "callOperation")?.annotations?.readOnlyHint).toBe(!allowWrite);
      const groups = await server.client.callTool({ name: "findOperations", arguments: {} });
      expect(textOf(groups).includes("This server is read-only"), JSON.stringify(settings)).toBe(!allowWrite);
    } finally {
      await server.close();
    }
  }
});

test("RAINBOND_MCP_ALLOW_WRITE other than true or false: one line, exit 2; --help names it", () => {
  const run = (env: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, [join(unpacked, "server/cli.js"), "--base-url", "http://127.0.0.1:9", ...args], {
      env: { PATH: process.env.PATH ?? "", RAINBOND_TOKEN: "bundle-token-1234", ...env },
      encoding: "utf8",
    });
  const bad = run({ RAINBOND_MCP_ALLOW_WRITE: "yes" });
  expect(bad.status).toBe(2);
  expect(bad.stderr).toBe('rainbond-openapi-mcp: RAINBOND_MCP_ALLOW_WRITE must be true or false (got "yes")\n');
  expect(run({}, "--help").stdout).toMatch(/--allow-write[^\n]*\n[^\n]*RAINBOND_MCP_ALLOW_WRITE=true/);
});
