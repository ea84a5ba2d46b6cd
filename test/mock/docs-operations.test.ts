// docs/methods.md's per-operation example compiles under strict with its subpath imports and runs against the Prism mock.
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { docSection, runExample, tempDir, tsBlocks, typeCheck, writeExample } from "../helpers/readme.js";
import { successOf } from "../helpers/spec.js";

const [block = ""] = tsBlocks(docSection("docs/methods.md", "operations"));
let tmp: ReturnType<typeof tempDir>;
let file: string;
beforeAll(() => {
  tmp = tempDir("docs-operations");
  file = writeExample(tmp.dir, "operations.ts", block);
});
afterAll(() => tmp?.remove());

test("imports rainbond-openapi/core and /operations, and type-checks under strict", () => {
  expect(block).toMatch(/from "rainbond-openapi\/core"/);
  expect(block).toMatch(/from "rainbond-openapi\/operations"/);
  expect([...typeCheck([file]).values()].flat()).toEqual([]);
}, 120_000);

test("runs against the mock: the example's ports, then the 404 branch", async () => {
  const printed = await runExample(file, { RAINBOND_URL: inject("prismUrl") });
  const ports = successOf("listComponentPorts").example as { container_port: number; protocol: string }[];
  expect(printed).toEqual({
    log: [
      `${ports.length} ports, the first ${ports[0]!.container_port}/${ports[0]!.protocol}`,
      "components.get answered 404",
    ],
    other: [],
  });
});
