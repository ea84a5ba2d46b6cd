// The release scripts' functions, for the tests (index.d.mts types them).
export { apiChangesetSummary, bumpFor, changesetsAddedSince, writeApiChangeset } from "./changesets.ts";
export { coveringBumps, releaseCheck } from "./check.ts";
export { releaseNotes } from "./publish.ts";
export { LABELS, pullRequestBody } from "./regenerate.ts";
