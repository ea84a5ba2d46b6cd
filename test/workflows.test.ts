// The GitHub Actions workflows: each one valid by GitHub's workflow schema (@action-validator/core), the npm scripts
// they run all defined in package.json (the workflows run the same scripts as people do), and their path filters
// naming files that exist.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { validateWorkflow as validateWithWarnings } from "@action-validator/core";
import { describe, expect, it } from "vitest";
import { matrixRows, PINNED } from "../scripts/runtimes/matrix.mjs";
import { LABELS } from "../scripts/release/index.mjs";

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

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
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

describe("the GitHub Actions workflows", () => {
  it("are the four expected ones", () => {
    expect(workflows).toEqual(["ci.yml", "pages.yml", "regenerate.yml", "release.yml"]);
  });

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
    });
  }

  it("CI installs with npm ci and runs lint, the generate check, build and test on each Node the matrix runs", () => {
    const ci = source("ci.yml");
    for (const command of ["npm ci", "npm run lint", "npm run generate -- --check", "npm run build", "npm test"]) {
      expect(ci).toContain(`run: ${command}`);
    }
    const nodes = Object.keys(PINNED.node).map((major) => `"${major}"`);
    expect(ci).toMatch(/^\s*node: \[(.*)\]$/m);
    expect(/^\s*node: \[(.*)\]$/m.exec(ci)![1]!.split(/,\s*/)).toEqual(nodes);
    expect(ci).not.toMatch(/apt-get/); // npm ci brings Chromium
  });

  it("CI runs the runtime matrix, a job per runtime of scripts/runtimes/matrix.mjs, with the runtimes cached", () => {
    const ci = source("ci.yml");
    const noRun = async () => {
      throw new Error("not run");
    };
    const context = { run: noRun, install: noRun, chromium: noRun, chromiumVersion: "0", typescripts: ["0"] };
    const rows = matrixRows({
      ...context,
      consumerDir: "",
      config: { baseUrl: "", hangUrl: "", token: "" },
      edgeHost: "",
    });
    const runtimes = [...new Set(rows.map((row) => row.name.split(" ")[0]))];
    expect(/^\s*runtime: \[(.*)\]$/m.exec(ci)?.[1]?.split(/,\s*/)).toEqual(runtimes);
    expect(ci).toContain("run: npm run test:runtimes -- --only ${{ matrix.runtime }}");
    expect(ci).toMatch(
      /path: ~\/\.cache\/rainbond-openapi\/runtimes\n\s*key: .*hashFiles\('scripts\/runtimes\/matrix\.mjs'\)/,
    );
  });

  it("CI runs the release check on pull requests, against the pull request's base", () => {
    const ci = source("ci.yml");
    const step = ci.slice(ci.indexOf("- name: A breaking API change needs a major changeset"));
    expect(step).toMatch(/^[^\n]*\n\s+if: github\.event_name == 'pull_request'\n/);
    expect(step).toContain("BASE_REF: ${{ github.base_ref }}");
    expect(step).toContain('git fetch --no-tags --depth=1 origin "$BASE_REF"');
    expect(step).toContain("npm run release:check -- --base FETCH_HEAD");
  });

  it("Regenerate runs on spec/ changes and by hand; its logic is npm run regenerate; it opens a labelled pull request", () => {
    const regenerate = source("regenerate.yml");
    expect(pathFilters(regenerate)).toContain("spec/**");
    expect(regenerate).toMatch(/^\s{2}workflow_dispatch:/m);
    expect(regenerate).toContain("run: npm ci");
    expect(regenerate).toContain('run: npm run regenerate -- --body "$RUNNER_TEMP/pr-body.md"');
    expect(regenerate).not.toMatch(/git (diff|status|log)/); // the script does it, where the tests run it
    expect(regenerate).toMatch(/uses: peter-evans\/create-pull-request@v\d+/);
    expect(regenerate).toMatch(/add-paths: \|\n\s+generated\/\n\s+\.changeset\/\n/);
    expect(regenerate).toContain("labels: ${{ steps.regenerate.outputs.label }}");
    expect(regenerate).toContain("body-path: ${{ runner.temp }}/pr-body.md");
    expect(Object.values(LABELS).filter(Boolean).sort()).toEqual(["api:additive", "api:breaking", "api:docs"]);
  });

  it("Release: changesets' flow on main, then build, test, publish with provenance (OIDC), release, docs", () => {
    const release = source("release.yml");
    expect(release).toMatch(/push:\s*\n\s*branches: \[main\]/);
    expect(release).toMatch(/uses: changesets\/action@v1\s*\n\s*with:\s*\n\s*version: npm run release:version\n/);
    expect(release).toMatch(/id-token: write/);
    const afterVersioning = release.slice(release.indexOf("uses: changesets/action"));
    for (const command of ["npm run build", "npm test", "npm run release:publish -- --github"]) {
      expect(afterVersioning).toContain(`run: ${command}`);
    }
    expect(release.match(/if: steps\.changesets\.outputs\.hasChangesets == 'false'/g)).toHaveLength(4);
    expect(release).toContain('NPM_CONFIG_PROVENANCE: "true"');
    // no long-lived npm token: the NPM_TOKEN secret is read once, by the fallback step, and only used when set
    expect(release.match(/secrets\.NPM_TOKEN/g)).toHaveLength(1);
    expect(release).toContain('if [ -n "$NPM_TOKEN" ]; then npm config set');
    expect(release).not.toMatch(/NODE_AUTH_TOKEN/);
    // the docs site of the released version: pages.yml called with the tag
    expect(release).toMatch(
      /uses: \.\/\.github\/workflows\/pages\.yml\s*\n\s*with:\s*\n\s*ref: \$\{\{ needs\.release\.outputs\.tag \}\}/,
    );
    expect(release).toContain("if: needs.release.outputs.published == 'true'");
  });

  it("Pages builds the site with npm run docs and deploys site/ to GitHub Pages", () => {
    const pages = source("pages.yml");
    expect(pages).toMatch(/push:\s*\n\s*branches: \[main\]/);
    expect(pages).toContain("run: npm run docs");
    expect(pages).toMatch(/uses: actions\/upload-pages-artifact@v\d+\s*\n\s*with:\s*\n\s*path: site\b/);
    expect(pages).toMatch(/uses: actions\/deploy-pages@v\d+/);
    expect(pages).toMatch(/pages: write/);
    expect(pages).toMatch(/id-token: write/);
    // callable by release.yml with the released tag
    expect(pages).toMatch(/workflow_call:\s*\n\s*inputs:\s*\n\s*ref:/);
    expect(pages).toMatch(/uses: actions\/checkout@v\d+\s*\n\s*with:\s*\n\s*ref: \$\{\{ inputs\.ref \}\}/);
  });
});
