// The discovery tools (mcp/src/discovery.ts): how an agent reaches the operations the default listing leaves out.
// findOperations and describeOperation answer from the table (checked in this process); callOperation calls an
// operation through the path of its own tool: the same checks, the same read-only rule, the same confirmation by a
// person and the same result (checked against a recording server of our own that counts the console's requests).
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { MAX_FOUND, describeOperation, findOperations } from "../../../mcp/src/discovery.ts";
import { entries } from "../../../mcp/src/tools.ts";
import { REACH_CEILING, reachCost, reachSummary } from "../../../scripts/bench/tools-list.ts";
import { answer, startFaultServer, type FaultServer } from "../../helpers/faults/server.js";
import {
  NOT_CONFIRMED,
  exampleAnswer,
  exampleArguments,
  overStdio,
  tools as allTools,
  textOf,
  type Confirm,
  type Running,
} from "../../helpers/mcp/helpers.js";
import { v2Client, v2Stdio } from "../../helpers/mcp/v2.js";

const env = { RAINBOND_TOKEN: "tok-discovery-7a2c9e4f" };
const port = { ...exampleArguments("deleteComponentPort"), port: "8080" };
const DELETE_PORT = "DELETE /openapi/v1/teams/q8k2mz5d/regions/rainbond/apps/12/services/gr3f9c2a/ports/8080";
/** The console's two GETs that change things (findings 23-50): a user's teams' components closed, their apps deleted. */
const GETS_THAT_CHANGE = ["closeUserTeamsComponents", "deleteUserTeamsApps"];
const yes = () => ({ action: "accept" as const, content: { confirm: true } });

describe("the answers of findOperations and describeOperation, from the table", () => {
  const [readOnly, readWrite] = [{ allowWrite: false }, { allowWrite: true }];

  test("findOperations without arguments names every operation once, by group, reads apart from changes", () => {
    const text = findOperations({}, readOnly);
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      "101 operations in 14 groups (findOperations with a group gives a line on each). This server is read-only: " +
        "it runs the operations that only read.",
    );
    const named = lines.slice(1, -1).flatMap((line) => line.replace(/^\w+: /, "").split(/; changes |, |^reads /));
    expect(named.filter((name) => name && name !== "none").sort()).toEqual(allTools.map((t) => t.tool.name));
    expect(lines).toContain("events: reads getEventLogs");
    expect(lines).toContain("admins: reads listAdministrators; changes addAdministrator, deleteAdministrator");
    expect(text.length).toBeLessThan(3_000);
  });

  test("words find operations by name, summary and group; a line says the effect and how it is called", () => {
    expect(findOperations({ words: "certificates", group: "certificates" }, readWrite).split("\n")).toEqual([
      '5 operations match words "certificates" and group certificates.',
      "createTeamCertificate [certificates, write]: Add a certificate to a team",
      "deleteTeamCertificate [certificates, destructive, a person confirms]: Delete a certificate",
      "getTeamCertificate [certificates, read]: Read a certificate with its private key",
      "listTeamCertificates [certificates, read]: List a team's certificates",
      "updateTeamCertificate [certificates, write]: Replace a certificate",
      "describeOperation gives one's arguments; callOperation calls it.",
    ]);
    const read = findOperations({ words: "delete certificate" }, readOnly);
    expect(read).toContain("\ndeleteTeamCertificate [certificates, destructive, needs --allow-write]: ");
    expect(findOperations({ words: "teams list" }, readOnly)).toMatch(
      /^listTeams \[teams, read, a tool of its own\]:/m,
    );
    expect(findOperations({ words: "update port" }, readWrite)).toMatch(
      /^updateComponentPort \[ports, interrupts by action, a person confirms\]: /m,
    );
    expect(findOperations({ words: "zebra" }, readWrite)).toBe(
      'No operation matches words "zebra". findOperations with no arguments lists every group and its operations.',
    );
    expect(findOperations({ words: "who am I" }, readWrite)).toMatch(/^No operation matches/); // no word that says much
    expect(findOperations({ words: "current user" }, readWrite).split("\n").slice(0, 2)).toEqual([
      '1 operation matches words "current user".',
      "getCurrentUser [users, read]: Read the token's user",
    ]);
  });

  test("every operation outside the default listing is found by the words of its summary, among the lines shown", () => {
    const costs = reachCost();
    expect(costs).toHaveLength(93);
    expect(costs.filter((cost) => !cost.shown).map((cost) => cost.operation)).toEqual([]);
    const many = findOperations({ words: "list" }, readWrite).split("\n");
    expect(many[0]).toMatch(/^\d+ operations match words "list" \(the first 15: more words or a group narrow it\)\./);
    expect(many).toHaveLength(MAX_FOUND + 2);
  });

  test("what reaching one operation outside the listing costs an agent stays within its ceiling", () => {
    const { median, largest } = reachSummary();
    expect(median.total).toBeLessThanOrEqual(REACH_CEILING.median);
    expect(largest.total).toBeLessThanOrEqual(REACH_CEILING.largest);
    expect(largest.total).toBeLessThan(50_000); // the most a result holds (server.ts)
  });

  test("describeOperation gives the operation's tool whole, its request, and how it is called here", () => {
    for (const { tool, operation } of allTools) {
      const [first, json, ...rest] = describeOperation(entries.get(tool.name)!, readWrite).split("\n");
      expect(rest).toEqual([]);
      expect(JSON.parse(json!)).toEqual({
        name: tool.name,
        title: tool.title,
        request: operation.http,
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema && { outputSchema: tool.outputSchema }),
      });
      expect(first!.startsWith(`${tool.name}: Call it `), first).toBe(true);
      expect(first!.endsWith(" It answers without content."), first).toBe(!tool.outputSchema);
    }
    const [deleteApp, getComponent] = ["deleteApp", "getComponent"].map((name) => entries.get(name)!);
    expect(describeOperation(deleteApp!, readWrite).split("\n")[0]).toBe(
      "deleteApp: Call it with callOperation. The person at your client confirms each call first. It answers " +
        "without content.",
    );
    expect(describeOperation(deleteApp!, readOnly).split("\n")[0]).toBe(
      "deleteApp: Not served: it changes the console (destructive), and this server is read-only (started without " +
        "--allow-write). It answers without content.",
    );
    expect(describeOperation(getComponent!, readOnly).split("\n")[0]).toBe(
      "getComponent: Call it by its own tool or with callOperation.",
    );
  });
});

describe("callOperation, against a console of our own", () => {
  let console_: FaultServer;
  const running: Running[] = [];

  beforeAll(async () => {
    console_ = await startFaultServer();
    // the console's answer to each request these tests send: its operation's example
    const user = exampleArguments("closeUserTeamsComponents").user_id;
    for (const [line, operation] of [
      [DELETE_PORT, "deleteComponentPort"],
      [`GET /openapi/v1/users/${user}/close`, "closeUserTeamsComponents"],
      [`GET /openapi/v1/users/${user}/delete`, "deleteUserTeamsApps"],
    ] as const) {
      const [method, path] = line.split(" ");
      console_.script(method!, path!, answer.json(200, exampleAnswer(operation)));
    }
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()));
  });
  afterAll(() => console_?.close());

  /** A server with `flags`, and a client answering confirmations with `confirm` (none: it cannot ask). */
  async function start(flags: string[], confirm?: Confirm) {
    const server = await overStdio(["--base-url", console_.url, "--retries", "0", ...flags], env, confirm);
    running.push(server);
    return server;
  }

  /** A call of `name` with `args`, by its own tool or through callOperation: its result, and what the console got. */
  async function call(server: Running, name: string, args: Record<string, unknown>, through = true) {
    const before = console_.requests.length;
    const result = await server.client.callTool(
      through ? { name: "callOperation", arguments: { operation: name, arguments: args } } : { name, arguments: args },
    );
    const sent = console_.requests.slice(before).map((r) => `${r.method} ${r.pathname}`);
    return { result, text: textOf(result), sent };
  }

  test("a destructive call through callOperation asks exactly as its own tool does; each confirmed call is sent", async () => {
    const asked: string[] = [];
    const server = await start(["--allow-write"], (request) => (asked.push(request.message), yes()));
    const direct = await call(server, "deleteComponentPort", port, false);
    const through = await call(server, "deleteComponentPort", port);
    expect(asked).toHaveLength(2);
    expect(asked[1]).toBe(asked[0]);
    expect(asked[0]!.split("\n").slice(0, 3)).toEqual([
      "deleteComponentPort: Delete a port of a component.",
      DELETE_PORT.replace(" ", ` ${console_.url}`),
      "Effect: destructive. It removes or overwrites this for good: it cannot be undone.",
    ]);
    expect([direct.sent, through.sent]).toEqual([[DELETE_PORT], [DELETE_PORT]]);
    expect(through.result).toEqual(direct.result); // the operation's own result
  });

  test.each(NOT_CONFIRMED)("through callOperation, a person who %s: nothing is sent", async (_, answer, said) => {
    const server = await start(["--allow-write"], () => answer);
    const { result, text, sent } = await call(server, "deleteComponentPort", port);
    expect([result.isError, sent]).toEqual([true, []]);
    expect(text).toMatch(new RegExp(`^deleteComponentPort: .*${said.source}`));
  });

  test("through callOperation, a client that cannot ask sends nothing; --trust-agent sends without asking", async () => {
    const unasked = await call(await start(["--allow-write"]), "deleteComponentPort", port);
    expect([unasked.result.isError, unasked.sent]).toEqual([true, []]);
    expect(unasked.text).toMatch(/cannot ask a person to confirm .*nothing was sent.*--trust-agent/);
    const trusting = await call(await start(["--allow-write", "--trust-agent"]), "deleteComponentPort", port);
    expect(trusting.sent).toEqual([DELETE_PORT]);
  });

  test("read-only, an operation that changes the console is refused by its name and through callOperation: nothing is sent", async () => {
    const server = await start([], yes);
    for (const name of [...GETS_THAT_CHANGE, "deleteComponentPort", "createApp"]) {
      for (const through of [true, false]) {
        const { text, sent } = await call(server, name, exampleArguments(name), through);
        expect(text).toMatch(
          new RegExp(`^${name} changes the console \\(\\w+\\): start the server with --allow-write\\.$`),
        );
        expect(sent).toEqual([]);
      }
    }
  });

  test("the console's GETs that change things are confirmed like any call that removes or interrupts", async () => {
    const asked: string[] = [];
    let answer: ReturnType<Confirm> = { action: "decline" };
    const server = await start(["--allow-write"], (request) => (asked.push(request.message), answer));
    for (const name of GETS_THAT_CHANGE) {
      for (const through of [true, false]) {
        const { text, sent } = await call(server, name, exampleArguments(name), through);
        expect([text, sent]).toEqual([expect.stringMatching(/did not confirm it \(decline\): nothing was sent/), []]);
      }
    }
    const user = exampleArguments("closeUserTeamsComponents").user_id;
    expect(exampleArguments("deleteUserTeamsApps").user_id).toBe(user);
    expect(asked.map((message) => message.split("\n").slice(1, 3))).toEqual([
      ...Array(2).fill([
        `GET ${console_.url}/openapi/v1/users/${user}/close`,
        expect.stringMatching(/^Effect: interrupts\./),
      ]),
      ...Array(2).fill([
        `GET ${console_.url}/openapi/v1/users/${user}/delete`,
        expect.stringMatching(/^Effect: destructive\./),
      ]),
    ]);
    answer = yes();
    const confirmed = await call(server, "closeUserTeamsComponents", exampleArguments("closeUserTeamsComponents"));
    expect(confirmed.sent).toEqual([`GET /openapi/v1/users/${user}/close`]);
    expect(confirmed.result.structuredContent).toEqual(exampleAnswer("closeUserTeamsComponents"));
  });

  test("on 2026-07-28, callOperation's first answer is the question; confirmed, the call is sent once", async () => {
    const asked: string[] = [];
    const confirm = (request: { message: string }) => (asked.push(request.message), yes());
    const flags = ["--base-url", console_.url, "--allow-write", "--retries", "0"];
    const client = await v2Client(v2Stdio(flags, env), { confirm, pin: "2026-07-28" });
    try {
      const before = console_.requests.length;
      const result = await client.callTool({
        name: "callOperation",
        arguments: { operation: "deleteComponentPort", arguments: port },
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(console_.requests.slice(before).map((r) => `${r.method} ${r.pathname}`)).toEqual([DELETE_PORT]);
      expect(asked).toEqual([expect.stringMatching(/^deleteComponentPort: Delete a port of a component\.\n/)]);
    } finally {
      await client.close();
    }
  });

  test("the discovery tools' own arguments are checked; an unknown operation names those most like it", async () => {
    const server = await start(["--allow-write"], yes);
    const meta = async (name: string, args: Record<string, unknown>) => {
      const before = console_.requests.length;
      const result = await server.client.callTool({ name, arguments: args });
      expect(console_.requests.length).toBe(before); // nothing sent
      return [result.isError, textOf(result)];
    };
    expect(await meta("callOperation", { operation: "deletComponentPort", arguments: port })).toEqual([
      true,
      'callOperation: no operation is named "deletComponentPort". Those named most like it: deleteComponentPort. ' +
        "findOperations finds them by words.",
    ]);
    expect(await meta("callOperation", { operation: "getComponent", body: {} })).toEqual([
      true,
      "callOperation: refused: body: not an argument of callOperation (its arguments: operation, arguments).",
    ]);
    expect(await meta("describeOperation", { operation: 12 })).toEqual([
      true,
      expect.stringMatching(/^describeOperation: refused: operation must be string\.$/),
    ]);
    expect(await meta("findOperations", { group: "dns" })).toEqual([
      true,
      expect.stringMatching(/^findOperations: refused: group must be equal to one of the allowed values/),
    ]);
    // the operation's own arguments are checked as its own tool checks them
    expect(await meta("callOperation", { operation: "deleteComponentPort", arguments: { ...port, force: 1 } })).toEqual(
      [
        true,
        expect.stringMatching(
          /^deleteComponentPort: refused, nothing was sent: force: not an argument of deleteComponentPort/,
        ),
      ],
    );
  });
});
