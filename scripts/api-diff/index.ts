// The API diff's entry points, for scripts/release/ and the tests.
export { diffAgainstRef, diffSpecs, toJson, type Bump, type Change, type DiffResult } from "./compare.ts";
export { clientMethods, git, type MethodTable } from "./load.ts";
export type { OpenApiDocument } from "./locate.ts";
export { changelogMarkdown } from "./changelog.ts";
export { LEVELS, LIBRARY_LEVELS, RULES, type Level } from "./rules.ts";
