// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Imports TypeScript modules of src/ into a Node script that runs without a TypeScript loader: esbuild bundles them in
// memory (platform neutral, so nothing of Node is assumed) and Node imports the result from a data: URL. Used by the
// docs' code samples, which record the request the client makes for each sample call (its curl form).
import { build } from "esbuild";

/**
 * @param {{ entryPoints?: string[], stdin?: import("esbuild").StdinOptions }} input what to bundle: one entry file,
 *   or the text of a module (its imports resolved from `stdin.resolveDir`)
 * @returns {Promise<Record<string, any>>} the bundled module's exports
 */
export async function importBundled(input) {
  const { outputFiles } = await build({
    ...input,
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    logLevel: "silent",
  });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString("base64")}`);
}
