// Every method of the client through the command line against the Prism mock of the spec: the example its --help
// shows, run as written, prints on stdout exactly what the client's method returns for the same example (secret
// fields masked, as the command line masks them), with nothing on stderr; and the formats a person or a script asks for.
import { beforeAll, describe, expect, inject, test } from "vitest";
import { parse } from "yaml";
import { callMethod, readMethods } from "../../../scripts/lib/methods.ts";
import { mockCannotAnswer } from "../../../scripts/prism.ts";
import { createRainbondClient, redact } from "../../../src/index.js";
import { exampleOf as example } from "../../../cli/src/help.ts";
import { commandsByGroup } from "../../../cli/src/table.ts";
import { rainbond, words } from "../../helpers/cli/helpers.js";

const token = "tok-CLI-MOCK-4e7a19c2";
const methods = readMethods().filter((m) => m.kind !== "paging"); // an iterator is its list's --all
const commandOf = (method: (typeof methods)[number]) =>
  [...commandsByGroup().values()].flat().find((c) => c.method.name === method.name)!;
let env: Record<string, string>;

beforeAll(() => {
  env = { RAINBOND_URL: inject("prismUrl"), RAINBOND_TOKEN: token };
});

/** Prism 5 refuses every request of some operations (scripts/prism.ts): their examples are checked by what they send. */
const prismCannotMatch = mockCannotAnswer;

describe.each(methods.filter((m) => !prismCannotMatch(m)))("rainbond $group $method", (method) => {
  test("its help's example prints what the client's method returns, and nothing else", async () => {
    // the example as --help prints it (test/tooling/cli/commands.test.ts runs every --help)
    const { line, stdin } = example(commandOf(method));
    const [, ...args] = words(line);
    const ran = await rainbond(args, { env, input: stdin ?? "" });
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    const client = createRainbondClient({ baseUrl: inject("prismUrl"), token, logLevel: "off" });
    const returned = redact(await callMethod(client, method), [token]);
    // an answer without content: nothing on stdout, as the client's method returns nothing
    if (returned === undefined) expect([method.returns, ran.stdout]).toEqual(["void", ""]);
    else expect(JSON.parse(ran.stdout)).toEqual(returned);
    expect(ran.stdout).not.toContain(token);
  });
});

test.each(methods.filter(prismCannotMatch).map((m) => [m.name, m] as const))(
  "%s: its help's example sends every required query parameter by the spec's name (Prism cannot match them)",
  async (_, method) => {
    const [, ...args] = words(example(commandOf(method)).line);
    const ran = await rainbond([...args, "--dry-run"], { env });
    expect([ran.code, ran.stderr]).toEqual([0, ""]);
    const url = new URL(/^curl '?([^' ]+)/.exec(ran.stdout)![1]!);
    for (const input of method.inputs.filter((i) => i.kind === "option" && i.required))
      expect(url.searchParams.has(input.spec), input.spec).toBe(true);
  },
);

describe("output", () => {
  const ports = [
    "ports",
    "list",
    "--team",
    "q8k2mz5d",
    "--region",
    "rainbond",
    "--app",
    "12",
    "--component",
    "gr3f9c2a",
  ];

  test("--output yaml, jsonl and table give the same data; --query filters it first", async () => {
    const json = JSON.parse((await rainbond(ports, { env })).stdout);
    expect(parse((await rainbond([...ports, "-o", "yaml"], { env })).stdout)).toEqual(json);
    const lines = (await rainbond([...ports, "-o", "jsonl"], { env })).stdout.trim().split("\n");
    expect(lines.map((line) => JSON.parse(line))).toEqual(json);
    const table = (await rainbond([...ports, "-o", "table"], { env })).stdout.split("\n");
    expect(table[0]).toMatch(/^CONTAINER_PORT\s+PROTOCOL\s+PORT_ALIAS/);
    expect(table[1]).toMatch(new RegExp(`^${json[0].container_port}\\s+${json[0].protocol}\\s`));
    expect(table[1]).not.toContain("\x1b"); // no colour when stdout is not a terminal
    const query = await rainbond([...ports, "--query", "[].container_port"], { env });
    expect(JSON.parse(query.stdout)).toEqual(json.map((port: { container_port: number }) => port.container_port));
    const bad = await rainbond([...ports, "--query", "[?"], { env });
    expect([bad.code, bad.stdout]).toEqual([2, ""]);
    expect(bad.stderr).toMatch(/^rainbond: --query "\[\?": /);
  });

  test("--all walks the pages the table declares and prints the items, as the client's iterator yields them", async () => {
    const args = ["regions", "list-for-team", "--team", "q8k2mz5d"];
    const all = await rainbond([...args, "--all", "--page-size", "5"], { env });
    expect(all.code).toBe(0);
    const client = createRainbondClient({ baseUrl: inject("prismUrl"), token, logLevel: "off" });
    const items = [];
    for await (const region of client.regions.iterateForTeam("q8k2mz5d", { pageSize: 5 })) items.push(region);
    expect(JSON.parse(all.stdout)).toEqual(redact(items, [token]));
    const page = await rainbond([...args, "--all", "--page", "2"], { env });
    expect([page.code, page.stdout]).toEqual([2, ""]);
    expect(page.stderr).toBe("rainbond: --page with --all: --all walks every page from the first\n");
    const notPaged = await rainbond(["ports", "list", "--all"], { env });
    expect(notPaged.code).toBe(2);
    expect(notPaged.stderr).toMatch(/unknown option '--all'/);
  });
});
