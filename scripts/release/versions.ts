// One version for the three packages a release ships: the root package.json's (the client's, which changesets
// versions) is the fact; the version step writes it into the MCP server's package.json, its bundle's manifest.json and
// its MCP Registry entry (server.json, top level and each package), and the command line's package.json.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The packages a release ships, by the step output of release:pack that names each one's tarball: the client (the
 *  root), the MCP server and the command line. */
export const PACKAGES = { tarball: ".", mcp_tarball: "mcp", cli_tarball: "cli" } as const;
export type Tarballs = Record<keyof typeof PACKAGES, string>;

type Json = { version?: string; packages?: Json[] };

/** The files that carry the root's version, and the objects in each whose `version` it is. */
export const VERSIONED: Record<string, (json: Json) => Json[]> = {
  "mcp/package.json": (json) => [json],
  "mcp/manifest.json": (json) => [json],
  "mcp/server.json": (json) => [json, ...(json.packages ?? [])],
  "cli/package.json": (json) => [json],
};

const read = (dir: string, file: string): Json => JSON.parse(readFileSync(join(dir, file), "utf8"));

/** Each version written in `dir`'s versioned files, as `<file> <index>` (0: the file's own) -> version. */
export function versionsIn(dir: string): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(VERSIONED).flatMap(([file, holders]) =>
      holders(read(dir, file)).map((holder, index) => [`${file} ${index}`, holder.version]),
    ),
  );
}

/** Writes `version` into every versioned file of `dir`, formatted by prettier as the repository keeps them. */
export async function writeVersions(dir: string, version: string): Promise<void> {
  const { format, resolveConfig } = await import("prettier");
  for (const [file, holders] of Object.entries(VERSIONED)) {
    const json = read(dir, file);
    for (const holder of holders(json)) holder.version = version;
    const filepath = join(dir, file);
    writeFileSync(filepath, await format(JSON.stringify(json), { ...(await resolveConfig(filepath)), filepath }));
  }
}
