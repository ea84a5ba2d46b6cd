// Vitest global setup: the command line's and the MCP server's bins (cli/dist/cli.js, mcp/dist/cli.js) built once for
// the run, before any test file that runs them starts (esbuild, well under a second each).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { root } from "../../scripts/lib/script.ts";

export default function setup() {
  for (const surface of ["cli", "mcp"]) {
    const result = spawnSync(process.execPath, [join(root, surface, "build.mjs")], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${surface} build failed:\n${result.stderr}`);
  }
}
