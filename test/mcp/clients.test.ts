// The server with a client of the SDK's v2 line (@modelcontextprotocol/client), over stdio and Streamable HTTP; the
// other test files drive it with the 1.x line's Client (@modelcontextprotocol/sdk). Against the Prism mock.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { bin, buildBin, exampleArguments, overHttp, textOf, type HttpRunning } from "./helpers.js";

const env = { RAINBOND_TOKEN: "mock-token-1234" };
let http: HttpRunning;

beforeAll(async () => {
  buildBin();
  http = await overHttp(["--base-url", inject("prismUrl"), "--allow-write"], env);
});
afterAll(() => http?.stop());

/** A v2 client, connected over `transport`; it asks no person (it declares no elicitation). */
async function v2Client(transport: StdioClientTransport | StreamableHTTPClientTransport) {
  const client = new Client({ name: "rainbond-openapi-test-v2", version: "0" });
  await client.connect(transport);
  return client;
}

const stdio = () =>
  new StdioClientTransport({
    command: process.execPath,
    args: [bin, "--base-url", inject("prismUrl"), "--allow-write"],
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });

test.each([
  ["stdio", stdio],
  ["Streamable HTTP", () => new StreamableHTTPClientTransport(new URL(http.url))],
])(
  "a v2 client over %s lists the tools and calls them; a destructive one is not sent unconfirmed",
  async (_, transport) => {
    const client = await v2Client(transport());
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(17);
      const component = await client.callTool({ name: "getComponent", arguments: exampleArguments("getComponent") });
      expect(component.isError, textOf(component)).toBeFalsy();
      expect(component.structuredContent).toMatchObject({ service_id: expect.any(String) });
      const ports = await client.callTool({
        name: "listTeamRegions",
        arguments: { team_id: "q8k2mz5d", page_size: 5 },
      });
      expect(ports.isError, textOf(ports)).toBeFalsy();
      const removed = await client.callTool({
        name: "deleteComponentPort",
        arguments: exampleArguments("deleteComponentPort"),
      });
      expect(removed.isError).toBe(true);
      expect(textOf(removed)).toMatch(/nothing was sent.*--trust-agent/);
    } finally {
      await client.close();
    }
  },
);
