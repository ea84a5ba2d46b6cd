// The package as a new project gets it: build, `npm pack` (publint and attw find nothing wrong with the tarball),
// install the tarball into a throwaway project (offline, from the npm cache), compile TypeScript that uses the client
// under strict node16, nodenext and bundler settings, then run the output with `import` and with `require` against the
// Prism mock. One build for all: building and packing is most of this file's time.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build } from "esbuild";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { buildAndPack, createConsumer, run, type Packed } from "../../../scripts/lib/pack.ts";
import { root } from "../../../scripts/lib/script.ts";
import {
  CONSUMER_SETTINGS,
  FORMATS,
  codeEntries,
  declaredExports,
  installedManifest,
  runtimeExports,
  writeStrictConsumer,
  type ConsumerSetting,
  type ExportMap,
  type RuntimeMap,
} from "./exports.ts";

const tscPath = join(root, "node_modules/typescript/bin/tsc");

const prismUrl = inject("prismUrl");
let packed: Packed;
let consumer: Awaited<ReturnType<typeof createConsumer>>;

beforeAll(async () => {
  packed = await buildAndPack();
  consumer = await createConsumer(packed);
  await writeConsumerSources(consumer.dir);
}, 120_000);

afterAll(async () => {
  await consumer?.cleanup();
  await packed?.cleanup();
});

/** The package's entries (package.json "exports"): rainbond-openapi, /core and /operations. */
const ENTRIES = ["index", "core", "operations"];
/** Each module tsdown writes comes in both formats: its ESM file beside its CommonJS twin. */
const TWIN: Record<string, string> = { ".js": ".cjs", ".cjs": ".js", ".d.ts": ".d.cts", ".d.cts": ".d.ts" };

describe("the tarball", () => {
  // What users need: each entry as ESM and CommonJS with the declarations of each, the chunks the entries share (in
  // dist/chunks/, where none can take an entry's name), the spec; package.json, README and LICENSE. Nothing else: no
  // sources, spec/, tests, scripts or source maps.
  test("holds what users need and nothing else", () => {
    const paths = packed.files.map((f) => f.path).sort();
    const named = ["LICENSE", "README.md", "package.json", "dist/openapi.json"];
    const entries = ENTRIES.flatMap((entry) => Object.keys(TWIN).map((ext) => `dist/${entry}${ext}`));
    expect(paths).toEqual(expect.arrayContaining([...named, ...entries]));
    const chunks = paths.filter((path) => !named.includes(path) && !entries.includes(path));
    expect(chunks.length, "the entries share chunks").toBeGreaterThan(0);
    for (const chunk of chunks) {
      const [, name, ext] = /^dist\/chunks\/([\w-]+)(\.js|\.cjs|\.d\.ts|\.d\.cts)$/.exec(chunk) ?? [];
      expect(ext, `${chunk} is a chunk of code or declarations, in dist/chunks/`).toBeDefined();
      expect(paths, `${chunk} has its twin in the other format`).toContain(`dist/chunks/${name}${TWIN[ext!]}`);
    }
    for (const path of paths) expect(path).not.toMatch(/^(src|spec|test|scripts|generated)\/|\.map$|\.tsbuildinfo$/);
    // Small: the spec and the generated types are most of it (364 KB at the console's 101 operations).
    expect(packed.size).toBeLessThan(400_000);
  });

  test("its package.json points every entry at a file it holds", async () => {
    const manifest = JSON.parse(await readFile(join(packed.packageDir, "package.json"), "utf8"));
    const shipped = new Set(packed.files.map((f) => `./${f.path}`));
    const targets = [manifest.main, manifest.module, manifest.types, ...collectStrings(manifest.exports)];
    for (const target of targets) expect(shipped, target).toContain(target);
    expect(manifest).toMatchObject({
      license: "MIT",
      sideEffects: false,
      engines: { node: ">=20" },
      dependencies: { "openapi-fetch": expect.any(String) },
    });
  });

  test("rainbond-openapi/openapi.json is the bundled spec, for require and for import", async () => {
    const bundled = await readFile(join(root, "generated/openapi.json"), "utf8");
    const resolved = createRequire(join(consumer.dir, "package.json")).resolve("rainbond-openapi/openapi.json");
    expect(resolved).toBe(join(consumer.dir, "node_modules/rainbond-openapi/dist/openapi.json"));
    expect(await readFile(resolved, "utf8")).toBe(bundled);

    const spec = JSON.parse(bundled) as { openapi: string; info: { version: string }; paths: object };
    const summary = `${spec.openapi} ${spec.info.version} ${Object.keys(spec.paths).length}`;
    const show = "`${s.openapi} ${s.info.version} ${Object.keys(s.paths).length}`";
    const viaRequire = await run(
      process.execPath,
      ["-e", `const s = require("rainbond-openapi/openapi.json"); console.log(${show})`],
      {
        cwd: consumer.dir,
      },
    );
    const viaImport = await run(
      process.execPath,
      [
        "--input-type=module",
        "--no-warnings",
        "-e",
        `import s from "rainbond-openapi/openapi.json" with { type: "json" }; console.log(${show})`,
      ],
      { cwd: consumer.dir },
    );
    expect(viaRequire.stdout.trim()).toBe(summary);
    expect(viaImport.stdout.trim()).toBe(summary);
  });
});

// publint and Are The Types Wrong (attw, strict profile, no rule ignored) find no problem in it.
describe("the tarball, linted", () => {
  test("publint reports nothing, suggestions included", async () => {
    const tarball = await readFile(packed.tarball);
    const { messages, pkg } = await publint({
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
      level: "suggestion",
      strict: true,
    });
    expect(messages.map((m) => formatMessage(m, pkg) ?? m.code)).toEqual([]);
  });

  interface Resolution {
    resolution?: { fileName: string };
    implementationResolution?: { fileName: string };
  }

  test("attw reports nothing, and each way of resolving the package finds the right types and code", async () => {
    const attw = join(root, "node_modules/@arethetypeswrong/cli/dist/index.js");
    // --no-definitely-typed: never ask the registry for @types/rainbond-openapi. The CLI exits 1 on any problem.
    const { stdout } = await run(process.execPath, [attw, packed.tarball, "--format", "json", "--no-definitely-typed"]);
    const report = JSON.parse(stdout) as {
      analysis: { problems: unknown[]; entrypoints: Record<string, { resolutions: Record<string, Resolution> }> };
    };
    expect(report.analysis.problems).toEqual([]);

    const files = (subpath: string) =>
      Object.fromEntries(
        Object.entries(report.analysis.entrypoints[subpath]!.resolutions).map(([kind, r]) => [
          kind,
          [r.resolution?.fileName, r.implementationResolution?.fileName].map((f) =>
            f?.replace("/node_modules/rainbond-openapi/", ""),
          ),
        ]),
      );
    const cjs = ["dist/index.d.cts", "dist/index.cjs"];
    const esm = ["dist/index.d.ts", "dist/index.js"];
    expect(files(".")).toEqual({ node10: cjs, "node16-cjs": cjs, "node16-esm": esm, bundler: esm });
    for (const [kind, [types]] of Object.entries(files("./openapi.json")))
      expect(types, kind).toBe("dist/openapi.json");
  });
});

describe("its entries", () => {
  // Loaded from all three entries, an error is one class: the entries share one copy of the code per format. The same
  // lines run after `require` and after `import`.
  const check = `void (async () => {
  const same = ["RainbondError", "RainbondInputError", "createRainbondCore"].every((name) => root[name] === core[name]);
  const c = core.createRainbondCore({ baseUrl: "http://127.0.0.1:1", token: "t", logLevel: "off" });
  const error = await operations.getComponent(c, {}).then(() => undefined, (err) => err);
  console.log(JSON.stringify({ same, name: error?.name, isRootClass: error instanceof root.RainbondInputError }));
})();`;
  const expected = { same: true, name: "RainbondInputError", isRootClass: true };

  test("share one error class: require", async () => {
    const load = `const root = require("rainbond-openapi");
const core = require("rainbond-openapi/core");
const operations = require("rainbond-openapi/operations");`;
    const { stdout } = await run(process.execPath, ["-e", `${load}\n${check}`], { cwd: consumer.dir });
    expect(JSON.parse(stdout)).toEqual(expected);
  });

  test("share one error class: import", async () => {
    const load = `import * as root from "rainbond-openapi";
import * as core from "rainbond-openapi/core";
import * as operations from "rainbond-openapi/operations";`;
    const args = ["--input-type=module", "-e", `${load}\n${check}`];
    const { stdout } = await run(process.execPath, args, { cwd: consumer.dir });
    expect(JSON.parse(stdout)).toEqual(expected);
  });

  // test/tooling/size-budget.test.ts measures the same from src/; this is the shipped ESM, as a consumer's bundler sees it.
  test("a bundle of one operation from the built ESM leaves the other operations out", async () => {
    const minified = async (contents: string) => {
      const result = await build({
        stdin: { contents, resolveDir: consumer.dir },
        bundle: true,
        minify: true,
        format: "esm",
        platform: "browser",
        write: false,
        logLevel: "silent",
      });
      return result.outputFiles[0]!.text;
    };
    const core = `export { createRainbondCore } from "rainbond-openapi/core";`;
    const one = await minified(`export { getComponent } from "rainbond-openapi/operations";\n${core}`);
    const all = await minified(`export * from "rainbond-openapi/operations";\n${core}`);
    // installApp's path, in the bundle of every operation only.
    expect(all).toContain("/install");
    expect(one).not.toContain("/install");
    // and every other operation's entry (the name errors give its call, `apps.install`, is in it): in the bundle of
    // all of them, not in that of one
    const { methods } = JSON.parse(await readFile(join(root, "generated/table.json"), "utf8")) as {
      methods: { kind: string; name: string; operationId: string }[];
    };
    const operations = methods.filter((method) => method.kind === "operation");
    const others = operations.filter((op) => op.operationId !== "getComponent").map((op) => JSON.stringify(op.name));
    expect(others).toHaveLength(operations.length - 1);
    expect(others.filter((id) => !all.includes(id))).toEqual([]);
    expect(others.filter((id) => one.includes(id))).toEqual([]);
    expect(one.length).toBeLessThan(all.length);
  });
});

// Every entry of "exports" (read from the installed package.json), in ESM and in CommonJS: what its declarations
// export as values is what Node finds in it, and a strict consumer importing every name (declared or found at run
// time) compiles. A declaration file that is not the entry's (a shared chunk under the entry's name), a value declared
// but not built, a name built but not declared: each fails here.
describe("every entry of its exports, as installed", () => {
  let specifiers: string[];
  let declared: ExportMap;
  let runtime: RuntimeMap;
  const compiles = {} as Record<ConsumerSetting, Promise<unknown>>;
  beforeAll(async () => {
    specifiers = await codeEntries(consumer.dir);
    [declared, runtime] = await Promise.all([
      declaredExports(consumer.dir, specifiers),
      runtimeExports(consumer.dir, specifiers),
    ]);
    // both compiles at once, each a few seconds of one core
    const tsconfigs = await writeStrictConsumer(consumer.dir, declared, runtime);
    for (const [setting, tsconfig] of Object.entries(tsconfigs) as [ConsumerSetting, string][]) {
      compiles[setting] = run(process.execPath, [tscPath, "-p", tsconfig], { cwd: consumer.dir, timeoutMs: 240_000 });
      compiles[setting].catch(() => {});
    }
  }, 120_000);

  test("are the entries with declarations: the root, /core and /operations", () => {
    const entries = ["rainbond-openapi", "rainbond-openapi/core", "rainbond-openapi/operations"];
    expect(specifiers).toEqual(expect.arrayContaining(entries));
  });

  for (const format of FORMATS) {
    test(`${format}: each exports at run time exactly the values its declarations export`, () => {
      const mismatches = specifiers.map((spec) => {
        const { values } = declared[format][spec]!;
        const built = runtime[format][spec]!;
        const declaredNotBuilt = values.filter((name) => !built.includes(name));
        return { spec, declaredNotBuilt, builtNotDeclared: built.filter((name) => !values.includes(name)) };
      });
      const none = specifiers.map((spec) => ({ spec, declaredNotBuilt: [], builtNotDeclared: [] }));
      expect(mismatches).toEqual(none);
      for (const spec of specifiers) expect(runtime[format][spec], `${spec} exports values`).not.toEqual([]);
    });
  }

  for (const setting of Object.keys(CONSUMER_SETTINGS) as ConsumerSetting[]) {
    test(`a strict ${setting} consumer importing every name of every entry, in ESM and CommonJS, compiles`, async () => {
      await expect(compiles[setting]).resolves.toMatchObject({ stdout: "" });
    }, 250_000);
  }

  test("its installed package.json has no install script and no devDependencies", async () => {
    const manifest = JSON.parse(await readFile(installedManifest(consumer.dir), "utf8"));
    // npm 11 counts prepare as an install script of a package from anywhere but the registry (a tarball, git)
    const install = ["preinstall", "install", "postinstall", "prepare", "prepublish"];
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => install.includes(name))).toEqual([]);
    expect(manifest.devDependencies).toBeUndefined();
  });
});

// Three ways a TypeScript project resolves the package; each compiles both entries (the .mts imports and gets the
// .d.ts types, the .cts requires and gets the .d.cts ones). Under nodenext skipLibCheck is off, so both trees of
// shipped declarations are type-checked too (once: checking them is most of a compile's time; whether they resolve
// under every setting is attw's part, above).
const settings = {
  node16: { module: "node16", moduleResolution: "node16", skipLibCheck: true },
  nodenext: { module: "nodenext", moduleResolution: "nodenext", skipLibCheck: false },
  bundler: { module: "preserve", moduleResolution: "bundler", skipLibCheck: true },
} as const;
type Setting = keyof typeof settings;
const compiled = new Map<Setting, Promise<unknown>>();
const compile = (setting: Setting) => {
  if (!compiled.has(setting)) {
    const tsc = run(process.execPath, [tscPath, "-p", `tsconfig.${setting}.json`], {
      cwd: consumer.dir,
      timeoutMs: 120_000,
    });
    compiled.set(setting, tsc);
  }
  return compiled.get(setting)!;
};

describe("a TypeScript project using it", () => {
  // Start all three compiles at once: each is a few seconds of one core.
  beforeAll(() => {
    for (const setting of Object.keys(settings) as Setting[]) compile(setting).catch(() => {});
  });

  for (const setting of Object.keys(settings) as Setting[]) {
    test(`compiles under strict ${setting} and runs with import and require`, async () => {
      await compile(setting);
      const out = join(consumer.dir, "out", setting);
      const env = { PRISM_URL: prismUrl };
      const [esm, cjs] = await Promise.all([
        run(process.execPath, [join(out, "main.mjs")], { cwd: consumer.dir, env }),
        run(process.execPath, [join(out, "main.cjs")], { cwd: consumer.dir, env }),
      ]);
      expect(JSON.parse(esm.stdout)).toEqual(expectedOutput("esm"));
      expect(JSON.parse(cjs.stdout)).toEqual(expectedOutput("cjs"));
    }, 150_000);
  }
});

/** What each entry prints: the same answers from the mock through either build. */
function expectedOutput(format: "esm" | "cjs") {
  return {
    format,
    entry: format === "esm" ? "dist/index.js" : "dist/index.cjs",
    component: "web-frontend 1.4.2 (running)",
    port: "8080/http gr3f9c2a-8080",
    regions: "1 region(s), first rainbond",
    error: { isApiError: true, isNotFound: true, name: "RainbondNotFoundError", status: 404 },
    inputError: "RainbondInputError",
  };
}

function collectStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(collectStrings);
  return [];
}

/**
 * The consumer's sources: src/main.mts (import) and src/main.cts (require) share one body, which calls the mock
 * and prints one JSON line; the `@ts-expect-error` lines prove the package's types are real (not `any`).
 */
async function writeConsumerSources(dir: string) {
  const body = `
const baseUrl = process.env.PRISM_URL;
if (!baseUrl) throw new Error("PRISM_URL is not set");
const component = { teamId: "q8k2mz5d", regionName: "rainbond", appId: 12, serviceId: "gr3f9c2a" };
const client: RainbondClient = createRainbondClient({ baseUrl, token: "consumer-demo-token", logLevel: "off" });
// Prism answers with the spec's 404 example when asked to.
const notFound = createRainbondClient({ baseUrl, token: "consumer-demo-token", logLevel: "off", headers: { Prefer: "code=404" } });

// Never called (no export either: a .cts compiled with module "preserve" keeps ESM export syntax as it is).
function neverCalled(): void {
  // @ts-expect-error a port is a number
  void client.ports.add(component, { port: "8080", protocol: "http" });
  // @ts-expect-error an app id is required
  void client.components.get({ teamId: "q8k2mz5d", regionName: "rainbond", serviceId: "gr3f9c2a" });
}

async function main(): Promise<void> {
  const c = await client.components.get(component);
  const p: Port = await client.ports.add(component, { port: 8080, protocol: "http" });
  const r = await client.regions.listForTeam("q8k2mz5d", { page: 1, pageSize: 10 });
  let error: { isApiError: boolean; isNotFound: boolean; name: string; status: number } | undefined;
  try {
    await notFound.components.get(component);
  } catch (err) {
    if (!(err instanceof RainbondApiError)) throw err;
    error = { isApiError: true, isNotFound: err instanceof RainbondNotFoundError, name: err.name, status: err.status };
  }
  let inputError = "none";
  try {
    await client.ports.add(component, { port: -1, protocol: "http" });
  } catch (err) {
    inputError = err instanceof RainbondError ? err.name : String(err);
  }
  console.log(JSON.stringify({
    format,
    entry: entry.slice(entry.lastIndexOf("rainbond-openapi/") + "rainbond-openapi/".length),
    component: \`\${c.service_cname} \${c.version} (\${c.status})\`,
    port: \`\${p.container_port}/\${p.protocol} \${p.k8s_service_name}\`,
    regions: \`\${r.total} region(s), first \${r.regions[0]?.region_name}\`,
    error,
    inputError,
  }));
}

void neverCalled;
main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
`;
  const esm = `import {
  createRainbondClient,
  RainbondApiError,
  RainbondError,
  RainbondNotFoundError,
  type Port,
  type RainbondClient,
} from "rainbond-openapi";
const format = "esm";
const entry = import.meta.resolve("rainbond-openapi");
${body}`;
  const cjs = `import rainbond = require("rainbond-openapi");
const { createRainbondClient, RainbondApiError, RainbondError, RainbondNotFoundError } = rainbond;
type Port = rainbond.Port;
type RainbondClient = rainbond.RainbondClient;
const format = "cjs";
const entry = require.resolve("rainbond-openapi");
${body}`;
  await mkdir(join(dir, "src"));
  await writeFile(join(dir, "src/main.mts"), esm);
  await writeFile(join(dir, "src/main.cts"), cjs);
  // The little of Node the entries use. No @types/node: checking it would double each compile's time, and the
  // client's types need only the fetch API, which lib "DOM" declares.
  const node = `declare var process: { env: Record<string, string | undefined>; exitCode?: number };
declare var require: { (id: string): unknown; resolve(id: string): string };
interface ImportMeta { resolve(specifier: string): string }
`;
  await writeFile(join(dir, "src/node.d.ts"), node);
  for (const [setting, options] of Object.entries(settings)) {
    const tsconfig = {
      compilerOptions: {
        ...options,
        strict: true,
        skipDefaultLibCheck: true,
        target: "ES2022",
        lib: ["ES2022", "DOM"],
        types: [],
        rootDir: "src",
        outDir: `out/${setting}`,
        noEmitOnError: true,
      },
      files: ["src/main.mts", "src/main.cts", "src/node.d.ts"],
    };
    await writeFile(join(dir, `tsconfig.${setting}.json`), JSON.stringify(tsconfig, null, 2));
  }
}
