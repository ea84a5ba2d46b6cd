// `npm run build` (and `prepare`, `prepack`): tsdown's build of tsdown.config.ts, through tsdown's own API rather than
// its command line. The two build alike; the command line alone prints, on every Node below 22.18, "Node.js v20.x is
// deprecated. Support will be removed in the next minor release", unconditionally (no option or variable turns it off),
// while Node 20 is a runtime this package supports and builds on. tsdown stays 0.21 while it does.
import { build, type InlineConfig } from "tsdown";
import { commandLine } from "./lib/script.ts";

const usage = `node --import tsx scripts/build.ts [--out-dir <dir>] [--log-level info|warn|error|silent]

Builds the package into dist/ (or <dir>) as tsdown.config.ts says.`;

const { values } = commandLine(usage, { "out-dir": { type: "string" }, "log-level": { type: "string" } });
const options: InlineConfig = {};
if (values["out-dir"]) options.outDir = values["out-dir"];
if (values["log-level"]) options.logLevel = values["log-level"] as InlineConfig["logLevel"];
await build(options);
