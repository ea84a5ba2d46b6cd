// The method layer follows the spec by `npm run generate` alone (issue 21): in a copy of the project, the spec gains an
// optional query parameter, loses a response field and renames a method; after generating, a strict consumer compiles
// against the new surface (the option typed on the grouped method and on the operation function, the removed field and
// the old name refused), the option reaches the wire, and the tools' table names the new method. A table that
// disagrees with the generated types fails tsc.
import { scriptArgs } from "../../scripts/lib/script.ts";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { root } from "../helpers/readme.js";
import { startFaultServer, type FaultServer } from "../helpers/faults/server.js";

let dir: string;
let server: FaultServer;

const edit = (file: string, from: string | RegExp, to: string) => {
  const path = join(dir, file);
  const text = readFileSync(path, "utf8");
  const changed = text.replace(from, to);
  expect(changed, `${file} holds ${String(from)}`).not.toBe(text);
  writeFileSync(path, changed);
};
const node = (...args: string[]) => spawnSync(process.execPath, args, { cwd: dir, encoding: "utf8" });
const tsc = (project: string) => node(join(root, "node_modules/typescript/bin/tsc"), "-p", project, "--noEmit");

const CONSUMER = `import { createRainbondClient } from "./src/index.js";
import { createRainbondCore } from "./src/core.js";
import { listApps } from "./src/operations.js";

const region = { teamId: "q8k2mz5d", regionName: "rainbond" };
const component = { ...region, appId: 12, serviceId: "gr3f9c2a" };
export async function main(baseUrl: string) {
  const client = createRainbondClient({ baseUrl, token: "t", retries: 0 });
  await client.apps.list(region, { pageSize: 5 });
  await listApps(createRainbondCore({ baseUrl, token: "t" }), region, { pageSize: 7 });
  const web = await client.components.read(component);
  // @ts-expect-error git_url was removed from ServiceBaseInfo
  void web.git_url;
  // @ts-expect-error components.get was renamed components.read
  void client.components.get;
}
`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rainbond-method-layer-"));
  for (const part of [
    "spec",
    "src",
    "scripts",
    "surface",
    "generated",
    "package.json",
    "tsconfig.json",
    "redocly.yaml",
  ]) {
    cpSync(join(root, part), join(dir, part), { recursive: true });
  }
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  // an optional query parameter, a response field removed, a method renamed: spec edits only
  edit(
    "spec/paths/apps.yaml",
    "  parameters:\n",
    "  parameters:\n    - name: page_size\n      in: query\n      required: false\n      schema:\n        type: integer\n",
  );
  edit("spec/components/schemas/ServiceBaseInfo.yaml", /\n {2}git_url:\n(?: {4}.*\n)+/, "\n");
  // and from the examples of the answers that are components: the source document's and the console's
  for (const example of ["paths/component", "paths/app-install", "console/paths/components", "console/paths/app-copy"])
    edit(`spec/${example}.yaml`, /\n *git_url: .*/, "");
  edit("spec/paths/component.yaml", "x-rainbond-method: get", "x-rainbond-method: read");
  const generated = node(...scriptArgs(join(dir, "scripts/generate.ts")));
  expect(generated.status, generated.stdout + generated.stderr).toBe(0);
  writeFileSync(join(dir, "consumer.ts"), CONSUMER);
  writeFileSync(
    join(dir, "tsconfig.consumer.json"),
    JSON.stringify({ extends: "./tsconfig.json", include: ["src", "generated", "consumer.ts"] }),
  );
  server = await startFaultServer((req) => ({
    body: req.pathname.endsWith("/ports") ? [] : req.method === "GET" && req.pathname.endsWith("/apps") ? [] : {},
  }));
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a strict consumer compiles against the regenerated surface, and fails on what the spec took away", () => {
  const result = tsc("tsconfig.consumer.json");
  expect(result.stdout + result.stderr).toBe("");
  expect(result.status).toBe(0);
}, 120_000);

test("the added option reaches the wire from the grouped method and from the operation function", async () => {
  const { main } = (await import(join(dir, "consumer.ts"))) as { main: (url: string) => Promise<void> };
  await main(server.url);
  const apps = server.requests.filter((r) => r.pathname.endsWith("/apps"));
  expect(apps.map((r) => r.query.get("page_size"))).toEqual(["5", "7"]);
  expect(server.requests.some((r) => r.pathname.endsWith("/services/gr3f9c2a"))).toBe(true);
});

test("the tools' table names the renamed method and the new option", () => {
  const { methods } = JSON.parse(readFileSync(join(dir, "generated/table.json"), "utf8")) as {
    methods: { name: string }[];
  };
  const names = methods.map((m) => m.name);
  expect(names).toContain("components.read");
  expect(names).not.toContain("components.get");
  expect(readFileSync(join(dir, "generated/types.ts"), "utf8")).toMatch(
    /export interface ListAppsOptions \{[^}]*pageSize\?: number;/s,
  );
});

test("a table that disagrees with its types fails tsc", () => {
  const file = join(dir, "generated/operations.ts");
  const table = readFileSync(file, "utf8");
  try {
    edit(
      "generated/operations.ts",
      /(export const getComponent = \{[\s\S]*?args: \[)[^\]]*\]/,
      '$1{ kind: "path", name: "teamId", param: "team_id" }]',
    );
    const result = tsc("tsconfig.json");
    expect(result.status).not.toBe(0);
    expect(result.stdout).toMatch(
      /generated\/functions\.ts.*error TS2322[\s\S]*'ComponentScope' is not assignable to type 'string \| number'/,
    );
  } finally {
    writeFileSync(file, table); // the other tests read the copy as generated, in whatever order they run
  }
}, 120_000);
