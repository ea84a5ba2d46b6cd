// The GitHub Actions workflows: each one valid by GitHub's workflow schema (@action-validator/core), the npm scripts
// they run all defined in package.json (the workflows run the same scripts as people do), their path filters naming
// files that exist, and CI's matrices those of the runtime matrix. What a workflow's steps say is not restated here:
// the scripts they run are tested where they are defined.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { validateWorkflow as validateWithWarnings } from "@action-validator/core";
import { describe, expect, it } from "vitest";
import { matrixRows, PINNED } from "../scripts/runtimes/matrix.ts";
import { root } from "../scripts/lib/script.ts";

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
    });
  }

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
