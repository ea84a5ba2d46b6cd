#!/usr/bin/env node
// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// npm run release:version: changesets' version step (`changeset version`: the pending changesets become the new
// version in package.json and its section in CHANGELOG.md, and are deleted), then the same version in
// package-lock.json (`npm version`, offline, no commit or tag), whose root entry would otherwise lag behind.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { manifestOf } from "./changesets.ts";
import { commandLine } from "../lib/script.ts";
import { isMain, main, repositoryRoot } from "./cli.ts";

export const changesetBin = (dir) => join(dir, "node_modules/@changesets/cli/bin.js");

export function version(dir) {
  execFileSync(process.execPath, [changesetBin(dir), "version"], { cwd: dir, stdio: "pipe" });
  const { version: next } = manifestOf(dir);
  execFileSync("npm", ["version", next, "--no-git-tag-version", "--allow-same-version"], { cwd: dir, stdio: "pipe" });
  return next;
}

if (isMain(import.meta.url)) {
  main("release:version", () => {
    commandLine(
      "usage: npm run release:version\n\n" +
        "The pending changesets become the new version in package.json, package-lock.json and CHANGELOG.md.",
      {},
    );
    console.log(`version ${version(repositoryRoot())}: package.json, package-lock.json, CHANGELOG.md`);
  });
}
