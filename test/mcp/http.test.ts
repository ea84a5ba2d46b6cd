// --http: Streamable HTTP at /mcp. On loopback a foreign Host is refused (DNS-rebinding protection); any other address
// needs RAINBOND_MCP_TOKEN, a bearer token every request must carry.
import { spawnSync } from "node:child_process";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { bin, exampleArguments, httpClient, overHttp, textOf, type HttpRunning } from "./helpers.js";

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
      expect((await client.listTools()).tools).toHaveLength(10);
      const result = await client.callTool({ name: "listComponentPorts", arguments: exampleArguments("getComponent") });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect((result.structuredContent as { items: unknown[] }).items.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  test("refuses a foreign Host with 403, and GET with 405 (the server is stateless)", async () => {
    const port = new URL(server.url).port;
    expect((await post(server.url, { host: "evil.example:80" })).status).toBe(403);
    expect((await post(server.url, { host: `localhost:${port}` })).status).toBe(200);
    const get = await fetch(server.url, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
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
    const bearer = "mcp-bearer-8d1e";
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
      expect((await client.listTools()).tools).toHaveLength(10);
      await client.close();
      expect(server.stderr()).not.toContain(bearer);
    } finally {
      await server.stop();
    }
  });
});

describe("before reading a body", () => {
  const bearer = "mcp-bearer-5c2a";
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
