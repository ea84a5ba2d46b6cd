#!/usr/bin/env node
// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// npm run release:check -- --base <git ref>   (CI: the pull request's base branch, e.g. origin/main)
//
// Refuses an unversioned breaking change: when the API diff of the work tree's spec/ against <ref> is breaking
// (scripts/api-diff), a changeset the branch adds (.changeset/*.md not in <ref>) must bump this package's major
// version, or, while the version is 0.x, at least its minor one. It names the breaking changes either way.
// Exit codes: 0 pass, 1 refused, 2 could not check (bad ref, unreadable spec).
import { commandLine } from "../lib/script.ts";
import { changelogMarkdown, diffAgainstRef } from "../api-diff/index.ts";
import { bumpFor, changesetsAddedSince, manifestOf } from "./changesets.ts";
import { isMain, main, repositoryRoot } from "./cli.ts";

/** The bumps that cover a breaking change at `version`: semver's rule, where 0.x moves its minor number. */
export const coveringBumps = (version) => (Number(version.split(".")[0]) === 0 ? ["major", "minor"] : ["major"]);

/** { ok, report } for the repository in `dir` against `base`. */
export async function releaseCheck(dir, base) {
  const result = await diffAgainstRef(base, dir);
  const breaking = { ...result, changes: result.changes.filter((c) => c.level === "breaking") };
  if (breaking.changes.length === 0) {
    return { ok: true, report: `release check: no breaking API change against ${base} (API bump: ${result.bump}).` };
  }
  const { name, version } = manifestOf(dir);
  const added = changesetsAddedSince(dir, base);
  const bump = bumpFor(added, name);
  const needed = coveringBumps(version);
  const list = changelogMarkdown(breaking).trim();
  if (needed.includes(bump)) {
    const files = added.map((c) => c.file).join(", ");
    return {
      ok: true,
      report: `release check: breaking API changes against ${base}, versioned (${bump}: ${files}).\n\n${list}`,
    };
  }
  return {
    ok: false,
    report: [
      `release check: the API diff against ${base} is breaking, and no changeset this branch adds bumps ${name} ` +
        `${needed.join(" or ")} (${version}; the changesets added ask for ${bump}).`,
      "",
      list,
      "",
      `Write one from the diff with \`npm run changeset:api -- --base ${base}\` (or \`npx changeset\`, choosing major).`,
    ].join("\n"),
  };
}

if (isMain(import.meta.url)) {
  main("release check", async () => {
    const { values } = commandLine(
      "usage: npm run release:check -- [--base <git ref>]\n\n" +
        "Exit 1 when spec/ changed the API against <ref> (default origin/main) without a changeset of the bump it calls for.",
      { base: { type: "string", default: "origin/main" } },
    );
    const { ok, report } = await releaseCheck(repositoryRoot(), values.base);
    (ok ? console.log : console.error)(report);
    return ok ? 0 : 1;
  });
}
