// One version for the three packages: the root package.json's is the fact, written by the version step into the MCP
// server's package.json, manifest.json and server.json (each package entry too) and the command line's package.json.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { VERSIONED, versionsIn, writeVersions } from "../../../scripts/release/versions.ts";
import { root } from "../../helpers/release/temp-repo.js";

const rootVersion = () => JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version as string;
const copy = mkdtempSync(join(tmpdir(), "rainbond-versions-"));
// the root's package.json with them: its `prettier` key is the format they are written in
for (const file of ["package.json", ...Object.keys(VERSIONED)]) {
  mkdirSync(dirname(join(copy, file)), { recursive: true });
  cpSync(join(root, file), join(copy, file));
}
afterAll(() => rmSync(copy, { recursive: true, force: true }));
const texts = (dir: string) => Object.keys(VERSIONED).map((file) => readFileSync(join(dir, file), "utf8"));

test("every versioned file of the repository says the root package.json's version", () => {
  const versions = versionsIn(root);
  expect(Object.keys(versions)).toEqual(expect.arrayContaining(["mcp/server.json 0", "mcp/server.json 1"]));
  expect(versions).toEqual(Object.fromEntries(Object.keys(versions).map((place) => [place, rootVersion()])));
});

test("the version step writes a new version into each, changing nothing else and keeping the files' format", async () => {
  await writeVersions(copy, rootVersion());
  expect(texts(copy)).toEqual(texts(root)); // already that version: not a byte moves
  await writeVersions(copy, "9.8.7");
  expect(new Set(Object.values(versionsIn(copy)))).toEqual(new Set(["9.8.7"]));
  const withoutVersions = (text: string) => text.replaceAll(/"version": "[^"]*"/g, '"version": ""');
  expect(texts(copy).map(withoutVersions)).toEqual(texts(root).map(withoutVersions));
});
