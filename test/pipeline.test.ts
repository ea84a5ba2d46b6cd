// The generator, as people run it: the same spec gives the same bytes, `--check` names what is stale, and `--watch`
// regenerates when a file of the spec changes. Each test works on a copy of spec/ in a temp directory.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { root } from "./helpers/readme.js";

const generate = join(root, "scripts/generate.mjs");
const outputs = ["openapi.json", "schema.ts", "operations.ts"];
let dir: string;
let spec: string;
let out: string;

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [generate, "--spec", spec, "--out", out, ...args], { encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "rainbond-pipeline-"));
  cpSync(join(root, "spec"), join(dir, "spec"), { recursive: true });
  spec = join(dir, "spec/openapi.yaml");
  out = join(dir, "out");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run generate", () => {
  test("gives generated/ byte for byte, and the same bytes on every run", () => {
    expect(run().status).toBe(0);
    const first = outputs.map((file) => readFileSync(join(out, file), "utf8"));
    expect(first).toEqual(outputs.map((file) => readFileSync(join(root, "generated", file), "utf8")));
    rmSync(out, { recursive: true }); // a second run, seconds later: a timestamp anywhere would differ
    expect(run().status).toBe(0);
    expect(outputs.map((file) => readFileSync(join(out, file), "utf8"))).toEqual(first);
  }, 60_000);

  test("--check passes on fresh output and names the stale files after the spec changes", () => {
    expect(run().status).toBe(0);
    expect(run("--check").status).toBe(0);
    const file = join(dir, "spec/paths/component.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("summary: Read a component", "summary: Read one component"));
    const { status, output } = run("--check");
    expect(status).toBe(1);
    const stale = output
      .slice(output.indexOf("is stale"))
      .split("\n")
      .slice(1)
      .map((line) => line.trim())
      .filter(Boolean);
    // a summary is not part of the operation table: operations.ts stays as it was
    expect(stale.map((line) => line.split("/").pop())).toEqual(["openapi.json", "schema.ts"]);
  }, 60_000);

  test("stops on a lint error and writes nothing", () => {
    const file = join(dir, "spec/paths/component.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace(/^ {2}summary: .*$/m, ""));
    const { status, output } = run();
    expect(status).toBe(1);
    expect(output).toMatch(/operation-summary/);
    expect(() => readFileSync(join(out, "openapi.json"))).toThrow();
  }, 60_000);

  test("--watch regenerates when a file under the spec changes", async () => {
    const child = spawn(process.execPath, [generate, "--watch", "--spec", spec, "--out", out], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const seen = (pattern: RegExp, from: number) =>
      new Promise<void>((resolve, reject) => {
        const look = () => pattern.test(output.slice(from)) && resolve();
        child.stdout.on("data", (chunk) => ((output += chunk), look()));
        child.stderr.on("data", (chunk) => (output += chunk));
        child.once("exit", (code) => reject(new Error(`--watch exited with ${code}:\n${output}`)));
        look();
      });
    try {
      await seen(/watching/, 0);
      await seen(/\bwrote\b/, 0);
      const mark = output.length;
      const file = join(dir, "spec/components/schemas/Port.yaml");
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace("description: Port alias.", "description: The port's alias."),
      );
      await seen(/changed[\s\S]*\bwrote\b/, mark);
      expect(readFileSync(join(out, "openapi.json"), "utf8")).toContain("The port's alias.");
      expect(readFileSync(join(out, "schema.ts"), "utf8")).toContain("The port's alias.");
    } finally {
      child.kill();
    }
  }, 60_000);
});
