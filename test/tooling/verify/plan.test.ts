// What verify sends comes from the one table (generated/table.json) and the spec's marks alone (issue 37): the ids
// the generator carries (x-rainbond-id, x-rainbond-undo) and refuses when wrong, the order of the reads, where each id
// is taken from and within what, the requests made from the spec, and no operation named in scripts/verify/.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { clientTable } from "../../../scripts/codegen/client-table.ts";
import { tableOf } from "../../../scripts/codegen/table.ts";
import { readTable } from "../../../scripts/lib/methods.ts";
import { readSpec, type JsonObject } from "../../../scripts/lib/spec.ts";
import * as plan from "../../../scripts/verify/plan.ts";
import { root } from "../../helpers/readme.js";

const table = readTable(root);
const op = (id: string) => table.operations[id]!;

describe("the table says where ids are and what undoes a create", () => {
  test("every id with the path parameters that scope it", () => {
    expect(table.ids).toMatchObject({
      team_id: [],
      region_name: ["team_id"],
      app_id: ["team_id", "region_name"],
      service_id: ["team_id", "region_name", "app_id"],
      tenant_id: [], // a body member the spec marks as an id: no path holds it
      user_id: [],
    });
  });

  test("where an answer holds ids: a field named as one, or marked", () => {
    expect(op("listEnterpriseHttpRules").answerIds).toEqual([
      {
        at: ["[]"],
        fields: expect.objectContaining({
          team_name: ["team_id"], // marked: the console takes a team by its name
          region_name: ["region_name"],
          app_id: ["app_id"],
          service_id: ["service_id"],
          http_rule_id: ["rule_id"],
        }),
      },
    ]);
    // `certificate_id` of a rule is marked as holding none (0 where the rule has no certificate)
    expect(op("listEnterpriseHttpRules").answerIds![0]!.fields).not.toHaveProperty("certificate_id");
    expect(op("listTeams").answerIds).toEqual([
      { at: ["tenants", "[]"], fields: { tenant_id: ["team_id", "tenant_id"] } },
    ]);
  });

  test("the request the spec alone makes: ids, a time range's ends, examples", () => {
    expect(op("listTeamResources").sample).toEqual({
      body: { items: { members: { tenant_id: { id: "tenant_id" }, region_name: { id: "region_name" } } } },
    });
    expect(op("queryMonitorRange").sample.query).toMatchObject({
      region_name: { id: "region_name" },
      query: { example: expect.any(String) },
      start: { time: "start" },
      end: { time: "end" },
    });
  });

  test("a create that names its undo: the new id, the list of what exists, the changes", () => {
    expect(op("addComponentPort").creates).toEqual({
      undo: "deleteComponentPort",
      id: "port",
      list: "listComponentPorts",
      changes: ["updateComponentPort"],
    });
  });
});

describe("the generator refuses a mark that cannot be followed", () => {
  /** The table of the bundled spec after `change`, or the generator's refusal. */
  function tableAfter(change: (spec: JsonObject) => void) {
    const spec = structuredClone(readSpec(root));
    change(spec);
    return () => tableOf(spec as never, clientTable(spec as never));
  }
  const schemas = (spec: JsonObject) => (spec.components as JsonObject).schemas as Record<string, JsonObject>;
  const field = (spec: JsonObject, schema: string, name: string) =>
    (schemas(spec)[schema]!.properties as Record<string, JsonObject>)[name]!;
  const add = (spec: JsonObject) =>
    (
      (spec.paths as JsonObject)[
        "/openapi/v1/teams/{team_id}/regions/{region_name}/apps/{app_id}/services/{service_id}/ports"
      ] as JsonObject
    ).post as JsonObject;

  test("an id no request takes", () => {
    const made = tableAfter((spec) => (field(spec, "Port", "port_alias")["x-rainbond-id"] = "alias_id"));
    expect(made).toThrow(
      /Port\/properties\/port_alias: x-rainbond-id names `alias_id`, which no operation's request takes/,
    );
  });

  test("an undo that is no operation, or whose path is not the create's and the new id", () => {
    expect(tableAfter((spec) => (add(spec)["x-rainbond-undo"] = "removePort"))).toThrow(
      /`removePort`, which is no operation/,
    );
    expect(tableAfter((spec) => (add(spec)["x-rainbond-undo"] = "deleteComponent"))).toThrow(
      /deleteComponent's path must be this one's and the new id/,
    );
  });

  test("an undo whose new id the create's body does not require", () => {
    const made = tableAfter((spec) => (schemas(spec).AddPortBody!.required = []));
    expect(made).toThrow(/`port`, which deleteComponentPort takes, must be a required member of the body/);
  });
});

describe("the reads, in an order that finds ids before they are needed", () => {
  const reads = plan.readOperations(table);

  test("every operation whose effect is read, and no other", () => {
    const read = Object.values(table.operations).filter((o) => o.effect === "read");
    expect(reads.map((o) => o.operationId)).toEqual(read.map((o) => o.operationId));
    expect(reads.map((o) => o.operationId)).toContain("listTeamResources"); // a POST that only reads
  });

  test("the most specific first: a team's reads before the enterprise's once the team is known", () => {
    expect(plan.nextRead(reads, {})!.pathParams).toEqual([]);
    expect(plan.nextRead(reads, { team_id: "t1" })!.pathParams).toEqual(["team_id"]);
    const component = { team_id: "t1", region_name: "r", app_id: 1, service_id: "s1" };
    expect(plan.needs(plan.nextRead(reads, component)!)).toHaveLength(4);
  });

  test("what cannot be sent says why", () => {
    expect(plan.lacking(op("getComponent"), { team_id: "t1" })).toBe(
      "no region_name, app_id, service_id given or found",
    );
    expect(plan.lacking(op("listTeamResources"), { region_name: "r" })).toBe("no tenant_id given or found");
    expect(plan.lacking(op("getTeam"), { team_id: "t1" })).toBeUndefined();
  });

  test("a request from the spec: ids, the last ten minutes, examples", () => {
    const now = new Date("2026-01-01T00:10:00Z");
    const range = plan.requestOf(op("queryComponentMonitorRange"), { team_id: "t", region_name: "r", app_id: 1 }, now);
    expect(range).toEqual({
      path: { team_id: "t", region_name: "r", app_id: 1 },
      query: { start: new Date("2026-01-01T00:00:00Z"), end: now },
    });
    expect(plan.requestOf(op("listTeamResources"), { tenant_id: "t1", region_name: "r" }, now)).toEqual({
      path: {},
      body: [{ tenant_id: "t1", region_name: "r" }],
    });
  });
});

describe("ids found in answers, within the ids that scope them", () => {
  const rules = op("listEnterpriseHttpRules");
  const rule = (team: string, service: string) => ({
    team_name: team,
    region_name: "rainbond",
    app_id: 1,
    service_id: service,
    tenant_id: `tenant-of-${team}`,
    http_rule_id: `rule-${service}`,
  });

  test("nothing known: one record gives a team, its region, app and component", () => {
    const found = plan.idsFound(table, rules, {}, [rule("team1", "s1"), rule("team2", "s2")], {});
    expect(found).toMatchObject({ team_id: "team1", region_name: "rainbond", app_id: 1, service_id: "s1" });
  });

  test("a component of another team is not taken: the first of the team known", () => {
    const known = { team_id: "team2", region_name: "rainbond", app_id: 1 };
    const found = plan.idsFound(table, rules, {}, [rule("team1", "s1"), rule("team2", "s2")], known);
    expect(found).toMatchObject({ service_id: "s2", rule_id: "rule-s2" });
  });

  test("an id scoped by one the record lacks comes from the request: the regions of the team asked for", () => {
    const regions = { total: 1, regions: [{ region_id: "r-1", region_name: "rainbond" }] };
    expect(plan.idsFound(table, op("listTeamRegions"), { team_id: "t1" }, regions, { team_id: "t1" })).toEqual({
      region_id: "r-1",
      region_name: "rainbond",
    });
    // the enterprise's regions name no team: their names are not taken as a team's region
    const enterprise = plan.idsFound(table, op("listRegions"), {}, [{ region_id: "r-1", region_name: "x" }], {});
    expect(enterprise).toEqual({ region_id: "r-1" });
  });

  test("a value refused (a secret the run has seen) is passed over for the next", () => {
    const found = plan.idsFound(
      table,
      rules,
      {},
      [rule("s3cret", "s1"), rule("team2", "s2")],
      {},
      (v) => v === "s3cret",
    );
    expect(found).toMatchObject({ team_id: "team2", service_id: "s2" });
  });
});

test("no operation is named in scripts/verify/: what it sends comes from the table", () => {
  const dir = join(root, "scripts/verify");
  for (const file of readdirSync(dir)) {
    const text = readFileSync(join(dir, file), "utf8");
    const named = Object.keys(table.operations).filter((id) => new RegExp(`\\b${id}\\b`).test(text));
    expect(named, file).toEqual([]);
  }
});
