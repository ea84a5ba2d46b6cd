// The runtime matrix's smoke suite (scripts/runtimes/smoke.ts), run here in this Node against the client's source:
// every check passes on the real package, and a package with a fault the matrix exists to catch fails the check that
// names it (the other checks still pass, so the report says which).
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import * as lib from "../../../src/index.js";
import { startHangingServer } from "../../../scripts/runtimes/entries.ts";
import { smoke, type SmokeReport } from "../../../scripts/runtimes/smoke.ts";

const baseUrl = inject("prismUrl");
const token = "smoke-test-token-9c1d";
let hang: Awaited<ReturnType<typeof startHangingServer>>;

beforeAll(async () => {
  hang = await startHangingServer();
});
afterAll(() => hang?.close());

const run = (pkg: Record<string, unknown>) =>
  smoke(pkg as typeof lib, { baseUrl, hangUrl: hang.url, token, timeoutMs: 200 });
const failed = (report: SmokeReport) => report.checks.filter((c) => !c.ok);

test("every check passes on the client, in this Node", async () => {
  const report = await run(lib);
  expect(failed(report)).toEqual([]);
  expect(report).toMatchObject({ ok: true, runtime: `node ${process.versions.node}`, inspect: true });
  expect(report.checks.map((c) => c.name)).toEqual([
    "a scoped GET returns the component",
    "a POST returns the added port",
    "a 404 is a RainbondNotFoundError with its status",
    "bad input is refused before any request",
    "a timeout ends the call with a RainbondTimeoutError",
    "an abort ends the call with a RainbondAbortError",
    "the client and its errors show no token",
  ]);
});

describe("a package with a fault fails the check that names it", () => {
  test("errors that are not instanceof the exported classes (two copies of the package)", async () => {
    class RainbondNotFoundError extends Error {}
    const report = await run({ ...lib, RainbondNotFoundError });
    expect(report.ok).toBe(false);
    expect(failed(report)).toEqual([
      {
        name: "a 404 is a RainbondNotFoundError with its status",
        ok: false,
        detail: expect.stringMatching(/^the 404: RainbondNotFoundError: .* is not instanceof RainbondNotFoundError$/),
      },
    ]);
  });

  test("a client that shows its token", async () => {
    const createRainbondClient = (options: lib.ClientOptions) => ({
      ...lib.createRainbondClient(options),
      toString: () => `RainbondClient(${options.token})`,
    });
    const report = await run({ ...lib, createRainbondClient });
    expect(failed(report)).toEqual([
      { name: "the client and its errors show no token", ok: false, detail: "String(client) shows the token" },
    ]);
    expect(JSON.stringify(report)).not.toContain(token);
  });

  test("a client that sends a request before it checks the input", async () => {
    const createRainbondClient = (options: lib.ClientOptions) => {
      const client = lib.createRainbondClient(options);
      const add: typeof client.ports.add = (scope, body, call) =>
        Object.assign(
          options.fetch!(`${options.baseUrl}/openapi/v1/httpdomains`).then(() => client.ports.add(scope, body, call)),
          { withResponse: () => client.ports.add(scope, body, call).withResponse() },
        );
      return { ...client, ports: { ...client.ports, add } };
    };
    const report = await run({ ...lib, createRainbondClient });
    expect(failed(report)).toEqual([
      { name: "bad input is refused before any request", ok: false, detail: "requests sent: expected 0, got 1" },
    ]);
  });

  test("a timeout that surfaces as something else", async () => {
    const report = await run({ ...lib, RainbondTimeoutError: class RainbondTimeoutError extends Error {} });
    expect(failed(report).map((c) => c.name)).toEqual(["a timeout ends the call with a RainbondTimeoutError"]);
  });
});
