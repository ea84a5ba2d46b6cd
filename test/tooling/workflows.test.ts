// The GitHub Actions workflows: each one valid by GitHub's workflow schema (@action-validator/core), the npm scripts
// they run all defined in package.json (the workflows run the same scripts as people do), their path filters naming
// files that exist, and CI's matrices those of the runtime matrix. And what keeps a release safe (docs/releasing.md):
// every action pinned by the commit of a release, named in a comment; no token beyond reading at the top of a
// workflow; no job that may write runs tests or install scripts, and the job holding id-token runs none of the
// project's code; no checkout keeps its token for later steps; a program downloaded by a job is a pinned release whose
// checksum, written in the workflow, is verified before it is unpacked. And the release hands every file release:pack
// makes to the jobs that publish it. What a workflow's steps say is not restated here: the scripts they run are tested
// where they are defined.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { validateWorkflow as validateWithWarnings } from "@action-validator/core";
import { parseYaml } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { PACKAGES } from "../../scripts/release/versions.ts";
import { matrixRows, PINNED } from "../../scripts/runtimes/matrix.ts";
import { root } from "../../scripts/lib/script.ts";

/** The validator, with its one known notice kept out of the test output: it does not check `paths` globs (it says
 *  "Glob validation is not yet supported"), which the "filters on paths that exist" test below does instead. Any
 *  other warning it prints still shows. */
function validateWorkflow(text: string): ReturnType<typeof validateWithWarnings> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).includes("Glob validation is not yet supported")) warn(...args);
  };
  try {
    return validateWithWarnings(text);
  } finally {
    console.warn = warn;
  }
}

const dir = join(root, ".github", "workflows");
const workflows = readdirSync(dir)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort();
const source = (name: string) => readFileSync(join(dir, name), "utf8");
const scripts = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> })
  .scripts;

/** Every npm script a text runs: `npm run X`, `npm run-script X`, and the `npm test` / `npm start` shorthands. */
function npmScriptsIn(text: string): string[] {
  const named = [...text.matchAll(/\bnpm\s+(?:run|run-script)\s+([\w:.-]+)/g)].map((m) => m[1]!);
  const shorthand = [...text.matchAll(/\bnpm\s+(test|start|stop|restart)\b/g)].map((m) => m[1]!);
  return [...new Set([...named, ...shorthand])];
}

/** The `paths:` filters of a workflow's triggers (written as flow sequences: `paths: ["spec/**"]`). */
function pathFilters(text: string): string[] {
  return [...text.matchAll(/^\s*paths:\s*\[([^\]]*)\]/gm)].flatMap((m) =>
    m[1]!
      .split(",")
      .map((p) => p.trim().replace(/^["']|["']$/g, ""))
      .filter(Boolean),
  );
}

function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      re += glob[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += glob[i + 2] === "/" ? 2 : 1;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

type Permissions = "read-all" | "write-all" | Record<string, string>;
interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  outputs?: Record<string, string>;
  permissions?: Permissions;
  steps?: Step[];
  /** A reusable workflow's path: its jobs are checked in their own file. */
  uses?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  permissions?: Permissions;
  jobs: Record<string, Job>;
}

const parsed = (text: string) => parseYaml(text) as Workflow;

/** A job's token: its own permissions, else the workflow's; undefined: GitHub's default, which may write. */
const grants = (workflow: Workflow, job: Job) => job.permissions ?? workflow.permissions;
/** A token that may write to the repository, its pull requests, Pages... (id-token is not a write of anything). */
const mayWrite = (p: Permissions | undefined) =>
  p === undefined ||
  p === "write-all" ||
  (typeof p === "object" && Object.entries(p).some(([scope, level]) => scope !== "id-token" && level === "write"));
/** A token that can ask for an OIDC token (npm trusted publishing, Pages, clouds). */
const holdsIdToken = (p: Permissions | undefined) =>
  p === undefined || p === "write-all" || (typeof p === "object" && p["id-token"] === "write");

/** What a job's steps run: their `run:` scripts and the text of their actions' inputs (changesets' `version:`). */
const commandsOf = (job: Job) =>
  (job.steps ?? []).flatMap((step) => [
    ...(step.run ? [step.run] : []),
    ...Object.values(step.with ?? {}).filter((value): value is string => typeof value === "string"),
  ]);

/** Each npm command of a text, up to the end of its line or shell list (`&&`, `;`, `|`). */
const npmCommands = (text: string) => [...text.matchAll(/\bnpm\s+[^\n;&|]*/g)].map((m) => m[0]);
/** npm commands that install with dependencies' (and the project's) lifecycle scripts. */
const installsWithScripts = (command: string) =>
  /^npm\s+(?:ci|install|i|add|isntall|clean-install|install-clean|ic)\b/.test(command) &&
  !/\s--ignore-scripts\b/.test(command);
/** npm commands that run the project's tests (which run all of its code and its devDependencies). */
const runsTests = (command: string) =>
  /^npm\s+(?:test|t|tst|run\s+test|run-script\s+test|install-test|it|install-ci-test|cit)\b/.test(command);

/**
 * What is wrong with the downloads of a step (curl, wget): one of a moving `latest` release; none checked with
 * `sha256sum --check` before `tar` unpacks it; a checksum not written in the step (its env: 64 hex digits).
 */
function unverifiedDownloads(step: Step): string[] {
  const run = step.run ?? "";
  if (!/\b(?:curl|wget)\b/.test(run)) return [];
  const check = run.search(/\bsha256sum\s+(?:--check|-c)\b/);
  const unpack = run.search(/\btar\s/);
  return [
    ...(/\blatest\b/.test(run) ? ["downloads a moving latest release"] : []),
    ...(check === -1 || (unpack !== -1 && unpack < check) ? ["unpacks what it downloads unchecked"] : []),
    ...(Object.values(step.env ?? {}).some((value) => /^[0-9a-f]{64}$/.test(String(value)))
      ? []
      : ["names no SHA-256 of its own"]),
  ];
}

/** The `uses:` lines of a workflow's text: the reference and the comment after it. */
const usesLines = (text: string) =>
  [...text.matchAll(/^\s*(?:-\s+)?uses:\s*(\S+)[ \t]*(?:#[ \t]*(.*?))?[ \t]*$/gm)].map((m) => ({
    ref: m[1]!,
    comment: m[2],
  }));
const PINNED_REF = /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/;
const RELEASE = /^v\d+\.\d+\.\d+$/;

describe("the GitHub Actions workflows", () => {
  it("the validator rejects a workflow that is not valid (so its passing means something)", () => {
    const broken = source("ci.yml").replace(/runs-on:/g, "runs_on:");
    expect(validateWorkflow(broken).errors).not.toEqual([]);
  });

  for (const name of workflows) {
    describe(name, () => {
      it("passes @action-validator/core", () => {
        const { actionType, errors } = validateWorkflow(source(name));
        expect(actionType).toBe("workflow");
        expect(errors).toEqual([]);
      });

      it("runs only npm scripts that package.json defines", () => {
        const used = npmScriptsIn(source(name));
        expect(used.length).toBeGreaterThan(0);
        expect(used.filter((script) => !(script in scripts))).toEqual([]);
      });

      it("filters on paths that exist in the repository", () => {
        const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
          cwd: root,
          encoding: "utf8",
        })
          .split("\n")
          .filter(Boolean);
        for (const glob of pathFilters(source(name)).filter((p) => !p.startsWith("!"))) {
          const re = globToRegExp(glob);
          expect(
            files.some((file) => re.test(file)),
            `${name}: paths filter ${glob} matches no file`,
          ).toBe(true);
        }
      });

      it("pins every action to the full commit of a release, with the release in a comment", () => {
        const workflow = parsed(source(name));
        const lines = usesLines(source(name));
        const used = Object.values(workflow.jobs).flatMap((job) => [
          ...(job.uses ? [job.uses] : []),
          ...(job.steps ?? []).flatMap((step) => (step.uses ? [step.uses] : [])),
        ]);
        expect(lines.map((line) => line.ref)).toEqual(used); // every `uses:` of the workflow is a line read here
        for (const { ref, comment } of lines.filter((line) => !line.ref.startsWith("./"))) {
          expect(ref, `${name}: ${ref}`).toMatch(PINNED_REF);
          expect(comment, `${name}: ${ref} names no release`).toMatch(RELEASE);
        }
      });

      it("grants no token beyond reading at the top: jobs ask for what they need", () => {
        const { permissions } = parsed(source(name));
        expect(typeof permissions, `${name}: no top-level permissions (GitHub's default may write)`).toBe("object");
        const granted = Object.entries(permissions as object).filter(
          ([, level]) => level !== "read" && level !== "none",
        );
        expect(granted, `${name}: top-level permissions`).toEqual([]);
      });

      it("runs no tests and no install scripts in a job that may write or holds id-token", () => {
        const workflow = parsed(source(name));
        for (const [id, job] of Object.entries(workflow.jobs)) {
          const permissions = grants(workflow, job);
          if (!mayWrite(permissions) && !holdsIdToken(permissions)) continue;
          const npm = commandsOf(job).flatMap(npmCommands);
          expect(npm.filter(installsWithScripts), `${name}: job ${id} installs with scripts`).toEqual([]);
          expect(npm.filter(runsTests), `${name}: job ${id} runs the tests`).toEqual([]);
        }
      });

      it("runs none of the project's code in a job holding id-token: publishes a tarball without scripts", () => {
        const workflow = parsed(source(name));
        for (const [id, job] of Object.entries(workflow.jobs)) {
          if (!holdsIdToken(grants(workflow, job))) continue;
          const commands = commandsOf(job);
          const npm = commands.flatMap(npmCommands);
          const ran = npm.filter((command) => /^npm\s+(?:run|run-script|exec|x)\b/.test(command));
          expect(ran, `${name}: job ${id} runs the project's scripts`).toEqual([]);
          expect(
            commands.filter((command) => /\bnpx\b/.test(command)),
            `${name}: job ${id} runs npx`,
          ).toEqual([]);
          const publishes = npm.filter((command) => /^npm\s+publish\b/.test(command));
          const withScripts = publishes.filter((command) => !/\s--ignore-scripts\b/.test(command));
          expect(withScripts, `${name}: job ${id} publishes running lifecycle scripts`).toEqual([]);
        }
      });

      it("downloads programs only at a pinned release, their SHA-256 written here and checked before unpacking", () => {
        for (const [id, job] of Object.entries(parsed(source(name)).jobs)) {
          for (const step of job.steps ?? []) expect(unverifiedDownloads(step), `${name}: job ${id}`).toEqual([]);
        }
      });

      it("keeps no token in a checkout (persist-credentials: false) unless its job pushes with git", () => {
        const workflow = parsed(source(name));
        for (const [id, job] of Object.entries(workflow.jobs)) {
          if (commandsOf(job).some((command) => /\bgit\s+push\b/.test(command))) continue;
          for (const step of (job.steps ?? []).filter((step) => step.uses?.startsWith("actions/checkout@"))) {
            expect(step.with?.["persist-credentials"], `${name}: a checkout of job ${id}`).toBe(false);
          }
        }
      });
    });
  }

  it("pins each action to one commit and one release in every workflow", () => {
    const releases = new Map<string, Set<string>>();
    for (const { ref, comment } of workflows.flatMap((name) => usesLines(source(name)))) {
      const action = ref.split("@")[0]!;
      releases.set(action, (releases.get(action) ?? new Set()).add(`${ref} # ${comment}`));
    }
    const several = [...releases.values()].filter((pins) => pins.size > 1).map((pins) => [...pins]);
    expect(several).toEqual([]);
  });

  it("the checks above see what they look for (permissions, installs, tests, pins)", () => {
    const writing: (Permissions | undefined)[] = [undefined, "write-all", { contents: "write" }];
    expect(writing.map(mayWrite)).toEqual([true, true, true]);
    const reading: Permissions[] = [{}, "read-all", { contents: "read", "id-token": "write" }];
    expect(reading.map(mayWrite)).toEqual([false, false, false]);
    const idToken: (Permissions | undefined)[] = [
      undefined,
      "write-all",
      { "id-token": "write" },
      { contents: "write" },
    ];
    expect(idToken.map(holdsIdToken)).toEqual([true, true, true, false]);
    const npm = npmCommands("npm ci --no-audit && npm ci --ignore-scripts\nnpm install; npm test\nnpm run test -- x");
    expect(npm.filter(installsWithScripts)).toEqual(["npm ci --no-audit ", "npm install"]);
    expect(npm.filter(runsTests)).toEqual(["npm test", "npm run test -- x"]);
    expect("actions/checkout@v4").not.toMatch(PINNED_REF);
    expect("actions/checkout@11d5960a326750d5838078e36cf38b85af677262").toMatch(PINNED_REF);
    const download =
      'curl -o x.tgz https://example.org/v1/x.tgz\necho "$SUM  x.tgz" | sha256sum --check\ntar -xzf x.tgz';
    const sum = { SUM: "a".repeat(64) };
    expect(unverifiedDownloads({ run: download, env: sum })).toEqual([]);
    expect(unverifiedDownloads({ run: download.replace("v1", "latest"), env: sum })).toHaveLength(1);
    expect(unverifiedDownloads({ run: download.replace("sha256sum --check", "cat"), env: sum })).toHaveLength(1);
    expect(unverifiedDownloads({ run: `tar -xzf x.tgz\n${download}`, env: sum })).toHaveLength(1);
    expect(unverifiedDownloads({ run: download })).toEqual(["names no SHA-256 of its own"]);
    expect(usesLines("      - uses: a/b@c # v1.2.3\n        uses: ./x.yml\n")).toEqual([
      { ref: "a/b@c", comment: "v1.2.3" },
      { ref: "./x.yml", comment: undefined },
    ]);
  });

  it("the release hands every file release:pack makes to the jobs that publish it, the MCP Registry last", () => {
    const { jobs } = parsed(source("release.yml"));
    const made = [...Object.keys(PACKAGES), "bundle", "server_json"];
    for (const output of made) expect(jobs.test!.outputs?.[output]).toBe(`\${{ steps.release.outputs.${output} }}`);
    const steps = JSON.stringify(jobs.publish!.steps);
    for (const output of made) expect(steps, output).toContain(`needs.test.outputs.${output}`);
    const npm = commandsOf(jobs.publish!).flatMap(npmCommands);
    expect(npm.filter((command) => /^npm\s+publish\b/.test(command))).toHaveLength(1); // in a loop over the three
    expect([jobs.registry!.needs].flat()).toContain("publish");
    const registry = commandsOf(jobs.registry!).join("\n");
    expect(registry).toMatch(/mcp-publisher" login github-oidc\n[^]*mcp-publisher" publish\n/);
  });

  it("CI runs each Node the runtime matrix pins", () => {
    const nodes = Object.keys(PINNED.node).map((major) => `"${major}"`);
    expect(/^\s*node: \[(.*)\]$/m.exec(source("ci.yml"))?.[1]?.split(/,\s*/)).toEqual(nodes);
  });

  it("CI runs a job per runtime of scripts/runtimes/matrix.ts", () => {
    const ci = source("ci.yml");
    const noRun = async () => {
      throw new Error("not run");
    };
    const rows = matrixRows({ run: noRun, install: noRun, chromium: noRun, consumerDir: "", typescripts: ["0"] });
    const runtimes = [...new Set(rows.map((row) => row.name.split(" ")[0]))];
    expect(/^\s*runtime: \[(.*)\]$/m.exec(ci)?.[1]?.split(/,\s*/)).toEqual(runtimes);
  });
});
