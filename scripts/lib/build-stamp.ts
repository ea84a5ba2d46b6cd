// Whether a step of `npm start` is current (docs/editing-the-spec.md): a SHA-256 of its files' content (not mtimes),
// kept under node_modules/.cache (outside dist/, which is published as it is).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { root as projectRoot } from "./script.ts";

/** A step: the files and folders it reads and writes, and what is said when it is skipped. */
export type Step = { name: string; files: string[]; current: string };

/** `npm run generate`: spec/ and the generator -> generated/ and the pages of docs/ it writes into. */
export const GENERATE: Step = {
  name: "generate",
  files: [
    ...["spec", "scripts", "generated", "package.json", "package-lock.json", "redocly.yaml"],
    ...["docs/methods.md", "docs/mcp.md", "docs/console-departures.md"],
  ],
  current: "generated/ is up to date with spec/: generate skipped",
};
/** The build of the package (tsdown): src/ and generated/ -> dist/. */
export const BUILD: Step = {
  name: "build",
  files: ["src", "generated", "tsdown.config.ts", "package.json", "tsconfig.json", "dist"],
  current: "dist/ is up to date with src/ and generated/: build skipped",
};

/** The hash of the step's files under `root`: each one's path and bytes. */
function filesHash({ files }: Step, root: string): string {
  const hash = createHash("sha256");
  for (const path of files.map((file) => join(root, file)).filter((path) => existsSync(path))) {
    const found = statSync(path).isDirectory()
      ? readdirSync(path, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => join(entry.parentPath, entry.name))
          .sort()
      : [path];
    for (const file of found) hash.update(`\0${relative(root, file)}\0`).update(readFileSync(file));
  }
  return hash.digest("hex");
}

/** Runs `run` unless the step last ran on its files as they are now; says which. */
export function unlessCurrent(step: Step, run: () => void, root = projectRoot): void {
  const stamp = join(root, "node_modules/.cache/rainbond-openapi", `${step.name}-stamp`);
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === filesHash(step, root)) return console.log(step.current);
  run();
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, filesHash(step, root));
}
