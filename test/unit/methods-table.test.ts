// generated/table.json, the table every tool reads the client's methods from (scripts/methods.ts): the example
// arguments of a call (test/mock/operations.test.ts calls every method with them against the mock).
import { describe, expect, test } from "vitest";
import { exampleArgs, readMethods } from "../../scripts/lib/methods.ts";

const methods = readMethods();

describe("generated/table.json's examples", () => {
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
