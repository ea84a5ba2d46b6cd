// The README's example of errors, retries, timeouts, cancellation and pages must compile and run. It runs against a
// local server that answers like the live console: regions over two pages, a proxy's 503 before the ports, a 404.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readmeSection, runExample, tempDir, tsBlocks, typeCheck, writeExample } from "./helpers/readme.js";
import { startRecordingServer, type RecordingServer } from "./helpers/recording-server.js";
import { successOf } from "./helpers/spec.js";

const blocks = tsBlocks(readmeSection("reliability"));
const regionExample = (successOf("listTeamRegions").example as { regions: Record<string, unknown>[] }).regions[0]!;
const ports = successOf("listComponentPorts").example as unknown[];
const regionNames = ["hangzhou", "shanghai", "beijing"];
const notFound = { code: 4000, msg: "service not found", msg_show: "组件不存在" };

let tmp: ReturnType<typeof tempDir>;
let server: RecordingServer;
let portsAsked = 0;

beforeAll(async () => {
  tmp = tempDir("readme-reliability");
  server = await startRecordingServer(({ pathname, query }) => {
    if (pathname.endsWith("/regions")) {
      const page = Number(query.get("page"));
      const size = Number(query.get("page_size"));
      const names = regionNames.slice((page - 1) * size, page * size);
      return {
        body: {
          total: regionNames.length,
          regions: names.map((region_name) => ({ ...regionExample, region_id: `id-${region_name}`, region_name })),
        },
      };
    }
    if (pathname.endsWith("/ports")) {
      portsAsked += 1;
      if (portsAsked === 1)
        return {
          status: 503,
          body: "<html><body>503 Service Unavailable</body></html>",
          headers: { "content-type": "text/html" },
        };
      return { body: ports };
    }
    if (pathname.endsWith("/services/gone")) return { status: 404, body: notFound };
    return { body: successOf("getComponent").example };
  });
});

afterAll(async () => {
  tmp?.remove();
  await server?.close();
});

describe("the README's reliability example", () => {
  test("is one ts block that shows the error classes, retries, timeouts, cancellation and the iterator", () => {
    expect(blocks).toHaveLength(1);
    for (const name of [
      "iterateForTeam",
      "withResponse",
      "timeoutMs",
      "retries",
      "AbortController",
      "RainbondTimeoutError",
      "RainbondNotFoundError",
    ]) {
      expect(blocks[0]).toContain(name);
    }
  });

  test("type-checks under strict", () => {
    const file = writeExample(tmp.dir, "reliability.ts", blocks[0] ?? "");
    expect([...typeCheck([file]).values()].flat()).toEqual([]);
  }, 120_000);

  test("runs: pages until total, retries the 503, cancels, and reports the 404 with the console's fields", async () => {
    const file = writeExample(tmp.dir, "reliability-run.ts", blocks[0] ?? "");
    const lines = await runExample(file, { RAINBOND_URL: server.url, RAINBOND_TOKEN: "readme-token" });
    expect(lines).toEqual([
      ...regionNames.map((name) => `region ${name}`),
      `200: ${ports.length} port(s)`,
      "cancelled",
      `404 (code ${notFound.code}): ${notFound.msg_show}`,
    ]);
    const pages = server.requests
      .filter((r) => r.pathname === "/openapi/v1/teams/q8k2mz5d/regions")
      .map((r) => Object.fromEntries(r.query));
    expect(pages).toEqual([
      { page: "1", page_size: "2" },
      { page: "2", page_size: "2" },
    ]);
    expect(portsAsked).toBe(2);
    expect(server.requests.every((r) => r.headers.authorization === "readme-token")).toBe(true);
  }, 60_000);
});
