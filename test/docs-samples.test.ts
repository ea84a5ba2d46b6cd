// The code samples of the reference (scripts/docs/code-samples.ts, put into the site's copy of the spec by
// scripts/docs.ts): one TypeScript and one curl sample per operation, generated from generated/methods.json. Every
// TypeScript sample type-checks under strict against src/ and runs against the Prism mock; every curl sample is a
// request the mock accepts. spec/ and generated/openapi.json get none of them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { siteSpec } from "../scripts/docs.ts";
import type { CodeSample } from "../scripts/docs/code-samples.ts";
import type { Spec } from "../scripts/docs/methods.ts";
import { readMethods } from "../scripts/lib/methods.ts";
import { root, runExample, tempDir, typeCheck, writeExample } from "./helpers/readme.js";

const generated = readFileSync(join(root, "generated/openapi.json"), "utf8");
/** The method of generated/methods.json that calls each operation (not a shortcut nor an iterator). */
const methodOf = Object.fromEntries(
  readMethods()
    .filter((method) => method.kind === "operation")
    .map((method) => [method.operationId, `client.${method.name}`]),
);

let samples: Record<string, { typeScript: string; curl: string }>;
let site: Spec;
let tmp: ReturnType<typeof tempDir>;

beforeAll(async () => {
  site = await siteSpec(JSON.parse(generated) as Spec);
  samples = {};
  for (const item of Object.values(site.paths)) {
    for (const operation of Object.values(item)) {
      if (!operation.operationId) continue; // the path's own parameters
      const list = (operation["x-codeSamples"] ?? []) as CodeSample[];
      samples[operation.operationId] = {
        typeScript: list.find((s) => s.label === "TypeScript")?.source ?? "",
        curl: list.find((s) => s.label === "curl")?.source ?? "",
      };
    }
  }
  tmp = tempDir("samples");
});

afterAll(() => tmp?.remove());

describe("the reference's code samples", () => {
  test("every operation has a TypeScript sample calling its method, and a curl sample; the spec files have none", () => {
    expect(Object.keys(samples).sort()).toEqual(Object.keys(methodOf).sort());
    expect(Object.keys(samples)).toHaveLength(17);
    for (const [id, { typeScript, curl }] of Object.entries(samples)) {
      expect(typeScript, id).toContain(`from "rainbond-openapi"`);
      expect(typeScript, id).toContain(`await ${methodOf[id]}(`);
      expect(curl, id).toMatch(/^curl /);
      expect(curl, id).toContain(`-H "Authorization: $RAINBOND_TOKEN"`);
    }
    expect(generated).not.toContain("x-codeSamples");
    expect(readFileSync(join(root, "spec/openapi.yaml"), "utf8")).not.toContain("x-codeSamples");
  });

  test("the server texts of the site's copy hold no Markdown backticks", () => {
    expect(JSON.parse(generated).servers[0].description).toContain("`");
    for (const server of site.servers!) expect(server.description).not.toContain("`");
  });

  test("the TypeScript samples type-check under strict against src/", () => {
    const files = Object.entries(samples).map(([id, { typeScript }]) => writeExample(tmp.dir, `${id}.ts`, typeScript));
    expect([...typeCheck(files).values()].flat()).toEqual([]);
  }, 120_000);

  test("the TypeScript samples run against the mock, each printing its answer", async () => {
    const mock = inject("prismUrl");
    for (const [id, { typeScript }] of Object.entries(samples)) {
      const code = typeScript.replace(`"http://127.0.0.1:7070"`, JSON.stringify(mock));
      expect(code, id).toContain(mock);
      const printed = await runExample(writeExample(tmp.dir, `${id}-run.ts`, code), { RAINBOND_TOKEN: "sample-token" });
      expect(printed.other, id).toEqual([]);
      expect(printed.log, id).toHaveLength(1);
    }
  }, 120_000);

  test("the curl samples are requests the mock accepts", async () => {
    const mock = inject("prismUrl");
    for (const [id, { curl }] of Object.entries(samples)) {
      const method = /^curl(?: -X (\w+))? '([^']+)'/.exec(curl)!;
      const body = /-d '((?:[^']|'\\'')*)'$/.exec(curl)?.[1]?.replaceAll(`'\\''`, "'");
      const answer = await fetch(method[2]!.replace("http://127.0.0.1:7070", mock), {
        method: method[1] ?? "GET",
        headers: { authorization: "sample-token", ...(body ? { "content-type": "application/json" } : {}) },
        body,
      });
      expect(answer.status, `${id}: ${await answer.text()}`).toBeLessThan(300);
    }
  });
});
