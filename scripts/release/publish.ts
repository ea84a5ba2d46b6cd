// changesets' version and publish steps. version(): `changeset version` (the pending changesets become the new
// version in package.json and its section in CHANGELOG.md, and are deleted), then the same version in
// package-lock.json, whose root entry would otherwise lag behind. publish(): `changeset publish` runs `npm publish`
// for a version the registry does not have yet (`prepare` builds dist/; in the Release workflow npm signs it with
// provenance) and tags it v<version>; the release notes are the version's section of CHANGELOG.md.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "../api-diff/index.ts";
import { manifestOf } from "./changesets.ts";

const changeset = (dir: string, command: string) =>
  execFileSync(process.execPath, [join(dir, "node_modules/@changesets/cli/bin.js"), command], {
    cwd: dir,
    stdio: "pipe",
  });

export function version(dir: string): string {
  changeset(dir, "version");
  const { version } = manifestOf(dir);
  const file = join(dir, "package-lock.json");
  const lock = JSON.parse(readFileSync(file, "utf8"));
  lock.version = lock.packages[""].version = version;
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  return version;
}

/** The section of a CHANGELOG.md (as changesets writes it) for one version, without its heading. */
export function releaseNotes(changelog: string, version: string): string {
  const section = changelog.split(/^## /m).find((s) => s.split("\n", 1)[0]!.trim() === version);
  if (section === undefined) throw new Error(`CHANGELOG.md has no section for ${version}`);
  return `${section.replace(/^.*\n?/, "").trim()}\n`;
}

const tagged = (dir: string, tag: string) => git(dir, "tag", "--list", tag).trim() === tag;

/** Publishes the package in `dir` if its version is not on the registry yet; what was published, and its notes. */
export function publish(dir: string): { published: boolean; version: string; tag: string; notes?: string } {
  const { version } = manifestOf(dir);
  const tag = `v${version}`;
  const before = tagged(dir, tag);
  changeset(dir, "publish");
  if (before || !tagged(dir, tag)) return { published: false, version, tag };
  const notes = releaseNotes(readFileSync(join(dir, "CHANGELOG.md"), "utf8"), version);
  return { published: true, version, tag, notes };
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
