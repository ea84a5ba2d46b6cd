// docs/errors.md's example of errors, retries, timeouts, cancellation and pages must compile and run as the page says:
// against the Prism mock, where each branch it shows is taken (the 404 through `Prefer: code=404`, "unreachable"
// through a port below 1024 that nothing listens on). A second run goes through a proxy in front of the mock that answers the first
// ports request with a proxy's 503, as a reverse proxy in front of a console may: the example's retry is seen, and its
// log line is caught by the example's own `logger`, not printed.
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { docSection, runExample, tempDir, tsBlocks, typeCheck, writeExample, type Printed } from "../helpers/readme.js";
import { startFaultServer, type FaultServer } from "../helpers/faults/server.js";
import { responseExample, successOf } from "../helpers/spec.js";

const blocks = tsBlocks(docSection("docs/errors.md", "reliability"));
const regions = (successOf("listTeamRegions").example as { regions: { region_name: string }[] }).regions;
const ports = successOf("listComponentPorts").example as unknown[];
const notFound = responseExample("getComponent", 404) as { code: number; msg_show: string };

/** What the example prints against the mock: every branch it shows, in the order of its calls. */
const expected = [
  ...regions.map(({ region_name }) => `region ${region_name}`),
  `200: ${ports.length} port(s)`,
  "cancelled",
  `404 (code ${notFound.code}): ${notFound.msg_show}`,
  "unreachable",
];

/** The example prints only through console.log: the failures it catches were thrown, not logged as well. */
function expectNothingElsePrinted(printed: Printed) {
  expect(printed.other).toEqual([]);
}

let tmp: ReturnType<typeof tempDir>;
let proxy: FaultServer;
let portsAsked = 0;

beforeAll(async () => {
  tmp = tempDir("docs-errors");
  const mock = inject("prismUrl");
  proxy = await startFaultServer(async ({ method, url, pathname, headers, body }) => {
    if (pathname.endsWith("/ports") && ++portsAsked === 1) {
      return {
        status: 503,
        body: "<html><body>503 Service Unavailable</body></html>",
        headers: { "content-type": "text/html" },
      };
    }
    const forwarded: Record<string, string> = {};
    for (const name of ["authorization", "prefer", "content-type"]) {
      if (typeof headers[name] === "string") forwarded[name] = headers[name];
    }
    const answer = await fetch(`${mock}${url}`, { method, headers: forwarded, body: body || undefined });
    return {
      status: answer.status,
      body: await answer.text(),
      headers: { "content-type": answer.headers.get("content-type") ?? "application/json" },
    };
  });
});

afterAll(async () => {
  tmp?.remove();
  await proxy?.close();
});

describe("docs/errors.md's example", () => {
  test("is one ts block that shows the error classes, retries, timeouts, cancellation and the iterator", () => {
    expect(blocks).toHaveLength(1);
    for (const name of [
      "iterateForTeam",
      "withResponse",
      "timeoutMs",
      "retries",
      "logger",
      "AbortController",
      `Prefer: "code=404"`,
      "RainbondApiError",
      "RainbondAbortError",
      "RainbondConnectionError",
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

  test("runs against the mock and takes every branch it shows", async () => {
    const file = writeExample(tmp.dir, "reliability-mock.ts", blocks[0] ?? "");
    const printed = await runExample(file, { RAINBOND_URL: inject("prismUrl"), RAINBOND_TOKEN: "readme-token" });
    expect(printed.log).toEqual(expected);
    expectNothingElsePrinted(printed);
  });

  test("retries a proxy's 503 and logs the retry through its logger", async () => {
    const file = writeExample(tmp.dir, "reliability-proxy.ts", blocks[0] ?? "");
    const printed = await runExample(file, { RAINBOND_URL: proxy.url, RAINBOND_TOKEN: "readme-token" });
    const retry = printed.log.findIndex((line) => line.startsWith("retrying: "));
    expect(printed.log[retry]).toMatch(
      /^retrying: \[rainbond\] ports\.list \(GET [^)]+\) failed with 503: 503 Service Unavailable; retry 1 of 3 in \d+ ms$/,
    );
    expect(printed.log.filter((_, i) => i !== retry)).toEqual(expected);
    expect(retry).toBe(expected.indexOf(`200: ${ports.length} port(s)`)); // just before the answer that followed it
    expectNothingElsePrinted(printed);
    expect(portsAsked).toBe(2);
    const asked = proxy.requests.filter((r) => r.pathname.endsWith("/ports"));
    expect(asked.every((r) => r.headers.authorization === "readme-token")).toBe(true);
  });
});
