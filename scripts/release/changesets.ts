// Changesets (@changesets/cli) as the release scripts use them (docs/releasing.md): the changeset a spec change gets,
// written from its API diff; the release check (a breaking change needs a major changeset added by the branch, a minor
// one while 0.x); `changeset version`, then the same version in package-lock.json and the MCP server's and the command
// line's files; the release's tarballs, MCP bundle, server.json and notes, made by the read-only test job for the
// publish job, which runs nothing of the project (no `changeset publish`).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import parseChangeset from "@changesets/parse";
import { changelogMarkdown, diffAgainstRef, git, type DiffResult } from "../api-diff/index.ts";
import { PACKAGES, writeVersions, type Tarballs } from "./versions.ts";

const ORDER = ["none", "patch", "minor", "major"];

export const manifestOf = (dir: string): { name: string; version: string } =>
  JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));

/**
 * Writes the changeset of an API diff as `.changeset/<name>.md` (default api-<short commit>; replacing one of that
 * name), formatted by prettier as `npx changeset` writes them; its path in `dir`, undefined when no bump is due.
 */
export async function writeApiChangeset(dir: string, result: DiffResult, name?: string): Promise<string | undefined> {
  if (result.bump === "none") return undefined;
  const file = `.changeset/${name ?? `api-${git(dir, "rev-parse", "--short", "HEAD").trim()}`}.md`;
  const summary = `The API changed (spec/):\n\n${changelogMarkdown(result)}`;
  const text = `---\n${JSON.stringify(manifestOf(dir).name)}: ${result.bump}\n---\n\n${summary}`;
  const filepath = join(dir, file);
  const { format, resolveConfig } = await import("prettier"); // loaded when used: the other commands start faster
  writeFileSync(filepath, await format(text, { ...(await resolveConfig(filepath)), filepath }));
  return file;
}

/** The changesets pending in `dir`: `.changeset/*.md` but its README, as changesets reads them; paths in `dir`. */
export const pendingChangesets = (dir: string): string[] =>
  (existsSync(join(dir, ".changeset")) ? readdirSync(join(dir, ".changeset")) : [])
    .filter((file) => file.endsWith(".md") && file !== "README.md")
    .map((file) => `.changeset/${file}`)
    .sort();

/** The bumps that cover a breaking change at `version`: semver's rule, where 0.x moves its minor number. */
export const coveringBumps = (version: string) => (version.startsWith("0.") ? ["major", "minor"] : ["major"]);

export async function releaseCheck(dir: string, base: string): Promise<{ ok: boolean; report: string }> {
  const result = await diffAgainstRef(base, dir);
  const changes = result.changes.filter((c) => c.level === "breaking");
  if (!changes.length) {
    return { ok: true, report: `release check: no breaking API change against ${base} (API bump: ${result.bump}).` };
  }
  const { name, version } = manifestOf(dir);
  // the changesets of the work tree that `base` does not have (a base from before .changeset/ has none)
  const atBase = git(dir, "ls-tree", "-r", "--name-only", base, "--", ".changeset/").split("\n");
  const added = pendingChangesets(dir).filter((file) => !atBase.includes(file));
  const bumps = added.flatMap((file) =>
    parseChangeset(readFileSync(join(dir, file), "utf8")).releases.flatMap((r) => (r.name === name ? [r.type] : [])),
  );
  const bump = ORDER[Math.max(0, ...bumps.map((type) => ORDER.indexOf(type)))];
  const needed = coveringBumps(version);
  const ok = needed.includes(bump!);
  const verdict = ok
    ? `breaking API changes against ${base}, versioned (${bump}: ${added.join(", ")})`
    : `the API diff against ${base} is breaking, and no changeset this branch adds bumps ${name} ${needed.join(" or ")} (${version}; the changesets added ask for ${bump})`;
  const fix = `Write one from the diff with \`npm run changeset:api -- --base ${base}\` (or \`npx changeset\`, choosing major).`;
  const list = changelogMarkdown({ changes }).trim();
  return { ok, report: [`release check: ${verdict}.`, list, ...(ok ? [] : [fix])].join("\n\n") };
}

const changeset = (dir: string, command: string) =>
  execFileSync(process.execPath, ["node_modules/@changesets/cli/bin.js", command], { cwd: dir, stdio: "pipe" });

/** `changeset version`, then the new version in package-lock.json and in the MCP server's and the command line's files. */
export async function version(dir: string): Promise<string> {
  changeset(dir, "version");
  const { version } = manifestOf(dir);
  const file = join(dir, "package-lock.json");
  const lock = JSON.parse(readFileSync(file, "utf8"));
  lock.version = lock.packages[""].version = version;
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  await writeVersions(dir, version);
  return version;
}

export interface Release {
  /** Changesets are pending: the version pull request is due, not a release. */
  pending: boolean;
  /** npm does not have the version yet: the tarballs, the bundle, server.json and the notes were written. */
  due: boolean;
  version: string;
  tag: string;
  /** The packed tarballs, paths in the out folder. */
  tarballs?: Tarballs;
  /** The MCP bundle, named with the version. */
  bundle?: string;
  /** The release's MCP Registry entry: mcp/server.json with the bundle as a package too. */
  serverJson?: string;
  notes?: string;
}

/**
 * The release step of the test job (docs/releasing.md), when no changeset is pending: if npm does not have the version
 * in package.json yet of one of the three packages (a release that stopped half-way is due again), into `outDir`: the
 * three packages packed (`npm pack`, which builds each through its `prepare` or `prepack`), the MCP bundle, the
 * release's server.json and the version's notes, for the publish job to publish as they are (those npm does not have
 * yet). Nothing is published here.
 */
export function packRelease(dir: string, outDir: string): Release {
  const { version } = manifestOf(dir);
  const tag = `v${version}`;
  const pending = pendingChangesets(dir).length > 0;
  const published = (folder: string) => onRegistry(dir, manifestOf(join(dir, folder)).name, version);
  if (pending || Object.values(PACKAGES).every(published)) return { pending, due: false, version, tag };
  const out = resolve(outDir);
  mkdirSync(out, { recursive: true });
  const tarballs = Object.fromEntries(
    Object.entries(PACKAGES).map(([output, folder]) => [output, pack(join(dir, folder), out)]),
  ) as Tarballs;
  const bundle = join(out, `${manifestOf(join(dir, "mcp")).name}-${version}.mcpb`);
  execFileSync(process.execPath, [join(dir, "mcp", "bundle.mjs"), bundle], { cwd: dir, stdio: "pipe" });
  const serverJson = join(out, "server.json");
  writeFileSync(serverJson, `${JSON.stringify(releaseServerJson(dir, bundle, tag), null, 2)}\n`);
  // the notes: the version's section of CHANGELOG.md (as changesets writes it), without its heading
  const changelog = readFileSync(join(dir, "CHANGELOG.md"), "utf8");
  const section = changelog.split(/^## /m).find((s) => s.split("\n", 1)[0]!.trim() === version);
  if (section === undefined) throw new Error(`CHANGELOG.md has no section for ${version}`);
  const notes = `${section.replace(/^.*\n?/, "").trim()}\n`;
  return { pending, due: true, version, tag, tarballs, bundle, serverJson, notes };
}

/** `npm pack` of the package in `folder` into `out`; the tarball's path. */
function pack(folder: string, out: string): string {
  const before = new Set(readdirSync(out));
  npm(folder, "pack", "--pack-destination", out);
  const packed = readdirSync(out).filter((file) => file.endsWith(".tgz") && !before.has(file));
  if (packed.length !== 1) throw new Error(`npm pack of ${folder} made ${packed.length} tarballs in ${out}`);
  return join(out, packed[0]!);
}

/**
 * The MCP Registry entry of a release (schema 2025-12-11): mcp/server.json, whose npm package the release publishes,
 * and the bundle as an `mcpb` package: the URL of the GitHub release's asset (the tag's), the file's SHA-256.
 */
export function releaseServerJson(dir: string, bundle: string, tag: string) {
  const server = JSON.parse(readFileSync(join(dir, "mcp", "server.json"), "utf8"));
  const mcpb = {
    registryType: "mcpb",
    identifier: `${server.repository.url}/releases/download/${tag}/${basename(bundle)}`,
    version: server.version,
    fileSha256: createHash("sha256").update(readFileSync(bundle)).digest("hex"),
    transport: { type: "stdio" },
  };
  return { ...server, packages: [...server.packages, mcpb] };
}

const npm = (dir: string, ...args: string[]) =>
  execFileSync("npm", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** Whether the registry npm is configured with has `name@version` (a package it does not know has no version). */
function onRegistry(dir: string, name: string, version: string): boolean {
  try {
    return npm(dir, "view", `${name}@${version}`, "version").trim() === version;
  } catch (err) {
    if (/\bE404\b/.test(String((err as { stderr?: unknown }).stderr))) return false;
    throw err;
  }
}
