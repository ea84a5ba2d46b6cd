// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Changesets (@changesets/cli) as the release scripts use them: which changesets a branch adds, the bump they ask
// for this package, and the changeset a spec change gets, written from its API diff.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import parseChangeset from "@changesets/parse";
import { changelogLines } from "../api-diff/index.ts";

export const CHANGESET_DIR = ".changeset";
const ORDER = ["none", "patch", "minor", "major"];

/** package.json of the repository in `dir`. */
export const manifestOf = (dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));

/**
 * The changesets of the work tree that `ref` does not have (the ones a branch adds), parsed: [{ file, summary,
 * releases: [{ name, type }] }].
 */
export function changesetsAddedSince(dir, ref) {
  const folder = join(dir, CHANGESET_DIR);
  if (!existsSync(folder)) return [];
  // (a ref from before changesets were set up has no .changeset/: then every changeset is new)
  const atRef = new Set(
    execFileSync("git", ["ls-tree", "-r", "--name-only", ref, "--", `${CHANGESET_DIR}/`], {
      cwd: dir,
      encoding: "utf8",
    })
      .split("\n")
      .filter(Boolean)
      .map((path) => path.slice(CHANGESET_DIR.length + 1)),
  );
  return readdirSync(folder)
    .filter((name) => name.endsWith(".md") && name !== "README.md" && !atRef.has(name))
    .sort()
    .map((name) => ({ file: `${CHANGESET_DIR}/${name}`, ...parseChangeset(readFileSync(join(folder, name), "utf8")) }));
}

/** The largest bump the changesets ask for the package `name`: "major", "minor", "patch" or "none". */
export function bumpFor(changesets, name) {
  const types = changesets.flatMap((c) => c.releases.filter((r) => r.name === name).map((r) => r.type));
  return types.reduce((max, type) => (ORDER.indexOf(type) > ORDER.indexOf(max) ? type : max), "none");
}

/** The changeset's text for an API diff: a first line (the changelog's bullet), then the API changelog. */
export function apiChangesetSummary(result) {
  return ["The API changed (spec/):", "", ...changelogLines(result)].join("\n");
}

/**
 * Writes the changeset of an API diff as `.changeset/<name>.md` (replacing one of that name) and returns its path
 * relative to `dir`; undefined when the diff asks for no bump. Formatted with the project's prettier, as
 * `npx changeset` writes them.
 */
export async function writeApiChangeset(dir, result, name) {
  if (result.bump === "none") return undefined;
  const { name: pkg } = manifestOf(dir);
  const text = `---\n${JSON.stringify(pkg)}: ${result.bump}\n---\n\n${apiChangesetSummary(result)}\n`;
  const file = join(dir, CHANGESET_DIR, `${name}.md`);
  const prettier = await import("prettier");
  const config = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(text, { ...config, filepath: file }));
  return relative(dir, file);
}
