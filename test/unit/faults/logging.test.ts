// What the client logs around a failure: a retry is a warning (the default level), the error thrown to the caller is
// not logged as well (it is the caller's to show), and at info each attempt's outcome is, no answer included.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createRainbondClient,
  type ClientOptions,
  RainbondConnectionError,
  RainbondServerError,
  RainbondTimeoutError,
} from "../../../src/index.js";
import { TOKEN, component, expectNoSecrets, paths, rejection } from "./helpers.js";
import { answer, closedPort, recordingLogger, useFaultServer } from "../../helpers/faults/server.js";

const server = useFaultServer();
afterEach(() => {
  vi.restoreAllMocks();
});

const REGION = "r1";
const fast = { retryDelay: { baseMs: 1, maxMs: 1 } };

/** A client of a port nothing listens on, retrying once, with a recording logger. */
async function refusing(options: Partial<ClientOptions> = {}) {
  const log = recordingLogger();
  const baseUrl = `http://127.0.0.1:${await closedPort()}`;
  const client = createRainbondClient({ baseUrl, token: TOKEN, logger: log.logger, retries: 1, ...fast, ...options });
  return { client, log };
}

describe("logging of failures", () => {
  it("default level and logger (console): a refused connection is thrown, not printed", async () => {
    const printed = vi.fn();
    for (const level of ["error", "warn", "info", "debug", "log"] as const) {
      vi.spyOn(console, level).mockImplementation(printed);
    }
    const client = createRainbondClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      token: TOKEN,
      retries: 0,
    });
    const err = await rejection(client.regions.get(REGION));
    expect(err).toBeInstanceOf(RainbondConnectionError);
    expect((err as Error).message).toMatch(/fetch failed \(ECONNREFUSED\)$/);
    expect(printed).not.toHaveBeenCalled();
  });

  it("default level: each retry is a warning, the final error is thrown and not logged", async () => {
    const log = recordingLogger();
    const client = createRainbondClient({ baseUrl: server.url, token: TOKEN, logger: log.logger, ...fast });
    server.script("GET", paths.region(REGION), answer.json(503, { msg: "busy" }));
    const err = await rejection(client.regions.get(REGION));
    expect(err).toBeInstanceOf(RainbondServerError);
    expect(log.lines).toEqual([
      expect.stringMatching(
        /^warn \[rainbond\] regions\.get \(GET .*\) failed with 503: busy; retry 1 of 2 in \d+ ms$/,
      ),
      expect.stringMatching(
        /^warn \[rainbond\] regions\.get \(GET .*\) failed with 503: busy; retry 2 of 2 in \d+ ms$/,
      ),
    ]);
  });

  it("default level: a refused connection retried once logs that retry only", async () => {
    const { client, log } = await refusing();
    const err = await rejection(client.regions.get(REGION));
    expect(err).toBeInstanceOf(RainbondConnectionError);
    expect(log.lines).toEqual([
      expect.stringMatching(/^warn \[rainbond\] .*fetch failed \(ECONNREFUSED\); retry 1 of 1 in \d+ ms$/),
    ]);
  });

  it("default level: a POST's 5xx and a timeout (neither retried) log nothing", async () => {
    const log = recordingLogger();
    const client = createRainbondClient({ baseUrl: server.url, token: TOKEN, logger: log.logger });
    server.script("POST", paths.ports, answer.json(500, { msg: "boom" }));
    await expect(client.ports.add(component, { port: 8080, protocol: "http" })).rejects.toBeInstanceOf(
      RainbondServerError,
    );
    server.script("POST", paths.ports, answer.hang());
    await expect(
      client.ports.add(component, { port: 8080, protocol: "http" }, { timeoutMs: 100 }),
    ).rejects.toBeInstanceOf(RainbondTimeoutError);
    expect(log.lines).toEqual([]);
  });

  it("info: each attempt's outcome, a status or no answer and why; still no line for the error thrown", async () => {
    const { client, log } = await refusing({ logLevel: "info" });
    const err = await rejection(client.regions.get(REGION));
    const failed =
      /^info \[rainbond\] GET \/openapi\/v1\/regions\/r1 → failed in \d+ ms: fetch failed \(ECONNREFUSED\)$/;
    expect(log.lines).toEqual([
      expect.stringMatching(failed),
      expect.stringMatching(/^warn \[rainbond\] .*; retry 1 of 1 in \d+ ms$/),
      expect.stringMatching(failed),
    ]);
    expectNoSecrets(err, log.lines);
  });
});
