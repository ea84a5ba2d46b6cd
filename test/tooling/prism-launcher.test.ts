// The Prism launcher (scripts/prism.ts) mocks a private copy of the spec. Prism's CLI restarts its server when its
// file changes, attributes included, and with a free port (-p 0) comes back on another one: a touch of
// generated/openapi.json by any tool during a run would make the mock's URL stop answering.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { startPrism } from "../../scripts/prism.ts";
import { root } from "../helpers/readme.js";

test("Prism mocks a private copy of generated/openapi.json, removed when it stops", async () => {
  const prism = await startPrism();
  try {
    const generated = join(root, "generated/openapi.json");
    expect(prism.spec).not.toBe(generated);
    expect(prism.spec.startsWith(root)).toBe(false);
    expect(readFileSync(prism.spec, "utf8")).toBe(readFileSync(generated, "utf8"));
    const answer = await fetch(`${prism.url}/openapi/v1/httpdomains`, { headers: { authorization: "t" } });
    expect(answer.status).toBe(200);
  } finally {
    await prism.stop();
  }
  expect(existsSync(prism.spec)).toBe(false);
});
