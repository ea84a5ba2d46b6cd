/** The documentation site as built by buildSite. */
export interface BuiltSite {
  /** The directory it was built into. */
  outDir: string;
  /** file: URL of the API reference (index.html). */
  reference: string;
  /** file: URL of the guide's front page (guide/index.html). */
  guide: string;
  files: number;
  bytes: number;
  /** Time taken, in milliseconds. */
  ms: number;
}
export const siteDir: string;
/** Builds the site (API reference + client guide) into outDir (default site/, emptied first). */
export function buildSite(options?: { outDir?: string; quiet?: boolean }): Promise<BuiltSite>;
/** Throws when a page of the site would load anything from outside the site. */
export function assertSelfContained(dir?: string): Promise<void>;
/** Serves a directory on 127.0.0.1 like a plain static host; port 0 picks a free port. */
export function serveSite(options?: { dir?: string; port?: number }): Promise<{ url: string; close(): Promise<void> }>;
/** A code sample of an operation, as Redoc's `x-codeSamples` holds it. */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}
/**
 * Adds to a copy of the spec what the site shows beyond spec/: the link to the guide, each operation's code samples
 * (`x-codeSamples`: TypeScript with this client, and curl) and server texts without backticks. Returns the same object.
 */
export function siteSpec<T extends object>(spec: T): Promise<T>;
