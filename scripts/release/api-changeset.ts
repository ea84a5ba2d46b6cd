#!/usr/bin/env node
// npm run changeset:api -- [--base <git ref>] [--name <name>]
//
// A changeset for a spec change made by hand (the Regenerate workflow writes its own): the API diff of the work
// tree's spec/ against <ref> (default origin/main) as .changeset/<name>.md (default api-<short commit>), with the
// bump it calls for and the API changelog as its text. Nothing is written when the API did not change.
import { commandLine } from "../lib/script.ts";
import { diffAgainstRef } from "../api-diff/index.ts";
import { writeApiChangeset } from "./changesets.ts";
import { git, isMain, main, repositoryRoot } from "./cli.ts";

if (isMain(import.meta.url)) {
  main("changeset:api", async () => {
    const { values } = commandLine(
      "usage: npm run changeset:api -- [--base <git ref>] [--name <name>]\n\n" +
        "Writes .changeset/<name>.md (default api-<short commit>) from the API diff of spec/ against <ref>\n" +
        "(default origin/main); nothing when the API did not change.",
      { base: { type: "string", default: "origin/main" }, name: { type: "string" } },
    );
    const dir = repositoryRoot();
    const result = await diffAgainstRef(values.base, dir);
    const name = values.name ?? `api-${git(dir, "rev-parse", "--short", "HEAD").trim()}`;
    const file = await writeApiChangeset(dir, result, name);
    console.log(file ? `wrote ${file} (${result.bump})` : `no API change against ${values.base}: no changeset`);
  });
}
