// The API diff: two bundled specs in, the changes a user of this client should know about out, each with its level,
// the operation and the client methods it touches, and one line of text; plus the semver bump they call for. The
// comparison is api-smart-diff's (docs/releasing.md says why that library); rules.ts corrects its verdicts.
import { apiCompare } from "api-smart-diff";
import { root } from "../lib/script.ts";
import { bundleSpecAt, bundleSpecDir, clientMethods, normalize, type MethodTable } from "./load.ts";
import { HTTP_METHODS, locate, restatesFieldChange, type OpenApiDocument } from "./locate.ts";
import { describe } from "./message.ts";
import { LEVELS, LIBRARY_LEVELS, RULES, type Level } from "./rules.ts";

export type Bump = "major" | "minor" | "patch" | "none";
export interface Change {
  level: Level;
  /** operationId and path: null for a change of the document itself (info, servers). */
  operationId: string | null;
  path: string | null;
  /** The client methods that call the operation; empty when none does. */
  methods: string[];
  message: string;
  /** The rule of rules.ts that decided the level; undefined where the library's verdict stands. */
  rule: string | undefined;
  libraryLevel: Level;
  /** A non-breaking addition (changelog section "Added") rather than another change ("Changed"). */
  added: boolean;
}
export type DiffResult = {
  bump: Bump;
  changes: Change[];
  /** Targets of the work tree's overlay actions that match nothing any more (their operation removed): to remove. */
  staleOverlayActions?: string[];
};

/** normalize() once per document object: a spec compared with many others (the tests) is dereferenced once. */
const normalized = new WeakMap<OpenApiDocument, Promise<OpenApiDocument>>();

/** The operations that are the same on both sides, dropped from both: the library's time grows with the size. */
function dropUnchanged(before: OpenApiDocument, after: OpenApiDocument) {
  for (const [path, item] of Object.entries(before.paths ?? {})) {
    for (const m of HTTP_METHODS) {
      const other = after.paths?.[path];
      if (!item[m] || !other || JSON.stringify(item[m]) !== JSON.stringify(other[m])) continue;
      delete item[m];
      delete other[m];
    }
  }
}

/**
 * The changes from `before` to `after` (bundled specs, as generated/openapi.json; read, never changed), naming the
 * client methods of each operation from the first of `tables` that has it (the newer client's, then the older one's).
 */
export async function diffSpecs(before: OpenApiDocument, after: OpenApiDocument, tables: MethodTable[] = []) {
  for (const doc of [before, after]) if (!normalized.has(doc)) normalized.set(doc, normalize(doc));
  const whole = { before: await normalized.get(before)!, after: await normalized.get(after)! };
  const [a, b] = [structuredClone(whole.before), structuredClone(whole.after)];
  dropUnchanged(a, b);
  const changes = new Map<string, Change>();
  for (const diff of apiCompare(a, b).diffs) {
    for (const ctx of locate(diff, whole)) {
      if (restatesFieldChange(ctx)) continue;
      // rules.ts: the first rule with a level decides, else the library's verdict stands
      const rule = RULES.find((r) => r.level(ctx));
      const level = rule?.level(ctx) ?? LIBRARY_LEVELS[ctx.libraryType];
      const { operationId, path } = ctx;
      const [message, libraryLevel] = [describe(ctx), LIBRARY_LEVELS[ctx.libraryType]];
      const added = level === "non-breaking" && ctx.action === "add" && (ctx.keyword ?? "enum") === "enum";
      const named = (operationId && tables.map((t) => t.get(operationId)).find(Boolean)) || [];
      // one line per operation and message: an example edited in ten places is one change
      const key = JSON.stringify([level, operationId, ctx.method, path, message]);
      if (!changes.has(key))
        changes.set(key, { level, operationId, methods: named, path, message, rule: rule?.name, libraryLevel, added });
    }
  }
  const sorted = [...changes.values()].sort(
    (x, y) =>
      LEVELS.indexOf(x.level) - LEVELS.indexOf(y.level) ||
      String(x.operationId).localeCompare(String(y.operationId)) ||
      x.message.localeCompare(y.message),
  );
  // the bump: major for any breaking change (sorted first), minor for any other, patch for docs only
  const bump: Bump = sorted[0]
    ? ({ breaking: "major", "non-breaking": "minor", docs: "patch" } as const)[sorted[0].level]
    : "none";
  return { bump, changes: sorted };
}

/** The spec and the client's methods at a git ref of the repository in `dir`, compared with its work tree. */
export async function diffAgainstRef(ref: string, dir = root): Promise<DiffResult> {
  const stale: string[] = [];
  const [before, after] = await Promise.all([bundleSpecAt(ref, dir), bundleSpecDir(dir, stale)]);
  const result = await diffSpecs(before, after, [clientMethods(dir), clientMethods(dir, ref)]);
  return stale.length ? { ...result, staleOverlayActions: stale } : result;
}

export const toJson = (result: DiffResult) =>
  JSON.stringify(
    result,
    ["bump", "changes", "level", "operationId", "methods", "path", "message", "staleOverlayActions"],
    2,
  );
