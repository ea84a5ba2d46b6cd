#!/usr/bin/env node
// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// npm run regenerate -- [--body <file>] [--changeset-name <name>]
//
// What the Regenerate workflow does when spec/ changed (.github/workflows/regenerate.yml only opens the pull
// request): `npm run generate`; if generated/ changed, the API diff between the spec generated/ was made from (the
// committed generated/openapi.json) and the new one; a changeset from that diff (.changeset/api-<commit>.md: its
// bump, and the API changelog as its text); and the pull request's body, whose first lines are the API changelog
// (breaking changes first), then the regenerated files and the spec's own diff.
//
// Step outputs for GitHub Actions ($GITHUB_OUTPUT): changed (true/false), bump, label (api:breaking, api:additive,
// api:docs, or empty when the API did not change), changeset (its path, or empty).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commandLine, scriptArgs } from "../lib/script.ts";
import { changelogLines, clientMethods, diffSpecs } from "../api-diff/index.ts";
import { writeApiChangeset } from "./changesets.ts";
import { git, isMain, main, repositoryRoot, writeOutputs } from "./cli.ts";

export const LABELS = { major: "api:breaking", minor: "api:additive", patch: "api:docs", none: "" };
const BUNDLE = "generated/openapi.json";
const MAX_SPEC_DIFF = 55_000;

const readJson = (file) =>
  existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : { openapi: "3.1.0", paths: {} };

/** The spec's changes since generated/ was last committed, for the body (cut to MAX_SPEC_DIFF characters). */
function specDiff(dir) {
  const last = git(dir, "log", "-1", "--format=%H", "--", "generated/").trim();
  const base = last || git(dir, "hash-object", "-t", "tree", "/dev/null").trim();
  const since = last
    ? `since ${git(dir, "log", "-1", "--format=%h (%s)", last).trim()}`
    : "(generated/ was never committed)";
  const text = `${git(dir, "diff", "--stat", base, "--", "spec/")}\n${git(dir, "diff", base, "--", "spec/")}`;
  const cut =
    text.length > MAX_SPEC_DIFF
      ? `\n(cut at ${MAX_SPEC_DIFF} characters: see \`git diff ${base.slice(0, 12)} -- spec/\`)`
      : "";
  return { since, text: text.slice(0, MAX_SPEC_DIFF), cut };
}

/** The pull request's body: the API changelog first, then the changeset, the regenerated files and the spec diff. */
export function pullRequestBody({ result, changeset, files, spec, ref, run }) {
  const changelog = changelogLines(result);
  return [
    ...(changelog.length ? changelog : ["No API change: generated/ changed in form only."]),
    "",
    changeset
      ? `Changeset: \`${changeset}\` (**${result.bump}**), written from \`npm run api-diff\`; edit its text if you like.`
      : "No changeset: nothing for users to version.",
    "",
    `### Regenerated files (\`npm run generate\` on ${ref})`,
    "",
    ...files.map((f) => `    ${f}`),
    "",
    "<details>",
    `<summary>Spec changes ${spec.since}</summary>`,
    "",
    "```diff",
    spec.text.trimEnd(),
    "```",
    spec.cut,
    "</details>",
    ...(run ? ["", `Opened by the [Regenerate workflow](${run}).`] : []),
    "",
  ].join("\n");
}

/** Regenerates generated/ in `dir` and describes the change; writes the changeset. */
export async function regenerate(dir, { changesetName } = {}) {
  const before = readJson(join(dir, BUNDLE));
  execFileSync(process.execPath, scriptArgs(join(dir, "scripts/generate.ts")), { cwd: dir, stdio: "pipe" });
  const files = git(dir, "status", "--porcelain", "--", "generated/").split("\n").filter(Boolean);
  if (files.length === 0) return { changed: false };
  const result = await diffSpecs(before, readJson(join(dir, BUNDLE)), { methods: clientMethods(dir) });
  const commit = git(dir, "rev-parse", "--short", "HEAD").trim();
  const changeset = await writeApiChangeset(dir, result, changesetName ?? `api-${commit}`);
  return { changed: true, result, changeset, files, spec: specDiff(dir) };
}

if (isMain(import.meta.url)) {
  main("regenerate", async () => {
    const { values } = commandLine(
      "usage: npm run regenerate -- [--body <file>] [--changeset-name <name>]\n\n" +
        "Regenerates generated/ from spec/ and writes the changeset the API diff calls for; --body: the pull\n" +
        "request's text to <file>.",
      { body: { type: "string" }, "changeset-name": { type: "string" } },
    );
    const dir = repositoryRoot();
    const outcome = await regenerate(dir, { changesetName: values["changeset-name"] });
    if (!outcome.changed) {
      console.log("generated/ is up to date with spec/");
      writeOutputs({ changed: false, bump: "none", label: "", changeset: "" });
      return 0;
    }
    const {
      GITHUB_SERVER_URL: server,
      GITHUB_REPOSITORY: repo,
      GITHUB_RUN_ID: id,
      GITHUB_REF_NAME: refName,
    } = process.env;
    const ref = `${refName ?? git(dir, "rev-parse", "--abbrev-ref", "HEAD").trim()} (${git(dir, "rev-parse", "--short", "HEAD").trim()})`;
    const run = server && repo && id ? `${server}/${repo}/actions/runs/${id}` : undefined;
    const body = pullRequestBody({ ...outcome, ref, run });
    if (values.body) writeFileSync(values.body, body);
    console.log(body);
    const { bump } = outcome.result;
    writeOutputs({ changed: true, bump, label: LABELS[bump], changeset: outcome.changeset ?? "" });
    return 0;
  });
}
