#!/usr/bin/env node
// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// npm run release:publish -- [--github] [--notes <file>]
//
// changesets' publish step: `changeset publish` runs `npm publish` for a version the registry does not have yet (the
// package's `prepare` builds dist/ first; in the Release workflow npm signs it with provenance through trusted
// publishing) and tags it (v<version>). Then the release notes, the version's section of CHANGELOG.md: with --github
// the tag is pushed and a GitHub release made from them (REST API, $GITHUB_TOKEN); else they go to --notes <file>.
// Nothing to publish is not an error. Step outputs ($GITHUB_OUTPUT): published (true/false), version, tag.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commandLine } from "../lib/script.ts";
import { manifestOf } from "./changesets.ts";
import { git, isMain, main, repositoryRoot, writeOutputs } from "./cli.ts";
import { changesetBin } from "./version.ts";

/** The section of a CHANGELOG.md (as changesets writes it) for one version, without its heading. */
export function releaseNotes(changelog, version) {
  const lines = changelog.split("\n");
  const start = lines.findIndex((l) => new RegExp(`^## ${version.replace(/\./g, "\\.")}\\s*$`).test(l));
  if (start === -1) throw new Error(`CHANGELOG.md has no section for ${version}`);
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  return `${lines
    .slice(start + 1, end === -1 ? undefined : end)
    .join("\n")
    .trim()}\n`;
}

const tagExists = (dir, tag) => git(dir, "tag", "--list", tag).trim() === tag;

/** Publishes the package in `dir` if its version is not on the registry; { published, version, tag, notes }. */
export function publish(dir) {
  const { version } = manifestOf(dir);
  const tag = `v${version}`;
  const tagged = tagExists(dir, tag);
  execFileSync(process.execPath, [changesetBin(dir), "publish"], { cwd: dir, stdio: "pipe" });
  if (tagged || !tagExists(dir, tag)) return { published: false, version, tag };
  return {
    published: true,
    version,
    tag,
    notes: releaseNotes(readFileSync(join(dir, "CHANGELOG.md"), "utf8"), version),
  };
}

/** Pushes the tag and makes the GitHub release of it (GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL). */
async function githubRelease(dir, { tag, notes }) {
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

if (isMain(import.meta.url)) {
  main("release:publish", async () => {
    const { values } = commandLine(
      "usage: npm run release:publish -- [--github] [--notes <file>]\n\n" +
        "Publishes the version in package.json to npm and tags it; the release notes go to a GitHub release\n" +
        "(--github: GITHUB_TOKEN, GITHUB_REPOSITORY) or to <file>.",
      { github: { type: "boolean" }, notes: { type: "string" } },
    );
    const dir = repositoryRoot();
    const release = publish(dir);
    writeOutputs({ published: release.published, version: release.version, tag: release.tag });
    if (!release.published) {
      console.log(`${release.tag}: already published, nothing to do`);
      return 0;
    }
    console.log(`published ${release.tag}\n\n${release.notes}`);
    if (values.notes) writeFileSync(values.notes, release.notes);
    if (values.github) await githubRelease(dir, release);
    return 0;
  });
}
