// Inputs that a loose check would let through (issue 20, item 10), each against a loopback server that counts what
// reaches it: integers past 2^53, BigInts and cycles in a body, a body whose toJSON sends something else than was
// checked. Each is a RainbondInputError before anything is sent, and never retried.
import { describe, expect, it } from "vitest";
import { RainbondInputError, type RainbondClient as Client } from "../../../src/index.js";
import { app, component, faultClient, paths, region, rejection } from "./helpers.js";
import { answer, useFaultServer } from "../../helpers/faults/server.js";

const server = useFaultServer();

async function refused(call: () => Promise<unknown>, argument: string, rule: RegExp) {
  const before = server.requests.length;
  const err = await rejection(call());
  expect(err).toBeInstanceOf(RainbondInputError);
  expect(err).toMatchObject({ argument });
  expect((err as Error).message).toMatch(rule);
  expect(server.requests.length).toBe(before);
}

describe("ids and numbers", () => {
  it.each([1e21, 2 ** 53 + 2, -1e300])("appId %d is refused, not sent as %s", async (appId) => {
    const { client } = faultClient(server.url);
    await refused(() => client.components.get({ ...component, appId }), "component.appId", /must be an integer/);
    await refused(() => client.gateway.createRule({ ...app, appId }, { protocol: "tcp" }), "app.appId", /integer/);
  });

  it("a port past 2^53 in a body is refused as not an integer", async () => {
    const { client } = faultClient(server.url);
    await refused(() => client.ports.add(component, { port: 2 ** 60, protocol: "http" }), "body.port", /integer/);
  });
});

describe("bodies that are not JSON data", () => {
  it("a BigInt in a body is refused, and a PUT carrying it is not retried", async () => {
    const { client } = faultClient(server.url);
    const body = { service_id: "gr3f9c2a", the_weight: 10n };
    await refused(() => client.gateway.updateHttpRule(app, "5f2e8a1c9b7d4e3f", body as never), "body", /JSON data/);
  });

  it("a cyclic body is refused", async () => {
    const { client } = faultClient(server.url);
    const list: Record<string, unknown>[] = [{ tenant_id: "t", region_name: "r" }];
    list[0]!.self = list;
    await refused(() => client.teams.resources(list as never), "list", /JSON data \(it holds a cycle or a BigInt\)/);
  });

  it("a body whose toJSON gives another value is checked as it is sent", async () => {
    const { client } = faultClient(server.url);
    const sneaky = { port: 8080, protocol: "http" as const, toJSON: () => ({ port: "70000", protocol: "http" }) };
    await refused(() => client.ports.add(component, sneaky), "body.port", /port number from 1 to 65535/);
  });

  it("what is sent is the JSON that was checked", async () => {
    server.script("POST", paths.ports, answer.json(200, { container_port: 8080, protocol: "http" }));
    const { client } = faultClient(server.url);
    const body = {
      port: 8080,
      protocol: "http" as const,
      get port_alias() {
        return "WEB";
      },
    };
    await client.ports.add(component, body);
    expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({
      port: "8080",
      protocol: "http",
      port_alias: "WEB",
      is_inner_service: false,
    });
  });
});

describe("what an input error carries: the argument, the rule in words and its keyword", () => {
  const now = 1_763_000_000;
  const at = { ...app, serviceId: "gr3f9c2a" };
  it.each([
    [
      "components.get",
      "component.serviceId",
      "required",
      /^is required$/,
      (c: Client) => c.components.get(app as never),
    ],
    [
      "components.get",
      "component.appId",
      "type",
      /^must be an integer \(got "12"\)$/,
      (c: Client) => c.components.get({ ...at, appId: "12" as never }),
    ],
    [
      "ports.add",
      "body.protocol",
      "enum",
      /^must be one of "tcp", .* \(got "ftp"\)$/,
      (c: Client) => c.ports.add(at, { port: 8080, protocol: "ftp" as never }),
    ],
    [
      "ports.add",
      "body.port",
      "pattern",
      /^must be a port number from 1 to 65535 \(got 70000\)$/,
      (c: Client) => c.ports.add(at, { port: 70_000, protocol: "http" }),
    ],
    [
      "apps.list",
      "options.bogus",
      "unknown",
      /^is not an option of this method$/,
      (c: Client) => c.apps.list(region, { bogus: 1 } as never),
    ],
    ["teams.resources", "list", "json", /^must be JSON data/, (c: Client) => c.teams.resources([{ n: 1n }] as never)],
    [
      "monitor.queryRange",
      "options.start",
      "timeRange",
      /^must be before options\.end/,
      (c: Client) => c.monitor.queryRange(app, { start: now, end: now - 60 }),
    ],
    [
      "monitor.queryRange",
      "options.end",
      "maximum",
      /^looks like milliseconds/,
      (c: Client) => c.monitor.queryRange(app, { start: now - 60, end: now * 1000 }),
    ],
    [
      "regions.iterateForTeam",
      "options.page",
      "fixed",
      /^is set by the iterator$/,
      (c: Client) => c.regions.iterateForTeam("q8k2mz5d", { page: 2 } as never).next(),
    ],
  ] as const)("%s: %s breaks %s", async (operation, argument, keyword, rule, call) => {
    const { client } = faultClient(server.url);
    const err = await rejection(call(client));
    expect(err).toBeInstanceOf(RainbondInputError);
    expect(err).toMatchObject({ operation, argument, keyword, rule: expect.stringMatching(rule) });
    const { rule: words } = err as RainbondInputError;
    expect((err as Error).message).toBe(`${operation}: ${argument} ${words}`);
  });

  it("so do the client's own options: a baseUrl that is no origin (format), a header fetch sets (fixed)", () => {
    const make = (options: object) => () => faultClient(server.url, options);
    expect(make({ baseUrl: "ftp://host" })).toThrow(
      expect.objectContaining({
        argument: "baseUrl",
        keyword: "format",
        rule: expect.stringMatching(/^must be an http/),
      }),
    );
    expect(make({ headers: { Authorization: "x" } })).toThrow(
      expect.objectContaining({ argument: 'headers["Authorization"]', keyword: "fixed" }),
    );
    expect(make({ retries: 11 })).toThrow(
      expect.objectContaining({ argument: "retries", keyword: "maximum", rule: "must be at most 10 (got 11)" }),
    );
  });
});
