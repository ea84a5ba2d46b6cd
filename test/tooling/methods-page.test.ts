// docs/methods.md's table of methods is generated (scripts/codegen/methods-page.ts, run by `npm run generate`) from
// generated/table.json and the spec: this fails when the page's copy drifts from what the script writes, and checks
// the table against the client as it runs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { END, METHODS_PAGE, START, withMethodsTable } from "../../scripts/codegen/methods-page.ts";
import { readMethods } from "../../scripts/lib/methods.ts";
import { createRainbondClient } from "../../src/index.js";
import { root, tempDir, typeCheck, writeExample } from "../helpers/readme.js";
import { operationById } from "../helpers/spec.js";

const page = readFileSync(join(root, METHODS_PAGE), "utf8");
const block = page.slice(page.indexOf(START), page.indexOf(END));
/** The table's rows as { method, operation, args, returns, label }. */
const rows = [
  ...block.matchAll(/^\| `(\w+\.\w+)` \| \[`([A-Z]+ [^`]+)`\]\[(\w+)\][^|]* \| ([^|]*) \| `([^`]+)` \|$/gm),
].map(([, method = "", operation = "", label = "", args = "", returns = ""]) => ({
  method,
  operation,
  label,
  args,
  returns,
}));
const links = Object.fromEntries([...block.matchAll(/^\[(\w+)\]: (\S+)$/gm)].map(([, label, url]) => [label, url]));

describe("docs/methods.md's table of methods", () => {
  test("is what scripts/codegen/methods-page.ts writes from generated/table.json and the spec", async () => {
    expect(page.indexOf(START)).toBeGreaterThan(0);
    expect(await withMethodsTable(page)).toBe(page);
  });

  test("drifting is seen: a page whose table lost a row, or changed one, is rewritten", async () => {
    const lost = page.replace(/^\| `ports\.openOuter` .*\n/m, "");
    const changed = page.replace("| `Port[]` |", "| `Port` |");
    expect(lost).not.toBe(page);
    expect(changed).not.toBe(page);
    expect(await withMethodsTable(lost)).toBe(page);
    expect(await withMethodsTable(changed)).toBe(page);
  });

  test("has a row for every method of the client, as it runs", () => {
    const client = createRainbondClient({ baseUrl: "http://127.0.0.1:9", token: "t", logLevel: "off" });
    const methods = Object.entries(client)
      .filter(([, area]) => typeof area === "object" && area !== null && !("GET" in area)) // not client.raw
      .flatMap(([name, area]) => Object.keys(area as object).map((method) => `${name}.${method}`));
    expect(rows.map((row) => row.method).sort()).toEqual(methods.sort());
    // every operation the console serves has its method among them
    const operations = new Set(
      readMethods()
        .filter((m) => rows.some((row) => row.method === m.name))
        .map((m) => m.operationId),
    );
    expect(operations.size).toBe(101);
  });

  test("names the operation of each method, returns its named type, and links to the operation in the reference", () => {
    for (const { name, operationId, returns } of readMethods()) {
      const row = rows.find((r) => r.method === name)!;
      const { method, path, operation } = operationById(operationId);
      expect(row.operation.split(" ")[0], name).toBe(method.toUpperCase());
      expect(path.endsWith(row.operation.split(" ")[1]!.replace(/^…/, "")), name).toBe(true);
      expect(row.returns, name).toBe(returns);
      // Redoc's anchor of a tag: lower case, words joined by "-" (`App models` -> `app-models`)
      const tag = (operation as unknown as { tags: string[] }).tags[0]!.toLowerCase().replace(/\s+/g, "-");
      expect(links[row.label], name).toBe(
        `https://rainbond-openapi.github.io/rainbond-openapi/#/${tag}/${operationId.toLowerCase()}`,
      );
    }
    // the port shortcuts call ports.update's operation with their action
    const openOuter = block.split("\n").find((line) => line.startsWith("| `ports.openOuter` |"))!;
    expect(openOuter).toContain(`[\`PUT …/ports/{port}\`][${rows.find((r) => r.method === "ports.update")!.label}]`);
    expect(openOuter).toContain('`action: "open_outer"`');
  });

  test("shows which methods take a scope object and which take plain ids", () => {
    // a scope argument is named for its scope; every other argument of a method is an id of its own, a body or options
    const scoped = (row: { args: string }) => /`(region|app|component)`/.test(row.args);
    for (const method of readMethods()) {
      const row = rows.find((r) => r.method === method.name)!;
      expect(scoped(row), method.name).toBe(method.args.some((arg) => arg.kind === "scope"));
    }
    expect(rows.filter((row) => !scoped(row)).map((row) => row.method)).toContain("regions.listForTeam");
    expect(page).not.toContain("Every method takes the scope it works in as a plain object");
  });

  test("names in its Returns column types the package exports", () => {
    const names = new Set(rows.flatMap((row) => row.returns.match(/\b[A-Z]\w*/g) ?? []));
    names.delete("AsyncGenerator");
    const tmp = tempDir("returns");
    try {
      const source = `import type { ${[...names].join(", ")} } from "rainbond-openapi";\nexport type All = [${[...names].join(", ")}];\n`;
      expect([...typeCheck([writeExample(tmp.dir, "returns.ts", source)]).values()].flat()).toEqual([]);
    } finally {
      tmp.remove();
    }
  });
});
