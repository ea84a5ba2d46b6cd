// Bundles a TypeScript entry (and what it imports, src/ and packages alike) into one ESM file that Node 20 runs as it
// is: for the README's examples and for the soak's child process.
import { build } from "esbuild";

export async function bundleForNode(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "silent",
  });
}
