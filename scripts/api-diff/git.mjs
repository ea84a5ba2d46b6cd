// The API diff between a git ref and the work tree, or between two bundled documents: the inputs compare.mjs takes.
import { bundleSpecDir, checkoutAt, root } from "./bundle.mjs";
import { diffSpecs } from "./compare.mjs";
import { clientMethods } from "./methods.mjs";

/**
 * The spec and generated/methods.json (the client's methods) at a git ref of the repository in `dir`, compared with
 * its work tree.
 */
export async function diffAgainstRef(ref, dir = root) {
  const base = checkoutAt(ref, ["spec", "generated"], dir);
  try {
    const [before, after] = await Promise.all([bundleSpecDir(base.dir), bundleSpecDir(dir)]);
    return await diffSpecs(before, after, { methods: clientMethods(dir), baseMethods: clientMethods(base.dir) });
  } finally {
    base.cleanup();
  }
}
