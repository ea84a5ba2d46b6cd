// The API diff's entry points, for scripts/release/ and the tests (index.d.mts types them).
export { bundleSpecDir, checkoutAt } from "./bundle.mjs";
export { changelogLines, changelogMarkdown } from "./changelog.mjs";
export { bumpOf, diffSpecs, toJson } from "./compare.mjs";
export { diffAgainstRef } from "./git.mjs";
export { clientMethods } from "./methods.mjs";
export { LIBRARY_LEVELS, RULES } from "./rules.mjs";
