#!/usr/bin/env node
// The API diff and the release scripts as commands, one per npm script: `node --import tsx scripts/release/cli.ts
// <command> [flags]`. Step outputs for GitHub Actions go to $GITHUB_OUTPUT. Exit codes: 0 done; 1 refused (a change
// at api-diff's --fail-on level or above, as oasdiff's --fail-on; release:check); 2 bad arguments or a failure.
import { appendFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { ParseArgsConfig } from "node:util";
import { commandLine } from "../lib/script.ts";
import { changelogMarkdown, diffAgainstRef, git, LEVELS, toJson, type Level } from "../api-diff/index.ts";
import { packRelease, releaseCheck, version, writeApiChangeset } from "./changesets.ts";
import { LABELS, regenerate } from "./regenerate.ts";
import { PACKAGES, VERSIONED, type Tarballs } from "./versions.ts";

const [command = "", ...args] = process.argv.slice(2);
let usage = "";
const parse = <O extends NonNullable<ParseArgsConfig["options"]>>(text: string, options: O) => {
  usage = `usage: npm run ${command}${Object.keys(options).length ? " -- " : ""}${text}`;
  return commandLine(usage, options, { args }).values;
};
const outputs = (values: Record<string, string | boolean>) => {
  const file = process.env.GITHUB_OUTPUT;
  for (const [name, value] of Object.entries(values)) if (file) appendFileSync(file, `${name}=${value}\n`);
};
const base = (ref: string) => ({ base: { type: "string", default: ref } }) as const;
const repository = () => git(process.cwd(), "rev-parse", "--show-toplevel").trim();

const COMMANDS: Record<string, () => Promise<number | void>> = {
  "api-diff": async () => {
    const values = parse(
      `[--base <git ref>] [--json] [--fail-on ${LEVELS.join(" | ")}]

  --base <ref>        the spec to compare the work tree's spec/ with (default HEAD)
  --json              { bump, changes } as JSON instead of the Markdown changelog
  --fail-on <level>   exit 1 when a change is at <level> or above: breaking (a major bump), non-breaking (any
                      change to the API: minor or major), docs (any change at all)`,
      { ...base("HEAD"), json: { type: "boolean" }, "fail-on": { type: "string" } },
    );
    const failOn = values["fail-on"] as Level | undefined;
    if (failOn !== undefined && !LEVELS.includes(failOn)) throw new Error(`--fail-on ${failOn}: not a level\n${usage}`);
    const result = await diffAgainstRef(values.base, repository());
    process.stdout.write(values.json ? `${toJson(result)}\n` : changelogMarkdown(result));
    if (result.staleOverlayActions)
      console.error(
        `api-diff: spec/console.overlay.yaml acts on what the spec no longer has; remove these actions:\n  ${result.staleOverlayActions.join("\n  ")}`,
      );
    const failing = result.changes.filter((c) => failOn && LEVELS.indexOf(c.level) <= LEVELS.indexOf(failOn));
    if (failing.length) console.error(`api-diff: ${failing.length} change(s) at --fail-on ${failOn} or above`);
    return failing.length ? 1 : 0;
  },
  "release:check": async () => {
    const values = parse(
      "[--base <git ref>]\n\nExit 1 when spec/ changed the API against <ref> (default origin/main) in a breaking way " +
        "without a changeset of the bump it calls for.",
      base("origin/main"),
    );
    const { ok, report } = await releaseCheck(repository(), values.base);
    (ok ? console.log : console.error)(report);
    return ok ? 0 : 1;
  },
  "changeset:api": async () => {
    const values = parse(
      "[--base <git ref>] [--name <name>]\n\nWrites .changeset/<name>.md (default api-<short commit>) from the API " +
        "diff of spec/ against <ref>\n(default origin/main); nothing when the API did not change.",
      { ...base("origin/main"), name: { type: "string" } },
    );
    const dir = repository();
    const result = await diffAgainstRef(values.base, dir);
    const file = await writeApiChangeset(dir, result, values.name);
    console.log(file ? `wrote ${file} (${result.bump})` : `no API change against ${values.base}: no changeset`);
  },
  regenerate: async () => {
    const values = parse(
      "[--body <file>] [--changeset-name <name>]\n\nRegenerates generated/ from spec/ and writes the changeset the " +
        "API diff calls for; --body: the pull\nrequest's text to <file>. Step outputs: changed, bump, label, changeset.",
      { body: { type: "string" }, "changeset-name": { type: "string" } },
    );
    const outcome = await regenerate(repository(), values["changeset-name"]);
    const bump = outcome?.result.bump ?? "none";
    outputs({ changed: !!outcome, bump, label: LABELS[bump], changeset: outcome?.changeset ?? "" });
    if (outcome && values.body) writeFileSync(values.body, outcome.body);
    console.log(outcome?.body ?? "generated/ is up to date with spec/");
  },
  "release:version": async () => {
    parse(
      "\n\nThe pending changesets become the new version in package.json, package-lock.json and CHANGELOG.md, and in " +
        `the files of the\nMCP server and the command line (${Object.keys(VERSIONED).join(", ")}).`,
      {},
    );
    const files = ["package.json", "package-lock.json", "CHANGELOG.md", ...Object.keys(VERSIONED)];
    console.log(`version ${await version(repository())}: ${files.join(", ")}`);
  },
  "release:pack": async () => {
    const values = parse(
      "--out <dir>\n\nWhen no changeset is pending and npm lacks the version in package.json of one of the packages: " +
        "into <dir>, the\npackages packed (npm pack: the client, rainbond-openapi-mcp, rainbond-openapi-cli), the MCP bundle named " +
        "with\nthe version, server.json for the MCP Registry (the npm package and the bundle, its SHA-256) and the\n" +
        "version's CHANGELOG.md section as notes.md, for the publish job to publish as they are. Step outputs:\n" +
        "pending, due, version, tag, tarball, mcp_tarball, cli_tarball, bundle, server_json (file names in <dir>).",
      { out: { type: "string" } },
    );
    if (!values.out) throw new Error(`--out is required\n${usage}`);
    const release = packRelease(repository(), values.out);
    const { pending, due, version, tag, tarballs, bundle = "", serverJson = "", notes = "" } = release;
    const names = Object.fromEntries(
      Object.keys(PACKAGES).map((output) => [output, basename(tarballs?.[output as keyof Tarballs] ?? "")]),
    );
    outputs({ pending, due, version, tag, ...names, bundle: basename(bundle), server_json: basename(serverJson) });
    if (due) writeFileSync(join(values.out, "notes.md"), notes);
    const made = [...Object.values(names), basename(bundle), basename(serverJson)].join(", ");
    console.log(
      pending
        ? "changesets are pending: the version pull request is due, not a release"
        : due
          ? `${tag}: ${made} in ${values.out}\n\n${notes}`
          : `${tag}: already on the registry, nothing to release`,
    );
  },
};

try {
  const run = COMMANDS[command];
  if (!run) throw new Error(`no such command (${Object.keys(COMMANDS).join(", ")})`);
  process.exitCode = (await run()) ?? 0;
} catch (err) {
  console.error(`${command}: ${err instanceof Error ? err.message : err}`);
  process.exitCode = 2;
}
