// Input checks, table-driven: every bad input is a RainbondInputError naming the argument and the rule, and nothing
// is sent (a counting fetch sees no call). The rules come from the spec: the console's routes ([\w-]+ ids, appId a
// non-negative integer), ports 1..65535, the source's enums, required body fields, and the range-query rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  RainbondInputError,
  createRainbondClient,
  type RainbondClient,
  type RainbondPromise,
} from "../../src/index.js";
import { operations } from "../../generated/operations.js";
import type { OperationSpec } from "../../src/core/table.js";
import { closedPort, countingFetch } from "../helpers/faults/server.js";

const region = { teamId: "q8k2mz5d", regionName: "rainbond" };
const app = { ...region, appId: 12 };
const component = { ...app, serviceId: "gr3f9c2a" };
const installBody = {
  market_url: "https://hub.grapps.cn",
  market_domain: "rainbond",
  market_type: "rainstore",
  market_access_key: "demo-store-key",
  app_model_id: "9e2c7a1f5b3d4e8a",
  app_model_version: "2.1.0",
};
const NOW = 1_763_000_000; // Unix seconds (November 2025)

let client: RainbondClient;
let counter: ReturnType<typeof countingFetch>;
beforeAll(async () => {
  // Nothing listens here: a request that went out would fail as a connection error, not as an input error.
  const port = await closedPort();
  counter = countingFetch();
  client = createRainbondClient({
    baseUrl: `http://127.0.0.1:${port}`,
    token: "t0k3n",
    fetch: counter.fetch,
    logLevel: "off",
  });
});
afterAll(() => {
  expect(counter.calls).toEqual([]);
});

/** Runs `call` and checks it is refused with a RainbondInputError on `argument` whose message matches `rule`. */
async function expectRefused(
  call: () => RainbondPromise<unknown> | Promise<unknown>,
  operation: string,
  argument: string,
  rule: RegExp,
) {
  const before = counter.calls.length;
  let err: unknown;
  try {
    await call();
  } catch (e) {
    err = e;
  }
  expect(err, "the call was not refused").toBeInstanceOf(RainbondInputError);
  const e = err as RainbondInputError;
  expect(e.name).toBe("RainbondInputError");
  expect(e.operation).toBe(operation);
  expect(e.argument).toBe(argument);
  expect(e.message.startsWith(`${operation}: ${argument} `)).toBe(true);
  expect(e.message).toMatch(rule);
  expect(counter.calls.length, "a request was sent").toBe(before);
}

const ID_RULE = /must be letters, digits, "_" and "-" only \(no dot, slash, space or "%"\)/;
const BAD_IDS: [unknown, RegExp][] = [
  ["", ID_RULE],
  [".", ID_RULE],
  ["..", ID_RULE],
  ["a/b", ID_RULE],
  ["../admin", ID_RULE],
  ["a b", ID_RULE],
  ["a%2e", ID_RULE],
  ["%2e%2e", ID_RULE],
  ["a.b", ID_RULE],
  ["a?b=1", ID_RULE],
  ["a#b", ID_RULE],
  ["tab\t", ID_RULE],
  ["new\nline", ID_RULE],
  [undefined, /is required$/],
  [null, /must be a string \(got null\)/],
  [true, /must be a string/],
  [{}, /must be a string/],
];

type Scoped = (scope: Record<string, unknown>) => RainbondPromise<unknown>;
/** Each method that takes a scope object, with valid other arguments. */
const scoped: [operation: string, scope: "region" | "app" | "component", call: () => Scoped][] = [
  ["apps.list", "region", () => (s) => client.apps.list(s as never, { query: "shop" })],
  ["apps.install", "app", () => (s) => client.apps.install(s as never, installBody, { deploy: true })],
  [
    "gateway.updateHttpRule",
    "app",
    () => (s) => client.gateway.updateHttpRule(s as never, "5f2e8a1c", { service_id: "gr3f9c2a" }),
  ],
  [
    "gateway.createRule",
    "app",
    () => (s) =>
      client.gateway.createRule(s as never, {
        protocol: "tcp",
        tcp: {
          service_id: "gr3f9c2a",
          container_port: 3306,
          end_point: "0.0.0.0:30306",
          default_port: 30306,
          default_ip: "0.0.0.0",
        },
      }),
  ],
  [
    "gateway.createHttpRule",
    "app",
    () => (s) =>
      client.gateway.createHttpRule(s as never, { service_id: "gr3f9c2a", container_port: 8080, domain_name: "a.org" }),
  ],
  ["gateway.listHttpRules", "app", () => (s) => client.gateway.listHttpRules(s as never)],
  ["monitor.query", "app", () => (s) => client.monitor.query(s as never, { isOuter: true })],
  ["monitor.queryRange", "app", () => (s) => client.monitor.queryRange(s as never, { start: NOW - 3600, end: NOW })],
  ["ports.list", "component", () => (s) => client.ports.list(s as never)],
  ["ports.add", "component", () => (s) => client.ports.add(s as never, { port: 8080, protocol: "http" })],
  ["ports.update", "component", () => (s) => client.ports.update(s as never, 8080, { action: "open_inner" })],
  ["ports.update", "component", () => (s) => client.ports.openOuter(s as never, 8080)],
  ["ports.update", "component", () => (s) => client.ports.changeProtocol(s as never, 8080, "tcp")],
  ["ports.delete", "component", () => (s) => client.ports.delete(s as never, 8080)],
  ["components.get", "component", () => (s) => client.components.get(s as never)],
];
const valid = { region, app, component };
const fieldsOf = {
  region: ["teamId", "regionName"],
  app: ["teamId", "regionName", "appId"],
  component: ["teamId", "regionName", "appId", "serviceId"],
};

describe("the rules path parameters carry", () => {
  it("are those checked without the body's and query's checks (validate.ts's MORE_RULES): no other reaches a path", () => {
    // a path parameter is checked by the rules every bundle carries; a keyword of MORE_RULES on one would go unchecked
    const checked = new Set(["type", "pattern", "patternMeans", "enum", "minimum", "maximum", "exclusiveMinimum"]);
    const carried = Object.entries(operations).flatMap(([id, spec]) =>
      Object.entries((spec as OperationSpec).pathParams).flatMap(([param, rule]) =>
        Object.keys(rule)
          .filter((key) => !checked.has(key) && key !== "acceptsNumber")
          .map((key) => `${id} ${param}: ${key}`),
      ),
    );
    expect(carried).toEqual([]);
  });
});

describe("identifiers in paths", () => {
  for (const [operation, scope, call] of scoped) {
    for (const field of fieldsOf[scope].filter((f) => f !== "appId")) {
      it.each(BAD_IDS)(`${operation}: ${scope}.${field} = %j is refused`, async (bad, rule) => {
        await expectRefused(() => call()({ ...valid[scope], [field]: bad }), operation, `${scope}.${field}`, rule);
      });
    }
  }

  it.each(BAD_IDS)("regions.listForTeam: teamId = %j is refused", async (bad, rule) => {
    await expectRefused(() => client.regions.listForTeam(bad as string), "regions.listForTeam", "teamId", rule);
  });
  it.each(BAD_IDS)("regions.get: regionId = %j is refused", async (bad, rule) => {
    await expectRefused(() => client.regions.get(bad as string), "regions.get", "regionId", rule);
  });
  it.each(BAD_IDS)("gateway.updateHttpRule: ruleId = %j is refused", async (bad, rule) => {
    await expectRefused(
      () => client.gateway.updateHttpRule(app, bad as string, { service_id: "x" }),
      "gateway.updateHttpRule",
      "ruleId",
      rule,
    );
  });

  it("letters of any script, digits, _ and - pass (the console's [\\w-]+)", async () => {
    for (const id of ["q8k2mz5d", "团队", "équipe-1", "a_b-c", "٣٤"]) {
      // passes the checks: the request goes out (and fails to connect: nothing listens)
      const before = counter.calls.length;
      await expect(client.components.get({ ...component, teamId: id }, { retries: 0 })).rejects.not.toBeInstanceOf(
        RainbondInputError,
      );
      expect(counter.calls.length).toBe(before + 1);
      counter.calls.pop();
    }
  });

  it.each([
    ["not an object", "component", /must be an object of ids$/],
    [null, "component", /must be an object of ids$/],
    [[component], "component", /must be an object of ids$/],
  ])("a scope of %j is refused", async (bad, argument, rule) => {
    await expectRefused(() => client.components.get(bad as never), "components.get", argument, rule);
  });
});

describe("appId: a non-negative integer", () => {
  const badAppIds: [unknown, RegExp][] = [
    [-1, /must be at least 0 \(got -1\)|must be a non-negative integer/],
    [1.5, /must be an integer \(got 1\.5\)/],
    [Number.NaN, /must be an integer \(got NaN\)/],
    [Number.POSITIVE_INFINITY, /must be an integer \(got Infinity\)/],
    ["twelve", /must be an integer|must be a non-negative integer/],
    [undefined, /is required$/],
    [null, /must be an integer|must be a string/],
  ];
  for (const [operation, scope, call] of scoped.filter(([, s]) => s !== "region")) {
    it.each(badAppIds)(`${operation}: ${scope}.appId = %s is refused`, async (bad, rule) => {
      await expectRefused(() => call()({ ...valid[scope], appId: bad }), operation, `${scope}.appId`, rule);
    });
  }
});

describe("ports: integers 1..65535", () => {
  // the port is sent as the string the spec wants; a message shows it as the caller gave it: a number bare
  const PORT_RULE = (got: string) => new RegExp(`must be a port number from 1 to 65535 \\(got ${got}\\)$`);
  const badPorts: [unknown, RegExp][] = [
    [0, PORT_RULE("0")],
    [65536, PORT_RULE("65536")],
    [70000, PORT_RULE("70000")],
    [-1, PORT_RULE("-1")],
    [1.5, /must be an integer \(got 1\.5\)/],
    [Number.NaN, /must be an integer \(got NaN\)/],
    ["0", PORT_RULE('"0"')],
    ["08080", PORT_RULE('"08080"')],
    ["80a", PORT_RULE('"80a"')],
    ["", PORT_RULE('""')],
    [undefined, /is required$/],
  ];
  const byPath: [string, (port: unknown) => RainbondPromise<unknown>][] = [
    ["ports.update", (p) => client.ports.update(component, p as number, { action: "open_outer" })],
    ["ports.update", (p) => client.ports.closeOuter(component, p as number)],
    [
      "ports.update",
      (p) => client.ports.changeAlias(component, p as number, { port_alias: "WEB", k8s_service_name: "web" }),
    ],
    ["ports.delete", (p) => client.ports.delete(component, p as number)],
  ];
  for (const [operation, call] of byPath) {
    it.each(badPorts)(`${operation}: port = %j is refused`, async (bad, rule) => {
      await expectRefused(() => call(bad), operation, "port", rule);
    });
  }
  it.each(badPorts)("ports.add: body.port = %j is refused", async (bad, rule) => {
    const argument = "body.port";
    await expectRefused(
      () => client.ports.add(component, { port: bad as number, protocol: "http" }),
      "ports.add",
      argument,
      rule,
    );
  });
  it("the ends of the range pass", async () => {
    for (const port of [1, 65535, "443"]) {
      const before = counter.calls.length;
      await expect(client.ports.delete(component, port as number, { retries: 0 })).rejects.not.toBeInstanceOf(
        RainbondInputError,
      );
      expect(counter.calls.length).toBe(before + 1);
      counter.calls.pop();
    }
  });
});

describe("enums: protocol and action take only the source's values", () => {
  const PROTOCOLS = /must be one of "tcp", "http", "mysql", "grpc", "udp"/;
  it.each(["ftp", "HTTP", "https", "", 6])("ports.add: protocol %j is refused", async (bad) => {
    await expectRefused(
      () => client.ports.add(component, { port: 8080, protocol: bad as "http" }),
      "ports.add",
      "body.protocol",
      bad === 6 ? /must be a string/ : PROTOCOLS,
    );
  });
  it.each(["ftp", "TCP"])("ports.changeProtocol: protocol %j is refused", async (bad) => {
    await expectRefused(
      () => client.ports.changeProtocol(component, 8080, bad as "tcp"),
      "ports.update",
      "body.protocol",
      PROTOCOLS,
    );
  });
  it("ports.changeProtocol needs a protocol; ports.changeAlias a port_alias", async () => {
    await expectRefused(
      () => client.ports.changeProtocol(component, 8080, undefined as never),
      "ports.changeProtocol",
      "protocol",
      /is required$/,
    );
    await expectRefused(
      () => client.ports.changeAlias(component, 8080, undefined as never),
      "ports.changeAlias",
      "alias.port_alias",
      /is required$/,
    );
    await expectRefused(
      () => client.ports.changeAlias(component, 8080, { k8s_service_name: "web" } as never),
      "ports.changeAlias",
      "alias.port_alias",
      /is required$/,
    );
  });
  it.each(["open", "OPEN_OUTER", "delete", ""])("ports.update: action %j is refused", async (bad) => {
    await expectRefused(
      () => client.ports.update(component, 8080, { action: bad as "open_outer" }),
      "ports.update",
      "body.action",
      /must be one of "open_outer", "close_outer", "open_inner", "close_inner", "change_protocol", "change_port_alias", "only_open_outer" \(got/,
    );
  });
  it.each([
    [
      "regions.get extendInfo",
      () => client.regions.get("r1", { extendInfo: "yes" as never }),
      "regions.get",
      "options.extendInfo",
    ],
    [
      "monitor.query isOuter",
      () => client.monitor.query(app, { isOuter: 1 as never }),
      "monitor.query",
      "options.isOuter",
    ],
    [
      "gateway.listEnterpriseHttpRules autoSsl",
      () => client.gateway.listEnterpriseHttpRules({ autoSsl: "on" as never }),
      "gateway.listEnterpriseHttpRules",
      "options.autoSsl",
    ],
    [
      "apps.install deploy",
      () => client.apps.install(app, installBody, { deploy: "TRUE" as never }),
      "apps.install",
      "options.deploy",
    ],
  ] as const)("%s: a value other than true/false is refused", async (_, call, operation, argument) => {
    await expectRefused(call, operation, argument, /must be (one of "true", "false"|a string)/);
  });
});

describe("bodies: required fields and types", () => {
  const cases: [string, () => RainbondPromise<unknown>, string, string, RegExp][] = [
    [
      "ports.add without port",
      () => client.ports.add(component, { protocol: "http" } as never),
      "ports.add",
      "body.port",
      /is required$/,
    ],
    [
      "ports.add without a body",
      () => client.ports.add(component, undefined as never),
      "ports.add",
      "body",
      /is required$/,
    ],
    [
      "ports.add with a null body",
      () => client.ports.add(component, null as never),
      "ports.add",
      "body",
      /must be an object \(got null\)/,
    ],
    [
      "ports.update without action",
      () => client.ports.update(component, 8080, {} as never),
      "ports.update",
      "body.action",
      /is required$/,
    ],
    [
      "ports.update without a body",
      () => client.ports.update(component, 8080, undefined as never),
      "ports.update",
      "body",
      /is required$/,
    ],
    [
      "gateway.createHttpRule without container_port",
      () => client.gateway.createHttpRule(app, { service_id: "s" } as never),
      "gateway.createHttpRule",
      "body.container_port",
      /is required$/,
    ],
    [
      "gateway.createHttpRule with a string container_port",
      () =>
        client.gateway.createHttpRule(app, { service_id: "s", container_port: "80" as never, domain_name: "a.org" }),
      "gateway.createHttpRule",
      "body.container_port",
      /must be an integer \(got "80"\)/,
    ],
    [
      "gateway.createRule without protocol",
      () => client.gateway.createRule(app, { tcp: { service_id: "s", container_port: 1 } } as never),
      "gateway.createRule",
      "body.protocol",
      /is required$/,
    ],
    [
      "gateway.createRule tcp without container_port",
      () => client.gateway.createRule(app, { protocol: "tcp", tcp: { service_id: "s" } } as never),
      "gateway.createRule",
      "body.tcp.container_port",
      /is required$/,
    ],
    [
      "gateway.updateHttpRule with a body lacking service_id",
      () => client.gateway.updateHttpRule(app, "r1", { domain_path: "/" } as never),
      "gateway.updateHttpRule",
      "body.service_id",
      /is required$/,
    ],
    [
      "gateway.updateHttpRule with a wrong rule_extensions",
      () => client.gateway.updateHttpRule(app, "r1", { service_id: "s", rule_extensions: [1] as never }),
      "gateway.updateHttpRule",
      "body.rule_extensions[0]",
      /must be a string \(got 1\)/,
    ],
    [
      "teams.resources with an object",
      () => client.teams.resources({ tenant_id: "t", region_name: "r" } as never),
      "teams.resources",
      "list",
      /must be an array/,
    ],
    [
      "teams.resources without tenant_id",
      () => client.teams.resources([{ tenant_id: "t", region_name: "r" }, { region_name: "r" } as never]),
      "teams.resources",
      "list[1].tenant_id",
      /is required$/,
    ],
    [
      "teams.resources without a list",
      () => client.teams.resources(undefined as never),
      "teams.resources",
      "list",
      /is required$/,
    ],
  ];
  for (const field of Object.keys(installBody)) {
    const { [field]: _, ...body } = installBody as Record<string, string>;
    cases.push([
      `apps.install without ${field}`,
      () => client.apps.install(app, body as never),
      "apps.install",
      `body.${field}`,
      /is required$/,
    ]);
  }
  it.each(cases)("%s is refused", async (_, call, operation, argument, rule) => {
    await expectRefused(call, operation, argument, rule);
  });
});

describe("monitor.queryRange: the time-range rules", () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    [
      "start = end",
      { start: NOW, end: NOW },
      "options.start",
      /must be before options\.end \(got 1763000000 >= 1763000000\)/,
    ],
    ["start > end", { start: NOW, end: NOW - 60 }, "options.start", /must be before options\.end/],
    [
      "start > end as Dates",
      { start: new Date(NOW * 1000), end: new Date(NOW * 1000 - 60_000) },
      "options.start",
      // shown as given: the Dates' ISO times, not the Unix seconds they are sent as
      /must be before options\.end \(got 2025-11-13T02:13:20\.000Z >= 2025-11-13T02:12:20\.000Z\)$/,
    ],
    [
      "start as a Date, end in seconds",
      { start: new Date(NOW * 1000), end: NOW - 60 },
      "options.start",
      /must be before options\.end \(got 2025-11-13T02:13:20\.000Z >= 1762999940\)$/,
    ],
    ["step = 0", { start: NOW - 60, end: NOW, step: 0 }, "options.step", /must be greater than 0 \(got 0\)/],
    ["step < 0", { start: NOW - 60, end: NOW, step: -60 }, "options.step", /must be greater than 0 \(got -60\)/],
    [
      "start in milliseconds",
      { start: (NOW - 60) * 1000, end: NOW },
      "options.start",
      /looks like milliseconds \(1762999940000\); pass Unix seconds or a Date/,
    ],
    ["end in milliseconds", { start: NOW - 60, end: NOW * 1000 }, "options.end", /looks like milliseconds/],
    ["both in milliseconds", { start: Date.now() - 60_000, end: Date.now() }, "options.start", /milliseconds/],
    [
      "11,001 points",
      { start: NOW - 11_001 * 60, end: NOW, step: 60 },
      "options.step",
      /gives 11001 points per series, over the limit of 11000: use a step of at least 61 s/,
    ],
    [
      "a day at a 1 s step",
      { start: NOW - 86_400, end: NOW, step: 1 },
      "options.step",
      /over the limit of 11000: use a step of at least 8 s/,
    ],
    [
      "the default step over a year",
      { start: NOW - 365 * 86_400, end: NOW },
      "options.step",
      /gives 525600 points per series/,
    ],
    ["no start", { end: NOW }, "options.start", /is required$/],
    ["no end", { start: NOW }, "options.end", /is required$/],
    ["a negative start", { start: -60, end: 60 }, "options.start", /must be at least 0/],
    ["an invalid Date", { start: new Date("soon"), end: NOW }, "options.start", /is an invalid Date$/],
    ["a NaN start", { start: Number.NaN, end: NOW }, "options.start", /must be a number \(got NaN\)/],
    [
      "an infinite end",
      { start: NOW, end: Number.POSITIVE_INFINITY },
      "options.end",
      /must be a number \(got Infinity\)/,
    ],
    ["a string start", { start: String(NOW - 60), end: NOW }, "options.start", /must be a number/],
  ];
  it.each(cases)("%s is refused", async (_, options, argument, rule) => {
    await expectRefused(() => client.monitor.queryRange(app, options as never), "monitor.queryRange", argument, rule);
  });
  it("exactly 11,000 points and Dates in range pass", async () => {
    for (const options of [
      { start: NOW - 11_000 * 60, end: NOW, step: 60 },
      { start: new Date((NOW - 3600) * 1000), end: new Date(NOW * 1000), step: 15 },
    ]) {
      const before = counter.calls.length;
      await expect(client.monitor.queryRange(app, options, { retries: 0 })).rejects.not.toBeInstanceOf(
        RainbondInputError,
      );
      expect(counter.calls.length).toBe(before + 1);
      const sent = new URL(counter.calls.pop()!.url);
      expect(sent.searchParams.get("start")).toBe(String(options.start instanceof Date ? NOW - 3600 : NOW - 660_000));
    }
  });
});

describe("options", () => {
  it.each([
    ["regions.listForTeam", () => client.regions.listForTeam("t1", { pagesize: 10 } as never), "options.pagesize"],
    ["regions.listForTeam", () => client.regions.listForTeam("t1", { page_size: 10 } as never), "options.page_size"],
    ["regions.get", () => client.regions.get("r1", { extend_info: true } as never), "options.extend_info"],
    ["apps.list", () => client.apps.list(region, { q: "shop" } as never), "options.q"],
    ["monitor.query", () => client.monitor.query(app, { outer: true } as never), "options.outer"],
    ["monitor.query", () => client.monitor.query(app, { timeoutMs: 100 } as never), "options.timeoutMs"],
    [
      "monitor.queryRange",
      () => client.monitor.queryRange(app, { start: NOW - 60, end: NOW, resolution: 5 } as never),
      "options.resolution",
    ],
    [
      "gateway.listEnterpriseHttpRules",
      () => client.gateway.listEnterpriseHttpRules({ auto_ssl: true } as never),
      "options.auto_ssl",
    ],
    ["apps.install", () => client.apps.install(app, installBody, { isDeploy: true } as never), "options.isDeploy"],
  ] as const)("%s: an unknown option key (%#) is refused", async (operation, call, argument) => {
    await expectRefused(call, operation, argument, /is not an option of this method$/);
  });

  it.each([
    [{ page: 0 }, "options.page"],
    [{ page: -1 }, "options.page"],
    [{ page: "1a" }, "options.page"],
    [{ pageSize: 0 }, "options.pageSize"],
  ])("regions.listForTeam: %j is refused", async (options, argument) => {
    await expectRefused(
      () => client.regions.listForTeam("t1", options as never),
      "regions.listForTeam",
      argument,
      /must be a positive integer/,
    );
  });
  it("regions.listForTeam: a fractional page is refused", async () => {
    await expectRefused(
      () => client.regions.listForTeam("t1", { page: 1.5 }),
      "regions.listForTeam",
      "options.page",
      /must be an integer \(got 1\.5\)/,
    );
  });
  it("a string holding a lone surrogate is refused (no URL can carry it), in a query and in a body", async () => {
    const rule = /must be well-formed Unicode \(it holds a lone surrogate/;
    await expectRefused(() => client.apps.list(region, { query: "shop\ud800" }), "apps.list", "options.query", rule);
    await expectRefused(
      () =>
        client.gateway.createHttpRule(app, { service_id: "s", container_port: 80, domain_name: "a\udc00.example.org" }),
      "gateway.createHttpRule",
      "body.domain_name",
      rule,
    );
  });
  it("options that are not an object are refused", async () => {
    await expectRefused(() => client.apps.list(region, "shop" as never), "apps.list", "options", /must be an object$/);
  });
});

describe("call options", () => {
  it.each([
    [{ timeoutMs: 0 }, "timeoutMs", /must be at least 1 \(got 0\)/],
    [{ timeoutMs: 0.5 }, "timeoutMs", /must be at least 1 \(got 0\.5\)/],
    [{ timeoutMs: -5 }, "timeoutMs", /must be at least 1 \(got -5\)/],
    [{ timeoutMs: Number.POSITIVE_INFINITY }, "timeoutMs", /must be a number \(got Infinity\)/],
    [{ timeoutMs: 2 ** 31 }, "timeoutMs", /must be at most 2147483647/],
    [{ timeoutMs: "100" }, "timeoutMs", /must be a number \(got "100"\)/],
    [{ retries: -1 }, "retries", /must be at least 0 \(got -1\)/],
    [{ retries: 1.5 }, "retries", /must be an integer \(got 1\.5\)/],
    [{ retries: 1e9 }, "retries", /must be at most 10 \(got 1000000000\)/],
    [{ signal: "stop" }, "signal", /must be an AbortSignal/],
    [{ signal: {} }, "signal", /must be an AbortSignal/],
    [{ timeout: 100 }, "timeout", /is not one of timeoutMs, retries, signal/],
    [{ retry: 3 }, "retry", /is not one of timeoutMs, retries, signal/],
    ["fast", "call options", /must be an object/],
  ])("%j is refused", async (call, argument, rule) => {
    await expectRefused(() => client.components.get(component, call as never), "components.get", argument, rule);
  });

  it("the client's options are checked when it is made", () => {
    const make = (extra: Record<string, unknown>) => () =>
      createRainbondClient({ baseUrl: "http://127.0.0.1:1", token: "t", ...extra });
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ baseUrl: "127.0.0.1:7070" }, "baseUrl", /must be an http\(s\) URL/],
      [{ baseUrl: "ftp://127.0.0.1" }, "baseUrl", /must be an http\(s\) URL: the console's origin/],
      [{ baseUrl: "http://127.0.0.1/#" }, "baseUrl", /without credentials, query or fragment/],
      [{ baseUrl: "http://127.0.0.1/?" }, "baseUrl", /without credentials, query or fragment/],
      [{ baseUrl: "http://127.0.0.1:7070/openapi/v1" }, "baseUrl", /paths already carry \/openapi\/v1/],
      [{ token: "" }, "token", /must be a non-empty string/],
      [{ token: "tok en" }, "token", /visible ASCII characters/],
      [{ token: "tökén-секрет" }, "token", /visible ASCII characters/], // fetch could not send it
      [{ headers: "x-a: 1" }, "headers", /must be an object/],
      [{ headers: { "bad name": "x" } }, 'headers["bad name"]', /is not a valid HTTP header/],
      [
        { headers: { "x-proxy-auth": "secret-value\nInjected: 1" } },
        'headers["x-proxy-auth"]',
        /not a valid HTTP header/,
      ],
      [{ timeoutMs: 0 }, "timeoutMs", /must be at least 1/],
      [{ retries: -1 }, "retries", /must be at least 0/],
      [{ retries: 1e9 }, "retries", /must be at most 10/],
      [{ logLevel: "verbose" }, "logLevel", /must be one of "off", "error", "warn", "info", "debug"/],
      [{ retryDelay: { baseMs: -1 } }, "retryDelay.baseMs", /must be at least 0/],
      [{ retryDelay: { base: 1 } }, "retryDelay.base", /is not one of baseMs, maxMs, retryAfterCapMs/],
      [{ timeoutMS: 100 }, "timeoutMS", /is not one of baseUrl, token, fetch, headers, timeoutMs, retries, retryDelay/],
      [{ fetch: "x" }, "fetch", /must be a function/],
      [{ logger: {} }, "logger.error", /is required/],
      [{ logger: { ...console, warn: 1 } }, "logger.warn", /must be a function/],
      [{ middleware: {} }, "middleware", /must be an array/],
      [{ middleware: [{ onRequest: "x" }] }, "middleware[0].onRequest", /must be a function/],
      [
        { headers: { "Transfer-Encoding": "chunked" } },
        'headers["Transfer-Encoding"]',
        /is set by the client or by fetch/,
      ],
    ];
    for (const [extra, argument, rule] of cases) {
      expect(make(extra)).toThrow(RainbondInputError);
      expect(make(extra)).toThrow(rule);
      try {
        make(extra)();
      } catch (err) {
        expect(err).toMatchObject({ operation: "createRainbondClient", argument });
        // neither the token nor a header's value is ever shown
        for (const secret of ["tok en", "секрет", "secret-value"]) expect(String(err)).not.toContain(secret);
      }
    }
  });
});

describe("refusals are promises, like answers", () => {
  it("a refused call never throws synchronously, and withResponse() rejects the same way", async () => {
    let promise: RainbondPromise<unknown> | undefined;
    expect(() => (promise = client.ports.delete(component, 0))).not.toThrow();
    await expect(promise!.withResponse()).rejects.toBeInstanceOf(RainbondInputError);
    await expect(client.components.get({ ...component, serviceId: ".." }).withResponse()).rejects.toMatchObject({
      argument: "component.serviceId",
    });
    expect(counter.calls).toEqual([]);
  });
});
