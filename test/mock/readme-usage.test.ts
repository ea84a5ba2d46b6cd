// The README's first call must compile and run as the README says: saved as first-call.mts and run with tsx, against
// the Prism mock, printing what the README shows. The test takes the ```ts block of the usage section, writes it under
// test/.tmp/ (git-ignored) with the import of "rainbond-openapi" pointed at src/index.ts (in a clone the package
// resolves to its own build), type-checks it with the TypeScript compiler API under strict, then runs it in a process
// of its own, as `npx tsx first-call.mts` does, and sees each branch it shows taken.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { scriptArgs } from "../../scripts/lib/script.ts";
import { docSection, root, tempDir, tsBlocks, typeCheck, writeExample } from "../helpers/readme.js";
import { successOf } from "../helpers/spec.js";

const readme = readFileSync(join(root, "README.md"), "utf8");
const section = docSection("README.md", "usage");
const blocks = tsBlocks(section);

let tmp: ReturnType<typeof tempDir>;
let usageFile: string;
let brokenFile: string;

beforeAll(() => {
  tmp = tempDir("readme");
  const code = blocks[0] ?? "";
  usageFile = writeExample(tmp.dir, "first-call.mts", code);
  // the same code with one wrong value, to show that the type-check below does catch errors
  brokenFile = writeExample(tmp.dir, "broken.ts", code.replace("{ port: 70000,", `{ port: "70000",`));
});

afterAll(() => tmp?.remove());

test("the README opens with a clone's two commands, the tour against the mock and every test, and says how long", () => {
  const beforeSections = readme.slice(0, readme.indexOf("\n## "));
  const [, commands = ""] = /```sh\n([\s\S]*?)```/.exec(beforeSections) ?? [];
  expect(readme.slice(0, readme.indexOf(commands)).split("\n").length).toBeLessThan(15); // in its first lines
  expect(
    commands
      .split("\n")
      .map((line) => line.split("#")[0]!.trim())
      .filter(Boolean),
  ).toEqual(["npm ci && npm start", "npm test"]);
  expect(beforeSections).toMatch(/^`npm test` takes .+ on 2 idle cores/m);
});

describe("the README's usage example", () => {
  test("is a ## First call section with one ts block importing rainbond-openapi, and says how to run it", () => {
    expect(section).toMatch(/^## First call$/m);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toContain(`from "rainbond-openapi"`);
    for (const name of ["RainbondInputError", "toSamples", "ports.list", "ports.add", "components.get", "queryRange"]) {
      expect(blocks[0]).toContain(name);
    }
    const prose = section.replace(/```[\s\S]*?```/g, "");
    expect(prose).toContain("Prefer: code=<status>");
    expect(prose).toContain("`first-call.mts`");
    expect(prose).toContain("`npx tsx first-call.mts`");
    // the mock's default address in the example is where `npm start -- --serve` puts it
    expect(section).toMatch(/^npm start -- --serve +# the mock on http:\/\/127\.0\.0\.1:4010 /m);
    expect(blocks[0]).toContain(`"http://127.0.0.1:4010"`);
    const usage = execFileSync(process.execPath, scriptArgs("scripts/start.ts", "--help"), { encoding: "utf8" });
    expect(usage).toMatch(/--port <N> .*\(default 4010\)/);
  });

  test("type-checks under strict (and the check does see errors)", () => {
    const diagnostics = typeCheck([usageFile, brokenFile]);
    const broken = diagnostics.get(brokenFile) ?? [];
    diagnostics.delete(brokenFile);
    expect([...diagnostics.values()].flat()).toEqual([]);
    expect(broken.join("\n")).toMatch(/'string' is not assignable to type 'number'/);
  }, 120_000);

  test("runs as the README says, against the Prism mock, and prints what the README shows", () => {
    const env = { ...process.env, RAINBOND_URL: inject("prismUrl"), RAINBOND_TOKEN: "readme-token" };
    const output = execFileSync(process.execPath, scriptArgs(usageFile), { encoding: "utf8", env, cwd: tmp.dir });

    type Port = { container_port: number; protocol: string };
    const ports = successOf("listComponentPorts").example as Port[];
    const web = successOf("getComponent").example as { service_cname: string; version: string; status: string };
    const [first] = successOf("queryComponentMonitorRange").example as {
      service_cname: string;
      monitors: { data: { result: unknown[] } }[];
    }[];
    expect(first!.monitors[0]!.data.result.length).toBeGreaterThan(0);
    const printed = [
      ports.map((p) => `${p.container_port}/${p.protocol}`).join(", "),
      `${web.service_cname} ${web.version} is ${web.status}`,
      `${first!.service_cname}: ${first!.monitors[0]!.data.result.length} samples in the last hour`,
      // the input error branch, with the port shown as given
      "not sent: ports.add: body.port must be a port number from 1 to 65535 (got 70000)",
    ];
    expect(output).toBe(`${printed.join("\n")}\n`);
    const [, shown] = /It prints:\n\n```text\n([\s\S]*?)```/.exec(section) ?? [];
    expect(shown).toBe(output);
  });
});
