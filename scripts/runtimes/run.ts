// npm run test:runtimes: the package, packed, in every runtime and TypeScript its users have (docs/runtimes.md): the
// rows of matrix.ts against a consumer project, the Prism mock and a server that never answers. Exits 1 if a row fails.
import { readFile } from "node:fs/promises";
import { transform } from "esbuild";
import { createConsumer, buildAndPack, run } from "../lib/pack.ts";
import { commandLine } from "../lib/script.ts";
import { startPrism } from "../prism.ts";
import { cacheRoot, installed } from "./cache.ts";
import { runInChromium, startHangingServer, writeEntries } from "./entries.ts";
import { matrixRows, PINNED, runRows } from "./matrix.ts";

const { values } = commandLine(
  "usage: npm run test:runtimes -- [--only <row>,<row>...] [--typescript <version>,<version>...]\n\n" +
    '  --only        the rows whose names start so, e.g. deno,edge,"node 22"\n' +
    "  --typescript  the TypeScript versions of the typescript rows, e.g. 5.3.3,5.4.2 (to bisect)",
  { only: { type: "string" }, typescript: { type: "string" } },
);
const list = (text?: string) => text?.split(",").map((item) => item.trim());
const only = list(values.only?.toLowerCase());
const installs = new Map<string, Promise<string>>();
/** Each spec installed once per run, on first need; concurrent needs share the install. */
const install = (spec: string) => installs.get(spec) ?? installs.set(spec, installed(spec, { run })).get(spec)!;

console.log(`runtimes and compilers from the npm registry, cached in ${cacheRoot()}`);
const cleanups: (() => Promise<unknown>)[] = [];
/** `resource`, with what ends it kept for the end of the run (in the reverse order). */
const kept = <T>(resource: T, end: (r: T) => Promise<unknown>) => (cleanups.unshift(() => end(resource)), resource);
try {
  const packed = kept(await buildAndPack(), (p) => p.cleanup());
  const consumer = kept(await createConsumer(packed), (c) => c.cleanup());
  const prism = kept(await startPrism(), (p) => p.stop());
  const hang = kept(await startHangingServer(), (h) => h.close());

  const config = { baseUrl: prism.url, hangUrl: hang.url, token: "smoke-token-never-shown-7f3a" };
  // The suite runs as JavaScript in every runtime (Node 20 and browsers strip no types): esbuild removes them.
  const smoke = await transform(await readFile(new URL("smoke.ts", import.meta.url), "utf8"), { loader: "ts" });
  await writeEntries(consumer.dir, config, smoke.code);
  const rows = matrixRows({
    run,
    install,
    consumerDir: consumer.dir,
    chromium: () => runInChromium(consumer.dir, config, run),
    typescripts: list(values.typescript) ?? PINNED.typescript,
  }).filter((row) => !only || only.some((start) => row.name.toLowerCase().startsWith(start)));
  if (rows.length === 0) throw new Error(`--only ${values.only} names no row`);
  // Every install starts now (the downloads overlap); each row waits for its own and fails alone if it fails.
  for (const spec of rows.flatMap((row) => row.needs)) install(spec).catch(() => {});
  const outcomes = await runRows(rows, (line) => console.log(line));
  process.exitCode = outcomes.every((o) => o.ok) ? 0 : 1;
} finally {
  for (const cleanup of cleanups) await cleanup();
}
