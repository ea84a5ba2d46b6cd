// What the Regenerate workflow does when spec/ changed (.github/workflows/regenerate.yml only opens the pull
// request): `npm run generate`; if generated/ changed, the API diff between the spec generated/ was made from (the
// committed generated/openapi.json) and the new one; a changeset from that diff; and the pull request's body, whose
// first lines are the API changelog (breaking changes first), then the regenerated files and the spec's own diff.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { scriptArgs } from "../lib/script.ts";
import {
  changelogLines,
  clientMethods,
  diffSpecs,
  git,
  type DiffResult,
  type OpenApiDocument,
} from "../api-diff/index.ts";
import { writeApiChangeset } from "./changesets.ts";

export const LABELS = { major: "api:breaking", minor: "api:additive", patch: "api:docs", none: "" };
const MAX_SPEC_DIFF = 55_000;

const readBundle = (dir: string): OpenApiDocument => {
  const file = join(dir, "generated/openapi.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : { openapi: "3.1.0", paths: {} };
};

/** The spec's changes since generated/ was last committed, for the body (cut to MAX_SPEC_DIFF characters). */
function specDiff(dir: string) {
  const last = git(dir, "log", "-1", "--format=%H", "--", "generated/").trim();
  const base = last || git(dir, "hash-object", "-t", "tree", "/dev/null").trim();
  const since = last
    ? `since ${git(dir, "log", "-1", "--format=%h (%s)", last).trim()}`
    : "(generated/ never committed)";
  const text = `${git(dir, "diff", "--stat", base, "--", "spec/")}\n${git(dir, "diff", base, "--", "spec/")}`;
  const cut = `\n(cut at ${MAX_SPEC_DIFF} characters: see \`git diff ${base.slice(0, 12)} -- spec/\`)`;
  return { since, text: text.slice(0, MAX_SPEC_DIFF), cut: text.length > MAX_SPEC_DIFF ? cut : "" };
}

export interface Regenerated {
  result: DiffResult;
  changeset: string | undefined;
  files: string[];
  spec: ReturnType<typeof specDiff>;
}

/** Regenerates generated/ in `dir`; when it changed, writes the changeset and says what changed. */
export async function regenerate(dir: string, changesetName?: string): Promise<Regenerated | undefined> {
  const before = readBundle(dir);
  execFileSync(process.execPath, scriptArgs(join(dir, "scripts/generate.ts")), { cwd: dir, stdio: "pipe" });
  const files = git(dir, "status", "--porcelain", "--", "generated/").split("\n").filter(Boolean);
  if (files.length === 0) return undefined;
  const result = await diffSpecs(before, readBundle(dir), { methods: clientMethods(dir) });
  const name = changesetName ?? `api-${git(dir, "rev-parse", "--short", "HEAD").trim()}`;
  return { result, changeset: await writeApiChangeset(dir, result, name), files, spec: specDiff(dir) };
}

/** The pull request's body: the API changelog first, then the changeset, the regenerated files and the spec diff. */
export function pullRequestBody({ result, changeset, files, spec }: Regenerated, ref: string, run?: string): string {
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
