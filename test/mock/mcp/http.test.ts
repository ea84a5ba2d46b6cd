// --http: Streamable HTTP at /mcp. On loopback a foreign Host is refused (DNS-rebinding protection); any other address
// needs RAINBOND_MCP_TOKEN, a bearer token every request must carry.
import { spawnSync } from "node:child_process";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { toolList } from "../../../mcp/src/discovery.ts";
import { bin, exampleArguments, httpClient, overHttp, textOf, type HttpRunning } from "../../helpers/mcp/helpers.js";

const env = { RAINBOND_TOKEN: "mock-token-1234" };
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});

/** A raw POST to `url` with these headers (node:http, so that Host can be anything): its status and body. */
function post(url: string, headers: Record<string, string>, body = initialize) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.once("error", reject);
    req.end(body);
  });
}

/** The names a server started with --allow-write or not lists by default. */
const listed = (allowWrite: boolean) => toolList({ allowWrite }).map((tool) => tool.name);

describe("on 127.0.0.1 (the default)", () => {
  let server: HttpRunning;
  beforeAll(async () => {
    server = await overHttp(["--base-url", inject("prismUrl")], env);
  });
  afterAll(() => server?.stop());

  test("serves the read-only tools to the SDK's Client, and they answer", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await httpClient(server.url);
    try {
      await client.ping();
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(listed(false));
      const result = await client.callTool({ name: "listComponentPorts", arguments: exampleArguments("getComponent") });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect((result.structuredContent as { items: unknown[] }).items.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  test("without RAINBOND_MCP_TOKEN its startup line says that any process of this machine can call the tools", () => {
    expect(server.stderr()).toMatch(
      /8 operations as tools, 35 more through the discovery tools \(read-only.*listening on http:\/\/127\.0\.0\.1:\d+\/mcp; Host checked; no RAINBOND_MCP_TOKEN: any process of this machine can call these tools\n/,
    );
  });

  test("refuses a foreign Host with 403, GET with 405 (the server is stateless), and browser-style requests", async () => {
    const port = new URL(server.url).port;
    expect((await post(server.url, { host: "evil.example:80" })).status).toBe(403);
    expect((await post(server.url, { host: `localhost:${port}` })).status).toBe(200);
    const get = await fetch(server.url, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    // what a page can send without a CORS preflight (text/plain), and the preflight itself
    expect((await post(server.url, { "content-type": "text/plain" })).status).toBe(415);
    const preflight = await fetch(server.url, { method: "OPTIONS", headers: { origin: "http://evil.example" } });
    expect(preflight.status).toBe(405);
  });
});

/** Runs the bin with `args` and `more` in its environment, its standard input closed: its exit status and stderr. */
function run(args: string[], more: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env, ...more },
    encoding: "utf8",
    input: "",
    timeout: 15_000,
  });
  return { status: result.status, stderr: result.stderr };
}

describe("writing over HTTP", () => {
  const bearer = "mcp-bearer-write-6f0e2d9c8b7a1e3d5c4b";

  test("--allow-write needs RAINBOND_MCP_TOKEN even on loopback, where any local process could call and confirm", () => {
    for (const allow of [["--allow-write"], []]) {
      const more: Record<string, string> = allow.length ? {} : { RAINBOND_MCP_ALLOW_WRITE: "true" };
      const { status, stderr } = run(["--base-url", "http://127.0.0.1:9", "--http", "0", ...allow], more);
      expect(status).toBe(2);
      expect(stderr).toMatch(
        /^rainbond-openapi-mcp: --allow-write over --http needs RAINBOND_MCP_TOKEN \(at least 32 characters\).*any process of this machine could call the tools that change the console and, on 2026-07-28, answer its own confirmations\n$/,
      );
    }
  });

  test("a RAINBOND_MCP_TOKEN shorter than 32 characters is refused", () => {
    const { status, stderr } = run(["--base-url", "http://127.0.0.1:9", "--http", "0"], {
      RAINBOND_MCP_TOKEN: "short-but-not-empty-31-chars-xx",
    });
    expect([status, stderr]).toEqual([
      2,
      "rainbond-openapi-mcp: RAINBOND_MCP_TOKEN must be at least 32 characters (it has 31): a short one can be " +
        "guessed. Make one with `openssl rand -hex 32`\n",
    ]);
  });

  test("with the token, every request on loopback must carry it: tools that write are served only to those", async () => {
    const server = await overHttp(["--base-url", inject("prismUrl"), "--allow-write"], {
      ...env,
      RAINBOND_MCP_TOKEN: bearer,
    });
    try {
      expect(server.stderr()).toMatch(/93 more through the discovery tools \(reading and writing\).*; bearer token/);
      expect((await post(server.url, {})).status).toBe(401);
      const client = await httpClient(server.url, { authorization: `Bearer ${bearer}` });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(listed(true));
      expect(tools.find((t) => t.name === "callOperation")?.annotations?.readOnlyHint).toBe(false); // it writes too
      await client.close();
    } finally {
      await server.stop();
    }
  });
});

describe("a console on plain http", () => {
  test("away from this machine: one warning at startup, the client's, that the token crosses the network readable", () => {
    const away = run(["--base-url", "http://console.example.org:7070"]);
    const warning =
      "[rainbond] plain http to http://console.example.org:7070: anyone on the network path can read the token; " +
      "use https\n";
    expect(away.stderr.startsWith(warning)).toBe(true); // at startup, before the server's own line
    expect(away.stderr.match(/plain http/g)).toHaveLength(1); // once: the server does not warn as well
    expect(run(["--base-url", "http://console.example.org:7070", "--log-level", "off"]).stderr).not.toMatch(/plain/);
    for (const origin of ["https://console.example.org:7070", "http://127.0.0.1:7070", "http://localhost:7070"])
      expect(run(["--base-url", origin]).stderr).not.toMatch(/plain http/);
  });
});

describe("on another address", () => {
  test("refuses to start without RAINBOND_MCP_TOKEN", () => {
    const run = spawnSync(
      process.execPath,
      [bin, "--base-url", "http://127.0.0.1:9", "--http", "0", "--host", "0.0.0.0"],
      {
        env: { PATH: process.env.PATH ?? "", ...env },
        encoding: "utf8",
        timeout: 15_000,
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--host 0\.0\.0\.0 is not a loopback address: set RAINBOND_MCP_TOKEN/);
  });

  test("a port out of range is one line and exit 2", () => {
    const run = spawnSync(process.execPath, [bin, "--base-url", "http://127.0.0.1:9", "--http", "99999"], {
      env: { PATH: process.env.PATH ?? "", ...env },
      encoding: "utf8",
      timeout: 15_000,
    });
    expect([run.status, run.stderr]).toEqual([
      2,
      'rainbond-openapi-mcp: --http must be an integer from 0 to 65535 (got "99999")\n',
    ]);
  });

  test("asks every request for the bearer token", async () => {
    const bearer = "mcp-bearer-8d1e0c7b9a2f4e6d1c3b5a79";
    const server = await overHttp(["--base-url", inject("prismUrl"), "--host", "0.0.0.0"], {
      ...env,
      RAINBOND_MCP_TOKEN: bearer,
    });
    const url = server.url.replace("0.0.0.0", "127.0.0.1");
    try {
      expect((await post(url, {})).status).toBe(401);
      expect((await post(url, { authorization: "Bearer wrong" })).status).toBe(401);
      expect((await post(url, { authorization: `Bearer ${bearer}` })).status).toBe(200);
      const client = await httpClient(url, { authorization: `Bearer ${bearer}` });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(listed(false));
      await client.close();
      expect(server.stderr()).not.toContain(bearer);
    } finally {
      await server.stop();
    }
  });
});

describe("before reading a body", () => {
  const bearer = "mcp-bearer-5c2a9e1d7f3b6c0a4e8d2b61";
  let server: HttpRunning;
  let url: string;
  beforeAll(async () => {
    server = await overHttp(["--base-url", inject("prismUrl"), "--host", "0.0.0.0"], {
      ...env,
      RAINBOND_MCP_TOKEN: bearer,
    });
    url = server.url.replace("0.0.0.0", "127.0.0.1");
  });
  afterAll(() => server?.stop());

  /** A JSON-RPC error answer with no internals: no HTML, no stack trace, no path of the machine. */
  const jsonRpcError = (answer: { body: string }, code: number) => {
    expect(answer.body).not.toMatch(/<html|<pre|\bat \w|\/node_modules\/|\/mcp\/dist\//i);
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: "2.0", error: { code }, id: null });
  };

  test("authenticates first: malformed JSON or a body over 100 KB without the bearer token is 401", async () => {
    for (const body of ["{not json", JSON.stringify({ pad: "z".repeat(200_000) })]) {
      const answer = await post(url, {}, body);
      expect(answer.status).toBe(401);
      jsonRpcError(answer, -32000);
    }
  });

  test("with the bearer token, malformed JSON is a JSON-RPC parse error and a body over 100 KB is 413", async () => {
    const authorization = `Bearer ${bearer}`;
    const malformed = await post(url, { authorization }, "{not json");
    expect(malformed.status).toBe(400);
    jsonRpcError(malformed, -32700);
    const large = await post(url, { authorization }, JSON.stringify({ pad: "z".repeat(200_000) }));
    expect(large.status).toBe(413);
    jsonRpcError(large, -32000);
  });
});
