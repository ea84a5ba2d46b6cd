// A spec change reaches the command line by `npm run generate` alone: in a copy of the project, an optional query
// parameter added to listComponentPorts becomes a flag of `rainbond ports list`, with the spec's text in its help,
// sent as the spec names it and checked by the spec's rule, with no file of cli/ touched; and what one shortcut does,
// changed in the spec, reaches its prompt, the MCP tool and the docs.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { replaceIn } from "../release/spec-edits.js";
import { createTempRepo, type TempRepo } from "../../helpers/release/temp-repo.js";
import { buildBin, rainbond } from "../../helpers/cli/helpers.js";

let repo: TempRepo;
const component = ["--team", "q8k2mz5d", "--region", "rainbond", "--app", "12", "--component", "gr3f9c2a"];

beforeAll(async () => {
  repo = createTempRepo(
    [
      "spec",
      "scripts",
      "surface",
      "src",
      "generated",
      "cli",
      "docs",
      "README.md",
      "package.json",
      "tsconfig.json",
      "redocly.yaml",
    ],
    { nodeModules: true },
  );
  await replaceIn(
    repo.dir,
    "spec/paths/ports.yaml",
    "  summary: List the ports of a component\n",
    [
      "  summary: List the ports of a component",
      "  parameters:",
      "    - name: only_protocol",
      "      in: query",
      "      required: false",
      "      description: Only the ports of this protocol.",
      "      schema:",
      "        type: string",
      "        enum: [tcp, http]",
      "",
    ].join("\n"),
  );
  // what one shortcut does: closing a port to the outside, now said to remove it for good
  await replaceIn(repo.dir, "spec/paths/port.yaml", "close_outer: interrupts", "close_outer: destructive");
  execFileSync("npm", ["run", "--silent", "generate"], { cwd: repo.dir, stdio: "pipe" });
  buildBin(repo.dir);
}, 180_000);
afterAll(() => repo?.remove());

test("an optional query parameter becomes a flag: in the help, on the wire, checked by its rule", async () => {
  expect(repo.git("status", "--porcelain", "--untracked-files=no", "--", "cli")).toBe(""); // generated/ changed; cli/ did not
  const file = join(repo.dir, "cli/dist/cli.js");
  const env = { RAINBOND_URL: "http://127.0.0.1:9", RAINBOND_TOKEN: "tok-SPEC-CHANGE-0a1b" };
  const help = await rainbond(["ports", "list", "--help"], { file });
  expect(help.stdout).toMatch(/--only-protocol <tcp\|http>\s+Only the ports of this protocol\./);
  const dry = await rainbond(["ports", "list", ...component, "--only-protocol", "http", "--dry-run"], { file, env });
  expect(dry.stdout).toMatch(/\/services\/gr3f9c2a\/ports\?only_protocol=http' -H/);
  const bad = await rainbond(["ports", "list", ...component, "--only-protocol", "udp"], { file, env });
  expect([bad.code, bad.stderr]).toEqual([
    2,
    'rainbond: ports.list: --only-protocol must be one of "tcp", "http" (got "udp")\n',
  ]);
  const before = await rainbond(["ports", "list", "--help"]); // this project's bin: no such flag
  expect(before.stdout).not.toContain("--only-protocol");
});

test("a shortcut's effect changed in the spec reaches the prompt, the MCP tool and the docs by npm run generate", async () => {
  const file = join(repo.dir, "cli/dist/cli.js");
  const env = { RAINBOND_URL: "http://127.0.0.1:9", RAINBOND_TOKEN: "tok-SPEC-CHANGE-0a1b" };
  const close = await rainbond(["ports", "close-outer", ...component, "8080"], { file, env });
  expect([close.code, close.stderr]).toEqual([2, expect.stringMatching(/It removes or overwrites this for good/)]);
  const before = await rainbond(["ports", "close-outer", ...component, "8080"], { env }); // this project's bin
  expect(before.stderr).toMatch(/It cuts off access/);
  const table = JSON.parse(readFileSync(join(repo.dir, "generated/table.json"), "utf8"));
  expect(table.operations.updateComponentPort.tool.description).toMatch(/`close_outer`: Removes or overwrites it/);
  expect(readFileSync(join(repo.dir, "docs/mcp.md"), "utf8")).toMatch(
    /\| `updateComponentPort` \| destructive \(by `action`\) \|/,
  );
});
