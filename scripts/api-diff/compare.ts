// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The API diff: two bundled specs in, the changes a user of this client should know about out, each with its level
// ("breaking", "non-breaking", "docs"), the operation and the client methods it touches, and one line of text; plus
// the semver bump they call for.
//
// The comparison itself is api-smart-diff's (maintained, offline, in-process, its OpenAPI 3 rules classify a change
// as breaking / non-breaking / annotation / deprecated). It was picked over @useoptic/optic, which needs an ajv
// override to start, spawns a process taking 5-8 s a diff and leaves the breaking flags out of its JSON, and over
// oasdiff, which is not on npm. What it gets wrong for a TypeScript client is corrected in rules.mjs, and it reads
// documents normalised by bundle.mjs, so that every change is reported under the operation it concerns.
import type { Bump, Change, DiffResult, JsonChange, MethodTable, OpenApiDocument } from "./index.ts";
import { apiCompare } from "api-smart-diff";
import { HTTP_METHODS, normalize } from "./bundle.ts";
import { locate, restatesFieldChange } from "./locate.ts";
import { describe } from "./message.ts";
import { classify, LIBRARY_LEVELS } from "./rules.ts";

export const LEVELS = ["breaking", "non-breaking", "docs"];
const BUMPS = { breaking: "major", "non-breaking": "minor", docs: "patch" };

/**
 * Drops the operations that are the same on both sides from both: they cannot differ, and the library's time grows
 * with the size of the documents (every operation carries its dereferenced schemas and error responses).
 */
function dropUnchanged(before, after) {
  for (const [path, item] of Object.entries(before.paths ?? {})) {
    const other = after.paths?.[path];
    if (!other) continue;
    for (const method of HTTP_METHODS) {
      if (item[method] && other[method] && JSON.stringify(item[method]) === JSON.stringify(other[method])) {
        delete item[method];
        delete other[method];
      }
    }
    if (JSON.stringify(item) === "{}" && JSON.stringify(other) === "{}") {
      delete before.paths[path];
      delete after.paths[path];
    }
  }
}

/** normalize() of a document, once per document object: a spec compared with many others (the tests, a rehearsal)
 *  is dereferenced once. The documents given to diffSpecs are read, never changed, and must not change later. */
const cache = new WeakMap();
function normalized(doc) {
  if (!cache.has(doc)) cache.set(doc, normalize(doc));
  return cache.get(doc);
}

/** The bump a list of changes calls for: major for any breaking one, minor for any other, patch for docs only. */
export function bumpOf(changes: Pick<Change, "level">[]): Bump {
  for (const level of LEVELS) if (changes.some((c) => c.level === level)) return BUMPS[level];
  return "none";
}

/**
 * @param {object} before  the older spec, bundled (as generated/openapi.json)
 * @param {object} after   the newer spec, bundled
 * @param {{ methods?: Map<string, string[]>, baseMethods?: Map<string, string[]> }} [options] operationId -> client
 *   methods (methods.mjs), from the newer client and from the older one (for operations the newer one lacks)
 */
export async function diffSpecs(
  before: OpenApiDocument,
  after: OpenApiDocument,
  { methods = new Map(), baseMethods = new Map() }: { methods?: MethodTable; baseMethods?: MethodTable } = {},
): Promise<DiffResult> {
  const whole = { before: await normalized(before), after: await normalized(after) };
  const [a, b] = [structuredClone(whole.before), structuredClone(whole.after)];
  dropUnchanged(a, b);
  const { diffs } = apiCompare(a, b);
  const seen = new Set();
  const changes = [];
  for (const diff of diffs) {
    for (const ctx of locate(diff, a, b, whole)) {
      if (restatesFieldChange(ctx)) continue;
      const { level, rule } = classify(ctx);
      const change = {
        level,
        operationId: ctx.operationId,
        methods: (ctx.operationId && (methods.get(ctx.operationId) ?? baseMethods.get(ctx.operationId))) || [],
        path: ctx.path,
        method: ctx.method,
        message: describe(ctx),
        rule,
        libraryLevel: LIBRARY_LEVELS[ctx.libraryType] ?? LIBRARY_LEVELS.unclassified,
        added:
          level === "non-breaking" && ctx.action === "add" && (ctx.keyword === undefined || ctx.keyword === "enum"),
      };
      // one line per operation and message: an example edited in ten places is one change
      const key = JSON.stringify([change.level, change.operationId, change.method, change.path, change.message]);
      if (seen.has(key)) continue;
      seen.add(key);
      changes.push(change);
    }
  }
  changes.sort(
    (x, y) =>
      LEVELS.indexOf(x.level) - LEVELS.indexOf(y.level) ||
      String(x.operationId).localeCompare(String(y.operationId)) ||
      x.message.localeCompare(y.message),
  );
  return { bump: bumpOf(changes), changes };
}

/** The `--json` form: { bump, changes: [{ level, operationId, methods, path, message }] }. */
export const toJson = ({ bump, changes }: DiffResult): { bump: Bump; changes: JsonChange[] } => ({
  bump,
  changes: changes.map(({ level, operationId, methods, path, message }) => ({
    level,
    operationId,
    methods,
    path,
    message,
  })),
});
