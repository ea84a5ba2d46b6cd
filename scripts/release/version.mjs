#!/usr/bin/env node
// npm run release:version: changesets' version step (`changeset version`: the pending changesets become the new
// version in package.json and its section in CHANGELOG.md, and are deleted), then the same version in
// package-lock.json, whose root entry npm would otherwise rewrite on the next install.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { manifestOf } from "./changesets.mjs";
import { isMain, main, repositoryRoot } from "./cli.mjs";

export const changesetBin = (dir) => join(dir, "node_modules/@changesets/cli/bin.js");

export function version(dir) {
  execFileSync(process.execPath, [changesetBin(dir), "version"], { cwd: dir, stdio: "pipe" });
  const { version: next } = manifestOf(dir);
  const lockFile = join(dir, "package-lock.json");
  const lock = JSON.parse(readFileSync(lockFile, "utf8"));
  lock.version = next;
  if (lock.packages?.[""]) lock.packages[""].version = next;
  writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
  return next;
}

if (isMain(import.meta.url)) {
  main("release:version", () => {
    console.log(`version ${version(repositoryRoot())}: package.json, package-lock.json, CHANGELOG.md`);
  });
}
