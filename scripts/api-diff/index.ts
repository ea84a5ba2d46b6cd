// The API diff's entry points, for scripts/release/ and the tests (index.d.mts types them).
export { bundleSpecDir, checkoutAt } from "./bundle.ts";
export { changelogLines, changelogMarkdown } from "./changelog.ts";
export { bumpOf, diffSpecs, toJson } from "./compare.ts";
export { diffAgainstRef } from "./git.ts";
export { clientMethods } from "./methods.ts";
export { LIBRARY_LEVELS, RULES } from "./rules.ts";

export type Level = "breaking" | "non-breaking" | "docs";
export type Bump = "major" | "minor" | "patch" | "none";
/** One change, as compare.mjs makes it (toJson keeps level, operationId, methods, path and message). */
export interface Change {
  level: Level;
  /** null for a change of the document itself (info, servers, tags). */
  operationId: string | null;
  /** The client methods that call the operation (`ports.list`); empty when none does. */
  methods: string[];
  /** The operation's path template; null for a change of the document. */
  path: string | null;
  /** The operation's HTTP method, upper case; null for a change of the document. */
  method: string | null;
  message: string;
  /** The rule of rules.mjs that decided the level; undefined where the library's verdict stands. */
  rule: string | undefined;
  /** The level the library's own verdict maps to. */
  libraryLevel: Level;
  /** A non-breaking addition (changelog section "Added") rather than another change ("Changed"). */
  added: boolean;
}
export interface DiffResult {
  bump: Bump;
  changes: Change[];
}
export interface JsonChange {
  level: Level;
  operationId: string | null;
  methods: string[];
  path: string | null;
  message: string;
}
export type OpenApiDocument = Record<string, unknown>;
export type MethodTable = Map<string, string[]>;
export interface Rule {
  name: string;
  why: string;
  applies(ctx: unknown): boolean;
  level: Level | ((ctx: unknown) => Level);
}
