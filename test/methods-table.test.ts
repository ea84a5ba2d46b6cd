// generated/methods.json, the table every tool reads the client's methods from (scripts/methods.mjs): each method,
// called through callMethod with the spec's examples (as the start tour and the bench call it), is answered by the mock.
import { describe, expect, inject, test } from "vitest";
import { callMethod, exampleArgs, readMethods } from "../scripts/methods.mjs";
import { createRainbondClient } from "../src/index.js";

const methods = readMethods();

describe("generated/methods.json's examples", () => {
  test.each(methods.map((method) => [method.name, method] as const))(
    "%s is answered by the mock",
    async (_, method) => {
      const client = createRainbondClient({ baseUrl: inject("prismUrl"), token: "t", logLevel: "off" });
      const answer = await callMethod(client, method);
      expect(answer, method.name).toBeTypeOf("object");
      if (method.kind === "paging") expect((answer as unknown[]).length).toBeGreaterThan(0);
    },
  );

  test("leave out the optional arguments that have no example, and give every other one", () => {
    const listForTeam = methods.find((method) => method.name === "regions.listForTeam")!;
    expect(exampleArgs(listForTeam)).toEqual(["q8k2mz5d"]);
    const queryRange = methods.find((method) => method.name === "monitor.queryRange")!;
    expect(exampleArgs(queryRange)).toHaveLength(2);
    expect(() => exampleArgs({ ...queryRange, args: [{ ...queryRange.args[1]!, example: undefined }] })).toThrow(
      "monitor.queryRange: no example for options",
    );
  });
});
