// `npm run verify` against hostile consoles on loopback: one that redirects every request to another origin (which must
// receive nothing: no request, no token), one whose answer never ends (read up to the cap, the cut a finding), one that
// echoes the token in its status line (the preflight's one line masks it), and a component with 100,000 ports in use.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readSpec } from "../../../scripts/lib/spec.ts";
import { main } from "../../../scripts/verify/main.ts";
import { unused } from "../../../scripts/verify/plan.ts";
import { render } from "../../../scripts/verify/report.ts";
import { verify } from "../../../scripts/verify/run.ts";
import { MAX_ANSWER_BYTES, startValidator, validatorSpec, type Validator } from "../../../scripts/verify/validator.ts";
import { answer, startFaultServer, type FaultServer } from "../../helpers/faults/server.js";
import { root } from "../../helpers/readme.js";
import { TOKEN, ids } from "../../helpers/console/stand-in.js";

let validator: Validator;
let elsewhere: FaultServer;
beforeAll(async () => {
  [validator, elsewhere] = await Promise.all([
    startValidator(validatorSpec(readSpec(root))),
    // another origin that would answer like a console, ids included, were it ever asked
    startFaultServer(() => ({ body: [{ team_name: "stolen", service_id: "stolen", tenant_id: "stolen" }] })),
  ]);
});
afterAll(() => Promise.all([validator?.stop(), elsewhere?.close()]));

/** A console on loopback that answers every request with `reply(path)`, the status line's reason phrase included. */
async function hostileConsole(reply: (path: string) => [number, string, Record<string, string>, string?]) {
  const server: Server = createServer((req, res) => {
    req.resume();
    const [status, reason, headers, body = ""] = reply(req.url ?? "/");
    res.writeHead(status, reason, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()) };
}

/** main() in this process through the shared validator: exit code and output. */
async function runMain(args: string[], token = TOKEN) {
  const out = { code: 0, stdout: "", stderr: "" };
  const write = (stream: "stdout" | "stderr") => ({ write: (text: string) => (out[stream] += text) });
  const io = { stdout: write("stdout"), stderr: write("stderr") };
  out.code = await main(args, { RAINBOND_TOKEN: token }, io, root, validator);
  return out;
}

describe("a console that redirects to another origin", () => {
  test("302 to another port on every request: that port receives nothing, and each redirect is a finding", async () => {
    const hostile = await hostileConsole((path) => [302, "Found", { location: `${elsewhere.url}${path}` }]);
    try {
      const args = ["--base-url", hostile.url, "--team", ids.team, "--region", ids.region, "--app", String(ids.app)];
      const { code, stdout, stderr } = await runMain([...args, "--component", ids.component, "--json"]);
      expect(elsewhere.requests).toEqual([]);
      expect(code).toBe(1);
      const report = JSON.parse(stdout);
      const redirects = report.deviations.find((d: { title: string }) => d.title === "redirect");
      expect(redirects.expected).toMatch(/^an answer from the console's origin/);
      expect(redirects.occurrences[0].came).toBe(`302 to ${elsewhere.url}`);
      // nothing learned from the other origin: every operation was sent with the ids given, none with "stolen"
      expect(stdout).not.toContain("stolen");
      expect(report.operations.filter((o: { outcome: string }) => o.outcome === "deviates").length).toBeGreaterThan(5);
      expect(stdout + stderr).not.toContain(TOKEN);
    } finally {
      await hostile.close();
    }
  });

  test("a redirect within the console's origin is followed, as the client follows it", async () => {
    const hostile = await hostileConsole((path) =>
      path.startsWith("/moved")
        ? [200, "OK", { "content-type": "application/json" }, JSON.stringify({ total: 0, regions: [] })]
        : [307, "Temporary Redirect", { location: `/moved${path}` }],
    );
    try {
      const report = await verify(
        { baseUrl: hostile.url, token: TOKEN, write: false, json: false, team: ids.team },
        root,
        validator,
      );
      const line = report.operations.find((o) => o.operationId === "listTeamRegions")!;
      expect(line).toMatchObject({ status: 200 });
      expect(report.deviations.map((d) => d.title)).not.toContain("redirect");
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await hostile.close();
    }
  });
});

describe("a console under a path prefix", () => {
  test("its answers are checked against the spec's paths, the prefix left out", async () => {
    const hostile = await hostileConsole((path) =>
      path === `/console/openapi/v1/teams/${ids.team}/regions`
        ? [200, "OK", { "content-type": "application/json" }, JSON.stringify({ total: 0, regions: [] })]
        : [404, "Not Found", {}],
    );
    try {
      const baseUrl = `${hostile.url}/console`;
      const report = await verify(
        { baseUrl, token: TOKEN, write: false, json: false, team: ids.team },
        root,
        validator,
      );
      const line = report.operations.find((o) => o.operationId === "listTeamRegions")!;
      expect(line).toMatchObject({ status: 200, outcome: "conforms" });
    } finally {
      await hostile.close();
    }
  });
});

describe("answers without end", () => {
  test(`an answer of 64 MiB: read up to ${MAX_ANSWER_BYTES} bytes, the cut said as a finding`, async () => {
    const server = await startFaultServer();
    const path = `/openapi/v1/teams/${ids.team}/regions`;
    server.script("GET", path, answer.stream(200, " ", 64 * 2 ** 20));
    try {
      const report = await verify(
        { baseUrl: server.url, token: TOKEN, write: false, json: false, team: ids.team },
        root,
        validator,
      );
      const line = report.operations.find((o) => o.operationId === "listTeamRegions")!;
      expect(line).toMatchObject({ outcome: "deviates", deviations: ["body size"] });
      expect(render(report)).toMatch(/body size: the spec says at most 10485760 bytes \(the verify reads no more\)/);
      // the preflight and the run each stopped reading near the cap (socket buffers aside), not at 64 MiB
      for (const bytes of server.streamedBytes) expect(bytes).toBeLessThan(MAX_ANSWER_BYTES + 8 * 2 ** 20);
    } finally {
      await server.close();
    }
  });
});

describe("a console whose answers name fields past Latin-1 (issue 35 §5)", () => {
  test("名称 and \\u202eevil: Prism cannot send such a name in its header, yet the report comes out naming them", async () => {
    const body = JSON.stringify({ total: 0, regions: [], 名称: "x", "\u202eevil": 1 });
    const hostile = await hostileConsole(() => [200, "OK", { "content-type": "application/json" }, body]);
    try {
      const { code, stdout, stderr } = await runMain(["--base-url", hostile.url, "--team", ids.team, "--json"]);
      expect([code, stderr]).toEqual([1, ""]);
      const report = JSON.parse(stdout);
      const titles = report.deviations.map((d: { title: string }) => d.title);
      expect(titles).toEqual(expect.arrayContaining(["ListTeamRegionsResp.名称", "ListTeamRegionsResp.\u202eevil"]));
      // escaped wherever it is shown: the JSON on stdout, the text and Markdown reports
      for (const output of [stdout, render(report), render(report, true)]) expect(output).not.toContain("\u202e");
      expect(render(report)).toContain("ListTeamRegionsResp.\\u202eevil: the spec says no such field");
    } finally {
      await hostile.close();
    }
  });
});

describe("the preflight's one line", () => {
  test("a 401 whose reason phrase echoes the token: the line says 401, not the token", async () => {
    const hostile = await hostileConsole(() => [401, `Unauthorized ${TOKEN}`, {}]);
    try {
      const { code, stdout, stderr } = await runMain(["--base-url", hostile.url]);
      expect(code).toBe(2);
      expect(stderr).toMatch(
        /^verify: the console at .* refused the token: .*failed with 401 Unauthorized \[redacted\]\n$/,
      );
      expect(stdout + stderr).not.toContain(TOKEN);
    } finally {
      await hostile.close();
    }
  });
});

describe("--write's new id", () => {
  test("100,000 ports in use: the next free one, found in a loop", () => {
    const ports = Array.from({ length: 100_000 }, (_, i) => 20_000 + i);
    expect(unused(ports)).toBe(120_000);
    expect(unused([20_001, "20002"])).toBe(20_000);
    expect(unused([20_000, "20001"])).toBe(20_002); // a port listed as a string is in use too
  });
});
