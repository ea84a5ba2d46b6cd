// How the command line ships: a package of its own in cli/ whose bin bundles the client, the table and its libraries,
// so that it has no dependency to install and the client's package gains none; `npx` runs it from its tarball in one
// step, offline. cli/ is not an npm workspace, like mcp/ (docs/mcp.md says why).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { root } from "../../helpers/readme.js";
import { bin } from "../../helpers/cli/helpers.js";

const json = (path: string) => JSON.parse(readFileSync(join(root, path), "utf8"));
const npm = (args: string[], cwd: string) =>
  execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

test("the client's package gains no dependency and packs nothing of cli/", () => {
  expect(Object.keys(json("package.json").dependencies)).toEqual(["openapi-fetch"]);
  // packed as prepack and scripts/lib/pack.ts pack it: clean-package first, which drops the clone's bin (npm packs a
  // bin's file whatever "files" says)
  const dir = mkdtempSync(join(tmpdir(), "rainbond-client-pack-"));
  for (const file of ["package.json", "README.md", "LICENSE"]) copyFileSync(join(root, file), join(dir, file));
  mkdirSync(join(dir, "cli/dist"), { recursive: true });
  copyFileSync(bin, join(dir, "cli/dist/cli.js"));
  execFileSync(join(root, "node_modules/.bin/clean-package"), [], { cwd: dir, stdio: "ignore" });
  expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).bin).toBeUndefined();
  const [pack] = JSON.parse(npm(["pack", "--dry-run", "--json", "--ignore-scripts"], dir));
  expect(pack.files.map((f: { path: string }) => f.path).sort()).toEqual(["LICENSE", "README.md", "package.json"]);
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
  const bundled = [
    "commander",
    "yaml",
    "@jmespath-community/jmespath",
    "@clack/prompts",
    "@bomb.sh/tab",
    "fast-string-truncated-width",
  ];
  for (const name of bundled) {
    expect(licences).toContain(`${name}@${json("package.json").devDependencies[name]} (`);
  }
});

test("the bin holds of the table what the command line reads: the methods, not the MCP tools' schemas", () => {
  const code = readFileSync(bin, "utf8");
  expect(code).toContain(json("generated/table.json").methods[0].summary);
  for (const absent of ["outputSchema", "readOnlyHint", "openWorldHint"]) expect(code).not.toContain(absent);
});

test("every package npm ci installs accepts Node 20 (the README's runtime): npm prints no EBADENGINE", () => {
  // semver is npm's own range check, installed with the tools
  const semver = createRequire(import.meta.url)("semver") as { satisfies: (version: string, range: string) => boolean };
  const lock = json("package-lock.json") as { packages: Record<string, { engines?: { node?: string } }> };
  const refusing = Object.entries(lock.packages)
    .filter(([, entry]) => entry.engines?.node && !semver.satisfies("20.20.0", entry.engines.node))
    .map(([path, entry]) => `${path} wants Node ${entry.engines!.node}`);
  expect(refusing).toEqual([]);
});

test("from a clone, `npx rainbond` runs the bin with nothing of npm's on stdout; the client's tarball has no bin", () => {
  expect(json("package.json").bin).toEqual({ rainbond: "cli/dist/cli.js" }); // the project's own bin, which npx runs
  expect(npm(["exec", "--offline", "--", "rainbond", "--version"], root)).toBe(`${json("cli/package.json").version}\n`);
  expect(json("package.json").scripts.prepare).toMatch(/&& node cli\/build\.mjs$/); // npm ci builds it
  expect(json("package.json")["clean-package"].remove).toContain("bin"); // not packed: dist/ has no cli/
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
