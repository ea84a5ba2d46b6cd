// `npm run verify -- --overlay <file>` (scripts/verify/overlay.ts): against a stand-in console that departs from the
// spec, verify writes overlay actions, each with its target in the spec, an update or a remove, and a description of
// what was seen, no secret among them; applied with openapi-format to a copy of the spec, verify then finds nothing
// against the same stand-in.
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openapiOverlay, parseFile } from "openapi-format";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readSpec } from "../../scripts/lib/spec.ts";
import { main } from "../../scripts/verify/main.ts";
import type { Overlay } from "../../scripts/verify/overlay.ts";
import { verify } from "../../scripts/verify/run.ts";
import { startValidator, validatorSpec, type Validator } from "../../scripts/verify/validator.ts";
import { root } from "../helpers/readme.js";
import { departing } from "./departing.js";
import { KEY_FILE, REGION_TOKEN, TOKEN, ids, startStandIn, type StandIn } from "./stand-in.js";

let standIn: StandIn;
let dir: string;
/** Prism's proxy over the project's spec, for the runs that check against it. */
let validator: Validator;
beforeAll(async () => {
  const started = [
    startStandIn(),
    mkdtemp(join(tmpdir(), "verify-overlay-")),
    startValidator(validatorSpec(readSpec(root))),
  ] as const;
  [standIn, dir, validator] = await Promise.all(started);
});
afterAll(async () => {
  await Promise.all([standIn?.close(), validator?.stop(), rm(dir, { recursive: true, force: true })]);
});

const given = ["--team", ids.team, "--region", ids.region, "--app", String(ids.app), "--component", ids.component];

/** main() in this process, through the validator over the project's spec: exit code and what it wrote. */
async function runMain(args: string[]) {
  const out = { code: 0, stdout: "", stderr: "" };
  const write = (stream: "stdout" | "stderr") => ({ write: (text: string) => (out[stream] += text) });
  const io = { stdout: write("stdout"), stderr: write("stderr") };
  out.code = await main(args, { RAINBOND_TOKEN: TOKEN }, io, root, validator);
  return out;
}

describe("--overlay against a console that departs from the spec", () => {
  let overlay: Overlay;
  let stderr: string;
  let text: string;
  beforeAll(async () => {
    standIn.drift = departing;
    const file = join(dir, "found.yaml");
    const run = await runMain(["--base-url", standIn.url, ...given, "--write", "--overlay", file]);
    expect(run.code).toBe(1);
    stderr = run.stderr;
    text = await readFile(file, "utf8");
    overlay = (await parseFile(file)) as unknown as Overlay;
  }, 60_000);

  const action = (target: string) => overlay.actions.find((a) => a.target === target);
  /** The action that adds the field `name` to the properties at `target`. */
  const adding = (target: string, name: string) =>
    overlay.actions.find((a) => a.target === target && name in (a.update as object));

  test("an Overlay 1.0 document in YAML, said on stderr in one line", () => {
    expect(overlay.overlay).toBe("1.0.0");
    expect(overlay.info.title).toBe(
      `What npm run verify found at ${new URL(standIn.url).origin} that the spec 1.0.0 does not say`,
    );
    expect(text).toMatch(/^overlay: 1\.0\.0$/m);
    expect(overlay.actions).toHaveLength(16); // the departures of departing.ts, one action each
    expect(stderr).toMatch(
      /^verify: wrote 16 overlay action\(s\) to .*found\.yaml, to review and add to the spec's overlay\n$/,
    );
  });

  test("an extra field: one action adds it to its schema's properties, with the type that came", () => {
    const port = adding("$.components.schemas.Port.properties", "mapping_port");
    expect(port?.update).toEqual({
      mapping_port: { type: "integer", description: "Sent by the console; not in the interface's document." },
    });
    // one action for the four port operations that sent it, each named with its status and where it came
    expect(port?.description).toBe(
      "Port.mapping_port: a field the spec does not declare. Seen in " +
        "listComponentPorts (200) at $.data.list[0].mapping_port, addComponentPort (200) at $.data.bean.mapping_port, " +
        "updateComponentPort (200) at $.data.bean.mapping_port, deleteComponentPort (200) at $.data.bean.mapping_port.",
    );
    expect(adding("$.components.schemas.Port.properties", "lb_mapping_port")).toBeDefined();
    const component = "$.components.schemas.ServiceBaseInfo.properties";
    expect(adding(component, "arch")?.update).toMatchObject({ arch: { type: "string" } });
    expect(adding(component, "build_strategy")?.update).not.toHaveProperty("build_strategy.type"); // null: no type
    expect(adding("$.components.schemas.AppBaseInfo.properties", "owner_team")?.update).toMatchObject({
      owner_team: { type: "object" },
    });
  });

  test("null in a string field: the field's type gains null", () => {
    expect(action("$.components.schemas.RegionInfoR.properties.url")).toEqual({
      target: "$.components.schemas.RegionInfoR.properties.url",
      description: "RegionInfoR.url: came null where the spec says must be string. Seen in getRegion (200) at $.url.",
      update: { type: ["string", "null"] },
    });
    expect(action("$.components.schemas.EnterpriseHTTPGatewayRule.properties.auto_ssl_config")?.update).toEqual({
      type: ["string", "null"],
    });
  });

  test("another type, an enum value, a format: the type joined, the value added, the keyword removed", () => {
    expect(action("$.components.schemas.ListTeamRegionsResp.properties.total")?.update).toEqual({
      type: ["integer", "string"],
    });
    expect(action("$.components.schemas.HTTPGatewayRule.properties.type")?.update).toEqual({ enum: [2] });
    expect(action("$.components.schemas.AppBaseInfo.properties.create_time.format")).toMatchObject({
      remove: true,
      description:
        'AppBaseInfo.create_time: came a string that fails `format` (must match format "date-time"). ' +
        "Seen in listApps (200) at $[0].create_time.",
    });
  });

  test("a missing required field: removed from the schema's required", () => {
    expect(action("$.components.schemas.ServiceBaseInfo.required[?@ == 'service_key']")).toMatchObject({
      remove: true,
      description:
        "ServiceBaseInfo.service_key: missing, though the spec requires it. Seen in getComponent (200) at $.service_key.",
    });
  });

  test("undeclared statuses: a 2xx like the declared one, an error with the errors' body", () => {
    const resources = action("$.paths['/openapi/v1/teams/resource'].post.responses")?.update as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(resources["202"].content["application/json"].schema).toEqual({
      type: "array",
      items: { $ref: "#/components/schemas/TeamAppsResource" },
    });
    const monitor = overlay.actions.find((a) => a.target.endsWith("monitor/query'].get.responses"));
    expect(monitor?.description).toBe(
      "queryComponentMonitor status: a status the spec does not declare for the operation. " +
        "Seen in queryComponentMonitor (418) at status.",
    );
    expect(monitor?.update).toMatchObject({
      "418": { content: { "application/json": { schema: { $ref: "#/components/schemas/ConsoleError" } } } },
    });
  });

  test("no secret in the file: the key's field is declared, its value never written", () => {
    expect(adding("$.components.schemas.RegionInfoR.properties", "key_backup")?.update).toMatchObject({
      key_backup: { type: "string" },
    });
    for (const secret of [TOKEN, REGION_TOKEN, "MIIEstandinSECRET", KEY_FILE.split("\n")[0]!]) {
      expect(text).not.toContain(secret);
    }
  });

  test("applied to a copy of the spec, verify finds nothing against the same stand-in", async () => {
    const { data, resultData } = await openapiOverlay(structuredClone(readSpec(root)), { overlaySet: overlay });
    expect(resultData.unusedActions).toEqual([]); // every target is in the spec
    const project = join(dir, "project");
    await mkdir(join(project, "generated"), { recursive: true });
    await writeFile(join(project, "generated/openapi.json"), JSON.stringify(data));
    const options = { baseUrl: standIn.url, token: TOKEN, write: true, json: false, overlay: join(dir, "again.yaml") };
    const again = await verify(
      { ...options, team: ids.team, region: ids.region, app: ids.app, component: ids.component },
      project,
    );
    expect(again.deviations).toEqual([]);
    expect(again.exitCode).toBe(0);
    expect(again.overlay?.overlay.actions).toEqual([]);
  }, 60_000);
});

describe("--overlay: what is not written", () => {
  /** A run of main against the stand-in drifting by `drift`, writing its overlay to `name` in the temp folder. */
  async function overlayRun(name: string, drift?: StandIn["drift"]) {
    standIn.drift = drift;
    const file = join(dir, name);
    const run = await runMain(["--base-url", standIn.url, ...given, "--overlay", file]);
    return { ...run, written: await readFile(file, "utf8").catch(() => undefined) };
  }

  test("a console that conforms: no file, and stderr says so", async () => {
    const { code, stderr, written } = await overlayRun("clean.yaml");
    expect(code).toBe(0);
    expect(written).toBeUndefined();
    expect(stderr).toMatch(/^verify: no overlay action to write, .*clean\.yaml not written\n$/);
  }, 60_000);

  test("an action that would show a secret is withheld; a body that is not JSON is left to the maintainer", async () => {
    const { code, stderr, written } = await overlayRun("secret.json", (op, reply) => {
      if (op === "listApps") (reply.body as Record<string, unknown>[])[0]![TOKEN] = 1; // the token as a field's name
      if (op === "listTeamRegions") (reply.body as Record<string, number>).total = 1.5; // a number, written as such
      if (op === "getComponent") return { body: "<html>upgrading</html>", headers: { "content-type": "text/html" } };
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^verify: wrote 1 overlay action\(s\) to .*secret\.json, .*; 1 withheld, as they would show a secret; 1 deviation\(s\) no action describes, to fix by hand \(see the report\)\n$/,
    );
    const overlay = JSON.parse(written!) as Overlay; // JSON, for a .json file
    expect(overlay.actions).toEqual([
      expect.objectContaining({
        target: "$.components.schemas.ListTeamRegionsResp.properties.total",
        update: { type: ["integer", "number"] },
      }),
    ]);
    expect(written).not.toContain(TOKEN);
  }, 60_000);
});
