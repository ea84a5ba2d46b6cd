// Runs the smoke suite's edge bundle (entries.ts) in Vercel's edge runtime, whose EdgeVM is a V8 context holding the web
// APIs of an Edge Function and nothing of Node, and prints its report. A child process of the matrix, so a runtime that
// hangs is ended by the matrix's time limit.   node --import tsx edge-host.ts <edge-runtime's cache folder> <bundle.js>
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { REPORT_MARK, type SmokeReport } from "./smoke.ts";

interface EdgeVM {
  evaluate(code: string): unknown;
  context: { smokeReport: Promise<SmokeReport> };
}
const [dir = "", bundle = ""] = process.argv.slice(2);
const { EdgeRuntime } = createRequire(join(dir, "node_modules/"))("edge-runtime") as { EdgeRuntime: new () => EdgeVM };
const runtime = new EdgeRuntime();
runtime.evaluate(await readFile(bundle, "utf8"));
console.log(REPORT_MARK + JSON.stringify(await runtime.context.smokeReport));
