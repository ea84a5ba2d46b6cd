// The release check (npm run release:check, CI on pull requests): a breaking API change against the base needs a
// changeset, added by the branch, that bumps the major version (the minor one while 0.x). In a temporary repository
// whose base commit already holds a pending major changeset (first-release.md): only what the branch adds counts.
import { scriptArgs } from "../../../scripts/lib/script.ts";
import { execFile } from "node:child_process";
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { coveringBumps, releaseCheck } from "../../../scripts/release/changesets.ts";
import { addPortField, removePortField, replaceIn } from "./spec-edits.js";
import { createTempRepo, root, type TempRepo } from "../../helpers/release/temp-repo.js";

const exec = promisify(execFile);
let repo: TempRepo;
let base: string;

beforeAll(() => {
  repo = createTempRepo(["spec", "src", "generated", ".changeset", "package.json"]);
  base = repo.git("rev-parse", "HEAD").trim();
});
afterAll(() => repo?.remove());
beforeEach(() => {
  repo.git("reset", "-q", "--hard", base);
  repo.git("clean", "-q", "-fd");
});

const changeset = (name: string, bump: string) =>
  writeFile(join(repo.dir, ".changeset", `${name}.md`), `---\n"rainbond-openapi": ${bump}\n---\n\nA change.\n`);
const setVersion = (version: string) =>
  replaceIn(repo.dir, "package.json", /"version": "[^"]+"/, `"version": "${version}"`);

describe("the release check", () => {
  test("the base's own pending changesets do not count: a breaking change with none of its own is refused", async () => {
    expect(repo.git("ls-tree", "--name-only", "HEAD:.changeset")).toContain("first-release.md");
    await removePortField(repo.dir);
    const { ok, report } = await releaseCheck(repo.dir, base);
    expect(ok).toBe(false);
    expect(report).toContain("the API diff against");
    expect(report).toContain("- `ports.list`: response 200 field `[].k8s_service_name` removed");
    expect(report).toContain("npm run changeset:api -- --base");
  });

  test.each([
    { version: "1.2.3", short: "minor", enough: "major" },
    { version: "0.4.0", short: "patch", enough: "minor" }, // while 0.x, a minor bump covers a breaking change
  ])(
    "at $version a $short changeset does not cover a breaking change; a $enough one does, committed or not",
    async ({ version, short, enough }) => {
      await setVersion(version);
      await removePortField(repo.dir);
      await changeset("a-tweak", short);
      expect((await releaseCheck(repo.dir, base)).ok).toBe(false);
      await changeset("api-drop", enough);
      const { ok, report } = await releaseCheck(repo.dir, base);
      expect(ok).toBe(true);
      expect(report).toContain(`versioned (${enough}: .changeset/a-tweak.md, .changeset/api-drop.md)`);
      repo.commit("the branch");
      expect((await releaseCheck(repo.dir, base)).ok).toBe(true);
    },
  );

  test("the bumps that cover a breaking change: semver's, where 0.x moves its minor number", () => {
    expect(coveringBumps("0.4.0")).toEqual(["major", "minor"]);
    expect(coveringBumps("1.0.0")).toEqual(["major"]);
  });

  test("an additive change passes with no changeset", async () => {
    await addPortField(repo.dir);
    const { ok, report } = await releaseCheck(repo.dir, base);
    expect(ok).toBe(true);
    expect(report).toContain("no breaking API change against");
    expect(report).toContain("(API bump: minor)");
  });

  test("npm run release:check: exit 1 naming the breaking change, exit 0 once a major changeset is added", async () => {
    await removePortField(repo.dir);
    const cli = scriptArgs(join(root, "scripts/release/cli.ts"), "release:check", "--base", base);
    const refused = await exec(process.execPath, cli, { cwd: repo.dir }).catch((e) => e);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("- `ports.list`: response 200 field `[].k8s_service_name` removed");
    await changeset("api-drop", "major");
    const passed = await exec(process.execPath, cli, { cwd: repo.dir });
    expect(passed.stdout).toContain("versioned (major: .changeset/api-drop.md)");
  }); // two processes, each bundling both specs: 7 s alone, over 20 s beside the whole suite on 2 shared cores

  test("against a base from before changesets were set up, every changeset of the branch counts", async () => {
    const old = createTempRepo(["spec", "src", "generated", "package.json"]);
    try {
      const before = old.git("rev-parse", "HEAD").trim();
      await cp(join(root, ".changeset"), join(old.dir, ".changeset"), { recursive: true });
      await removePortField(old.dir);
      const { ok, report } = await releaseCheck(old.dir, before);
      expect(ok).toBe(true); // first-release.md (major) is new to that base
      expect(report).toContain(".changeset/first-release.md");
    } finally {
      old.remove();
    }
  });
});
