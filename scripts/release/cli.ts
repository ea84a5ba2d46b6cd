#!/usr/bin/env node
// The release scripts as commands, one per npm script: `node --import tsx scripts/release/cli.ts <command> [flags]`.
// Step outputs for GitHub Actions go to $GITHUB_OUTPUT. Exit codes: 0 done, 1 refused (release:check), 2 failed.
import { appendFileSync, writeFileSync } from "node:fs";
import type { ParseArgsConfig } from "node:util";
import { commandLine } from "../lib/script.ts";
import { diffAgainstRef, git } from "../api-diff/index.ts";
import { releaseCheck, writeApiChangeset } from "./changesets.ts";
import { githubRelease, publish, version } from "./publish.ts";
import { LABELS, regenerate } from "./regenerate.ts";

const [command = "", ...args] = process.argv.slice(2);
const parse = <O extends NonNullable<ParseArgsConfig["options"]>>(usage: string, options: O) =>
  commandLine(`usage: npm run ${command}${Object.keys(options).length ? " -- " : ""}${usage}`, options, { args })
    .values;
const outputs = (values: Record<string, string | boolean>) => {
  const file = process.env.GITHUB_OUTPUT;
  for (const [name, value] of Object.entries(values)) if (file) appendFileSync(file, `${name}=${value}\n`);
};
const base = { base: { type: "string", default: "origin/main" } } as const;
const repository = () => git(process.cwd(), "rev-parse", "--show-toplevel").trim();

async function run(): Promise<number | void> {
  const commands = ["release:check", "changeset:api", "regenerate", "release:version", "release:publish"];
  if (!commands.includes(command)) throw new Error(`no such command (${commands.join(", ")})`);
  if (command === "release:check") {
    const values = parse(
      "[--base <git ref>]\n\nExit 1 when spec/ changed the API against <ref> (default origin/main) in a breaking way " +
        "without a changeset of the bump it calls for.",
      base,
    );
    const { ok, report } = await releaseCheck(repository(), values.base);
    (ok ? console.log : console.error)(report);
    return ok ? 0 : 1;
  }
  if (command === "changeset:api") {
    const values = parse(
      "[--base <git ref>] [--name <name>]\n\nWrites .changeset/<name>.md (default api-<short commit>) from the API " +
        "diff of spec/ against <ref>\n(default origin/main); nothing when the API did not change.",
      { ...base, name: { type: "string" } },
    );
    const dir = repository();
    const result = await diffAgainstRef(values.base, dir);
    const file = await writeApiChangeset(dir, result, values.name);
    console.log(file ? `wrote ${file} (${result.bump})` : `no API change against ${values.base}: no changeset`);
  }
  if (command === "regenerate") {
    const values = parse(
      "[--body <file>] [--changeset-name <name>]\n\nRegenerates generated/ from spec/ and writes the changeset the " +
        "API diff calls for; --body: the pull\nrequest's text to <file>. Step outputs: changed, bump, label, changeset.",
      { body: { type: "string" }, "changeset-name": { type: "string" } },
    );
    const dir = repository();
    const outcome = await regenerate(dir, values["changeset-name"]);
    if (!outcome) {
      console.log("generated/ is up to date with spec/");
      return outputs({ changed: false, bump: "none", label: "", changeset: "" });
    }
    if (values.body) writeFileSync(values.body, outcome.body);
    console.log(outcome.body);
    const { bump } = outcome.result;
    outputs({ changed: true, bump, label: LABELS[bump], changeset: outcome.changeset ?? "" });
  }
  if (command === "release:version") {
    parse("\n\nThe pending changesets become the new version in package.json, package-lock.json and CHANGELOG.md.", {});
    return console.log(`version ${version(repository())}: package.json, package-lock.json, CHANGELOG.md`);
  }
  if (command === "release:publish") {
    const values = parse(
      "[--github] [--notes <file>]\n\nPublishes the version in package.json to npm and tags it; the release notes " +
        "go to a GitHub release\n(--github: GITHUB_TOKEN, GITHUB_REPOSITORY) or to <file>. Step outputs: " +
        "published, version, tag.",
      { github: { type: "boolean" }, notes: { type: "string" } },
    );
    const dir = repository();
    const { published, version, tag, notes = "" } = publish(dir);
    outputs({ published, version, tag });
    console.log(published ? `published ${tag}\n\n${notes}` : `${tag}: already published, nothing to do`);
    if (published && values.notes) writeFileSync(values.notes, notes);
    if (published && values.github) await githubRelease(dir, tag, notes);
  }
}

try {
  process.exitCode = (await run()) ?? 0;
} catch (err) {
  console.error(`${command}: ${err instanceof Error ? err.message : err}`);
  process.exitCode = 2;
}
