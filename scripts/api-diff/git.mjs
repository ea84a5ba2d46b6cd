// The API diff between a git ref and the work tree, or between two bundled documents: the inputs compare.mjs takes.
import { bundleSpecDir, checkoutAt, root } from "./bundle.mjs";
import { diffSpecs } from "./compare.mjs";
import { clientMethods } from "./methods.mjs";

/** The spec (and the client's method table) at a git ref of the repository in `dir`, compared with its work tree. */
export async function diffAgainstRef(ref, dir = root) {
  const base = checkoutAt(ref, ["spec", "src", "generated"], dir);
  try {
    const [before, baseMethods, after, methods] = await Promise.all([
      bundleSpecDir(base.dir),
      clientMethods(base.dir),
      bundleSpecDir(dir),
      clientMethods(dir),
    ]);
    return await diffSpecs(before, after, { methods, baseMethods });
  } finally {
    base.cleanup();
  }
}
