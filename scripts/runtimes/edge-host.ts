// Runs the edge bundle of the smoke suite's entry (entries.ts) in Vercel's edge runtime, whose EdgeVM is a V8 context
// with the web APIs of an Edge Function and nothing of Node; the entry prints the report. A child process of the
// matrix, so a runtime that hangs is ended by the matrix's time limit.
//   node --import tsx scripts/runtimes/edge-host.ts <the cache folder of edge-runtime> <bundle.js>
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const [dir = "", bundle = ""] = process.argv.slice(2);
const { EdgeRuntime } = createRequire(join(dir, "node_modules/"))("edge-runtime") as {
  EdgeRuntime: new () => { evaluate(code: string): unknown };
};
new EdgeRuntime().evaluate(readFileSync(bundle, "utf8"));
