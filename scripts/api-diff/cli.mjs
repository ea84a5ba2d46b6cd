#!/usr/bin/env node
// npm run api-diff -- [--base <git ref>] [--json]
//
// What changed in the API between the spec at <ref> (default HEAD) and the work tree's spec/, for this client's
// users: a Markdown changelog (**Breaking**, **Added**, **Changed**, **Docs only**; each line names the client
// methods it touches), or with --json { bump, changes: [{ level, operationId, methods, path, message }] }.
// The exit code is 0 whatever changed (scripts/release/check.mjs is the gate); 2 on bad arguments or a failure.
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import { changelogMarkdown } from "./changelog.mjs";
import { toJson } from "./compare.mjs";
import { diffAgainstRef } from "./git.mjs";

try {
  const { values } = parseArgs({
    options: { base: { type: "string", default: "HEAD" }, json: { type: "boolean", default: false } },
  });
  // the repository the command runs in (npm runs it at the package's root)
  const dir = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();
  const result = await diffAgainstRef(values.base, dir);
  process.stdout.write(values.json ? `${JSON.stringify(toJson(result), null, 2)}\n` : changelogMarkdown(result));
} catch (err) {
  console.error(`api-diff: ${err instanceof Error ? err.message : err}`);
  process.exitCode = 2;
}
