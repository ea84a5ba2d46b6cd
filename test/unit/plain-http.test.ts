// A token sent over plain http to another machine crosses the network in clear: the client warns once per origin in a
// process, at `warn`, through its logger; the command line shows that warning on stderr (the MCP server's stderr:
// test/mock/mcp/http.test.ts). Each test uses origins of its own: the once is the process's, whatever the client.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runMethod } from "../../cli/src/run.js";
import { commandsByGroup } from "../../cli/src/table.js";
import { createRainbondCore, createRainbondClient, type LogLevel } from "../../src/index.js";
import { TOKEN } from "./faults/helpers.js";
import { recordingLogger } from "../helpers/faults/server.js";

const warning = (origin: string) =>
  `warn [rainbond] plain http to ${origin}: anyone on the network path can read the token; use https`;

/** The lines a client of `baseUrl` logs as it is made, at `logLevel`. */
function linesOfClient(baseUrl: string, logLevel: LogLevel = "warn"): string[] {
  const log = recordingLogger();
  createRainbondClient({ baseUrl, token: TOKEN, logger: log.logger, logLevel });
  return log.lines;
}

describe("the client", () => {
  it("warns at `warn` when the token would go over plain http to another host, once per origin", () => {
    expect(linesOfClient("http://console-a.plain-http.test:7070/")).toEqual([
      warning("http://console-a.plain-http.test:7070"),
    ]);
    expect(linesOfClient("http://console-a.plain-http.test:7070")).toEqual([]); // once per origin in a process
    const log = recordingLogger();
    createRainbondCore({ baseUrl: "http://console-a.plain-http.test:8080", token: TOKEN, logger: log.logger });
    expect(log.lines).toEqual([warning("http://console-a.plain-http.test:8080")]); // another port, another origin
    expect(linesOfClient("http://10.0.0.7:7070", "debug")).toEqual([warning("http://10.0.0.7:7070")]);
  });

  it("does not warn for https, nor for this machine's loopback addresses", () => {
    for (const origin of [
      "https://console-b.plain-http.test:7070",
      "http://127.0.0.1:7070",
      "http://127.8.9.10:7070",
      "http://localhost:7070",
      "http://[::1]:7070",
    ]) {
      expect(linesOfClient(origin), origin).toEqual([]);
    }
  });

  it("a client that logs nothing at `warn` does not use up the warning: the next one that does warns", () => {
    expect(linesOfClient("http://console-c.plain-http.test", "error")).toEqual([]);
    expect(linesOfClient("http://console-c.plain-http.test", "off")).toEqual([]);
    expect(linesOfClient("http://console-c.plain-http.test")).toEqual([warning("http://console-c.plain-http.test")]);
  });
});

describe("the command line", () => {
  it("shows the client's warning on stderr, once, escaped as every log line is", async () => {
    let stderr = "";
    const sink = (write: (text: string) => void) =>
      new Writable({ write: (c, _e, done) => (write(String(c)), done()) });
    const command = commandsByGroup()
      .get("regions")!
      .find((c) => c.name === "list-for-team")!;
    const io = {
      env: { RAINBOND_TOKEN: TOKEN, RAINBOND_CONFIG_DIR: mkdtempSync(join(tmpdir(), "rainbond-plain-http-")) },
      stdout: sink(() => {}),
      stderr: sink((text) => (stderr += text)),
      stdinText: () => "",
      stdinIsTTY: false,
    };
    // a team id the client refuses after the client is made: nothing is sent, nothing needs to listen
    const flags = { team: "no/such team", baseUrl: "http://console-d.plain-http.test:7070" };
    await expect(runMethod(command, flags, [], io)).rejects.toThrow(/--team must be/);
    expect(stderr).toBe(
      `[rainbond] plain http to http://console-d.plain-http.test:7070: anyone on the network path can read the token; use https\n`,
    );
  });
});
