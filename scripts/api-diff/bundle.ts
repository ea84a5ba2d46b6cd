// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The spec as the diff compares it: spec/ bundled into one document (@redocly/openapi-core, with the project's
// redocly.yaml, as `npm run generate` does), then dereferenced and normalised so that every change shows under the
// operation it concerns (see normalize()).
import type { OpenApiDocument } from "./index.ts";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle, bundleFromString, loadConfig } from "@redocly/openapi-core";

export const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

let config;
const redoclyConfig = async () => (config ??= await loadConfig({ configPath: join(root, "redocly.yaml") }));

/** spec/openapi.yaml under `dir` bundled into one document, internal `$ref`s kept (as generated/openapi.json). */
export async function bundleSpecDir(dir: string): Promise<OpenApiDocument> {
  const result = await bundle({ ref: join(dir, "spec", "openapi.yaml"), config: await redoclyConfig() });
  const unresolved = result.problems.filter((p) => p.severity === "error");
  if (unresolved.length) throw new Error(`cannot bundle ${dir}/spec: ${unresolved.map((p) => p.message).join("; ")}`);
  return result.bundle.parsed;
}

/**
 * The files of `paths` (e.g. ["spec", "src", "generated"]) as they are at the git ref, in a new temporary directory.
 * `git archive` rather than a checkout: the work tree is left alone.
 */
export function checkoutAt(ref, paths, cwd = root) {
  const dir = mkdtempSync(join(tmpdir(), "rainbond-api-diff-"));
  try {
    execFileSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd, stdio: "pipe" });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`--base ${ref}: no such commit in ${cwd}`);
  }
  const present = paths.filter(
    (p) => execFileSync("git", ["ls-tree", "--name-only", ref, "--", p], { cwd, encoding: "utf8" }).trim() !== "",
  );
  const tar = execFileSync("git", ["archive", "--format=tar", ref, "--", ...present], {
    cwd,
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A bundled document made ready for api-smart-diff, which classifies changes well where it finds them under `paths`
 * but reports changes in shared components a second time, at component level, with weaker verdicts. So:
 * - every `$ref` is replaced by what it points at (redocly's dereferencing), and `components` are dropped except the
 *   security schemes and the extensions (`x-...`), which a `$ref` cannot reach;
 * - path-level parameters are merged into each operation (an operation's own parameter wins, by name and place);
 * - the root `security` becomes each operation's own, where it has none.
 * Every change then shows under `paths/<path>/<method>/...`, as a change of one operation.
 */
export async function normalize(bundled) {
  const { bundle: doc, problems } = await bundleFromString({
    source: JSON.stringify(bundled),
    config: await redoclyConfig(),
    dereference: true,
  });
  const errors = problems.filter((p) => p.severity === "error");
  if (errors.length) throw new Error(`cannot dereference the spec: ${errors.map((p) => p.message).join("; ")}`);
  const spec = structuredClone(doc.parsed); // dereferencing shares objects; the diff must see trees
  for (const item of Object.values(spec.paths ?? {})) {
    const shared = item.parameters ?? [];
    delete item.parameters;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const own = op.parameters ?? [];
      const inherited = shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
      if (inherited.length || own.length) op.parameters = [...inherited, ...own];
      if (op.security === undefined && spec.security !== undefined) op.security = spec.security;
    }
  }
  delete spec.security;
  // kept from components: the security schemes and the extensions (e.g. x-console-envelope), which no $ref reaches
  spec.components = Object.fromEntries(
    Object.entries(spec.components ?? {}).filter(([key]) => key === "securitySchemes" || key.startsWith("x-")),
  );
  return spec;
}
