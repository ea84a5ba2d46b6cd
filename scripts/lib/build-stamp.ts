// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Whether dist/ is current: a SHA-256 of what the build reads (src/, generated/, tsdown.config.ts, package.json,
// tsconfig.json), kept after each build made through buildUnlessCurrent. Content, not mtimes: a checkout or a
// regeneration that leaves a file's bytes as they were does not count as a change. The stamp lives under
// node_modules/.cache, outside dist/ (which is published as it is).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");
const INPUTS = ["src", "generated", "tsdown.config.ts", "package.json", "tsconfig.json"];
/** A file the build writes: when it is missing, dist/ is not there whatever the stamp says. */
const BUILT = "dist/index.js";
const STAMP = "node_modules/.cache/rainbond-openapi/build-stamp";

/** Every file under `path` (or `path` itself), sorted. */
function filesUnder(path) {
  if (!existsSync(path)) return [];
  try {
    return readdirSync(path, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
      .sort();
  } catch {
    return [path]; // a file
  }
}

/** The hash of the build's inputs under `root`: each file's path and bytes. */
function inputsHash(root) {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap((input) => filesUnder(join(root, input)))) {
    hash
      .update(`${relative(root, file)}\0`)
      .update(readFileSync(file))
      .update("\0");
  }
  return hash.digest("hex");
}

/** Runs `build` unless dist/ was built from the inputs as they are now; says which. */
export function buildUnlessCurrent(build, root = projectRoot) {
  const hash = inputsHash(root);
  const stampFile = join(root, STAMP);
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, "utf8") : "";
  if (stamp === hash && existsSync(join(root, BUILT))) {
    console.log("dist/ is up to date with src/ and generated/: build skipped");
    return;
  }
  build();
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, hash);
}
