// Types of scripts/api-diff/index.mjs.

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

export function bundleSpecDir(dir: string): Promise<OpenApiDocument>;
export function checkoutAt(ref: string, paths: string[], cwd?: string): { dir: string; cleanup(): void };
export function diffSpecs(
  before: OpenApiDocument,
  after: OpenApiDocument,
  options?: { methods?: MethodTable; baseMethods?: MethodTable },
): Promise<DiffResult>;
export function diffAgainstRef(ref: string, dir?: string): Promise<DiffResult>;
export function toJson(result: DiffResult): { bump: Bump; changes: JsonChange[] };
export function bumpOf(changes: Pick<Change, "level">[]): Bump;
export function changelogLines(result: DiffResult): string[];
export function changelogMarkdown(result: DiffResult): string;
/** operationId -> the client's methods that call it, from `<dir>/generated/methods.json` (empty when there is none). */
export function clientMethods(dir: string): MethodTable;

export interface Rule {
  name: string;
  why: string;
  applies(ctx: unknown): boolean;
  level: Level | ((ctx: unknown) => Level);
}
export const RULES: Rule[];
export const LIBRARY_LEVELS: Record<string, Level>;
