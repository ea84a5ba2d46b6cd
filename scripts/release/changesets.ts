// Changesets (@changesets/cli) as the release scripts use them: the changeset a spec change gets, written from its
// API diff, and the release check: a breaking API change against the base branch needs a changeset, added by the
// branch, that bumps the major version (the minor one while 0.x, as semver's rule goes).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import parseChangeset from "@changesets/parse";
import { changelogLines, changelogMarkdown, diffAgainstRef, git, type DiffResult } from "../api-diff/index.ts";

const ORDER = ["none", "patch", "minor", "major"];

export const manifestOf = (dir: string): { name: string; version: string } =>
  JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));

/**
 * Writes the changeset of an API diff as `.changeset/<name>.md` (default api-<short commit>; replacing one of that
 * name), formatted by prettier as `npx changeset` writes them; its path in `dir`, undefined when no bump is due.
 */
export async function writeApiChangeset(dir: string, result: DiffResult, name?: string): Promise<string | undefined> {
  if (result.bump === "none") return undefined;
  const file = `.changeset/${name ?? `api-${git(dir, "rev-parse", "--short", "HEAD").trim()}`}.md`;
  const summary = ["The API changed (spec/):", "", ...changelogLines(result)].join("\n");
  const text = `---\n${JSON.stringify(manifestOf(dir).name)}: ${result.bump}\n---\n\n${summary}\n`;
  const filepath = join(dir, file);
  const { format, resolveConfig } = await import("prettier"); // loaded when used: the other commands start faster
  writeFileSync(filepath, await format(text, { ...(await resolveConfig(filepath)), filepath }));
  return file;
}

/** The bumps that cover a breaking change at `version`: semver's rule, where 0.x moves its minor number. */
export const coveringBumps = (version: string) => (version.startsWith("0.") ? ["major", "minor"] : ["major"]);

export async function releaseCheck(dir: string, base: string): Promise<{ ok: boolean; report: string }> {
  const result = await diffAgainstRef(base, dir);
  const changes = result.changes.filter((c) => c.level === "breaking");
  if (!changes.length) {
    return { ok: true, report: `release check: no breaking API change against ${base} (API bump: ${result.bump}).` };
  }
  const { name, version } = manifestOf(dir);
  // the changesets of the work tree that `base` does not have (a base from before .changeset/ has none)
  const atBase = git(dir, "ls-tree", "-r", "--name-only", base, "--", ".changeset/").split("\n");
  const added = (existsSync(join(dir, ".changeset")) ? readdirSync(join(dir, ".changeset")) : [])
    .map((file) => `.changeset/${file}`)
    .filter((file) => file.endsWith(".md") && !file.endsWith("/README.md") && !atBase.includes(file))
    .sort();
  const bumps = added.flatMap((file) =>
    parseChangeset(readFileSync(join(dir, file), "utf8")).releases.flatMap((r) => (r.name === name ? [r.type] : [])),
  );
  const bump = ORDER[Math.max(0, ...bumps.map((type) => ORDER.indexOf(type)))];
  const needed = coveringBumps(version);
  const ok = needed.includes(bump!);
  const verdict = ok
    ? `breaking API changes against ${base}, versioned (${bump}: ${added.join(", ")})`
    : `the API diff against ${base} is breaking, and no changeset this branch adds bumps ${name} ${needed.join(" or ")} (${version}; the changesets added ask for ${bump})`;
  const fix = `Write one from the diff with \`npm run changeset:api -- --base ${base}\` (or \`npx changeset\`, choosing major).`;
  const list = changelogMarkdown({ changes }).trim();
  return { ok, report: [`release check: ${verdict}.`, list, ...(ok ? [] : [fix])].join("\n\n") };
}
