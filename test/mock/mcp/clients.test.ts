// The server with a client of the SDK's v2 line (@modelcontextprotocol/client), over stdio and Streamable HTTP; the
// other test files drive it with the 1.x line's Client (@modelcontextprotocol/sdk). Against the Prism mock.
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { toolList } from "../../../mcp/src/discovery.ts";
import { MCP_BEARER, exampleArguments, overHttp, textOf, type HttpRunning } from "../../helpers/mcp/helpers.js";
import { v2Client, v2Http, v2Stdio } from "../../helpers/mcp/v2.js";

const env = { RAINBOND_TOKEN: "mock-token-1234" };
let http: HttpRunning;

beforeAll(async () => {
  http = await overHttp(["--base-url", inject("prismUrl"), "--allow-write"], {
    ...env,
    RAINBOND_MCP_TOKEN: MCP_BEARER,
  });
});
afterAll(() => http?.stop());

const stdio = () => v2Stdio(["--base-url", inject("prismUrl"), "--allow-write"], env);

test.each([
  ["stdio", "the 2025 revisions", stdio, undefined],
  ["stdio", "2026-07-28", stdio, "2026-07-28"],
  ["Streamable HTTP", "the 2025 revisions", () => v2Http(http.url, MCP_BEARER), undefined],
  ["Streamable HTTP", "2026-07-28", () => v2Http(http.url, MCP_BEARER), "2026-07-28"],
] as const)(
  "a v2 client over %s on %s lists the tools and calls them; a destructive one is not sent unconfirmed",
  async (_, __, transport, pin) => {
    const client = await v2Client(transport(), { pin }); // it asks no person (it declares no elicitation)
    expect(client.getNegotiatedProtocolVersion()! >= "2026-07-28").toBe(pin !== undefined);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(toolList({ allowWrite: true }).map((tool) => tool.name));
      expect(client.getInstructions()).toMatch(/^This server operates one Rainbond console.*\n\nIt lists tools for /);
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
      // an operation without a tool in the list: found, then called by name, with the same confirmation
      const found = await client.callTool({ name: "findOperations", arguments: { words: "team certificates" } });
      expect(textOf(found)).toMatch(/^listTeamCertificates \[certificates, read\]: /m);
      const certificates = await client.callTool({
        name: "callOperation",
        arguments: { operation: "listTeamCertificates", arguments: exampleArguments("listTeamCertificates") },
      });
      expect(certificates.isError, textOf(certificates)).toBeFalsy();
      expect(certificates.structuredContent).toMatchObject({ list: expect.any(Array) });
      const deleted = await client.callTool({
        name: "callOperation",
        arguments: { operation: "deleteTeamCertificate", arguments: exampleArguments("deleteTeamCertificate") },
      });
      expect([deleted.isError, textOf(deleted)]).toEqual([
        true,
        expect.stringMatching(/^deleteTeamCertificate: .*nothing was sent/),
      ]);
    } finally {
      await client.close();
    }
  },
);
