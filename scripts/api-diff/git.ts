// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The API diff between a git ref and the work tree, or between two bundled documents: the inputs compare.mjs takes.
import type { DiffResult } from "./index.ts";
import { bundleSpecDir, checkoutAt, root } from "./bundle.ts";
import { diffSpecs } from "./compare.ts";
import { clientMethods } from "./methods.ts";

/**
 * The spec and generated/methods.json (the client's methods) at a git ref of the repository in `dir`, compared with
 * its work tree.
 */
export async function diffAgainstRef(ref: string, dir = root): Promise<DiffResult> {
  const base = checkoutAt(ref, ["spec", "generated"], dir);
  try {
    const [before, after] = await Promise.all([bundleSpecDir(base.dir), bundleSpecDir(dir)]);
    return await diffSpecs(before, after, { methods: clientMethods(dir), baseMethods: clientMethods(base.dir) });
  } finally {
    base.cleanup();
  }
}
