// The generator, as people run it: the same spec gives the same bytes, `--check` names what is stale, `--watch`
// regenerates on every save, an editor's save by rename included, and the README's table of methods follows the spec.
// Each test works on a copy of spec/ in a temp directory.
import { scriptArgs } from "../scripts/lib/script.ts";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { root } from "./helpers/readme.js";

const generate = join(root, "scripts/generate.ts");
const outputs = ["openapi.json", "schema.ts", "operations.ts", "mcp-tools.json"];
let dir: string;
let spec: string;
let out: string;

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [...scriptArgs(generate), "--spec", spec, "--out", out, ...args], {
    encoding: "utf8",
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function editSpec(file: string, from: string, to: string) {
  const path = join(dir, file);
  const text = readFileSync(path, "utf8");
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

/** The files `--check` names as stale (their names), after checking that it fails. */
function staleFiles(): string[] {
  const { status, output } = run("--check");
  expect(status).toBe(1);
  return output
    .slice(output.indexOf("is stale"))
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split("/").pop()!)
    .filter(Boolean);
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
    editSpec("spec/paths/component.yaml", "summary: Read a component", "summary: Read one component");
    // a summary is documentation (of the functions, the methods and the MCP tools): not part of the operation table
    // (operations.ts) nor of the README's table
    expect(staleFiles()).toEqual([
      "openapi.json",
      "schema.ts",
      "methods.json",
      "functions.ts",
      "groups.ts",
      "mcp-tools.json",
    ]);
  }, 60_000);

  test("refreshes the README's table of methods beside the output directory: a renamed method reaches it", () => {
    const readme = join(dir, "README.md");
    cpSync(join(root, "README.md"), readme);
    expect(run().status).toBe(0);
    expect(readFileSync(readme, "utf8")).toBe(readFileSync(join(root, "README.md"), "utf8"));
    editSpec("spec/paths/component.yaml", "x-rainbond-method: get", "x-rainbond-method: read");
    expect(staleFiles()).toContain("README.md");
    expect(run().status).toBe(0);
    expect(readFileSync(readme, "utf8")).toMatch(/^\| `components\.read` \|/m);
    expect(readFileSync(readme, "utf8")).not.toMatch(/^\| `components\.get` \|/m);
  }, 60_000);

  test("stops on a lint error and writes nothing", () => {
    const file = join(dir, "spec/paths/component.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace(/^ {2}summary: .*$/m, ""));
    const { status, output } = run();
    expect(status).toBe(1);
    expect(output).toMatch(/operation-summary/);
    expect(output).not.toContain("\x1b["); // not a terminal: no colour codes
    expect(() => readFileSync(join(out, "openapi.json"))).toThrow();
  }, 60_000);

  test("--watch regenerates on every save, also after an editor saves by rename", async () => {
    const child = spawn(process.execPath, [...scriptArgs(generate), "--watch", "--spec", spec, "--out", out], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const waiting = new Set<() => void>();
    child.stdout.on("data", (chunk) => ((output += chunk), waiting.forEach((look) => look())));
    child.stderr.on("data", (chunk) => (output += chunk));
    const exited = new Promise<never>((_, reject) =>
      child.once("exit", (code) => reject(new Error(`--watch exited with ${code}:\n${output}`))),
    );
    exited.catch(() => {});
    /** Resolves once the output after `from` matches `pattern`. */
    const seen = (pattern: RegExp, from: number) =>
      Promise.race([
        exited,
        new Promise<void>((resolve) => {
          const look = () => pattern.test(output.slice(from)) && (waiting.delete(look), resolve());
          waiting.add(look);
          look();
        }),
      ]);
    const file = join(dir, "spec/components/schemas/Port.yaml");
    const original = readFileSync(file, "utf8");
    const portAlias = (text: string) => original.replace("description: Port alias.", `description: ${text}`);
    /** Saves `text` into the file, and waits until the watcher has written it into the output. */
    const saved = async (text: string, save: (content: string) => void) => {
      const mark = output.length;
      save(portAlias(text));
      await seen(/Port\.yaml changed[\s\S]*\bwrote\b/, mark);
      expect(readFileSync(join(out, "openapi.json"), "utf8")).toContain(text);
      expect(readFileSync(join(out, "schema.ts"), "utf8")).toContain(text);
    };
    const inPlace = (content: string) => writeFileSync(file, content);
    // an editor's atomic save (and `sed -i`): a new file written beside the old one, then renamed over it
    const byRename = (content: string) => {
      const temporary = join(dir, "spec/components/schemas/.Port.yaml.swp");
      writeFileSync(temporary, content);
      renameSync(temporary, file);
    };
    try {
      await seen(/watching[\s\S]*\bwrote\b/, 0);
      await saved("The port's alias.", inPlace);
      await saved("The alias, saved by rename.", byRename);
      for (const n of [1, 2, 3]) await saved(`The alias, edit ${n} after the rename.`, inPlace);
      await saved("The alias, renamed again.", byRename);
    } finally {
      child.kill();
    }
  }, 90_000);
});
