#!/usr/bin/env node
// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Runs the smoke suite's edge bundle in Vercel's edge runtime (`edge-runtime`'s EdgeVM: a V8 context holding the web
// APIs of an Edge Function and nothing of Node: no `process`, no `require`, no Node builtins, no eval) and prints its
// report. A child process of the matrix, so a runtime that hangs is ended by the matrix's time limit.
//
//   node scripts/runtimes/edge-host.ts <folder edge-runtime is installed in> <bundle.js>
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { REPORT_MARK } from "./smoke.ts";

const [dir, bundle] = process.argv.slice(2);
const { EdgeRuntime } = createRequire(join(dir, "node_modules/"))("edge-runtime");
const runtime = new EdgeRuntime();
runtime.evaluate(await readFile(bundle, "utf8"));
const report = await runtime.context.smokeReport;
console.log(REPORT_MARK + JSON.stringify(report));
