// The release scripts' functions, for the tests (index.d.mts types them).
export { apiChangesetSummary, bumpFor, changesetsAddedSince, writeApiChangeset } from "./changesets.mjs";
export { coveringBumps, releaseCheck } from "./check.mjs";
export { releaseNotes } from "./publish.mjs";
export { LABELS, pullRequestBody } from "./regenerate.mjs";
