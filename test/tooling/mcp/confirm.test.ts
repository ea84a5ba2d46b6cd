// On the 2025 revisions (the 1.x client), a destructive tool runs only once a person confirms it through the protocol
// (form elicitation, a request from the server to the client), with the exact arguments in the question; declined,
// cancelled, unanswered in time, or a client that cannot ask: nothing is sent. (2026-07-28: confirm-in-band.test.ts.)
// Against a recording server of our own that counts requests.
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { startFaultServer, type FaultServer } from "../../helpers/faults/server.js";
import {
  NOT_CONFIRMED,
  exampleAnswer,
  exampleArguments,
  overStdio,
  textOf,
  type Confirm,
  type Running,
} from "../../helpers/mcp/helpers.js";

const env = { RAINBOND_TOKEN: "tok-confirm-0c4e1a7b" };
const port = { ...exampleArguments("deleteComponentPort"), port: "8080" };
let console_: FaultServer;
const running: Running[] = [];

beforeAll(async () => {
  console_ = await startFaultServer(() => ({ body: exampleAnswer("deleteComponentPort") }));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});
afterAll(() => console_?.close());

/** A server with --allow-write and `flags`, and a client answering confirmations with `confirm` (none: it cannot). */
async function start(flags: string[], confirm?: Confirm) {
  const server = await overStdio(
    ["--base-url", console_.url, "--allow-write", "--retries", "0", ...flags],
    env,
    confirm,
  );
  running.push(server);
  return server;
}

async function deletePort(server: Running) {
  const before = console_.requests.length;
  const result = await server.client.callTool({ name: "deleteComponentPort", arguments: port });
  return { result, text: textOf(result), sent: console_.requests.slice(before) };
}

test("a person who confirms sees exactly what changes, and that call is sent", async () => {
  const asked: string[] = [];
  const server = await start([], (request) => {
    asked.push(request.message);
    return { action: "accept", content: { confirm: true } };
  });
  const { result, sent } = await deletePort(server);
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(asked).toHaveLength(1);
  expect(asked[0]!.split("\n").slice(0, 3)).toEqual([
    "deleteComponentPort: Delete a port of a component.",
    `DELETE ${console_.url}/openapi/v1/teams/q8k2mz5d/regions/rainbond/apps/12/services/gr3f9c2a/ports/8080`,
    "Effect: destructive. It removes or overwrites this for good: it cannot be undone.",
  ]);
  expect(sent.map((r) => `${r.method} ${r.pathname}`)).toEqual([
    "DELETE /openapi/v1/teams/q8k2mz5d/regions/rainbond/apps/12/services/gr3f9c2a/ports/8080",
  ]);
  await deletePort(server); // a confirmation is for one call: the next one asks again
  expect(asked).toHaveLength(2);
});

test.each(NOT_CONFIRMED)("a person who %s: nothing is sent", async (_, answer, said) => {
  const server = await start([], () => answer);
  const { result, text, sent } = await deletePort(server);
  expect([result.isError, sent]).toEqual([true, []]);
  expect(text).toMatch(new RegExp(`^deleteComponentPort: .*${said.source}`));
});

test("a client that cannot ask: nothing is sent, and the result says how to proceed", async () => {
  const { result, text, sent } = await deletePort(await start([]));
  expect([result.isError, sent]).toEqual([true, []]);
  expect(text).toMatch(/cannot ask a person to confirm .*nothing was sent.*--trust-agent/);
});

test("no answer in time: nothing is sent", async () => {
  const server = await start(["--confirm-timeout-ms", "200"], () => new Promise(() => {})); // never answers
  const { result, text, sent } = await deletePort(server);
  expect([result.isError, sent]).toEqual([true, []]);
  expect(text).toMatch(/no confirmation from a person within 0\.2 s: nothing was sent/);
});

test("--trust-agent sends without asking; tools that are not destructive never ask", async () => {
  let asked = 0;
  const trusting = await start(["--trust-agent"], () => (asked++, { action: "decline" }));
  expect((await deletePort(trusting)).sent).toHaveLength(1);
  const asking = await start([], () => (asked++, { action: "decline" }));
  const read = await asking.client.callTool({ name: "getComponent", arguments: exampleArguments("getComponent") });
  expect(textOf(read)).not.toMatch(/confirm/);
  expect(asked).toBe(0);
});

test("what a call does decides whether a person is asked: the effect of its action, of the operation otherwise", async () => {
  const asked: string[] = [];
  const server = await start([], (request) => (asked.push(request.message), { action: "decline" }));
  const update = (action: string) => ({ ...port, body: { action, protocol: "tcp" } });
  const call = async (name: string, args: Record<string, unknown>) => {
    const before = console_.requests.length;
    const result = await server.client.callTool({ name, arguments: args });
    return { text: textOf(result), sent: console_.requests.length - before };
  };
  // open_outer exposes the port: asked, and declined, so nothing is sent
  expect(await call("updateComponentPort", update("open_outer"))).toMatchObject({ sent: 0 });
  expect(asked.at(-1)).toMatch(/outside network/);
  // close_outer cuts off access: asked
  expect(await call("updateComponentPort", update("close_outer"))).toMatchObject({ sent: 0 });
  expect(asked.at(-1)).toMatch(/cuts off access/);
  expect(asked).toHaveLength(2);
  // change_protocol only changes the console: not asked, sent
  expect(await call("updateComponentPort", update("change_protocol"))).toMatchObject({ sent: 1 });
  expect(asked).toHaveLength(2);
  // a gateway rule cannot be removed through the API: asked, whatever its body
  expect(await call("createGatewayRule", exampleArguments("createGatewayRule"))).toMatchObject({ sent: 0 });
  expect(asked.at(-1)).toMatch(/cannot be undone through the API/);
});
