// Size budgets, deterministic: each entry of scripts/bench/size.ts's BUDGETS, bundled for the browser as a page loads
// it up front, within the ceiling `npm test` holds it to: regression ceilings (the grouped client within the team's
// decided 12 KB; size.ts says why one operation with its core stands above the decided 8 KB), so that growth is a
// decision: issue 21 asks for 4 KB and 8 KB, which the runtime does not reach
// with every behaviour of issues 20 and 21 in each bundle (`npm run bench -- --only size` and docs/performance.md say
// where the bytes go).
import { expect, test } from "vitest";
import { BUDGETS, bundle } from "../../scripts/bench/size.ts";

test.each(Object.entries(BUDGETS))("%s stays within its gzip ceiling", async (_, budget) => {
  expect((await bundle(budget.entry, budget)).gzip).toBeLessThanOrEqual(budget.ceiling);
});

test("a bundle pays only for the operations it imports", async () => {
  const one = await bundle(`export { getComponent } from "./src/operations.ts"; export * from "./src/core.ts";`);
  const all = await bundle(`export * from "./src/operations.ts"; export * from "./src/core.ts";`);
  expect(all.gzip - one.gzip).toBeGreaterThan(1500);
});

test("an operation's bundle carries the checks of the request parts it has only: a query's, a body's", async () => {
  const core = `export { createRainbondCore } from "./src/core.ts";`;
  const withCore = (name: string) => bundle(`${core} export { ${name} } from "./src/operations.ts";`);
  const [neither, query, body] = await Promise.all([
    withCore("getComponent"),
    withCore("listApps"),
    withCore("addComponentPort"),
  ]);
  // the refusal of an unknown option (queryFromOptions), of an unknown query parameter (prepareQuery), of a body that
  // is no JSON (prepareBody); and the rules only bodies and queries have (validate.ts's MORE_RULES: free text's
  // Unicode, a string's length)
  const [option, param, json, free, long] = [
    "an option of this method",
    "a query parameter of this operation",
    "must be JSON data",
    "must be well-formed Unicode",
    " characters long",
  ];
  for (const text of [option, param, json, free, long]) expect(neither.code).not.toContain(text);
  for (const text of [free, long]) for (const code of [query.code, body.code]) expect(code).toContain(text);
  for (const text of [option, param]) expect(query.code).toContain(text);
  expect(query.code).not.toContain(json);
  expect(body.code).toContain(json);
  expect(body.code).not.toContain(option);
});

test("the grouped client loads openapi-fetch only when client.raw is first called", async () => {
  const { imports } = await bundle(`export { createRainbondClient } from "./src/index.ts";`);
  const openapiFetch = imports.filter((i) => i.path === "openapi-fetch");
  expect(openapiFetch.map((i) => i.kind)).toEqual(["dynamic-import"]);
});
