// How the command line ships: a package of its own in cli/ whose bin bundles the client, the table and its libraries,
// so that it has no dependency to install and the client's package gains none; `npx` runs it from its tarball in one
// step, offline. cli/ is not an npm workspace, like mcp/ (docs/mcp.md says why).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { root } from "../helpers/readme.js";
import { bin } from "./helpers.js";

const json = (path: string) => JSON.parse(readFileSync(join(root, path), "utf8"));
const npm = (args: string[], cwd: string) =>
  execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

test("the client's package gains no dependency and packs nothing of cli/", () => {
  expect(Object.keys(json("package.json").dependencies)).toEqual(["openapi-fetch"]);
  const [pack] = JSON.parse(npm(["pack", "--dry-run", "--json", "--ignore-scripts"], root));
  expect(pack.files.map((f: { path: string }) => f.path).filter((path: string) => path.startsWith("cli/"))).toEqual([]);
});

test("the command line's package depends on nothing; its bin imports only Node's modules and its own chunks", () => {
  const manifest = json("cli/package.json");
  expect(manifest.dependencies).toBeUndefined();
  expect(manifest.bin).toEqual({ rainbond: "dist/cli.js" });
  const dist = join(root, "cli/dist");
  const files = [bin, ...readdirSync(join(dist, "chunks")).map((name) => join(dist, "chunks", name))];
  for (const file of files) {
    const code = readFileSync(file, "utf8");
    const imported = [...code.matchAll(/\bfrom\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1] ?? m[2]);
    expect(imported.filter((name) => !/^(node:|\.\.?\/)/.test(name!))).toEqual([]);
  }
  const licences = readFileSync(join(dist, "THIRD-PARTY-LICENSES.txt"), "utf8");
  for (const name of ["commander", "yaml", "@jmespath-community/jmespath", "@clack/prompts", "@bomb.sh/tab"]) {
    expect(licences).toContain(`${name}@${json("package.json").devDependencies[name]} (`);
  }
});

test("npx runs it from its tarball in one step, offline", () => {
  const dir = mkdtempSync(join(tmpdir(), "rainbond-npx-"));
  const [pack] = JSON.parse(npm(["pack", "--json", "--pack-destination", dir], join(root, "cli")));
  const cache = join(dir, "cache");
  const tarball = join(dir, pack.filename);
  const args = [
    "exec",
    "--yes",
    "--offline",
    "--cache",
    cache,
    "--package",
    tarball,
    "--",
    "rainbond",
    "ports",
    "--help",
  ];
  expect(npm(args, dir)).toMatch(/^Usage: rainbond ports /);
}, 120_000);
