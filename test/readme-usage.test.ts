// The usage example of README.md must compile and run. The test takes the ```ts block of the usage section, writes
// it under test/.tmp/ (git-ignored) with the import of "rainbond-openapi" pointed at src/index.ts, type-checks it
// with the TypeScript compiler API under strict, then bundles it with esbuild and runs it against the Prism mock.
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { readmeSection, runExample, tempDir, tsBlocks, typeCheck, writeExample } from "./helpers/readme.js";
import { successOf } from "./helpers/spec.js";

const section = readmeSection("usage");
const blocks = tsBlocks(section);

let tmp: ReturnType<typeof tempDir>;
let usageFile: string;
let brokenFile: string;

beforeAll(() => {
  tmp = tempDir("readme");
  const code = blocks[0] ?? "";
  usageFile = writeExample(tmp.dir, "usage.ts", code);
  // the same code with one wrong value, to show that the type-check below does catch errors
  brokenFile = writeExample(tmp.dir, "broken.ts", code.replace(`protocol: "http" }`, `protocol: "https" }`));
});

afterAll(() => tmp?.remove());

describe("the README's usage example", () => {
  test("is a ## Usage section with one ts block importing rainbond-openapi, and a paragraph on scopes", () => {
    expect(section).toMatch(/^## Usage$/m);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toContain(`from "rainbond-openapi"`);
    for (const name of [
      "RainbondApiError",
      "RainbondInputError",
      "toSamples",
      "ports.list",
      "ports.add",
      "components.get",
      "queryRange",
    ]) {
      expect(blocks[0]).toContain(name);
    }
    const prose = section.replace(/```[\s\S]*?```/g, "");
    expect(prose).toContain("{ teamId, regionName }");
    expect(prose).toContain("{ ...region, appId }");
    expect(prose).toContain("{ ...app, serviceId }");
  });

  test("type-checks under strict (and the check does see errors)", () => {
    const diagnostics = typeCheck([usageFile, brokenFile]);
    const broken = diagnostics.get(brokenFile) ?? [];
    diagnostics.delete(brokenFile);
    expect([...diagnostics.values()].flat()).toEqual([]);
    expect(broken.join("\n")).toMatch(/"https"/);
  }, 120_000);

  test("runs against the Prism mock and prints what the spec's examples hold", async () => {
    const lines = await runExample(usageFile, { RAINBOND_URL: inject("prismUrl"), RAINBOND_TOKEN: "readme-token" });

    type Port = { container_port: number; protocol: string; k8s_service_name: string };
    const ports = successOf("listComponentPorts").example as Port[];
    const added = successOf("addComponentPort").example as Port;
    const web = successOf("getComponent").example as { service_cname: string; version: string; status: string };
    const range = successOf("queryComponentMonitorRange").example as {
      service_cname: string;
      monitors?: { monitor_item: string; data?: { result: { value: string[] }[] } }[] | null;
    }[];
    const monitorLines = range.flatMap(({ service_cname, monitors }) =>
      (monitors ?? []).map((item) => {
        const result = item.data?.result ?? [];
        return `${service_cname} ${item.monitor_item}: ${result.length} samples, last ${result.length ? Number(result.at(-1)!.value[1]) : undefined}`;
      }),
    );
    expect(monitorLines.length).toBeGreaterThan(0);

    expect(lines).toEqual([
      ports.map((p) => `${p.container_port}/${p.protocol}`).join(", "),
      `added ${added.container_port}, internal domain ${added.k8s_service_name}`,
      `${web.service_cname} ${web.version} is ${web.status}`,
      expect.stringMatching(
        /^not sent: ports\.add: body\.port must be a port number from 1 to 65535/,
      ) as unknown as string,
      ...monitorLines,
    ]);
  }, 60_000);
});
