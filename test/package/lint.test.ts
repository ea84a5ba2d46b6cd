// publint and Are The Types Wrong (attw, strict profile, no rule ignored) find no problem in the packed tarball.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildAndPack, run, type Packed } from "../../scripts/lib/pack.ts";
import { root } from "../../scripts/lib/script.ts";

let packed: Packed;

beforeAll(async () => {
  packed = await buildAndPack();
}, 120_000);

afterAll(async () => {
  await packed?.cleanup();
});

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
  for (const [kind, [types]] of Object.entries(files("./openapi.json"))) expect(types, kind).toBe("dist/openapi.json");
});
