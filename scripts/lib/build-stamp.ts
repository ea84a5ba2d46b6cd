// Whether what a step of `npm start` makes is current: a SHA-256 of the files it reads, kept after each run of the step
// under node_modules/.cache (outside dist/, which is published as it is). Content, not mtimes: a checkout or a
// regeneration that leaves a file's bytes as they were does not count as a change.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { root as projectRoot } from "./script.ts";

/**
 * A step: the files and folders it reads (what it writes among them is hashed as written), a file it writes (when that
 * is missing, the step runs whatever the stamp says), and what is said when it is skipped.
 */
export type Step = { name: string; inputs: string[]; output?: string; current: string };

/** `npm run generate`: spec/ and the generator -> generated/ and the README's table. */
export const GENERATE: Step = {
  name: "generate",
  inputs: ["spec", "scripts", "generated", "README.md", "package.json", "package-lock.json", "redocly.yaml"],
  current: "generated/ is up to date with spec/: generate skipped",
};
/** The build of the package (tsdown): src/ and generated/ -> dist/. */
export const BUILD: Step = {
  name: "build",
  inputs: ["src", "generated", "tsdown.config.ts", "package.json", "tsconfig.json"],
  output: "dist/index.js",
  current: "dist/ is up to date with src/ and generated/: build skipped",
};

/** The hash of the step's inputs under `root`: each file's path and bytes. */
function inputsHash({ inputs }: Step, root: string): string {
  const hash = createHash("sha256");
  for (const input of inputs.map((path) => join(root, path)).filter((path) => existsSync(path))) {
    const files = statSync(input).isDirectory()
      ? readdirSync(input, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => join(entry.parentPath, entry.name))
          .sort()
      : [input];
    for (const file of files)
      hash
        .update(`${relative(root, file)}\0`)
        .update(readFileSync(file))
        .update("\0");
  }
  return hash.digest("hex");
}

/** Runs `run` unless the step last ran on its inputs as they are now (and its output is there); says which. */
export function unlessCurrent(step: Step, run: () => void, root = projectRoot): void {
  const stamp = join(root, "node_modules/.cache/rainbond-openapi", `${step.name}-stamp`);
  const current = existsSync(stamp) && readFileSync(stamp, "utf8") === inputsHash(step, root);
  if (current && (!step.output || existsSync(join(root, step.output)))) return console.log(step.current);
  run();
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, inputsHash(step, root));
}
