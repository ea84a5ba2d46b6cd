// Types of scripts/release/index.mjs.
import type { Bump, DiffResult } from "../api-diff/index.mjs";

export interface ParsedChangeset {
  file: string;
  summary: string;
  releases: { name: string; type: "major" | "minor" | "patch" | "none" }[];
}
export function changesetsAddedSince(dir: string, ref: string): ParsedChangeset[];
export function bumpFor(changesets: ParsedChangeset[], name: string): Bump;
export function apiChangesetSummary(result: DiffResult): string;
export function writeApiChangeset(dir: string, result: DiffResult, name: string): Promise<string | undefined>;

export function coveringBumps(version: string): Bump[];
export function releaseCheck(dir: string, base: string): Promise<{ ok: boolean; report: string }>;

export function releaseNotes(changelog: string, version: string): string;

export const LABELS: Record<Bump, string>;
export function pullRequestBody(input: {
  result: DiffResult;
  changeset: string | undefined;
  files: string[];
  spec: { since: string; text: string; cut: string };
  ref: string;
  run?: string;
}): string;
