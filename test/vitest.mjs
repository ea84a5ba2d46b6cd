// `npm test` and `npm run test:unit` start vitest through this file, which sets NO_COLOR first when stdout is not a
// terminal (a log file, a pipe, CI): vitest's colours follow NO_COLOR and TERM but not whether stdout is a terminal,
// and they are fixed when vitest loads, so it must be set before. NO_COLOR then reaches the test workers and every
// process a test starts. FORCE_COLOR keeps the colours. The arguments are vitest's own (`run --project unit`).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

if (!process.stdout.isTTY && !("FORCE_COLOR" in process.env)) process.env.NO_COLOR = "1";
const manifest = createRequire(import.meta.url).resolve("vitest/package.json");
const { bin } = JSON.parse(readFileSync(manifest, "utf8"));
await import(pathToFileURL(join(dirname(manifest), bin.vitest)).href);
