// The documents the diff compares: spec/ bundled into one with its console overlay applied (scripts/lib/spec.ts, as
// `npm run generate` makes it), from the work tree or a git ref, then dereferenced and normalised; and the client's
// methods of each side (generated/table.json), so that the changelog names `ports.list` rather than a path.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "@redocly/openapi-core";
import type { ClientMethod } from "../lib/methods.ts";
import { bundleSpec } from "../lib/spec.ts";
import { root } from "../lib/script.ts";
import { HTTP_METHODS, type OpenApiDocument } from "./locate.ts";

/** operationId -> the client methods that call it (`ports.list`), shortcuts and iterators included. */
export type MethodTable = Map<string, string[]>;

export const git = (dir: string, ...args: string[]) =>
  execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: "pipe", maxBuffer: 64 << 20 });

// Redocly is loaded when a spec is bundled, not with the module: the release commands that bundle none start faster.
const redocly = () => import("@redocly/openapi-core");
let config: Promise<Config> | undefined;
const redoclyConfig = () =>
  (config ??= redocly().then(({ loadConfig }) => loadConfig({ configPath: join(root, "redocly.yaml") })));
const failOn = (problems: { severity: string; message: string }[], what: string) => {
  const errors = problems.filter((p) => p.severity === "error").map((p) => p.message);
  if (errors.length) throw new Error(`${what}: ${errors.join("; ")}`);
};

/**
 * spec/openapi.yaml under `dir` bundled into one document, internal `$ref`s kept, with the console overlay beside it
 * applied (as generated/openapi.json): a change of the overlay is classified like any change of the spec, since it is
 * what users get. A tree from before the overlay bundles the transcription alone.
 */
export async function bundleSpecDir(dir: string): Promise<OpenApiDocument> {
  return (await bundleSpec(join(dir, "spec", "openapi.yaml"))) as unknown as OpenApiDocument;
}

/** The spec at a git ref of the repository in `dir`, bundled (from `git archive`: the work tree is left alone). */
export async function bundleSpecAt(ref: string, dir: string): Promise<OpenApiDocument> {
  if (spawnSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd: dir }).status)
    throw new Error(`--base ${ref}: no such commit in ${dir}`);
  const tmp = mkdtempSync(join(tmpdir(), "rainbond-api-diff-"));
  try {
    const tar = execFileSync("git", ["archive", ref, "spec"], { cwd: dir, maxBuffer: 256 << 20 });
    execFileSync("tar", ["-x", "-C", tmp], { input: tar });
    return await bundleSpecDir(tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The client's methods by operation, from generated/table.json in `dir` or at `ref` (or, at a ref from before the one
 * table, generated/methods.json, its methods alone); none where neither is there.
 */
export function clientMethods(dir: string, ref?: string): MethodTable {
  const table: MethodTable = new Map();
  const read = (file: string) => {
    if (ref)
      return git(dir, "ls-tree", "--name-only", ref, "--", file).trim() ? git(dir, "show", `${ref}:${file}`) : "";
    return existsSync(join(dir, file)) ? readFileSync(join(dir, file), "utf8") : "";
  };
  const [current, before] = [read("generated/table.json"), read("generated/methods.json")];
  if (!current && !before) return table;
  const methods: ClientMethod[] = current ? JSON.parse(current).methods : JSON.parse(before);
  for (const { name, operationId } of methods) table.set(operationId, [...(table.get(operationId) ?? []), name]);
  return table;
}

/**
 * A bundled document made ready for api-smart-diff, which classifies changes well where it finds them under `paths`
 * but reports changes in shared components a second time, at component level, with weaker verdicts. So every `$ref`
 * is replaced by what it points at and `components` are dropped but for the security schemes and the extensions
 * (`x-...`), which no `$ref` reaches; path-level parameters and the root `security` go into each operation (its own
 * win). Every change then shows under `paths/<path>/<method>/...`, as a change of one operation.
 */
export async function normalize(bundled: OpenApiDocument): Promise<OpenApiDocument> {
  const [source, { bundleFromString }] = [JSON.stringify(bundled), await redocly()];
  const { bundle, problems } = await bundleFromString({ source, config: await redoclyConfig(), dereference: true });
  failOn(problems, "cannot dereference the spec");
  const spec = structuredClone(bundle.parsed as OpenApiDocument); // dereferencing shares objects; the diff needs trees
  for (const item of Object.values(spec.paths ?? {})) {
    const shared = item.parameters ?? [];
    delete item.parameters;
    for (const op of HTTP_METHODS.map((m) => item[m])) {
      if (!op) continue;
      const own = op.parameters ?? [];
      const inherited = shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
      if (inherited.length || own.length) op.parameters = [...inherited, ...own];
      if (spec.security) op.security ??= spec.security;
    }
  }
  delete spec.security;
  const components = Object.entries(spec.components ?? {});
  spec.components = Object.fromEntries(components.filter(([k]) => k === "securitySchemes" || k.startsWith("x-")));
  return spec;
}
