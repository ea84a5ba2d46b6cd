// On protocol revision 2026-07-28 (no requests from server to client), a destructive tool's first answer is the
// question for a person, as an `input_required` result with a signed state; the client asks its person and calls
// again with the answer. Driven by the SDK's v2 client pinned to that revision, over stdio and over stateless
// Streamable HTTP, against a recording server of our own that counts the console's requests.
import { ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { startFaultServer, type FaultServer } from "../../helpers/faults/server.js";
import {
  MCP_BEARER,
  NOT_CONFIRMED,
  exampleAnswer,
  exampleArguments,
  overHttp,
  textOf,
  type HttpRunning,
} from "../../helpers/mcp/helpers.js";
import { v2Client, v2Http, v2Stdio, type V2Confirm, type V2Options } from "../../helpers/mcp/v2.js";

const env = { RAINBOND_TOKEN: "tok-in-band-5d1e9a3c" };
const args = { ...exampleArguments("deleteComponentPort"), port: "8080" };
const DELETE = "DELETE /openapi/v1/teams/q8k2mz5d/regions/rainbond/apps/12/services/gr3f9c2a/ports/8080";
const yes = { confirm: { action: "accept", content: { confirm: true } } };
let console_: FaultServer;
let http: HttpRunning;
const clients: { close: () => Promise<void> }[] = [];

beforeAll(async () => {
  console_ = await startFaultServer(() => ({ body: exampleAnswer("deleteComponentPort") }));
  http = await overHttp(["--base-url", console_.url, "--allow-write", "--retries", "0"], {
    ...env,
    RAINBOND_MCP_TOKEN: MCP_BEARER,
  });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await http?.stop();
  await console_?.close();
});

/** A v2 client on 2026-07-28, over stdio to a server with --allow-write, or over `http`'s. */
async function connect(options: Omit<V2Options, "pin">, over: "stdio" | "http" = "stdio") {
  const flags = ["--base-url", console_.url, "--allow-write", "--retries", "0"];
  const client = await v2Client(over === "stdio" ? v2Stdio(flags, env) : v2Http(http.url, MCP_BEARER), {
    ...options,
    pin: "2026-07-28",
  });
  clients.push(client);
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  return client;
}

/** What the console received while `call` ran. */
async function sentDuring<T>(call: () => Promise<T>) {
  const before = console_.requests.length;
  const result = await call();
  return { result, sent: console_.requests.slice(before).map((r) => `${r.method} ${r.pathname}`) };
}

test.each(["stdio", "http"] as const)(
  "over %s, a person who confirms sees exactly what changes, and that call is sent once",
  async (over) => {
    const asked: string[] = [];
    const confirm: V2Confirm = (request) => {
      asked.push(request.message);
      return { action: "accept", content: { confirm: true } };
    };
    const client = await connect({ confirm }, over);
    const call = () => client.callTool({ name: "deleteComponentPort", arguments: args });
    const { result, sent } = await sentDuring(call);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(sent).toEqual([DELETE]);
    expect(asked).toEqual([expect.stringMatching(/^deleteComponentPort: Delete a port of a component\.\n/)]);
    expect(asked[0]).toContain(`\n${DELETE.replace(" ", ` ${console_.url}`)}\n`);
    await call(); // a confirmation is for one call: the next one asks again
    expect(asked).toHaveLength(2);
  },
);

test.each(NOT_CONFIRMED)("a person who %s: nothing is sent", async (_, answer, said) => {
  const client = await connect({ confirm: () => answer });
  const { result, sent } = await sentDuring(() => client.callTool({ name: "deleteComponentPort", arguments: args }));
  expect([result.isError, sent]).toEqual([true, []]);
  expect(textOf(result)).toMatch(new RegExp(`^deleteComponentPort: .*${said.source}`));
});

test("a client that cannot ask: nothing is sent, and the result says how to proceed", async () => {
  const client = await connect({});
  const { result, sent } = await sentDuring(() => client.callTool({ name: "deleteComponentPort", arguments: args }));
  expect([result.isError, sent]).toEqual([true, []]);
  expect(textOf(result)).toMatch(/cannot ask a person to confirm .*nothing was sent.*--trust-agent/);
});

test("the confirmation is bound to the call: other arguments, a forged state or a second use send nothing", async () => {
  const client = await connect({ autoFulfill: false }); // the test plays the client: it sees each round
  const retry = (state: string, arguments_ = args) =>
    client.callTool({
      name: "deleteComponentPort",
      arguments: arguments_,
      inputResponses: yes,
      requestState: state,
    } as Parameters<typeof client.callTool>[0]);

  const { result: question, sent: asking } = await sentDuring(() =>
    client.callTool({ name: "deleteComponentPort", arguments: args }, { allowInputRequired: true }),
  );
  expect(asking).toEqual([]);
  const { inputRequests, requestState } = question as unknown as {
    inputRequests: Record<string, { method: string; params: { message: string } }>;
    requestState: string;
  };
  expect(inputRequests.confirm).toMatchObject({ method: "elicitation/create", params: { mode: "form" } });
  expect(inputRequests.confirm!.params.message).toContain(`\n${DELETE.replace(" ", ` ${console_.url}`)}\n`);

  const other = await sentDuring(() => retry(requestState, { ...args, port: "8081" }));
  expect([other.result.isError, other.sent]).toEqual([true, []]);
  expect(textOf(other.result)).toMatch(/for another call or other arguments: nothing was sent/);

  const forged = `${requestState.slice(0, -4)}AAAA`;
  const refused = await sentDuring(() => retry(forged).catch((error: unknown) => error));
  expect(refused.result).toBeInstanceOf(ProtocolError);
  expect(refused.sent).toEqual([]);

  expect((await sentDuring(() => retry(requestState))).sent).toEqual([DELETE]);
  const again = await sentDuring(() => retry(requestState));
  expect([again.result.isError, again.sent]).toEqual([true, []]);
  expect(textOf(again.result)).toMatch(/already used for a call: nothing was sent/);
});
