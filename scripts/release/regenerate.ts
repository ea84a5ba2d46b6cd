// What the Regenerate workflow does when spec/ changed (.github/workflows/regenerate.yml only opens the pull
// request): `npm run generate`; if generated/ changed, the API diff between the spec generated/ was made from (the
// committed generated/openapi.json) and the new one; a changeset from that diff; and the pull request's body, whose
// first lines are the API changelog (breaking changes first), then the regenerated files and the spec's own diff.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { scriptArgs } from "../lib/script.ts";
import { changelogMarkdown, clientMethods, diffSpecs, git, type DiffResult } from "../api-diff/index.ts";
import { writeApiChangeset } from "./changesets.ts";

export const LABELS = { major: "api:breaking", minor: "api:additive", patch: "api:docs", none: "" };
const MAX_SPEC_DIFF = 55_000;

const readBundle = (dir: string, file = join(dir, "generated/openapi.json")) =>
  existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : { openapi: "3.1.0", paths: {} };

/** Regenerates generated/ in `dir`; when it changed: its API diff, the changeset written from it, and the body. */
export async function regenerate(dir: string, changesetName?: string) {
  const before = readBundle(dir);
  execFileSync(process.execPath, scriptArgs(join(dir, "scripts/generate.ts")), { cwd: dir, stdio: "pipe" });
  const files = git(dir, "status", "--porcelain", "--", "generated/").split("\n").filter(Boolean);
  if (files.length === 0) return undefined;
  const result = await diffSpecs(before, readBundle(dir), [clientMethods(dir)]);
  const changeset = await writeApiChangeset(dir, result, changesetName);
  return { result, changeset, body: pullRequestBody(dir, result, changeset, files) };
}

function pullRequestBody(dir: string, result: DiffResult, changeset: string | undefined, files: string[]): string {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = process.env;
  const ref = `${process.env.GITHUB_REF_NAME ?? git(dir, "rev-parse", "--abbrev-ref", "HEAD").trim()} (${git(dir, "rev-parse", "--short", "HEAD").trim()})`;
  const [last, title] = git(dir, "log", "-1", "--format=%H%n%h (%s)", "--", "generated/").split("\n");
  const base = last || git(dir, "hash-object", "-t", "tree", "/dev/null").trim();
  const since = last ? `since ${title}` : "(generated/ never committed)";
  const diff = `${git(dir, "diff", "--stat", base, "--", "spec/")}\n${git(dir, "diff", base, "--", "spec/")}`;
  return [
    result.bump === "none" ? "No API change: generated/ changed in form only.\n" : changelogMarkdown(result),
    changeset
      ? `Changeset: \`${changeset}\` (**${result.bump}**), written from \`npm run api-diff\`; edit its text if you like.`
      : "No changeset: nothing for users to version.",
    "",
    `### Regenerated files (\`npm run generate\` on ${ref})`,
    "",
    ...files.map((f) => `    ${f}`),
    "",
    "<details>",
    `<summary>Spec changes ${since}</summary>`,
    "",
    "```diff",
    diff.slice(0, MAX_SPEC_DIFF).trimEnd(),
    "```",
    diff.length > MAX_SPEC_DIFF
      ? `\n(cut at ${MAX_SPEC_DIFF} characters: see \`git diff ${base.slice(0, 12)} -- spec/\`)`
      : "",
    "</details>",
    ...(server && repo && id ? ["", `Opened by the [Regenerate workflow](${server}/${repo}/actions/runs/${id}).`] : []),
    "",
  ].join("\n");
}
