// How a table meets a terminal, in this process: as gh's tables do, it fits the terminal's width (columns cut with
// `…`, never wrapped, wide characters counted as two columns), and piped it is whole; 300,000 rows print.
import { describe, expect, test } from "vitest";
import { fitColumns, layoutOf, query, render } from "../../../cli/src/output.ts";
import { widthOf } from "../../../cli/src/terminal.ts";

const regions = [
  {
    region_id: "3c8e1f0a2b4d4c6e8f0a1b2c3d4e5f60",
    region_name: "rainbond",
    region_alias: "Default cluster",
    url: "https://10.0.0.11:8443",
    desc: "The default cluster of the platform, installed with the console: keep it for the system components.",
  },
  { region_id: "9f", region_name: "edge", region_alias: "边缘集群（上海）", url: "https://10.0.9.1:8443", desc: "" },
];

describe("-o table on a terminal fits its width", () => {
  test.each([80, 60, 40])("at %i columns every line fits, none wraps, and each row stays one line", async (width) => {
    const out = await render(regions, "table", { color: false, width });
    const lines = out.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(widthOf(line)).toBeLessThanOrEqual(width);
    expect(lines[0]).toMatch(/^REGION_/);
    expect(out).toContain("…"); // what was cut says so
  });

  test("narrow columns keep their width; the wide ones share the rest (gh's way)", () => {
    expect(fitColumns([4, 10, 60], 40)).toEqual([4, 10, 22]);
    expect(fitColumns([30, 30, 30], 40)).toEqual([12, 12, 12]);
    expect(fitColumns([5, 5], 80)).toEqual([5, 5]);
  });

  test("wide characters take two columns, and are cut on a character", async () => {
    const out = await render([{ name: "边缘集群边缘集群边缘集群", id: "x" }], "table", { color: false, width: 12 });
    for (const line of out.trimEnd().split("\n")) expect(widthOf(line)).toBeLessThanOrEqual(12);
    expect(out).toMatch(/^边缘集…\s+x$/m);
  });

  test("piped, the table is whole: no cell cut, however long", async () => {
    const out = await render(regions, "table", layoutOf({ env: {}, stdout: { isTTY: false } }));
    expect(out).toContain(regions[0]!.desc);
    expect(out).not.toContain("…");
  });

  test("the layout of a terminal: its columns, bold headers unless NO_COLOR", () => {
    expect(layoutOf({ env: {}, stdout: { isTTY: true, columns: 100 } })).toEqual({ color: true, width: 100 });
    expect(layoutOf({ env: { NO_COLOR: "1" }, stdout: { isTTY: true, columns: 100 } })).toEqual({
      color: false,
      width: 100,
    });
    expect(layoutOf({ env: {}, stdout: {} })).toEqual({ color: false, width: undefined });
  });
});

test("-o table with 300,000 rows prints them all (no call spreads the rows)", async () => {
  const rows = Array.from({ length: 300_000 }, (_, i) => ({ container_port: i, protocol: "http" }));
  for (const width of [undefined, 80]) {
    const out = await render(rows, "table", { color: false, width });
    expect(out.split("\n")).toHaveLength(300_002);
  }
});

test("--query takes JMESPath Community Edition, and the common backtick form of a string literal", async () => {
  const ports = [
    { container_port: 80, protocol: "http" },
    { container_port: 5432, protocol: "tcp" },
  ];
  expect(await query(ports, "[?protocol==`http`].container_port")).toEqual([80]);
  expect(await query(ports, '[?protocol==`"tcp"`].container_port')).toEqual([5432]);
  expect(await query(ports, "[?protocol=='tcp'] | length(@)")).toBe(1);
  expect(await query(ports, "[?container_port > `100`].protocol")).toEqual(["tcp"]);
  await expect(query(ports, "[?")).rejects.toThrow(/^--query "\[\?": /);
});
