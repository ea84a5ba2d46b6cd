#!/usr/bin/env node
// npm run api-diff: the `api-diff` command of scripts/release/cli.ts, which all the API diff and release commands share.
process.argv.splice(2, 0, "api-diff");
await import("../release/cli.ts");
