#!/usr/bin/env node
// npm run api-diff -- [--base <git ref>] [--json] [--fail-on <level>]
//
// What changed in the API between the spec at <ref> (default HEAD) and the work tree's spec/, for this client's
// users: a Markdown changelog (**Breaking**, **Added**, **Changed**, **Docs only**; each line names the client
// methods it touches), or with --json { bump, changes: [{ level, operationId, methods, path, message }] }.
// Exit code: 1 when --fail-on <level> is given and a change is at that level or above (as oasdiff's --fail-on), else
// 0 whatever changed; 2 on bad arguments or a failure.
import { execFileSync } from "node:child_process";
import { commandLine } from "../lib/script.ts";
import { changelogMarkdown } from "./changelog.ts";
import { LEVELS, toJson } from "./compare.ts";
import { diffAgainstRef } from "./git.ts";

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
const failOn = values["fail-on"];
if (failOn !== undefined && !LEVELS.includes(failOn)) {
  console.error(`api-diff: --fail-on ${failOn}: not a level\n${USAGE}`);
  process.exit(2);
}

try {
  // the repository the command runs in (npm runs it at the package's root)
  const dir = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();
  const result = await diffAgainstRef(values.base, dir);
  process.stdout.write(values.json ? `${JSON.stringify(toJson(result), null, 2)}\n` : changelogMarkdown(result));
  // LEVELS runs from the most severe down: a change fails the run when its level is failOn or comes before it
  const failing = failOn && result.changes.filter((c) => LEVELS.indexOf(c.level) <= LEVELS.indexOf(failOn));
  if (failing?.length) {
    console.error(`api-diff: ${failing.length} change(s) at --fail-on ${failOn} or above`);
    process.exitCode = 1;
  }
} catch (err) {
  console.error(`api-diff: ${err instanceof Error ? err.message : err}`);
  process.exitCode = 2;
}
