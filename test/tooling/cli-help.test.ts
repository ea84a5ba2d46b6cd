// Every command with flags answers --help with its usage on stdout and exit code 0, and a flag it does not know with
// the usage on stderr and exit code 2, before doing anything else. Run as a user runs them: through npm.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { root } from "../helpers/readme.js";

const run = promisify(execFile);

const commands: [string, string[]][] = [
  ...[
    "generate",
    "start",
    "bench",
    "docs",
    "verify",
    "api-diff",
    "changeset:api",
    "regenerate",
    "release:check",
    "release:version",
    "release:pack",
    "test:runtimes",
  ].map((script): [string, string[]] => [`npm run ${script}`, ["npm", "run", "--silent", script, "--"]]),
];

describe.each(commands)("%s", (_name, [command, ...args]) => {
  test("--help prints the usage and exits 0", async () => {
    const { stdout } = await run(command!, [...args, "--help"], { cwd: root });
    expect(stdout).toMatch(/^usage: /);
  });

  test("an unknown flag exits 2 with the usage on stderr", async () => {
    const failed = await run(command!, [...args, "--no-such-flag"], { cwd: root }).catch((err) => err);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/no-such-flag/);
    expect(failed.stderr).toMatch(/^usage: /m);
  });
});
