// Each rule of scripts/api-diff/rules.ts, on a spec change it is written for: the rule decides the level, and where
// it corrects api-smart-diff the library's own verdict was another one (so the rule is what makes the difference).
// Every rule has a case here; a change no rule speaks for keeps the library's verdict.
import { describe, expect, test } from "vitest";
import { RULES } from "../../../scripts/api-diff/index.ts";
import { diffOf, param, PORTS, RANGE, securePortsList, type Doc } from "./helpers.js";

interface RuleCase {
  rule: string | undefined;
  name: string;
  mutate: (doc: Doc) => void;
  /** The message of the change the case is about. */
  message: string;
  level: "breaking" | "non-breaking" | "docs";
  /** The library's verdict, where the rule corrects it. */
  library?: "breaking" | "non-breaking" | "docs";
}

const schemas = (doc: Doc) => doc.components.schemas;

const cases: RuleCase[] = [
  {
    rule: "examples-are-docs",
    name: "a response example changes",
    mutate: (doc) => {
      const media = doc.paths[PORTS]!.get!.responses["200"]!.content!["application/json"]!;
      (media.example as { protocol: string }[])[0]!.protocol = "tcp";
    },
    message: "example of response 200 changed",
    level: "docs",
    library: "non-breaking", // unclassified
  },
  {
    rule: "examples-are-docs",
    name: "a parameter's example changes",
    mutate: (doc) => void (param(doc, RANGE, "get", "start").example = 1763700000),
    message: "example of query parameter `start` changed",
    level: "docs",
  },
  {
    rule: "points-limit",
    name: "x-max-points-per-series is lowered",
    mutate: (doc) => void (doc.paths[RANGE]!.get!["x-max-points-per-series"] = 5000),
    message: "operation: x-max-points-per-series `11000` -> `5000`",
    level: "breaking",
    library: "docs",
  },
  {
    rule: "points-limit",
    name: "x-max-points-per-series is raised",
    mutate: (doc) => void (doc.paths[RANGE]!.get!["x-max-points-per-series"] = 20000),
    message: "operation: x-max-points-per-series `11000` -> `20000`",
    level: "non-breaking",
    library: "docs",
  },
  {
    rule: "sensitive-marks",
    name: "a field is no longer marked x-sensitive",
    mutate: (doc) => void delete schemas(doc).TeamRegionsResp!.properties!.token!["x-sensitive"],
    message: "response 200 field `regions[].token`: x-sensitive `true` -> none",
    level: "non-breaking",
  },
  {
    rule: "other-extensions-are-docs",
    name: "x-since marks a field",
    mutate: (doc) => void (schemas(doc).Port!.properties!.port_alias!["x-since"] = "5.17"),
    message: "response 200 field `[].port_alias`: x-since none -> `5.17`",
    level: "docs",
  },
  {
    rule: "other-extensions-are-docs",
    name: "an extension of components (x-console-envelope, read by npm run verify) changes",
    mutate: (doc) => {
      const components = doc.components as unknown as Record<string, { description?: string }>;
      components["x-console-envelope"]!.description = "The console's envelope.";
    },
    message: "x-console-envelope.description changed",
    level: "docs",
  },
  {
    rule: "response-enum-changes-break",
    name: "a response enum gains a value",
    mutate: (doc) => void schemas(doc).TeamRegionsResp!.properties!.status!.enum!.push("4"),
    message: "response 200 field `regions[].status`: new value `4`",
    level: "breaking",
  },
  {
    rule: "response-enum-changes-break",
    name: "a response enum loses a value",
    mutate: (doc) => void schemas(doc).TeamRegionsResp!.properties!.status!.enum!.pop(),
    message: "response 200 field `regions[].status`: value `3` removed",
    level: "breaking",
    library: "non-breaking",
  },
  {
    rule: "response-type-widens",
    name: "a response field may now be null",
    mutate: (doc) => void (schemas(doc).Port!.properties!.port_alias!.type = ["string", "null"]),
    message: "response 200 field `[].port_alias`: type `string` -> `string | null`",
    level: "breaking",
    library: "non-breaking",
  },
  {
    rule: "response-type-widens",
    name: "a response field's type narrows",
    mutate: (doc) => void (schemas(doc).TeamRegionsResp!.properties!.token!.type = "string"),
    message: "response 200 field `regions[].token`: type `string | null` -> `string`",
    level: "non-breaking",
  },
  {
    rule: "request-type-narrows",
    name: "a query parameter narrows from number to integer",
    mutate: (doc) => void (param(doc, RANGE, "get", "step").schema.type = "integer"),
    message: "query parameter `step`: type `number` -> `integer`",
    level: "breaking",
    library: "non-breaking",
  },
  {
    rule: "request-type-narrows",
    name: "a query parameter widens from number to number or string",
    mutate: (doc) => void (param(doc, RANGE, "get", "step").schema.type = ["number", "string"]),
    message: "query parameter `step`: type `number` -> `number | string`",
    level: "non-breaking",
  },
  {
    rule: "request-field-removed",
    name: "an optional request field is removed",
    mutate: (doc) => void delete schemas(doc).AddPortBody!.properties!.port_alias,
    message: "request body field `port_alias` removed",
    level: "breaking",
    library: "non-breaking",
  },
  {
    rule: "response-defaults-are-docs",
    name: "a response field gets a default",
    mutate: (doc) => void (schemas(doc).Port!.properties!.port_alias!.default = "PORT"),
    message: "response 200 field `[].port_alias`: default none -> `PORT`",
    level: "docs",
    library: "breaking",
  },
  {
    rule: "request-default-changed",
    name: "a parameter's default changes",
    mutate: (doc) => void (param(doc, RANGE, "get", "step").schema.default = 30),
    message: "query parameter `step`: default `60` -> `30`",
    level: "breaking",
  },
  {
    rule: "request-default-changed",
    name: "a parameter's default is stated where none was",
    mutate: (doc) => void (param(doc, RANGE, "get", "start").schema.default = 0),
    message: "query parameter `start`: default none -> `0`",
    level: "non-breaking",
  },
  {
    rule: "security-requirements",
    name: "an operation needs a second scheme",
    mutate: (doc) => securePortsList(doc, [{ ApiToken: [], Signature: [] }]),
    message: "security: `ApiToken` -> `ApiToken` and `Signature`",
    level: "breaking",
    library: "non-breaking",
  },
  {
    rule: "security-requirements",
    name: "an operation accepts another scheme as an alternative",
    mutate: (doc) => securePortsList(doc, [{ ApiToken: [] }, { Signature: [] }]),
    message: "security: `ApiToken` -> `ApiToken` or `Signature`",
    level: "non-breaking",
  },
  {
    rule: "security-requirements",
    name: "an operation needs no credential any more",
    mutate: (doc) => void (doc.paths[PORTS]!.get!.security = []),
    message: "security: `ApiToken` -> none",
    level: "non-breaking",
  },
  {
    rule: "security-scheme-changed",
    name: "the token goes in another header",
    mutate: (doc) => void (doc.components.securitySchemes.ApiToken!.name = "X-Api-Token"),
    message: "security scheme `ApiToken`: name `Authorization` -> `X-Api-Token`",
    level: "breaking",
  },
  {
    rule: "security-scheme-changed",
    name: "the scheme's description changes",
    mutate: (doc) => void (doc.components.securitySchemes.ApiToken!.description = "The API token."),
    message: "description of security scheme `ApiToken` changed",
    level: "docs",
  },
  {
    rule: "document-metadata-is-docs",
    name: "the servers change",
    mutate: (doc) => void ((doc as unknown as { servers: unknown[] }).servers = [{ url: "https://console.example" }]),
    message: "servers.0.url changed",
    level: "docs",
  },
  {
    rule: undefined,
    name: "no rule: a parameter becomes required keeps the library's verdict",
    mutate: (doc) => void (param(doc, RANGE, "get", "step").required = true),
    message: "query parameter `step` now required",
    level: "breaking",
  },
  {
    rule: undefined,
    name: "no rule: a description keeps the library's verdict (annotation: docs)",
    mutate: (doc) => void (doc.paths[PORTS]!.get!.description = "Other words."),
    message: "description of operation changed",
    level: "docs",
  },
];

describe("the rules correcting api-smart-diff for this client's users", () => {
  test.each(cases)("$rule: $name -> $level", async ({ rule, mutate, message, level, library }) => {
    const { changes } = await diffOf(mutate);
    const change = changes.find((c) => c.message === message);
    expect(change, `no change "${message}" in ${JSON.stringify(changes.map((c) => c.message))}`).toBeDefined();
    expect(change!.rule).toBe(rule);
    expect(change!.level).toBe(level);
    if (library) expect(change!.libraryLevel).toBe(library);
  });

  test("every rule has a case, and says why it exists", () => {
    expect(RULES.map((r) => r.name).filter((name) => !cases.some((c) => c.rule === name))).toEqual([]);
    for (const rule of RULES) expect(rule.why.length).toBeGreaterThan(20);
  });
});
