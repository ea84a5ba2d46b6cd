#!/usr/bin/env node
// npm run api-diff -- [--base <git ref>] [--json] [--fail-on <level>]: what changed in the API between the spec at
// <ref> and the work tree's spec/, for this client's users (docs/releasing.md). Exit code: 1 when a change is at the
// --fail-on level or above (as oasdiff's --fail-on), else 0 whatever changed; 2 on bad arguments or a failure.
import { commandLine } from "../lib/script.ts";
import { changelogMarkdown, diffAgainstRef, git, toJson } from "./index.ts";
import { LEVELS, type Level } from "./rules.ts";

const USAGE = `usage: npm run api-diff -- [--base <git ref>] [--json] [--fail-on ${LEVELS.join(" | ")}]

  --base <ref>        the spec to compare the work tree's spec/ with (default HEAD)
  --json              { bump, changes } as JSON instead of the Markdown changelog
  --fail-on <level>   exit 1 when a change is at <level> or above: breaking (a major bump), non-breaking (any
                      change to the API: minor or major), docs (any change at all)`;

const { values } = commandLine(USAGE, {
  base: { type: "string", default: "HEAD" },
  json: { type: "boolean", default: false },
  "fail-on": { type: "string" },
});
const failOn = values["fail-on"] as Level | undefined;
if (failOn !== undefined && !LEVELS.includes(failOn)) {
  console.error(`api-diff: --fail-on ${failOn}: not a level\n${USAGE}`);
  process.exit(2);
}

try {
  const result = await diffAgainstRef(values.base, git(process.cwd(), "rev-parse", "--show-toplevel").trim());
  process.stdout.write(values.json ? `${toJson(result)}\n` : changelogMarkdown(result));
  // LEVELS runs from the most severe down
  const failing = result.changes.filter((c) => failOn && LEVELS.indexOf(c.level) <= LEVELS.indexOf(failOn));
  if (failing.length) {
    console.error(`api-diff: ${failing.length} change(s) at --fail-on ${failOn} or above`);
    process.exitCode = 1;
  }
} catch (err) {
  console.error(`api-diff: ${err instanceof Error ? err.message : err}`);
  process.exitCode = 2;
}
