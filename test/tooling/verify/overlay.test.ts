// `npm run verify -- --overlay <file>` (scripts/verify/overlay.ts): against a stand-in console that departs from the
// spec (departing.ts), verify writes overlay actions, each with its target in the spec, an update or a remove, and a
// description of what was seen, no secret among them; added to a copy of the spec's overlay, `npm run generate` there,
// verify finds nothing against the same stand-in.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseFile, stringify } from "openapi-format";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generate } from "../../../scripts/generate.ts";
import { OVERLAY_FILE, applyOverlay, bundleSpec, readSpec, type JsonObject } from "../../../scripts/lib/spec.ts";
import { USAGE, UsageError, main, parseOptions } from "../../../scripts/verify/main.ts";
import { overlayOf, type Overlay } from "../../../scripts/verify/overlay.ts";
import { verify } from "../../../scripts/verify/run.ts";
import { startValidator, validatorSpec, type Validator } from "../../../scripts/verify/validator.ts";
import { root } from "../../helpers/readme.js";
import { departing } from "./departing.js";
import {
  KEY_FILE,
  REGION_TOKEN,
  TOKEN,
  ids,
  inUse,
  startConsoleStandIn,
  type ConsoleStandIn,
} from "../../helpers/console/stand-in.js";

let standIn: ConsoleStandIn;
let dir: string;
/** Prism's proxy over the project's spec, for the runs that check against it. */
let validator: Validator;
beforeAll(async () => {
  const started = [
    startConsoleStandIn().then(inUse),
    mkdtemp(join(tmpdir(), "verify-overlay-")),
    startValidator(validatorSpec(readSpec(root))),
  ] as const;
  [standIn, dir, validator] = await Promise.all(started);
});
afterAll(async () => {
  await Promise.all([standIn?.close(), validator?.stop(), rm(dir, { recursive: true, force: true })]);
});

const given = { team: ids.team, region: ids.region, app: ids.app, component: ids.component };
const args = Object.entries(given).flatMap(([name, value]) => [`--${name}`, String(value)]);

/** main() in this process, through the validator over the project's spec: exit code and what it wrote. */
async function runMain(argv: string[]) {
  const out = { code: 0, stdout: "", stderr: "" };
  const write = (stream: "stdout" | "stderr") => ({ write: (text: string) => (out[stream] += text) });
  const io = { stdout: write("stdout"), stderr: write("stderr") };
  out.code = await main(argv, { RAINBOND_TOKEN: TOKEN }, io, root, validator);
  return out;
}

describe("the option", () => {
  const env = { RAINBOND_TOKEN: TOKEN };
  test("--overlay <file> is the file to write; without its file it is refused; the usage shows it", () => {
    expect(parseOptions(["--base-url", "http://c", "--overlay", "found.yaml"], env)?.overlay).toBe("found.yaml");
    expect(parseOptions(["--base-url", "http://c"], env)?.overlay).toBeUndefined();
    expect(() => parseOptions(["--base-url", "http://c", "--overlay"], env)).toThrow(UsageError);
    expect(USAGE).toContain("[--overlay <file.yaml>]");
  });
});

describe("--overlay against a console that departs from the spec", () => {
  let overlay: Overlay;
  let stderr: string;
  let text: string;
  beforeAll(async () => {
    standIn.drift = departing;
    const file = join(dir, "found.yaml");
    const run = await runMain(["--base-url", standIn.url, ...args, "--write", "--overlay", file]);
    expect(run.code).toBe(1);
    stderr = run.stderr;
    text = await readFile(file, "utf8");
    overlay = (await parseFile(file)) as unknown as Overlay;
  });

  const action = (target: string) => overlay.actions.find((a) => a.target === target);
  /** The action that adds the field `name` to the properties at `target`. */
  const adding = (target: string, name: string) =>
    overlay.actions.find((a) => a.target === target && name in (a.update as object));

  test("an Overlay 1.1 document in YAML, like the spec's, said on stderr in one line", () => {
    expect(overlay.overlay).toBe("1.1.0");
    expect(overlay.info.title).toBe(
      `What npm run verify found at ${new URL(standIn.url).origin} that the spec 1.0.0 does not say`,
    );
    expect(text).toMatch(/^overlay: 1\.1\.0$/m);
    expect(overlay.actions).toHaveLength(12); // the departures of departing.ts, one action each
    expect(stderr).toMatch(
      /^verify: wrote 12 overlay action\(s\) to .*found\.yaml, to review and add to spec\/console\.overlay\.yaml\n$/,
    );
  });

  test("an extra field: one action adds it to its schema's properties, with the type that came", () => {
    const port = adding("$.components.schemas.Port.properties", "port_weight");
    expect(port?.update).toEqual({
      port_weight: { type: "integer", description: "Sent by the console; not in the interface's document." },
    });
    // one action for the four port operations that sent it, each named with its status and where it came
    expect(port?.description).toBe(
      "`Port.port_weight`: a field the spec does not declare. Seen in " +
        "`listComponentPorts` (200) at `$.data.list[0].port_weight`, `addComponentPort` (200) at `$.data.bean.port_weight`, " +
        "`updateComponentPort` (200) at `$.data.bean.port_weight`, `deleteComponentPort` (200) at `$.data.bean.port_weight`.",
    );
    const component = "$.components.schemas.ServiceBaseInfo.properties";
    expect(adding(component, "gpu_model")?.update).toMatchObject({ gpu_model: { type: "string" } });
    expect(adding(component, "lifecycle")?.update).not.toHaveProperty("lifecycle.type"); // null: no type
    expect(adding("$.components.schemas.AppBaseInfo.properties", "owner_team")?.update).toMatchObject({
      owner_team: { type: "object" },
    });
  });

  test("null in a string field: the field's type gains null", () => {
    expect(action("$.components.schemas.RegionInfoR.properties.region_alias")).toEqual({
      target: "$.components.schemas.RegionInfoR.properties.region_alias",
      description:
        "`RegionInfoR.region_alias`: came null where the spec says must be string. Seen in `getRegion` (200) at `$.region_alias`.",
      // what the departures page reads of the action, as verify knows it
      "x-meets": "The console's answer departs from the spec: came null where the spec says must be string.",
      "x-client": expect.stringMatching(/^The spec follows the console: /),
      "x-evidence": [
        expect.stringMatching(
          /^npm run verify against http:\/\/127\.0\.0\.1:\d+: getRegion \(200\) at \$\.region_alias$/,
        ),
      ],
      update: { type: ["string", "null"] },
    });
    expect(action("$.components.schemas.EnterpriseHTTPGatewayRule.properties.domain_cookie")?.update).toEqual({
      type: ["string", "null"],
    });
  });

  test("another type, a value the enum lacks: the type joined, the value added", () => {
    expect(action("$.components.schemas.ListTeamRegionsResp.properties.total")?.update).toEqual({
      type: ["integer", "string"],
    });
    expect(action("$.components.schemas.HTTPGatewayRule.properties.type")).toMatchObject({
      update: { enum: [2] },
      description:
        "`HTTPGatewayRule.type`: came a value its enum lacks. Seen in `listAppHttpRules` (200) at `$[0].type`.",
    });
  });

  test("a missing required field: removed from the schema's required", () => {
    expect(action("$.components.schemas.ServiceBaseInfo.required[?@ == 'service_key']")).toEqual({
      target: "$.components.schemas.ServiceBaseInfo.required[?@ == 'service_key']",
      description:
        "`ServiceBaseInfo.service_key`: missing, though the spec requires it. Seen in `getComponent` (200) at `$.service_key`.",
      "x-meets": "The console's answer departs from the spec: missing, though the spec requires it.",
      "x-client": expect.stringMatching(/^The spec follows the console: /),
      "x-evidence": [expect.stringMatching(/: getComponent \(200\) at \$\.service_key$/)],
      remove: true,
    });
  });

  test("undeclared statuses: a 2xx like the declared one, an error with the errors' body", () => {
    const resources = action("$.paths['/openapi/v1/teams/resource'].post.responses")?.update as JsonObject;
    expect(resources["202"]).toMatchObject({
      content: {
        "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/TeamAppsResource" } } },
      },
    });
    const monitor = overlay.actions.find((a) => a.target.endsWith("monitor/query'].get.responses"));
    expect(monitor?.description).toBe(
      "`queryComponentMonitor status`: a status the spec does not declare for the operation. " +
        "Seen in `queryComponentMonitor` (418) at `status`.",
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

  test("added to a copy of the spec's overlay and generated there, verify finds nothing against the stand-in", async () => {
    const project = join(dir, "project");
    await cp(join(root, "spec"), join(project, "spec"), { recursive: true });
    const file = join(project, "spec", OVERLAY_FILE);
    const maintained = (await parseFile(file)) as unknown as Overlay;
    const actions = [...maintained.actions, ...overlay.actions];
    await writeFile(file, await stringify({ ...maintained, actions }));
    const outDir = join(project, "generated");
    await generate({ specRoot: join(project, "spec/openapi.yaml"), outDir, brief: true }); // lints, then applies
    const again = await verify({ ...given, baseUrl: standIn.url, token: TOKEN, write: true, json: false }, project);
    expect(again.deviations).toEqual([]);
    expect(again.exitCode).toBe(0);
  }, 120_000);
});

describe("--overlay: what is not written", () => {
  /** A run of main against the stand-in drifting by `drift`, writing its overlay to `name` in the temp folder. */
  async function overlayRun(name: string, drift?: ConsoleStandIn["drift"]) {
    standIn.drift = drift;
    const file = join(dir, name);
    const run = await runMain(["--base-url", standIn.url, ...args, "--overlay", file]);
    return { ...run, written: await readFile(file, "utf8").catch(() => undefined) };
  }

  test("a console that conforms: no file, and stderr says so", async () => {
    const { code, stderr, written } = await overlayRun("clean.yaml");
    expect(code).toBe(0);
    expect(written).toBeUndefined();
    expect(stderr).toMatch(/^verify: no overlay action to write, .*clean\.yaml not written\n$/);
  });

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
  });
});

describe("a value that fails a keyword of its schema", () => {
  test("the keyword is removed: a time without a UTC offset against the transcription's date-time", async () => {
    const transcription = await bundleSpec(join(root, "spec/openapi.yaml"), { overlay: false });
    const path = "/openapi/v1/teams/{team_id}/regions/{region_name}/apps";
    // a listApps answer as judge.ts reports it, the time as the measured console sends it (finding 22)
    const came = { kind: "value", value: "2026-11-27T00:24:07.806917", key: "create_time" } as const;
    const deviation = { path: "$[0].create_time", schema: "AppBaseInfo", field: "create_time", came };
    const deviations = [{ ...deviation, expected: 'must match format "date-time"' }];
    const result = {
      operationId: "listApps",
      method: "GET",
      path,
      outcome: "deviates",
      status: 200,
      deviations,
    } as const;
    const { overlay } = overlayOf(transcription, [result], [], "http://127.0.0.1:7070");
    expect(overlay.actions).toEqual([
      {
        target: "$.components.schemas.AppBaseInfo.properties.create_time.format",
        description:
          '`AppBaseInfo.create_time`: came a string that fails `format` (must match format "date-time"). ' +
          "Seen in `listApps` (200) at `$[0].create_time`.",
        "x-meets":
          'The console\'s answer departs from the spec: came a string that fails `format` (must match format "date-time").',
        "x-client": expect.stringMatching(/^The spec follows the console: /),
        "x-evidence": ["npm run verify against http://127.0.0.1:7070: listApps (200) at $[0].create_time"],
        remove: true,
      },
    ]);
    const applied = (await applyOverlay(transcription, overlay)) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(applied.components.schemas.AppBaseInfo.properties.create_time).toEqual({
      type: "string",
      description: expect.any(String),
    });
  });
});
