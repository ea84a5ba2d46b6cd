// The one spec walker of the scripts and tests: reading the bundled spec (generated/openapi.json), following a local
// `$ref` to what it points at, and naming the component schema a `$ref` names; and the spec as the generated surfaces
// see it: spec/ bundled, with the console overlay beside it applied (bundleSpec). The generator, the verify, the api
// diff, the bench's synthetic specs and the tests' spec helpers all go through these.
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { root } from "./script.ts";

/** A node of a JSON document: what JSON.parse returns. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `<dir>/generated/openapi.json`, the spec as `npm run generate` bundles it (dir: the project). */
export function readSpec(dir = root): JsonObject {
  return JSON.parse(readFileSync(join(dir, "generated", "openapi.json"), "utf8"));
}

/** The node a local `$ref` (`#/components/...`) points at, followed to the end; any other node as it is. */
export function deref<T = Json>(doc: object, node: T): T {
  let at: unknown = node;
  for (let hops = 0; isObject(at) && typeof at.$ref === "string"; hops++) {
    const ref = at.$ref;
    if (hops > 32 || !ref.startsWith("#/")) throw new Error(`unresolvable $ref ${ref}`);
    at = ref
      .slice(2)
      .split("/")
      .reduce<unknown>((n, key) => (isObject(n) ? n[key.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined), doc);
    if (at === undefined) throw new Error(`unresolvable $ref ${ref}`);
  }
  return at as T;
}

/** `node` with every local `$ref` inside it replaced by what it points at (the spec has no cycles). */
export function inlined(doc: object, node: Json, depth = 0): Json {
  if (depth > 64) throw new Error("inlined: a $ref cycle");
  const at = deref(doc, node);
  if (Array.isArray(at)) return at.map((item) => inlined(doc, item, depth + 1));
  if (!isObject(at)) return at;
  return Object.fromEntries(Object.entries(at).map(([key, value]) => [key, inlined(doc, value, depth + 1)]));
}

/** The schema a `$ref` names (`#/components/schemas/Port` -> `Port`), if it names one. */
export function refName(node: unknown): string | undefined {
  const ref = isObject(node) ? node.$ref : undefined;
  return typeof ref === "string" ? /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1] : undefined;
}

/** The overlay of the console's departures from the source document, beside a spec's root (spec/README.md). */
export const OVERLAY_FILE = "console.overlay.yaml";

/** The overlay beside `specRoot` (parsed), or undefined where there is none (a synthetic or copied spec). */
export async function readOverlay(specRoot: string): Promise<JsonObject | undefined> {
  const text = await readFile(join(dirname(specRoot), OVERLAY_FILE), "utf8").catch(() => undefined);
  return text === undefined ? undefined : ((await import("@redocly/openapi-core")).parseYaml(text) as JsonObject);
}

/**
 * `doc` with the overlay's actions applied, by openapi-format's Overlay 1.0/1.1 implementation. That library reports an
 * action it cannot apply with console.error and goes on; here any such report, or an action whose target matches
 * nothing (the spec moved under it), stops the pipeline, naming the action. With `stale`, an action whose target
 * matches nothing is put there instead (the API diff reports an operation removed, and names its stale actions).
 */
export function applyOverlay(doc: JsonObject, overlay: JsonObject, stale?: string[]): Promise<JsonObject> {
  // one at a time: each swaps console.error while it runs, and two interleaved (api-diff bundles both sides at once)
  // would leave the other's stand-in in place for good, so that the process printed no error again
  const applied = overlaysApplied.then(() => applyOverlayNow(doc, overlay, stale));
  overlaysApplied = applied.catch(() => undefined);
  return applied;
}
let overlaysApplied: Promise<unknown> = Promise.resolve();

async function applyOverlayNow(doc: JsonObject, overlay: JsonObject, stale?: string[]): Promise<JsonObject> {
  const { openapiOverlay } = createRequire(import.meta.url)("openapi-format/utils/overlay.js") as {
    openapiOverlay: (doc: object, options: object) => Promise<{ data: JsonObject; resultData: OverlayResult }>;
  };
  const reported: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void reported.push(args.join(" "));
  try {
    const { data, resultData } = await openapiOverlay(structuredClone(doc), { overlaySet: overlay });
    const targets = resultData.unusedActions.map((a) => a.target);
    stale?.push(...targets);
    const unused = stale ? [] : targets.map((target) => `an action on ${target} changes nothing`);
    const problems = [...reported, ...unused];
    if (problems.length) throw new Error(`overlay ${OVERLAY_FILE}: ${problems.join("; ")}`);
    return data;
  } finally {
    console.error = error;
  }
}
type OverlayResult = { unusedActions: { target: string }[] };

/** The root of the console's own operations, beside a spec's root (spec/README.md, "The console's other operations"). */
export const CONSOLE_ROOT = join("console", "openapi.yaml");

/** The root of the console's own operations beside `specRoot`, where there is one (not in a copied or older spec). */
export const consoleRootOf = (specRoot: string) => {
  const file = join(dirname(specRoot), CONSOLE_ROOT);
  return existsSync(file) ? file : undefined;
};

const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/**
 * The transcription's bundle with the console's own operations joined in (each bundled by Redocly from its own root):
 * their paths, operation by operation (a path of both keeps the transcription's path-level parameters; the console's,
 * where it has some, go into its own operations), their components and tags. Two operations of one path and method, a
 * component of one name that differs, or a path-level parameter the two disagree on, stop it, naming the clash.
 */
export function joinConsoleOperations(doc: JsonObject, consoleDoc: JsonObject): JsonObject {
  const joined = structuredClone(doc);
  const clash = (what: string) => {
    throw new Error(`spec/${CONSOLE_ROOT}: ${what} is in spec/openapi.yaml too, differently`);
  };
  const paths = (joined.paths ??= {}) as Record<string, JsonObject>;
  for (const [path, item] of Object.entries((consoleDoc.paths ?? {}) as Record<string, JsonObject>)) {
    const into = paths[path];
    if (!into) {
      paths[path] = item;
      continue;
    }
    const { parameters, ...operations } = item;
    for (const [method, operation] of Object.entries(operations)) {
      if (!HTTP_METHODS.includes(method)) continue;
      if (into[method]) clash(`${method.toUpperCase()} ${path}`);
      const own = (operation as JsonObject).parameters as Json[] | undefined;
      // its path's parameters apply to it alone: the transcription's operations of the path keep theirs
      into[method] =
        parameters && !into.parameters
          ? { ...(operation as JsonObject), parameters: [...(parameters as Json[]), ...(own ?? [])] }
          : operation;
    }
    if (parameters && into.parameters && JSON.stringify(parameters) !== JSON.stringify(into.parameters))
      clash(`the path-level parameters of ${path}`);
  }
  const components = (joined.components ??= {}) as Record<string, JsonObject>;
  for (const [kind, members] of Object.entries((consoleDoc.components ?? {}) as Record<string, JsonObject>)) {
    const into = (components[kind] ??= {}) as JsonObject;
    for (const [name, value] of Object.entries(members)) {
      if (into[name] !== undefined && JSON.stringify(into[name]) !== JSON.stringify(value))
        clash(`components.${kind}.${name}`);
      into[name] = value;
    }
  }
  const tags = (joined.tags ??= []) as JsonObject[];
  for (const tag of (consoleDoc.tags ?? []) as JsonObject[]) if (!tags.some((t) => t.name === tag.name)) tags.push(tag);
  return joined;
}

/**
 * The spec as every generated surface sees it: `specRoot` bundled by Redocly with the project's redocly.yaml (as
 * `npm run generate` bundles it), the console's own operations beside it joined in, then the overlay applied, unless
 * `overlay` is false (the transcription and the console's operations, without the overlay's departures); with
 * `console: false`, the transcription of the source document alone (which the fidelity test checks). With `stale`, an
 * overlay action whose target is gone is put there rather than stopping it (see applyOverlay).
 */
export async function bundleSpec(
  specRoot = join(root, "spec", "openapi.yaml"),
  {
    overlay = true,
    console: withConsole = overlay,
    stale,
  }: { overlay?: boolean; console?: boolean; stale?: string[] } = {},
): Promise<JsonObject> {
  const { bundle, loadConfig } = await import("@redocly/openapi-core");
  const config = await loadConfig({ configPath: join(root, "redocly.yaml") });
  const bundled = async (ref: string) => {
    const result = await bundle({ ref, config });
    const errors = result.problems.filter((p) => p.severity === "error").map((p) => p.message);
    if (errors.length) throw new Error(`cannot bundle ${ref}: ${errors.join("; ")}`);
    return result.bundle.parsed as JsonObject;
  };
  const consoleRoot = withConsole ? consoleRootOf(specRoot) : undefined;
  let parsed = await bundled(specRoot);
  if (consoleRoot) parsed = joinConsoleOperations(parsed, await bundled(consoleRoot));
  const layer = overlay ? await readOverlay(specRoot) : undefined;
  return layer ? applyOverlay(parsed, layer, stale) : parsed;
}
