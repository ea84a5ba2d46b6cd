// Changesets (@changesets/cli) as the release scripts use them (docs/releasing.md): the changeset a spec change gets,
// written from its API diff; the release check (a breaking change needs a major changeset added by the branch, a minor
// one while 0.x); `changeset version`, then the same version in package-lock.json; `changeset publish`.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import parseChangeset from "@changesets/parse";
import { changelogMarkdown, diffAgainstRef, git, type DiffResult } from "../api-diff/index.ts";

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
  const summary = `The API changed (spec/):\n\n${changelogMarkdown(result)}`;
  const text = `---\n${JSON.stringify(manifestOf(dir).name)}: ${result.bump}\n---\n\n${summary}`;
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

const changeset = (dir: string, command: string) =>
  execFileSync(process.execPath, ["node_modules/@changesets/cli/bin.js", command], { cwd: dir, stdio: "pipe" });

export function version(dir: string): string {
  changeset(dir, "version");
  const { version } = manifestOf(dir);
  const file = join(dir, "package-lock.json");
  const lock = JSON.parse(readFileSync(file, "utf8"));
  lock.version = lock.packages[""].version = version;
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  return version;
}

const tagged = (dir: string, tag: string) => git(dir, "tag", "--list", tag).trim() === tag;

/** Publishes the package in `dir` if its version is not on the registry yet; what was published, and its notes. */
export function publish(dir: string): { published: boolean; version: string; tag: string; notes?: string } {
  const { version } = manifestOf(dir);
  const tag = `v${version}`;
  const before = tagged(dir, tag);
  changeset(dir, "publish");
  if (before || !tagged(dir, tag)) return { published: false, version, tag };
  // the notes: the version's section of CHANGELOG.md (as changesets writes it), without its heading
  const changelog = readFileSync(join(dir, "CHANGELOG.md"), "utf8");
  const section = changelog.split(/^## /m).find((s) => s.split("\n", 1)[0]!.trim() === version);
  if (section === undefined) throw new Error(`CHANGELOG.md has no section for ${version}`);
  return { published: true, version, tag, notes: `${section.replace(/^.*\n?/, "").trim()}\n` };
}

/** Pushes the tag and makes the GitHub release of it (GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL). */
export async function githubRelease(dir: string, tag: string, notes: string): Promise<void> {
  const { GITHUB_TOKEN: token, GITHUB_REPOSITORY: repo, GITHUB_API_URL: api = "https://api.github.com" } = process.env;
  if (!token || !repo) throw new Error("--github needs GITHUB_TOKEN and GITHUB_REPOSITORY");
  git(dir, "push", "origin", `refs/tags/${tag}`);
  const response = await fetch(`${api}/repos/${repo}/releases`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, accept: "application/vnd.github+json" },
    body: JSON.stringify({ tag_name: tag, name: tag, body: notes }),
  });
  if (!response.ok) throw new Error(`creating the GitHub release ${tag}: ${response.status} ${await response.text()}`);
}
