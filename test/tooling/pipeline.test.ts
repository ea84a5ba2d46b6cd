// The generator, as people run it: the same spec gives the same bytes, `--check` names what is stale, `--watch`
// regenerates on every save, an editor's save by rename included, and the table of methods (docs/methods.md) follows
// the spec.
// Each test works on a copy of spec/ in a temp directory. The pipeline runs in this process (scripts/generate.ts's
// generate and watchSpec, its tools loaded once for the file); the command line is spawned where it is what a test is
// about: the exit code of a stale --check, and a lint error's report.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { generate, watchSpec, type Options } from "../../scripts/generate.ts";
import { scriptArgs } from "../../scripts/lib/script.ts";
import { root } from "../helpers/readme.js";

let dir: string;
let options: Options;
/** What the pipeline printed with console.log, and the waits for it to print something. */
let printed: string;
const waiting = new Set<() => void>();

/** The command line, run as a user runs it, on the copy. */
function cli(...args: string[]) {
  const { specRoot, outDir } = options;
  const result = spawnSync(
    process.execPath,
    scriptArgs("scripts/generate.ts", "--spec", specRoot, "--out", outDir, ...args),
    {
      encoding: "utf8",
    },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function editSpec(file: string, from: string, to: string) {
  const path = join(dir, file);
  const text = readFileSync(path, "utf8");
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

const names = (files: string[]) => files.map((file) => file.split("/").pop()!).sort();

/** The project's generated files in the copy: generated/, docs/methods.md and docs/mcp.md with their tables, and the
 * departures page. */
function copyGenerated() {
  for (const part of ["generated", "docs/methods.md", "docs/mcp.md", "docs/console-departures.md"])
    cpSync(join(root, part), join(dir, part), { recursive: true });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "rainbond-pipeline-"));
  cpSync(join(root, "spec"), join(dir, "spec"), { recursive: true });
  options = { specRoot: join(dir, "spec/openapi.yaml"), outDir: join(dir, "generated") };
  printed = "";
  vi.spyOn(console, "error").mockImplementation(() => {});
  vi.spyOn(console, "log").mockImplementation((line: string) => {
    printed += `${line}\n`;
    waiting.forEach((look) => look());
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

describe("npm run generate", () => {
  test("gives generated/ byte for byte, and the same bytes on every run", async () => {
    const files = readdirSync(join(root, "generated"), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(join(root, "generated"), join(entry.parentPath, entry.name)));
    const outputs = () => files.map((file) => readFileSync(join(options.outDir, file), "utf8"));
    // and the departures page beside the output directory, from the overlay (no docs/methods.md or docs/mcp.md in the
    // copy)
    expect(names(await generate(options))).toEqual(names(["console-departures.md", ...files]));
    const first = outputs();
    expect(first).toEqual(files.map((file) => readFileSync(join(root, "generated", file), "utf8")));
    rmSync(options.outDir, { recursive: true }); // a second run, later: a timestamp anywhere would differ
    await generate(options);
    expect(outputs()).toEqual(first);
  });

  test("--check passes on the project's output and names the stale files after the spec changes", async () => {
    copyGenerated();
    expect(await generate({ ...options, check: true })).toEqual([]);
    editSpec("spec/paths/component.yaml", "summary: Read a component", "summary: Read one component");
    // a summary is documentation (of the functions, the methods and the MCP tools): not part of the operation table
    // (operations.ts) nor of docs/methods.md's table or docs/mcp.md's
    const stale = ["functions.ts", "groups.ts", "openapi.json", "schema.ts", "table.json"];
    const { status, output } = cli("--check");
    expect(status).toBe(1);
    expect(names(output.slice(output.indexOf("is stale")).split("\n").slice(1).filter(Boolean))).toEqual(stale);
    expect(readFileSync(join(options.outDir, "groups.ts"), "utf8")).toContain("Read a component."); // nothing written
  });

  test("refreshes docs/methods.md's table beside the output directory: a renamed method reaches it", async () => {
    const page = join(dir, "docs/methods.md");
    copyGenerated(); // where the page's table is up to date (--check passes: the test above)
    expect(readFileSync(page, "utf8")).toMatch(/^\| `components\.get` \|/m);
    editSpec("spec/paths/component.yaml", "x-rainbond-method: get", "x-rainbond-method: read");
    expect(names(await generate(options))).toContain("methods.md");
    expect(readFileSync(page, "utf8")).toMatch(/^\| `components\.read` \|/m);
    expect(readFileSync(page, "utf8")).not.toMatch(/^\| `components\.get` \|/m);
  });

  test("applies the console overlay beside the spec, and stops on an action whose target matches nothing", async () => {
    await generate(options);
    expect(readFileSync(join(options.outDir, "openapi.json"), "utf8")).toContain("only_open_outer");
    expect(readFileSync(join(dir, "docs/console-departures.md"), "utf8")).toContain("## 5. ");
    const target = "target: $.components.schemas.TCPGatewayRule\n";
    editSpec("spec/console.overlay.yaml", target, target.replace("TCPGatewayRule", "NoSuchRecord"));
    const { status, output } = cli();
    expect(status).toBe(1);
    expect(output).toContain("an action on $.components.schemas.NoSuchRecord changes nothing");
  });

  test("stops on a path parameter's bound that the client would not check, naming it", () => {
    editSpec("spec/components/parameters/Port.yaml", "  type: string\n", "  type: string\n  maxLength: 5\n");
    const { status, output } = cli();
    expect(status).toBe(1);
    expect(output).toMatch(/path parameter port: maxLength is not checked in a path parameter/);
  });

  test("stops on a lint error and writes nothing", () => {
    const file = join(dir, "spec/paths/component.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace(/^ {2}summary: .*$/m, ""));
    const { status, output } = cli();
    expect(status).toBe(1);
    expect(output).toMatch(/operation-summary/);
    expect(output).not.toContain("\x1b["); // not a terminal: no colour codes
    expect(() => readFileSync(join(options.outDir, "openapi.json"))).toThrow();
  });

  test("--watch regenerates on every save, also after an editor saves by rename", async () => {
    /** Resolves once what was printed after `from` matches `pattern`. */
    const seen = (pattern: RegExp, from: number) =>
      new Promise<void>((resolve) => {
        const look = () => pattern.test(printed.slice(from)) && (waiting.delete(look), resolve());
        waiting.add(look);
        look();
      });
    const file = join(dir, "spec/components/schemas/Port.yaml");
    const original = readFileSync(file, "utf8");
    const portAlias = (text: string) => original.replace("description: Port alias.", `description: ${text}`);
    /** Saves `text` into the file, and waits until the watcher has written it into the output. */
    const saved = async (text: string, save: (content: string) => void) => {
      const mark = printed.length;
      save(portAlias(text));
      await seen(/Port\.yaml changed[\s\S]*\bwrote\b/, mark);
      expect(readFileSync(join(options.outDir, "openapi.json"), "utf8")).toContain(text);
      expect(readFileSync(join(options.outDir, "schema.ts"), "utf8")).toContain(text);
    };
    const inPlace = (content: string) => writeFileSync(file, content);
    // an editor's atomic save (and `sed -i`): a new file written beside the old one, then renamed over it
    const byRename = (content: string) => {
      const temporary = join(dir, "spec/components/schemas/.Port.yaml.swp");
      writeFileSync(temporary, content);
      renameSync(temporary, file);
    };
    const watcher = watchSpec(options);
    try {
      await seen(/watching[\s\S]*\bwrote\b/, 0);
      await saved("The port's alias.", inPlace);
      await saved("The alias, saved by rename.", byRename);
      await saved("The alias, edited after the rename.", inPlace);
      await saved("The alias, renamed again.", byRename);
      await saved("The alias, edited again.", inPlace);
    } finally {
      await watcher.close();
    }
  });
});
