// The API diff on spec mutations: each change a maintainer may make to spec/ gives the level and the bump a user of
// this client should see, the client method it touches and the field or parameter it concerns. In memory: each case
// bundles nothing and spawns nothing (see helpers.ts), so the whole file runs in seconds.
import { describe, expect, test } from "vitest";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { changelogMarkdown, clientMethods, toJson } from "../../../scripts/api-diff/index.ts";
import { base, diffOf, lines, param, PORTS, RANGE, securePortsList, type Doc } from "./helpers.js";

interface Case {
  name: string;
  mutate: (doc: Doc) => void;
  bump: "major" | "minor" | "patch";
  /** Lines the changes must include ("level methods: message"). */
  expected: string[];
}

/** ports.update and the shortcuts that call its operation, as `lines` names them. */
const UPDATE =
  "ports.update,ports.openOuter,ports.closeOuter,ports.openInner,ports.closeInner,ports.changeProtocol,ports.changeAlias," +
  "ports.onlyOpenOuter";
/** regions.listForTeam and its iterator. */
const LIST_REGIONS = "regions.listForTeam,regions.iterateForTeam";
const schemas = (doc: Doc) => doc.components.schemas;
const port = (doc: Doc) => schemas(doc).Port!;

const cases: Case[] = [
  {
    name: "a response field is removed",
    mutate: (doc) => {
      delete port(doc).properties!.k8s_service_name;
      port(doc).required = port(doc).required!.filter((f) => f !== "k8s_service_name");
    },
    bump: "major",
    expected: [
      "breaking ports.list: response 200 field `[].k8s_service_name` removed",
      "breaking ports.add: response 200 field `k8s_service_name` removed",
    ],
  },
  {
    name: "a response field is renamed",
    mutate: (doc) => {
      const props = port(doc).properties!;
      props.k8s_name = props.k8s_service_name!;
      delete props.k8s_service_name;
      port(doc).required = port(doc).required!.map((f) => (f === "k8s_service_name" ? "k8s_name" : f));
    },
    bump: "major",
    expected: [
      "breaking ports.list: response 200 field `[].k8s_service_name` removed",
      "non-breaking ports.list: new response 200 field `[].k8s_name`",
    ],
  },
  {
    name: "a request field becomes required",
    mutate: (doc) => void schemas(doc).AddPortBody!.required!.push("port_alias"),
    bump: "major",
    expected: ["breaking ports.add: request body field `port_alias` now required"],
  },
  {
    name: "a parameter becomes required",
    mutate: (doc) => void (param(doc, RANGE, "get", "step").required = true),
    bump: "major",
    expected: ["breaking monitor.queryRange: query parameter `step` now required"],
  },
  {
    name: "a parameter's type narrows (number -> integer)",
    mutate: (doc) => void (param(doc, RANGE, "get", "step").schema.type = "integer"),
    bump: "major",
    expected: ["breaking monitor.queryRange: query parameter `step`: type `number` -> `integer`"],
  },
  {
    name: "a request enum loses a value",
    mutate: (doc) => void schemas(doc).UpdatePortBody!.properties!.action!.enum!.pop(),
    bump: "major",
    expected: [`breaking ${UPDATE}: request body field \`action\`: value \`only_open_outer\` removed`],
  },
  {
    name: "a request enum gains a value",
    mutate: (doc) => void schemas(doc).UpdatePortBody!.properties!.action!.enum!.push("restart"),
    bump: "minor",
    expected: [`non-breaking ${UPDATE}: request body field \`action\`: new value \`restart\``],
  },
  {
    name: "a response enum gains a value (an exhaustive switch no longer compiles)",
    mutate: (doc) => void schemas(doc).TeamRegionsResp!.properties!.status!.enum!.push("4"),
    bump: "major",
    expected: [`breaking ${LIST_REGIONS}: response 200 field \`regions[].status\`: new value \`4\``],
  },
  {
    name: "a response enum loses a value",
    mutate: (doc) => void schemas(doc).TeamRegionsResp!.properties!.status!.enum!.pop(),
    bump: "major",
    expected: [`breaking ${LIST_REGIONS}: response 200 field \`regions[].status\`: value \`3\` removed`],
  },
  {
    name: "an operation is added",
    mutate: (doc) => {
      doc.paths["/openapi/v1/ping"] = {
        get: { operationId: "ping", summary: "Ping", responses: { "200": { description: "The console answers." } } },
      };
    },
    bump: "minor",
    expected: ["non-breaking ping: new operation `GET /openapi/v1/ping`"],
  },
  {
    name: "an operation is removed",
    mutate: (doc) => void delete doc.paths[PORTS]!.get,
    bump: "major",
    expected: [`breaking ports.list: operation \`GET ${PORTS}\` removed`],
  },
  {
    name: "a security requirement is added",
    mutate: (doc) => securePortsList(doc, [{ ApiToken: [], Signature: [] }]),
    bump: "major",
    expected: ["breaking ports.list: security: `ApiToken` -> `ApiToken` and `Signature`"],
  },
  {
    name: "a security requirement is removed",
    mutate: (doc) => void (doc.paths[PORTS]!.get!.security = []),
    bump: "minor",
    expected: ["non-breaking ports.list: security: `ApiToken` -> none"],
  },
  {
    name: "a parameter's default changes",
    mutate: (doc) => void (param(doc, RANGE, "get", "step").schema.default = 30),
    bump: "major",
    expected: ["breaking monitor.queryRange: query parameter `step`: default `60` -> `30`"],
  },
  {
    name: "only a description changes",
    mutate: (doc) => void (doc.paths[PORTS]!.get!.description = "Lists the ports of a component."),
    bump: "patch",
    expected: ["docs ports.list: description of operation changed"],
  },
  {
    name: "only an example changes",
    mutate: (doc) => {
      const media = doc.paths[PORTS]!.get!.responses["200"]!.content!["application/json"]!;
      (media.example as { container_port: number }[])[0]!.container_port = 9090;
    },
    bump: "patch",
    expected: ["docs ports.list: example of response 200 changed"],
  },
  {
    name: "a response field is added",
    mutate: (doc) => void (port(doc).properties!.is_public = { type: "boolean" }),
    bump: "minor",
    expected: ["non-breaking ports.list: new response 200 field `[].is_public`"],
  },
  {
    name: "an optional query parameter is added",
    mutate: (doc) =>
      void doc.paths[RANGE]!.get!.parameters!.push({ name: "q", in: "query", schema: { type: "string" } }),
    bump: "minor",
    expected: ["non-breaking monitor.queryRange: new query parameter `q`"],
  },
  {
    name: "a response field may now be null",
    mutate: (doc) => void (port(doc).properties!.port_alias!.type = ["string", "null"]),
    bump: "major",
    expected: ["breaking ports.list: response 200 field `[].port_alias`: type `string` -> `string | null`"],
  },
  {
    name: "the document's description changes",
    mutate: (doc) => void (doc.info.description = "The Rainbond console's management interface."),
    bump: "patch",
    expected: ["docs -: info.description changed"],
  },
];

describe("spec mutations give the expected level and bump", () => {
  test("there are at least 15 of them", () => expect(cases.length).toBeGreaterThanOrEqual(15));

  test.each(cases)("$name: $bump", async ({ mutate, bump, expected }) => {
    const result = await diffOf(mutate);
    expect(result.bump).toBe(bump);
    expect(lines(result.changes)).toEqual(expect.arrayContaining(expected));
  });

  test("no change: bump none, no changes, and the changelog says so", async () => {
    const result = await diffOf(() => {});
    expect(result).toEqual({ bump: "none", changes: [] });
    expect(changelogMarkdown(result)).toBe("No API changes.\n");
  });
});

describe("the output", () => {
  test("--json: bump and changes with level, operationId, methods, path and message only", async () => {
    const result = await diffOf((doc) => {
      delete port(doc).properties!.k8s_service_name;
      doc.paths[PORTS]!.get!.description = "Other words.";
    });
    const json = JSON.parse(toJson(result)) as { bump: string; changes: Record<string, unknown>[] };
    expect(json.bump).toBe("major");
    expect(json.changes).toContainEqual({
      level: "breaking",
      operationId: "listComponentPorts",
      methods: ["ports.list"],
      path: PORTS,
      message: "response 200 field `[].k8s_service_name` removed",
    });
    for (const change of json.changes) {
      expect(Object.keys(change).sort()).toEqual(["level", "message", "methods", "operationId", "path"]);
    }
    expect(json.changes.map((c) => c.level)).toEqual([...json.changes.map((c) => c.level)].sort());
  });

  test("Markdown: Breaking, Added, Changed, Docs only in that order; one line per message, naming the methods", async () => {
    const result = await diffOf((doc) => {
      delete port(doc).properties!.k8s_service_name; // breaking, in four operations
      port(doc).properties!.is_public = { type: "boolean" }; // added
      doc.paths[PORTS]!.get!.deprecated = true; // changed
      doc.paths[RANGE]!.get!.description = "Other words."; // docs
    });
    const markdown = changelogMarkdown(result);
    const headings = markdown.split("\n").filter((l) => /^\*\*/.test(l));
    expect(headings).toEqual(["**Breaking**", "**Added**", "**Changed**", "**Docs only**"]);
    const update = UPDATE.split(",").map((name) => `\`${name}\``);
    expect(markdown).toContain(
      `- \`ports.add\`, \`ports.delete\`, ${update.join(", ")}: response 200 field \`k8s_service_name\` removed\n`,
    );
    expect(markdown).toContain("- `ports.list`: response 200 field `[].k8s_service_name` removed\n");
    expect(markdown).toContain("- `ports.list`: operation deprecated\n");
    expect(markdown).toContain("- `monitor.queryRange`: description of operation changed\n");
  });

  test("a removed Port field names every method that answers a Port, the port shortcuts included", async () => {
    const result = await diffOf((doc) => void delete port(doc).properties!.k8s_service_name);
    const named = result.changes.flatMap((change) => change.methods);
    expect(new Set(named)).toEqual(new Set(["ports.list", "ports.add", "ports.delete", ...UPDATE.split(",")]));
  });

  test("a tree without generated/table.json (a ref from before it) names no methods", () => {
    expect(clientMethods(tmpdir())).toEqual(new Map());
  });

  test("a tree from before the one table names its methods from generated/methods.json", () => {
    const dir = mkdtempSync(join(tmpdir(), "rainbond-api-diff-methods-"));
    mkdirSync(join(dir, "generated"));
    writeFileSync(
      join(dir, "generated/methods.json"),
      JSON.stringify([{ name: "ports.list", operationId: "listComponentPorts" }]),
    );
    expect(clientMethods(dir)).toEqual(new Map([["listComponentPorts", ["ports.list"]]]));
  });

  test("an operation no client method calls is named by its operationId", async () => {
    const result = await diffOf((doc) => {
      doc.paths["/openapi/v1/ping"] = { get: { operationId: "ping", responses: { "200": { description: "ok" } } } };
    });
    expect(changelogMarkdown(result)).toContain("- `ping` (no client method): new operation `GET /openapi/v1/ping`");
  });

  test("the base spec is left as it was", () => {
    expect(base.components.schemas.Port!.properties!.k8s_service_name).toBeDefined();
  });
});
