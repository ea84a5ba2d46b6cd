// Property-based tests (fast-check) over the inputs of every method: all 17 operations and the port action helpers.
// Each generated value is tagged valid or invalid by what the spec says (the console's [\w-]+ ids, appId a
// non-negative integer, ports 1..65535, enums, required members, types, the range-query rules). For each input:
//   - if any part is invalid, the call rejects with a RainbondInputError and sends nothing (a counting fetch);
//   - if every part is valid, exactly one request goes to the Prism mock of the spec, which accepts it
//     (2xx, no `sl-violations` header).
// Every method must see both kinds of input. PROPERTY_REPORT=1 prints how many cases ran, method by method.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  RainbondError,
  RainbondInputError,
  createRainbondClient,
  type RainbondClient,
  type RainbondPromise,
} from "../../src/index.js";
import { countingFetch } from "../helpers/faults/server.js";

const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 100);

/** A generated value, and whether the spec allows it. */
interface Tagged<V = unknown> {
  value: V;
  ok: boolean;
}
type Arb<V = unknown> = fc.Arbitrary<Tagged<V>>;

const good = <V>(arb: fc.Arbitrary<V>): Arb<V> => arb.map((value) => ({ value, ok: true }));
const bad = (arb: fc.Arbitrary<unknown>): Arb => arb.map((value) => ({ value, ok: false }));
/** Mostly valid values, sometimes invalid ones. */
const mix = <V>(valid: fc.Arbitrary<V>, invalid: fc.Arbitrary<unknown>, validWeight = 8): Arb =>
  fc.oneof({ arbitrary: good(valid) as Arb, weight: validWeight }, { arbitrary: bad(invalid), weight: 1 });
const ABSENT = Symbol("absent");

/**
 * An object of tagged members. A required member is sometimes left out (invalid); an optional one is present or not.
 * `unknownKeys` (for options objects, which take only their own keys) sometimes adds a key the method does not know.
 * `replacements`, rarely, stand for the whole object (null, an array, a string: invalid).
 */
function object(
  required: Record<string, Arb>,
  optional: Record<string, Arb> = {},
  { unknownKeys = [] as string[], replacements = [] as unknown[] } = {},
): Arb<Record<string, unknown>> {
  const members: Record<string, fc.Arbitrary<Tagged | typeof ABSENT>> = {};
  for (const [key, arb] of Object.entries(required)) {
    members[key] = fc.oneof({ arbitrary: arb, weight: 30 }, { arbitrary: fc.constant(ABSENT), weight: 1 });
  }
  for (const [key, arb] of Object.entries(optional)) {
    members[key] = fc.oneof({ arbitrary: arb, weight: 1 }, { arbitrary: fc.constant(ABSENT), weight: 1 });
  }
  const unknown: fc.Arbitrary<string | undefined> = unknownKeys.length
    ? fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 12 },
        { arbitrary: fc.constantFrom(...unknownKeys), weight: 1 },
      )
    : fc.constant(undefined);
  const built: Arb<Record<string, unknown>> = fc.tuple(fc.record(members), unknown).map(([record, extra]) => {
    const value: Record<string, unknown> = {};
    let ok = extra === undefined;
    for (const [key, member] of Object.entries(record)) {
      if (member === ABSENT) {
        if (key in required) ok = false;
        continue;
      }
      value[key] = member.value;
      ok &&= member.ok;
    }
    if (extra !== undefined) value[extra] = 1;
    return { value, ok };
  });
  if (!replacements.length) return built;
  return fc.oneof(
    { arbitrary: built, weight: 25 },
    { arbitrary: bad(fc.constantFrom(...replacements)) as Arb<Record<string, unknown>>, weight: 1 },
  );
}

/** Options are optional as a whole: undefined is fine. */
const optionalArg = <V>(arb: Arb<V>): Arb<V | undefined> =>
  fc.oneof({ arbitrary: arb, weight: 4 }, { arbitrary: good(fc.constant(undefined)), weight: 1 });

// ---- values ------------------------------------------------------------------------------------------------------
// Word characters of several scripts (the console's [\w-]: letters and digits of any script, "_" and "-").
const WORD = [..."abcdefxyzABCXYZ0123456789_-", "é", "ß", "Ж", "团", "队", "٣", "ǅ", "𝐀", "ㄱ", "ñ"];
const validId = fc.string({ unit: fc.constantFrom(...WORD), minLength: 1, maxLength: 12 });
const nonWord = fc
  .oneof(
    fc.constantFrom(".", "/", " ", "%", "?", "#", "\t", "\n", "\u0301", "~", "+", ":", "@", "&", "=", "\\"),
    fc.string({ unit: "binary", minLength: 1, maxLength: 2 }),
  )
  .filter((s) => !/^[\p{L}\p{N}_-]+$/u.test(s));
const nonFinite = fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY);
const fraction = fc.oneof(fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }), nonFinite);
const id = mix(
  validId,
  fc.oneof(
    fc.constantFrom("", ".", "..", "%2e", "a b", "../admin", "a/b"),
    fc
      .tuple(validId, nonWord, fc.string({ unit: fc.constantFrom(...WORD), maxLength: 4 }))
      .map(([a, b, c]) => a + b + c),
    fc.constantFrom(undefined, null, true, {}, []),
    fraction,
  ),
);
const appId = mix(
  fc.oneof(fc.nat({ max: 10_000 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
  fc.oneof(fc.integer({ max: -1 }), fraction, fc.constantFrom(undefined, null, "twelve", true, "")),
);
const portNumber = fc.integer({ min: 1, max: 65_535 });
const port = mix(
  fc.oneof(portNumber, portNumber.map(String)),
  fc.oneof(
    fc.integer({ max: 0 }),
    fc.integer({ min: 65_536, max: 10_000_000 }),
    fraction,
    fc.constantFrom("0", "080", "65536", "", "http", "80 ", undefined, null, true),
  ),
);
const PROTOCOLS = ["tcp", "http", "mysql", "grpc", "udp"] as const;
const ACTIONS = [
  "open_outer",
  "close_outer",
  "open_inner",
  "close_inner",
  "change_protocol",
  "change_port_alias",
  "only_open_outer",
] as const;
const protocol = mix(
  fc.constantFrom(...PROTOCOLS),
  fc.oneof(fc.constantFrom("TCP", "https", "ftp", "", 80, null), fc.string({ minLength: 6 })),
);
const action = mix(
  fc.constantFrom(...ACTIONS),
  fc.oneof(fc.constantFrom("open", "OPEN_OUTER", "delete", "", 1, null), fc.string({ minLength: 12 })),
);
const text = mix(fc.string({ maxLength: 20 }), fc.constantFrom(1, true, null, {}, [], "bad\ud800"), 20);
/** A port's k8s_service_name: the console's DNS label of at most 63 characters. */
const dnsLabel = mix(
  fc.stringMatching(/^[a-z]([-a-z0-9]{0,20}[a-z0-9])?$/),
  fc.constantFrom("", "Web", "web_1", "-web", "web-", 1, null, `a${"b".repeat(63)}`),
  10,
);
/** Free text in a query: numbers are fine there too (sent as their digits). */
const queryText = mix(
  fc.oneof(fc.string({ unit: "binary", maxLength: 12 }), fc.integer()),
  fc.constantFrom(false, null, {}, [], "\udfff"),
  20,
);
const unicodeText = mix(fc.string({ unit: "binary", maxLength: 12 }), fc.constantFrom(7, false, null, "\udfff"), 20);
const integer = mix(fc.integer(), fc.oneof(fraction, fc.constantFrom("80", null, true)), 20);
const bool = mix(fc.boolean(), fc.constantFrom("true", 1, null), 20);
/** A query flag: the spec takes the strings "true"/"false"; the client takes booleans too. */
const flag = mix(
  fc.oneof(fc.boolean(), fc.constantFrom("true", "false")),
  fc.constantFrom("yes", "TRUE", 1, 0, null, ""),
);
/** A positive integer for page and page_size: a number or its digits. */
const positive = mix(
  fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 1_000_000 }).map(String)),
  fc.oneof(fc.integer({ max: 0 }), fraction, fc.constantFrom("01", "1a", "", " 1", null)),
);
const array = <V>(item: Arb<V>, maxLength = 3): Arb<V[]> =>
  fc.array(item, { maxLength }).map((items) => ({ value: items.map((i) => i.value), ok: items.every((i) => i.ok) }));

const regionScope = object({ teamId: id, regionName: id }, {}, { replacements: [null, "q8k2mz5d", []] });
const appScope = object({ teamId: id, regionName: id, appId }, {}, { replacements: [null, 12] });
const componentScope = object(
  { teamId: id, regionName: id, appId, serviceId: id },
  {},
  { replacements: [null, "gr3f9c2a"] },
);

const httpRuleFields = {
  certificate_id: integer,
  domain_name: text,
  domain_cookie: text,
  domain_header: text,
  the_weight: integer,
  domain_path: text,
  rule_extensions: array(text),
  whether_open: bool,
  auto_ssl: bool,
  auto_ssl_config: text,
};
const keyValue = object({ key: text, value: text });
const configuration = object(
  {},
  {
    proxy_body_size: integer,
    proxy_buffer_numbers: integer,
    proxy_buffer_size: integer,
    proxy_buffering: text,
    proxy_connect_timeout: integer,
    proxy_read_timeout: integer,
    proxy_send_timeout: integer,
    set_headers: array(keyValue),
  },
  { replacements: ["big", []] },
);
const { domain_name: _, ...withoutDomain } = httpRuleFields;
const httpRuleBody = object(
  { service_id: text, container_port: integer, domain_name: text },
  { ...withoutDomain, configuration },
  { replacements: [null, []] },
);
const tcpRuleBody = object(
  { container_port: integer, service_id: text, end_point: text, default_port: integer, default_ip: text },
  { rule_extensions: array(keyValue) },
  { replacements: [null, "tcp"] },
);

/** The range query's options, tagged by the rules: seconds in [0, 99999999999], start < end, step > 0, ≤ 11,000 points. */
const NOW = 1_763_000_000;
const seconds = fc.oneof(
  fc.integer({ min: NOW - 400 * 86_400, max: NOW + 86_400 }),
  fc.integer({ min: 0, max: 99_999_999_999 }),
  fc.double({ min: 0, max: 4e9, noNaN: true }),
);
const timestamp = fc.oneof(
  { arbitrary: seconds, weight: 8 },
  { arbitrary: seconds.map((s) => new Date(Math.round(s * 1000))), weight: 2 },
  { arbitrary: fc.integer({ min: 100_000_000_000, max: 4_000_000_000_000 }), weight: 1 }, // milliseconds
  {
    arbitrary: fc.constantFrom<unknown>(
      -60,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      "1763000000",
      null,
      new Date("never"),
    ),
    weight: 1,
  },
);
const rangeOptions: Arb<Record<string, unknown>> = fc
  .record(
    {
      start: timestamp,
      // Mostly a span of 1 to 11,500 steps (around the limit of 11,000 points), sometimes none or a huge one.
      points: fc.integer({ min: 1, max: 11_500 }),
      span: fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 6 },
        fc.integer({ min: -3600, max: 0 }),
        fc.integer({ min: 1, max: 2e9 }),
      ),
      step: fc.oneof(
        { arbitrary: fc.integer({ min: 1, max: 3_600 }), weight: 6 },
        { arbitrary: fc.double({ min: 0.001, max: 600, noNaN: true }), weight: 2 },
        { arbitrary: fc.constantFrom<unknown>(0, -15, Number.NaN, "60"), weight: 1 },
      ),
      isOuter: fc.boolean(),
      omit: fc.constantFrom("none", "none", "none", "none", "none", "none", "step", "step", "isOuter", "start", "end"),
    },
    { requiredKeys: ["start", "points", "span", "step", "omit"] },
  )
  .map(({ start, points, span: fixedSpan, step, isOuter, omit }) => {
    const span = fixedSpan ?? points * (typeof step === "number" && step > 0 ? step : 60);
    const startS = start instanceof Date ? Math.floor(start.getTime() / 1000) : start;
    const end =
      start instanceof Date ? new Date(start.getTime() + span * 1000) : typeof start === "number" ? start + span : NOW;
    const value: Record<string, unknown> = { start, end, step, isOuter };
    if (omit !== "none") delete value[omit];
    if (isOuter === undefined) delete value.isOuter;
    const endS = value.end instanceof Date ? Math.floor(value.end.getTime() / 1000) : value.end;
    const stepS = "step" in value ? value.step : 60;
    const inRange = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 99_999_999_999;
    const ok =
      "start" in value &&
      "end" in value &&
      inRange(startS) &&
      inRange(endS) &&
      typeof stepS === "number" &&
      Number.isFinite(stepS) &&
      stepS > 0 &&
      (startS as number) < (endS as number) &&
      ((endS as number) - (startS as number)) / stepS <= 11_000;
    return { value, ok };
  });

// ---- the methods -------------------------------------------------------------------------------------------------
type Call = (client: RainbondClient, args: unknown[]) => RainbondPromise<unknown>;
/** Each method: its arguments' generators, and how to call it. `as never`: invalid values are the point. */
const methods: [name: string, args: Arb[], call: Call][] = [
  [
    "regions.listForTeam",
    [
      id,
      optionalArg(
        object(
          {},
          { page: positive, pageSize: positive },
          // query: the console answers 500 to any, so the client refuses it (the console overlay)
          { unknownKeys: ["page_size", "size", "timeoutMs", "query"] },
        ),
      ),
    ],
    (c, [t, o]) => c.regions.listForTeam(t as never, o as never),
  ],
  [
    "regions.get",
    [id, optionalArg(object({}, { extendInfo: flag }, { unknownKeys: ["extend_info"] }))],
    (c, [r, o]) => c.regions.get(r as never, o as never),
  ],
  ["ports.list", [componentScope], (c, [s]) => c.ports.list(s as never)],
  [
    "ports.add",
    [
      componentScope,
      object({ port }, { protocol, port_alias: text, is_inner_service: bool }, { replacements: [null, [], 8080] }),
    ],
    (c, [s, b]) => c.ports.add(s as never, b as never),
  ],
  [
    "ports.update",
    [
      componentScope,
      port,
      // the console crashes on change_port_alias without k8s_service_name: the client requires it then
      object(
        { action },
        { protocol, port_alias: text, k8s_service_name: dnsLabel },
        { replacements: [null, "open_outer"] },
      ).map(({ value, ok }) => ({
        value,
        ok: ok && !(value?.action === "change_port_alias" && !("k8s_service_name" in value)),
      })),
    ],
    (c, [s, p, b]) => c.ports.update(s as never, p as never, b as never),
  ],
  ["ports.delete", [componentScope, port], (c, [s, p]) => c.ports.delete(s as never, p as never)],
  ["ports.openOuter", [componentScope, port], (c, [s, p]) => c.ports.openOuter(s as never, p as never)],
  ["ports.closeOuter", [componentScope, port], (c, [s, p]) => c.ports.closeOuter(s as never, p as never)],
  ["ports.openInner", [componentScope, port], (c, [s, p]) => c.ports.openInner(s as never, p as never)],
  ["ports.closeInner", [componentScope, port], (c, [s, p]) => c.ports.closeInner(s as never, p as never)],
  [
    "ports.changeProtocol",
    [componentScope, port, protocol],
    (c, [s, p, x]) => c.ports.changeProtocol(s as never, p as never, x as never),
  ],
  [
    "ports.changeAlias",
    [
      componentScope,
      port,
      object({ port_alias: text, k8s_service_name: dnsLabel }, {}, { replacements: [null, "WEB"] }),
    ],
    (c, [s, p, a]) => c.ports.changeAlias(s as never, p as never, a as never),
  ],
  [
    "gateway.listEnterpriseHttpRules",
    [optionalArg(object({}, { autoSsl: flag }, { unknownKeys: ["auto_ssl"] }))],
    (c, [o]) => c.gateway.listEnterpriseHttpRules(o as never),
  ],
  [
    "gateway.updateHttpRule",
    [
      appScope,
      id,
      fc.oneof(
        {
          arbitrary: object(
            { service_id: text },
            { container_port: integer, ...httpRuleFields },
            { replacements: [null, []] },
          ),
          weight: 4,
        },
        { arbitrary: good(fc.constant(undefined)), weight: 1 },
      ),
    ],
    (c, [s, r, b]) => c.gateway.updateHttpRule(s as never, r as never, b as never),
  ],
  [
    "gateway.createRule",
    [appScope, object({ protocol: text }, { tcp: tcpRuleBody, http: httpRuleBody }, { replacements: [null, "tcp"] })],
    (c, [s, b]) => c.gateway.createRule(s as never, b as never),
  ],
  ["gateway.createHttpRule", [appScope, httpRuleBody], (c, [s, b]) => c.gateway.createHttpRule(s as never, b as never)],
  ["gateway.listHttpRules", [appScope], (c, [s]) => c.gateway.listHttpRules(s as never)],
  [
    "monitor.query",
    [appScope, optionalArg(object({}, { isOuter: flag }, { unknownKeys: ["is_outer", "outer"] }))],
    (c, [s, o]) => c.monitor.query(s as never, o as never),
  ],
  ["monitor.queryRange", [appScope, rangeOptions], (c, [s, o]) => c.monitor.queryRange(s as never, o as never)],
  [
    "teams.resources",
    [
      fc.oneof(
        {
          arbitrary: array(object({ tenant_id: unicodeText, region_name: text }, {}, { replacements: [null, "t"] }), 4),
          weight: 10,
        },
        { arbitrary: bad(fc.constantFrom(undefined, null, {}, "team")), weight: 1 },
      ),
    ],
    (c, [l]) => c.teams.resources(l as never),
  ],
  [
    "apps.list",
    [regionScope, optionalArg(object({}, { query: queryText }, { unknownKeys: ["q", "name"] }))],
    (c, [s, o]) => c.apps.list(s as never, o as never),
  ],
  [
    "apps.install",
    [
      appScope,
      object(
        {
          market_url: text,
          market_domain: text,
          market_type: text,
          market_access_key: mix(fc.oneof(fc.string({ maxLength: 20 }), fc.constant(null)), fc.constantFrom(1, {}), 20),
          app_model_id: unicodeText,
          app_model_version: text,
        },
        {},
        { replacements: [null, []] },
      ),
      optionalArg(object({}, { deploy: flag }, { unknownKeys: ["is_deploy"] })),
    ],
    (c, [s, b, o]) => c.apps.install(s as never, b as never, o as never),
  ],
  ["components.get", [componentScope], (c, [s]) => c.components.get(s as never)],
];

// ---- the property ------------------------------------------------------------------------------------------------
let client: RainbondClient;
let counter: ReturnType<typeof countingFetch>;
const tally = new Map<string, { sent: number; refused: number }>();

beforeAll(() => {
  counter = countingFetch();
  client = createRainbondClient({
    baseUrl: inject("prismUrl"),
    token: "prop-token",
    fetch: counter.fetch,
    retries: 0,
    logLevel: "off",
  });
});

afterAll(() => {
  if (!process.env.PROPERTY_REPORT) return; // npm test prints nothing of its own
  const rows = [...tally].map(
    ([name, { sent, refused }]) =>
      `  ${name.padEnd(32)} ${String(sent + refused).padStart(4)} cases: ${sent} sent and accepted by Prism, ${refused} refused`,
  );
  const total = [...tally.values()].reduce((sum, t) => sum + t.sent + t.refused, 0);
  const sent = [...tally.values()].reduce((sum, t) => sum + t.sent, 0);
  console.log(
    `property cases: ${total} in all over ${tally.size} methods (${sent} sent to Prism, ${total - sent} refused)\n${rows.join("\n")}`,
  );
});

describe("every input either is refused before any request, or makes a request the spec's mock accepts", () => {
  it("covers all 17 operations and the 6 port action helpers", () => {
    expect(methods.map(([name]) => name).sort()).toEqual(
      [
        "apps.install",
        "apps.list",
        "components.get",
        "gateway.createHttpRule",
        "gateway.createRule",
        "gateway.listEnterpriseHttpRules",
        "gateway.listHttpRules",
        "gateway.updateHttpRule",
        "monitor.query",
        "monitor.queryRange",
        "ports.add",
        "ports.changeAlias",
        "ports.changeProtocol",
        "ports.closeInner",
        "ports.closeOuter",
        "ports.delete",
        "ports.list",
        "ports.openInner",
        "ports.openOuter",
        "ports.update",
        "regions.get",
        "regions.listForTeam",
        "teams.resources",
      ].sort(),
    );
  });

  for (const [name, args, call] of methods) {
    it(name, async () => {
      const counts = { sent: 0, refused: 0 };
      tally.set(name, counts);
      await fc.assert(
        fc.asyncProperty(fc.tuple(...args), async (tagged) => {
          const values = tagged.map((t) => t.value);
          const valid = tagged.every((t) => t.ok);
          const before = counter.calls.length;
          let outcome: { response: Response } | { error: unknown };
          try {
            outcome = await call(client, values).withResponse();
          } catch (error) {
            outcome = { error };
          }
          const sent = counter.calls.length - before;
          if ("error" in outcome) {
            const { error } = outcome;
            // Anything but an input error (an API error from Prism, a TypeError) is a failure, with its message.
            if (!(error instanceof RainbondInputError))
              throw error instanceof RainbondError ? error : new Error(`not a RainbondError: ${String(error)}`);
            expect(sent, "a refused input sent a request").toBe(0);
            expect(valid, `a valid input was refused: ${error.message}`).toBe(false);
            expect(error.operation).toMatch(/^(ports|regions|gateway|monitor|teams|apps|components)\./);
            counts.refused++;
          } else {
            const { response } = outcome;
            expect(valid, "an invalid input was sent").toBe(true);
            expect(sent).toBe(1);
            expect(response.status).toBeGreaterThanOrEqual(200);
            expect(response.status).toBeLessThan(300);
            expect(response.headers.get("sl-violations")).toBeNull();
            counts.sent++;
          }
        }),
        { numRuns: NUM_RUNS },
      );
      expect(counts.sent + counts.refused).toBe(NUM_RUNS);
      // Both sides were exercised: some inputs went out, some were refused.
      expect(counts.sent, "no input was valid").toBeGreaterThan(0);
      expect(counts.refused, "no input was invalid").toBeGreaterThan(0);
    });
  }
});
