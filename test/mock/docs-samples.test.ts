// The samples of the docs that run against the mock. The reference's code samples (scripts/docs/code-samples.ts, put
// into the site's copy of the spec by scripts/docs.ts): one TypeScript and one curl sample per operation, generated
// from generated/table.json. Every TypeScript sample type-checks under strict against src/ and runs against the
// Prism mock; every curl sample is a request the mock accepts. spec/ and generated/openapi.json get none of them. And
// docs/verifying-a-console.md's "Try it on the mock": its commands, run against the mock, end clean.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { siteSpec } from "../../scripts/docs.ts";
import { SAMPLES_BASE_URL, type CodeSample } from "../../scripts/docs/code-samples.ts";
import type { Spec } from "../../scripts/lib/reference.ts";
import { readMethods } from "../../scripts/lib/methods.ts";
import { readSpec } from "../../scripts/lib/spec.ts";
import { main } from "../../scripts/verify/main.ts";
import { startValidator, validatorSpec, type Validator } from "../../scripts/verify/validator.ts";
import { root, runExample, tempDir, typeCheck, writeExample } from "../helpers/readme.js";
import { prismCannotMatch } from "../helpers/spec.js";

const generated = readFileSync(join(root, "generated/openapi.json"), "utf8");
/** The method of generated/table.json that calls each operation (not a shortcut nor an iterator). */
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
    expect(Object.keys(samples)).toHaveLength(101);
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

  test("the samples send to the mock of `npm start -- --serve`, the TypeScript ones to RAINBOND_URL when set", () => {
    expect(SAMPLES_BASE_URL).toBe("http://127.0.0.1:4010");
    for (const [id, { typeScript, curl }] of Object.entries(samples)) {
      expect(typeScript, id).toContain(`const baseUrl = process.env.RAINBOND_URL ?? "${SAMPLES_BASE_URL}";`);
      expect(curl, id).toMatch(new RegExp(`^curl (-X \\w+ )?'${SAMPLES_BASE_URL}/openapi/v1/`));
    }
  });

  test("the TypeScript samples run against the mock, each printing its answer", async () => {
    const env = { RAINBOND_URL: inject("prismUrl"), RAINBOND_TOKEN: "sample-token" };
    for (const [id, { typeScript }] of Object.entries(samples)) {
      if (prismCannotMatch(id)) continue; // Prism refuses it whatever is sent (helpers/spec.ts)
      const printed = await runExample(writeExample(tmp.dir, `${id}-run.ts`, typeScript), env);
      expect(printed.other, id).toEqual([]);
      expect(printed.log, id).toHaveLength(1);
    }
  }, 120_000);

  test("the curl samples are requests the mock accepts", async () => {
    const mock = inject("prismUrl");
    for (const [id, { curl }] of Object.entries(samples)) {
      if (prismCannotMatch(id)) continue; // Prism refuses it whatever is sent (helpers/spec.ts)
      const method = /^curl(?: -X (\w+))? '([^']+)'/.exec(curl)!;
      const body = /-d '((?:[^']|'\\'')*)'$/.exec(curl)?.[1]?.replaceAll(`'\\''`, "'");
      const answer = await fetch(method[2]!.replace(SAMPLES_BASE_URL, mock), {
        method: method[1] ?? "GET",
        headers: { authorization: "sample-token", ...(body ? { "content-type": "application/json" } : {}) },
        body,
      });
      expect(answer.status, `${id}: ${await answer.text()}`).toBeLessThan(300);
    }
  });
});

describe("docs/verifying-a-console.md: Try it on the mock", () => {
  const page = readFileSync(join(root, "docs/verifying-a-console.md"), "utf8");
  const section = page.slice(page.indexOf("## Try it on the mock"), page.indexOf("\n## ", page.indexOf("## Try it")));
  /** The section's shell lines, continuations joined, comments dropped. */
  const lines = (/```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "")
    .replace(/\\\n\s*/g, "")
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
  let validator: Validator;
  beforeAll(async () => void (validator = await startValidator(validatorSpec(readSpec(root)))), 60_000);
  afterAll(() => validator?.stop());

  test("starts the mock where the commands point, and each verify run ends clean", async () => {
    const mockUrl = "http://127.0.0.1:4010";
    expect(lines[0]).toBe("npm start -- --serve");
    expect(section).toContain(`the mock on ${mockUrl}`);
    const [, token] = /^export RAINBOND_TOKEN=(\S+)$/.exec(lines[1] ?? "") ?? [];
    const runs = lines.slice(2).map((line) => /^npm run verify -- (.+)$/.exec(line)?.[1]?.split(/\s+/) ?? [line]);
    expect(runs.map((args) => args.slice(0, 2))).toEqual([
      ["--base-url", mockUrl],
      ["--base-url", mockUrl],
    ]);
    expect(runs[1]).toContain("--write");
    for (const args of runs) {
      const out = { stdout: "", stderr: "" };
      const io = {
        stdout: { write: (t: string) => (out.stdout += t) },
        stderr: { write: (t: string) => (out.stderr += t) },
      };
      const argv = args.map((arg) => (arg === mockUrl ? inject("prismUrl") : arg));
      expect(await main(argv, { RAINBOND_TOKEN: token! }, io, root, validator), out.stderr).toBe(0);
      expect(out.stdout).toContain("Result: every answer conforms to the spec");
    }
  }, 120_000);
});
