// `npm run api-diff` end to end, once: in a temporary git repository holding the project's spec/, src/ and
// generated/, the spec is changed in the work tree and the command compares it with HEAD, as Markdown and as JSON.
// (The classification itself is tested in memory: mutations.test.ts, rules.test.ts.)
import { scriptArgs } from "../../../scripts/lib/script.ts";
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readMethods } from "../../../scripts/lib/methods.ts";
import { removePortField, rewordPortDescription } from "../release/spec-edits.js";
import { createTempRepo, root, type TempRepo } from "../../helpers/release/temp-repo.js";

const run = promisify(execFile);
/** `npm run api-diff`: the `api-diff` command of the release CLI. */
const apiDiff = (...args: string[]) => scriptArgs(join(root, "scripts/release/cli.ts"), "api-diff", ...args);
let repo: TempRepo;
/** The methods that answer a Port (or a list of them): those a removed field of Port touches. */
const portMethods = readMethods()
  .filter((method) => /^Port(\[\])?$/.test(method.returns))
  .map((method) => method.name);

beforeAll(async () => {
  repo = createTempRepo(["spec", "src", "generated"]);
  await removePortField(repo.dir); // a maintainer removes a field of Port
  await rewordPortDescription(repo.dir); // and rewords a description
});

afterAll(() => repo?.remove());

describe("npm run api-diff", () => {
  test("prints the Markdown changelog of the work tree against HEAD", async () => {
    const { stdout } = await run(process.execPath, apiDiff(), { cwd: repo.dir });
    expect(stdout).toMatch(
      /^\*\*Breaking\*\*\n\n- `ports.add`, `ports.delete`, `ports.update`, `ports.openOuter`, .*: response 200 field/,
    );
    expect(stdout).toContain("- `ports.list`: response 200 field `[].k8s_service_name` removed\n");
    expect(stdout).toMatch(
      /\*\*Docs only\*\*\n\n- `ports.add`, `ports.delete`, `ports.update`, .*`ports.onlyOpenOuter`: description of response/,
    );
    expect(stdout).toContain("- `ports.list`: description of response 200 field `[].container_port` changed\n");
  });

  test("--json prints the bump and the changes", async () => {
    const { stdout } = await run(process.execPath, apiDiff("--base", "HEAD", "--json"), { cwd: repo.dir });
    const json = JSON.parse(stdout) as { bump: string; changes: { level: string; methods: string[] }[] };
    expect(json.bump).toBe("major");
    expect(
      json.changes
        .filter((c) => c.level === "breaking")
        .flatMap((c) => c.methods)
        .sort(),
    ).toEqual(portMethods.sort());
    expect(portMethods).toHaveLength(4 + 7); // the four operations that answer a Port and the seven shortcuts
  });

  test("methods the work tree's client lacks are named from generated/table.json at --base", async () => {
    // as if no method called these any more
    await writeFile(join(repo.dir, "generated/table.json"), '{"methods": [], "operations": {}}\n');
    try {
      const { stdout } = await run(process.execPath, apiDiff("--json"), { cwd: repo.dir });
      const json = JSON.parse(stdout) as { changes: { level: string; methods: string[] }[] };
      const breaking = json.changes.filter((c) => c.level === "breaking").flatMap((c) => c.methods);
      expect(breaking.sort()).toEqual([...portMethods].sort());
    } finally {
      repo.git("checkout", "--", "generated/table.json");
    }
  });

  test("--fail-on breaking exits 1 on a breaking change, the changelog printed all the same", async () => {
    const failed = await run(process.execPath, apiDiff("--fail-on", "breaking"), { cwd: repo.dir }).catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^\*\*Breaking\*\*/);
    expect(failed.stderr).toMatch(/^api-diff: \d+ change\(s\) at --fail-on breaking or above$/m);
  });

  test("--fail-on breaking exits 0 when the changes are docs only; --fail-on docs exits 1 on them", async () => {
    // a repository whose one change is a reworded description
    const docsOnly = createTempRepo(["spec", "src", "generated"]);
    try {
      await rewordPortDescription(docsOnly.dir);
      await expect(
        run(process.execPath, apiDiff("--fail-on", "breaking"), { cwd: docsOnly.dir }),
      ).resolves.toBeTruthy();
      const failed = await run(process.execPath, apiDiff("--fail-on", "docs"), { cwd: docsOnly.dir }).catch((e) => e);
      expect(failed.code).toBe(1);
    } finally {
      docsOnly.remove();
    }
  });

  test("--fail-on with an unknown level is refused with exit code 2 and the usage", async () => {
    const failed = await run(process.execPath, apiDiff("--fail-on", "major"), { cwd: repo.dir }).catch((e) => e);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain("--fail-on major: not a level");
    expect(failed.stderr).toMatch(/^usage: npm run api-diff/m);
  });

  test("an unknown --base is refused with exit code 2 and a message naming it", async () => {
    const failed = await run(process.execPath, apiDiff("--base", "no-such-ref"), { cwd: repo.dir }).catch((e) => e);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain("--base no-such-ref: no such commit");
  });
});
