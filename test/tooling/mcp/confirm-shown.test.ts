// What a person confirms is what is sent, against an agent that chooses its arguments to make a person approve
// something else (issue 35 §1): the question starts with the tool, the request line and the effect; it shows every
// value of the request as sent (secrets masked, and said so), invisible and direction-changing characters escaped,
// and is never cut (too long to show whole: refused); a body member the spec does not know, and input the client would
// refuse, are refused before anyone is asked. On the 2025 revisions (elicitation/create, the 1.x client) and on
// 2026-07-28 (input_required, the v2 client) alike, against a recording server of our own that counts requests.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startFaultServer, type FaultServer } from "../../helpers/faults/server.js";
import { exampleAnswer, exampleArguments, overStdio, textOf } from "../../helpers/mcp/helpers.js";
import { v2Client, v2Stdio } from "../../helpers/mcp/v2.js";

const token = "tok-shown-3b9d71e5c0a2";
const env = { RAINBOND_TOKEN: token };
const port = { ...exampleArguments("updateComponentPort"), port: "8080" };
const PUT = "/openapi/v1/teams/q8k2mz5d/regions/rainbond/apps/12/services/gr3f9c2a/ports/8080";
/** A character a person does not see as itself: controls, bidi, zero-width, default-ignorable, separators. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;
let console_: FaultServer;

beforeAll(async () => {
  console_ = await startFaultServer((request) => ({
    body: exampleAnswer(request.pathname.endsWith("/install") ? "installApp" : "updateComponentPort"),
  }));
});
afterAll(() => console_?.close());

type Answer = { action: "accept" | "decline"; content?: { confirm: boolean } };
const YES: Answer = { action: "accept", content: { confirm: true } };

const lines = {
  "2025 (elicitation/create)": async (flags: string[], confirm: (message: string) => Answer) => {
    const server = await overStdio(flags, env, (request) => confirm(request.message));
    return { client: server.client, close: server.close };
  },
  "2026-07-28 (input_required)": async (flags: string[], confirm: (message: string) => Answer) => {
    const client = await v2Client(v2Stdio(flags, env), {
      pin: "2026-07-28",
      confirm: (request) => confirm(request.message),
    });
    return { client, close: () => client.close() };
  },
};

describe.each(Object.entries(lines))("on %s", (_, connect) => {
  let server: Awaited<ReturnType<(typeof lines)[keyof typeof lines]>>;
  const asked: string[] = [];
  let answer: Answer = YES;
  beforeAll(async () => {
    const flags = ["--base-url", console_.url, "--allow-write", "--retries", "0"];
    server = await connect(flags, (message) => (asked.push(message), answer));
  });
  afterAll(() => server?.close());

  /** Calls a tool with a person who gives `given`: the result, the questions asked, and the requests sent. */
  async function call(name: string, args: Record<string, unknown>, given: Answer = YES) {
    answer = given;
    const [before, questions] = [console_.requests.length, asked.length];
    const result = await server.client.callTool({ name, arguments: args });
    const sent = console_.requests.slice(before);
    return { result, text: textOf(result), asked: asked.slice(questions), sent };
  }

  test("a question too long to show whole is refused, never cut: an action last is never hidden", async () => {
    const body = { port_alias: `Alias tidy-up: rename only. ${"x".repeat(2_200)}`, action: "close_outer" };
    const { result, text, asked, sent } = await call("updateComponentPort", { ...port, body });
    expect([result.isError, asked, sent]).toEqual([true, [], []]);
    expect(text).toMatch(/^updateComponentPort: the question a person would confirm is \d+ characters, over the/);
    expect(text).toMatch(/never shortened.*nothing was sent/);
  });

  test("the tool, the request line and the effect come first; then every member of the body, as sent", async () => {
    const body = { port_alias: `Alias tidy-up: rename only. ${"x".repeat(600)}`, action: "close_outer" };
    const { result, asked, sent } = await call("updateComponentPort", { ...port, body });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(sent).toHaveLength(1);
    const [question] = asked;
    const [tool, request, effect] = question!.split("\n");
    expect(tool).toBe("updateComponentPort: Update a port of a component.");
    expect(request).toBe(`PUT ${console_.url}${PUT}`);
    expect(effect).toMatch(/^Effect: interrupts \(action "close_outer"\)\. It cuts off access/);
    expect(question).toContain(`Body (JSON, every member as sent): ${sent[0]!.body}\n`);
    expect(question).not.toContain("…");
  });

  test("a value is shown as sent, whatever it holds: a traceback is not replaced, a secret is masked and said so", async () => {
    const traceback = 'Traceback (most recent call last):\n  File "x.py", line 1\nto be removed';
    const body = { action: "close_outer", port_alias: traceback };
    const shown = await call("updateComponentPort", { ...port, body });
    expect(shown.sent.map((r) => JSON.parse(r.body))).toEqual([body]);
    expect(shown.asked[0]).toContain(`Body (JSON, every member as sent): ${JSON.stringify(body)}\n`);
    expect(shown.asked[0]).not.toContain("not kept");

    const install = exampleArguments("installApp") as { body: Record<string, unknown> };
    const key = "mk-SECRET-7d2f0b9e";
    const secret = await call("installApp", { ...install, body: { ...install.body, market_access_key: key } });
    expect(JSON.parse(secret.sent[0]!.body).market_access_key).toBe(key); // sent as given
    expect(secret.asked[0]).toContain('"market_access_key":"[redacted]"');
    expect(secret.asked[0]).toMatch(/Shown as \[redacted\], sent as given: body\.market_access_key\./);
    expect(secret.asked[0]).not.toContain(key);

    const echo = await call("updateComponentPort", { ...port, body: { action: "close_outer", port_alias: token } });
    expect(echo.asked[0]).toMatch(/Shown as \[redacted\], sent as given: body\.port_alias\./);
    expect(echo.asked[0]).not.toContain(token);
  });

  test("invisible and direction-changing characters are shown escaped: the same data, nothing hidden", async () => {
    const alias = "a\u202emoc.live\u202c.example\u200b\u2066\u00ad\u{e0041}\u0085\u2028";
    const { asked, sent } = await call("updateComponentPort", {
      ...port,
      body: { action: "close_outer", port_alias: alias },
    });
    const question = asked[0]!;
    expect(question.split("\n").some((line) => UNSAFE.test(line))).toBe(false);
    expect(question).toContain("a\\u202emoc.live\\u202c.example\\u200b\\u2066\\u00ad\\udb40\\udc41\\u0085\\u2028");
    expect(question).toMatch(/written as \\u escapes/);
    const shownBody = /Body \(JSON, every member as sent\): (.*)/.exec(question)![1]!;
    expect(JSON.parse(shownBody)).toEqual(JSON.parse(sent[0]!.body)); // escapes of the same characters
  });

  test("a body member the spec does not know is refused before anyone is asked, at any depth", async () => {
    const unknown = await call("updateComponentPort", {
      ...port,
      body: { action: "change_protocol", protocol: "tcp", is_outer_service: true },
    });
    const rule = exampleArguments("createGatewayRule") as { body: { tcp: object } };
    const nested = await call("createGatewayRule", {
      ...rule,
      body: { ...rule.body, tcp: { ...rule.body.tcp, open_to: "0.0.0.0/0" } },
    });
    // a call that no person confirms: refused all the same (adding a port must not open it to the outside)
    const add = await call("addComponentPort", {
      ...exampleArguments("addComponentPort"),
      body: { port: 8080, protocol: "http", is_outer_service: true },
    });
    expect([unknown, nested, add].map((c) => [c.result.isError, c.asked, c.sent])).toEqual(
      Array(3).fill([true, [], []]),
    );
    expect(unknown.text).toBe(
      "updateComponentPort: refused, nothing was sent: body.is_outer_service is not a member the spec knows " +
        "(body's members: action, protocol, port_alias, k8s_service_name).",
    );
    expect(nested.text).toMatch(/body\.tcp\.open_to is not a member the spec knows/);
    expect(add.text).toMatch(/body\.is_outer_service is not a member the spec knows/);
  });

  test("input the client would refuse is refused before anyone is asked, in the client's words", async () => {
    const bad = await call("updateComponentPort", {
      ...port,
      body: { action: "close_outer", k8s_service_name: "Not_A_Name" },
    });
    expect([bad.result.isError, bad.asked, bad.sent]).toEqual([true, [], []]);
    expect(bad.text).toMatch(/^updateComponentPort: refused, nothing was sent: body\.k8s_service_name must be/);
  });
});
