// `npm run verify` (scripts/verify/): against the Prism mock of the spec and against the console stand-in
// (test/helpers/console/stand-in.ts: the measured console, with the HTTP rule it had), 0 deviations; against the stand-in
// drifting, each drift reported by its
// JSON path, grouped by schema; --write's port sequence, whose delete is sent even when a step fails; secrets masked
// in the terminal, Markdown and JSON reports; and the command line's exit codes. One validator (the recording fetch,
// and Prism checking its answers offline) serves the in-process runs; the command-line runs start their own.
import { scriptArgs } from "../../../scripts/lib/script.ts";
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, test } from "vitest";
import { readSpec } from "../../../scripts/lib/spec.ts";
import { render, type Report } from "../../../scripts/verify/report.ts";
import { STALE_SPEC_WARNING, UsageError, main, parseOptions } from "../../../scripts/verify/main.ts";
import type { VerifyOptions } from "../../../scripts/verify/options.ts";
import { creates, readOperations } from "../../../scripts/verify/plan.ts";
import { verify } from "../../../scripts/verify/run.ts";
import { readTable } from "../../../scripts/lib/methods.ts";
import { startValidator, validatorSpec, type Validator } from "../../../scripts/verify/validator.ts";
import type { Reply } from "../../helpers/faults/server.js";
import { root } from "../../helpers/readme.js";
import { operationOfRequest } from "../../helpers/spec.js";
import {
  KEY_FILE,
  REGION_TOKEN,
  TOKEN,
  ids,
  inUse,
  startConsoleStandIn,
  type ConsoleStandIn,
} from "../../helpers/console/stand-in.js";

const table = readTable(root);
/** Every read operation of the table: each is sent once its ids are known. */
const READS = readOperations(table).map((o) => o.operationId);
/** --write's one sequence on a component: the port's create, the operations that change it, and its undo. */
const [portCreate] = creates(table, ["team_id", "region_name", "app_id", "service_id"]);
const PORT_OPERATIONS = [portCreate!.operationId, ...portCreate!.creates!.changes, portCreate!.creates!.undo];
const given = { team: ids.team, region: ids.region, app: ids.app, component: ids.component };

let validator: Validator;
let standIn: ConsoleStandIn;
/** The component's ports before any test: what --write leaves behind. */
let portsBefore: number[];
/** What reached the console while the validator started (Prism and its replay): nothing. */
let sentWhileStarting: number;

beforeAll(async () => {
  const spec = validatorSpec(readSpec(root));
  [validator, standIn] = await Promise.all([startValidator(spec), startConsoleStandIn().then(inUse)]);
  portsBefore = [...standIn.ports.keys()];
  sentWhileStarting = validator.exchanges.length;
});
afterAll(async () => {
  await Promise.all([validator?.stop(), standIn?.close()]);
});
beforeEach(() => {
  standIn.drift = undefined;
  standIn.requests.length = 0;
});

function run(options: Partial<VerifyOptions> = {}): Promise<Report> {
  return verify({ baseUrl: standIn.url, token: TOKEN, write: false, json: false, ...options }, root, validator);
}

const outcomes = (report: Report) => Object.fromEntries(report.operations.map((o) => [o.operationId, o.outcome]));
const lines = (report: Report) => Object.fromEntries(report.operations.map((o) => [o.operationId, o]));
const sent = (s: ConsoleStandIn) => s.requests.map((r) => `${r.method} ${r.pathname}`);
/** The requests that reached the stand-in for operations that are not reads. */
const writes = (s: ConsoleStandIn) =>
  s.requests
    .filter((r) => !READS.includes(operationOfRequest(r.method, `http://console${r.pathname}`) ?? ""))
    .map((r) => `${r.method} ${r.pathname}`);
const portPath = `/openapi/v1/teams/${ids.team}/regions/${ids.region}/apps/${ids.app}/services/${ids.component}/ports`;

describe("a console that answers as the spec and the measured console say gives 0 deviations", () => {
  test("starting the validator (Prism's proxy) sends nothing to the console", () => {
    expect(sentWhileStarting).toBe(0);
  });

  test("the Prism mock of the spec: every read operation of the table sent, its ids found through the API; and --write", async () => {
    const prismUrl = inject("prismUrl");
    const read = await verify({ baseUrl: prismUrl, token: "demo-token", write: false, json: false }, root, validator);
    expect(read.deviations).toEqual([]);
    expect(read.exitCode).toBe(0);
    // every read operation of the table, with ids the mock's examples give: none left untried
    expect(read.counts).toMatchObject({ operations: Object.keys(table.operations).length, read: READS.length });
    expect(read.counts.readSent).toBe(READS.length);
    for (const op of READS) expect(["conforms", "defect"], op).toContain(outcomes(read)[op]);
    expect(read.ids.filter((id) => id.source === "not found")).toEqual([]);

    const write = await verify(
      { baseUrl: prismUrl, token: "demo-token", write: true, json: false, ...given },
      root,
      validator,
    );
    expect(write.deviations).toEqual([]);
    for (const op of PORT_OPERATIONS) expect(outcomes(write)[op], op).toBe("conforms");
  });

  test("the console stand-in: ids found through the API, every read operation sent or said why not, nothing written", async () => {
    const report = await run();
    expect(report.deviations).toEqual([]);
    expect(report.exitCode).toBe(0);
    // getRegion of a region without certificates is the 400 the console answers (finding 10), which the spec declares
    expect(lines(report).getRegion).toMatchObject({ status: 400, outcome: "error" });
    for (const op of READS) {
      const line = lines(report)[op]!;
      expect(line.phase, op).toBe("read");
      if (line.outcome === "not tried") expect(line.note).toMatch(/^no [a-z_, ]+ given or found$/);
      else expect(["conforms", "error", "defect"], op).toContain(line.outcome);
    }
    const found = Object.fromEntries(report.ids.map((id) => [id.name, id.value]));
    expect(found).toMatchObject({
      team_id: ids.teamName, // the gateway rules name the team; the console takes its name or its id
      region_name: ids.region,
      region_id: ids.regionId,
      app_id: String(ids.app),
      service_id: ids.component,
      tenant_id: ids.tenant,
    });
    for (const name of ["team_id", "region_name", "app_id", "service_id"])
      expect(report.ids.find((id) => id.name === name)!.source).toBe("found in listEnterpriseHttpRules");
    for (const op of PORT_OPERATIONS) expect(outcomes(report)[op]).toBe("not sent");
    expect(writes(standIn)).toEqual([]);
  });

  test("--write on the console stand-in: a free port added, changed by each call that only writes, and deleted", async () => {
    const report = await run({ write: true, ...given });
    expect(report.deviations).toEqual([]);
    expect(report.exitCode).toBe(0);
    const written = report.operations.filter((o) => o.phase === "write");
    expect(written.map((o) => [o.call ?? o.operationId, o.outcome])).toEqual([
      ["addComponentPort", "conforms"],
      ["ports.openInner", "conforms"],
      ["ports.changeProtocol", "conforms"],
      ["ports.changeAlias", "conforms"],
      ["deleteComponentPort", "conforms"],
    ]);
    expect(writes(standIn)).toEqual([
      `POST ${portPath}`,
      `PUT ${portPath}/20000`,
      `PUT ${portPath}/20000`,
      `PUT ${portPath}/20000`,
      `DELETE ${portPath}/20000`,
    ]);
    // the alias is changed to what the port has (its k8s_service_name kept): only what it made is touched
    const alias = standIn.requests.find((r) => r.body?.action === "change_port_alias")!.body;
    expect(alias).toEqual({ action: "change_port_alias", port_alias: "", k8s_service_name: "web-20000" });
    expect([...standIn.ports.keys()]).toEqual(portsBefore);
    // what the API cannot undo, what exposes or interrupts, is never sent, and the report says so by its effect
    for (const op of ["createGatewayRule", "createHttpRule", "installApp", "updateHttpRule", "deleteComponent"]) {
      expect(outcomes(report)[op]).toBe("never sent");
    }
    expect(report.notes.join(" ")).toMatch(/addComponentPort made port 20000, which was removed again/);
    expect(report.notes.join(" ")).toMatch(
      /Never sent, with or without --write \(irreversible: [^)]*\): [^.]*createHttpRule/,
    );
  });

  test("ids the API does not give: the operations that need them are not tried, and the report says why", async () => {
    standIn.drift = (op, reply) =>
      op === "listApps" || op === "listEnterpriseHttpRules" ? { ...reply, body: [] } : undefined;
    const report = await run({ team: ids.team, region: ids.region });
    expect(report.exitCode).toBe(0);
    const idLines = Object.fromEntries(report.ids.map((id) => [id.name, id.source]));
    expect(idLines).toMatchObject({
      team_id: "given",
      region_name: "given",
      app_id: "not found",
      service_id: "not found",
    });
    expect(lines(report).listAppHttpRules).toMatchObject({ outcome: "not tried", note: "no app_id given or found" });
    expect(lines(report).getComponent).toMatchObject({
      outcome: "not tried",
      note: "no app_id, service_id given or found",
    });
    expect(lines(report).listApps).toMatchObject({ outcome: "conforms" });
    const notTried = report.operations.filter((o) => o.outcome === "not tried").length;
    expect(report.counts).toMatchObject({ notTried, readSent: READS.length - notTried });
    expect(render(report)).toMatch(
      /not tried\s+GET\s+listAppHttpRules \(gateway\.listHttpRules\)\s+no app_id given or found/,
    );
  });

  test("the console's error answers conform: 404 with an empty body, with null; 409 (code 2001)", async () => {
    const unknownComponent = await run({ ...given, component: "nope" });
    expect(unknownComponent.deviations).toEqual([]);
    expect(unknownComponent.exitCode).toBe(0);
    expect(lines(unknownComponent).getComponent).toMatchObject({ status: 404, outcome: "error" });
    expect(lines(unknownComponent).listComponentPorts).toMatchObject({ status: 404, outcome: "error" });

    const coldRegion = await run({ team: ids.team, region: ids.certRegion, app: ids.app, component: ids.component });
    expect(coldRegion.deviations).toEqual([]);
    expect(coldRegion.exitCode).toBe(0);
    expect(lines(coldRegion).listApps).toMatchObject({ status: 409, outcome: "error" });
  });
});

// ---- drift ---------------------------------------------------------------------------------------------------------

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
/** A drift of one operation's answer: changes the body in place, or returns another reply. */
const on =
  (operationId: string, change: (reply: Reply & { body: Body }) => Reply | void) =>
  (op: string, reply: Reply): Reply | void =>
    op === operationId ? change(reply as Reply & { body: Body }) : undefined;

const driftCases = [
  {
    name: "a field's type",
    drift: on("listTeamRegions", (r) => void (r.body.total = "1")),
    operation: "listTeamRegions",
    title: "ListTeamRegionsResp.total",
    path: "$.total",
    expected: "must be integer",
    came: '"1"',
  },
  {
    name: "a missing required field",
    drift: on("getComponent", (r) => void delete r.body.service_key),
    operation: "getComponent",
    title: "ServiceBaseInfo.service_key",
    path: "$.service_key",
    expected: "required",
    came: "(missing)",
  },
  {
    name: "an extra field the spec does not name",
    drift: on("listApps", (r) => void (r.body[0].owner_team = "orders")),
    operation: "listApps",
    title: "AppBaseInfo.owner_team",
    path: "$[0].owner_team",
    expected: "no such field",
    came: '"orders"',
  },
  {
    name: "a wrong status",
    drift: on("listAppHttpRules", (r) => ({ ...r, status: 202 })),
    operation: "listAppHttpRules",
    title: "status",
    path: "status",
    expected: /^one of 200, 400, 401/,
    came: "202",
  },
  {
    name: "an enum value the spec lacks",
    drift: on("listAppHttpRules", (r) => void (r.body[0].type = 2)),
    operation: "listAppHttpRules",
    title: "HTTPGatewayRule.type",
    path: "$[0].type",
    expected: /allowed values: 0, 1/,
    came: "2",
  },
  {
    name: "a body that is not JSON (an HTML page)",
    drift: on("queryComponentMonitor", () => ({
      body: "<html><body><h1>Upgrade in progress</h1></body></html>",
      headers: { "content-type": "text/html" },
    })),
    operation: "queryComponentMonitor",
    title: "queryComponentMonitor answer",
    path: "$",
    expected: "a JSON body (application/json)",
    came: "not JSON (text/html): Upgrade in progress",
  },
  {
    name: "a body cut short, labelled JSON (Prism cannot read it)",
    drift: on("getRegion", () => ({ body: '{"region_name": "hang' })),
    operation: "getRegion",
    title: "getRegion answer",
    path: "$",
    expected: "a JSON body (application/json)",
    came: 'not JSON (application/json): {"region_name": "hang',
  },
  {
    name: "a field of the console's envelope",
    drift: on("listComponentPorts", (r) => void (r.body.code = "200")),
    operation: "listComponentPorts",
    title: "console envelope.code",
    path: "$.code",
    expected: "must be integer",
    came: '"200"',
  },
  {
    name: "a field of a port inside the envelope",
    drift: on("listComponentPorts", (r) => void (r.body.data.list[0].is_outer_service = "false")),
    operation: "listComponentPorts",
    title: "Port.is_outer_service",
    path: "$.data.list[0].is_outer_service",
    expected: "must be boolean",
    came: '"false"',
  },
  {
    name: "null where the spec wants an array",
    drift: on("queryComponentMonitorRange", () => ({ body: "null" })),
    operation: "queryComponentMonitorRange",
    title: "queryComponentMonitorRange answer",
    path: "$",
    expected: "must be array",
    came: "null",
  },
];

describe("a console that drifts from the spec: each deviation reported by its JSON path", () => {
  test.each(driftCases)("$name: $operation $path", async ({ drift, operation, title, path, expected, came }) => {
    standIn.drift = drift;
    const report = await run(given);
    expect(report.exitCode).toBe(1);
    expect(report.deviations).toHaveLength(1);
    const [group] = report.deviations;
    expect(group!.title).toBe(title);
    expect(group!.expected).toMatch(expected);
    expect(group!.occurrences).toEqual([
      { operationId: operation, path, came: expect.stringContaining(came), more: 0 },
    ]);
    const line = report.operations.find((o) => o.operationId === operation)!;
    expect(line).toMatchObject({ outcome: "deviates", deviations: [title] });
    expect(report.operations.filter((o) => o.outcome === "deviates")).toHaveLength(1);
  });

  test("one wrong field of Port sent by each port operation shows once, listing them", async () => {
    standIn.drift = (_op, reply) => {
      const data = (reply.body as Body | undefined)?.data;
      for (const port of [data?.bean, ...(data?.list ?? [])]) {
        if (port?.container_port !== undefined) port.container_port = String(port.container_port);
      }
    };
    const report = await run({ ...given, write: true });
    expect(report.exitCode).toBe(1);
    expect(report.deviations.map((d) => d.title)).toEqual(["Port.container_port"]);
    expect(report.deviations[0]!.occurrences.map((o) => [o.call ?? o.operationId, o.path, o.more])).toEqual([
      ["listComponentPorts", "$.data.list[0].container_port", 0],
      ["addComponentPort", "$.data.bean.container_port", 0],
      ["ports.openInner", "$.data.bean.container_port", 0],
      ["ports.changeProtocol", "$.data.bean.container_port", 0],
      ["ports.changeAlias", "$.data.bean.container_port", 0],
      ["deleteComponentPort", "$.data.bean.container_port", 0],
    ]);
    const text = render(report);
    expect(text.match(/Port\.container_port: the spec says must be integer/g)).toHaveLength(1);
  });
});

describe("--write writes only what it made, and only when it knows what exists (issue 35 §4)", () => {
  const failure = (status: number) => ({ status, body: { code: status, msg: "failed", msg_show: "系统异常" } });

  test("a failed change still deletes the port it made", async () => {
    standIn.drift = (op) => (op === "updateComponentPort" ? failure(500) : undefined);
    const report = await run({ ...given, write: true });
    expect(sent(standIn)).toContain(`DELETE ${portPath}/20000`);
    expect(sent(standIn).indexOf(`DELETE ${portPath}/20000`)).toBeGreaterThan(
      sent(standIn).lastIndexOf(`PUT ${portPath}/20000`),
    );
    expect([...standIn.ports.keys()]).toEqual(portsBefore);
    const changes = report.operations.filter((o) => o.operationId === "updateComponentPort");
    expect(changes.map((o) => [o.status, o.outcome])).toEqual(Array(3).fill([500, "error"]));
    expect(lines(report).deleteComponentPort).toMatchObject({ status: 200, outcome: "conforms" });
  });

  test("the port list does not answer (500): nothing is written, and the report says why", async () => {
    standIn.drift = (op) => (op === "listComponentPorts" ? failure(500) : undefined);
    const report = await run({ ...given, write: true });
    expect(writes(standIn)).toEqual([]);
    for (const op of PORT_OPERATIONS) {
      expect(lines(report)[op]).toMatchObject({
        outcome: "not sent",
        note: expect.stringMatching(/what exists is not known/),
      });
    }
    expect([...standIn.ports.keys()]).toEqual(portsBefore);
  });

  test("the add answers 503 and made nothing: the list is read again, and nothing is deleted", async () => {
    standIn.drift = (op) => {
      if (op !== "addComponentPort") return;
      standIn.ports.delete(20000); // the console did not make it
      return failure(503);
    };
    const report = await run({ ...given, write: true });
    expect(writes(standIn)).toEqual([`POST ${portPath}`]);
    const again = report.operations.find((o) => o.call === "listComponentPorts (again)");
    expect(again).toMatchObject({ phase: "write", status: 200, outcome: "conforms" });
    expect(lines(report).deleteComponentPort).toMatchObject({ outcome: "not sent", note: "nothing was made" });
    expect(report.notes.join(" ")).toMatch(/addComponentPort made nothing \(port 20000\)/);
    expect(report.exitCode).toBe(2); // a 503 is no answer from the console: said, with the report
  });

  test("the add answers 503 but made the port: the list read again shows it, and it is deleted", async () => {
    standIn.drift = (op) => (op === "addComponentPort" ? failure(503) : undefined);
    const report = await run({ ...given, write: true });
    expect(sent(standIn)).toContain(`DELETE ${portPath}/20000`);
    expect([...standIn.ports.keys()]).toEqual(portsBefore);
    expect(report.notes.join(" ")).toMatch(/made port 20000, which was removed again/);
  });

  test("the add is refused (400): no port was made, so nothing is read again or deleted", async () => {
    standIn.drift = (op) => {
      if (op !== "addComponentPort") return;
      standIn.ports.delete(20000); // refused: the console made nothing
      return failure(400);
    };
    const report = await run({ ...given, write: true });
    expect(writes(standIn)).toEqual([`POST ${portPath}`]);
    expect(report.operations.some((o) => o.call === "listComponentPorts (again)")).toBe(false);
    expect(lines(report).deleteComponentPort).toMatchObject({ outcome: "not sent" });
  });

  test("neither the add nor the list read again answer: the port may be left, and the report says to check", async () => {
    let listed = 0;
    standIn.drift = (op) => {
      if (op === "addComponentPort") return failure(503);
      if (op === "listComponentPorts" && listed++ > 0) return failure(500);
    };
    const report = await run({ ...given, write: true });
    expect(writes(standIn)).toEqual([`POST ${portPath}`]);
    expect(report.notes.join(" ")).toMatch(/addComponentPort may have made port 20000: .*check it/);
    expect(report.exitCode).toBe(2);
    standIn.ports.delete(20000); // what the stand-in made, put back for the next test
  });
});

describe("a field named with characters past Latin-1 (issue 35 §5)", () => {
  test("名称 and \\u202eevil: the report still comes out, naming each field, escaped where it would mislead", async () => {
    standIn.drift = on("getComponent", (r) => void Object.assign(r.body, { 名称: "web", "\u202eevil": 1 }));
    const args = ["--team", ids.team, "--region", ids.region, "--app", String(ids.app), "--component", ids.component];
    const { code, stdout, stderr } = await runMain(["--base-url", standIn.url, ...args, "--json"]);
    expect([code, stderr]).toEqual([1, ""]);
    const report = JSON.parse(stdout) as Report;
    const titles = report.deviations.map((d) => d.title);
    expect(titles).toEqual(["ServiceBaseInfo.名称", "ServiceBaseInfo.\u202eevil"]);
    expect(report.deviations[1]!.occurrences[0]).toMatchObject({ path: '$["\u202eevil"]', came: "1" });
    // shown escaped in every rendering: the direction override never reaches a terminal or a file raw
    for (const output of [stdout, render(report), render(report, true)]) {
      expect(output).not.toContain("\u202e");
      expect(output).toContain("名称");
    }
    expect(render(report)).toContain("ServiceBaseInfo.\\u202eevil: the spec says no such field");
  });
});

// ---- secrets ---------------------------------------------------------------------------------------------------------

const STORE_KEY = "mk-STORE-SECRET-9031";

describe("secrets never reach a report", () => {
  test("the token, region tokens, key_file and market_access_key are masked in text, Markdown and JSON", async () => {
    standIn.drift = (op, reply) => {
      const body = reply.body as Body;
      if (op === "listTeamRegions") {
        body.regions[0].desc = [REGION_TOKEN]; // a region token, echoed where a string belongs
        body.regions[0].region_alias = { auth: TOKEN }; // the API token, echoed back
      }
      if (op === "getRegion") body.key_backup = KEY_FILE; // the key file, in a field the spec does not name
      if (op === "listApps") body[0].market_access_key = STORE_KEY; // a store key, where no app field is
    };
    const report = await run(given);
    expect(report.exitCode).toBe(1);
    const paths = report.deviations.flatMap((d) => d.occurrences.map((o) => o.path));
    expect(paths).toEqual(
      expect.arrayContaining([
        "$.regions[0].desc",
        "$.regions[0].region_alias",
        "$.key_backup",
        "$[0].market_access_key",
      ]),
    );
    const outputs: [string, string][] = [
      ["text", render(report)],
      ["markdown", render(report, true)],
      ["json", JSON.stringify(report)],
    ];
    for (const [format, output] of outputs) {
      for (const secret of [TOKEN, REGION_TOKEN, "MIIEstandinSECRET", STORE_KEY]) {
        expect(output.includes(secret), `${format} shows ${secret}`).toBe(false);
      }
      expect(output, format).toContain("[redacted]");
    }
  });
});

describe("a console that echoes the token in keys and ids", () => {
  test("keys, ids, titles and JSON paths are masked; no secret is sent as an id; no control character is printed", async () => {
    standIn.drift = (op, reply) => {
      const body = reply.body as Body;
      if (op === "listTeamRegions") {
        body.regions[0].region_id = TOKEN; // an id that is the token: never sent in a URL
        body.regions[0][TOKEN] = "x"; // the token as a key
      }
      if (op === "listEnterpriseHttpRules") body[0][`${TOKEN}`] = "\u0000\u0001\u001b[31m"; // a title and a path
    };
    const report = await run({ team: ids.team, region: ids.region });
    expect(standIn.requests.some((r) => r.pathname.includes(TOKEN) || r.pathname.includes("redacted"))).toBe(false);
    // the region's id is taken from an answer that holds no secret
    expect(report.ids.find((id) => id.name === "region_id")).toMatchObject({ value: ids.regionId });
    const titles = report.deviations.map((d) => d.title);
    expect(titles).toEqual(expect.arrayContaining(["EnterpriseHTTPGatewayRule.[redacted]"]));
    for (const output of [render(report), render(report, true), JSON.stringify(report)]) {
      expect(output).not.toContain(TOKEN);
      expect(output).not.toMatch(/[\u0000\u0001\u001b]/);
    }
  });
});

// ---- the command line ------------------------------------------------------------------------------------------------

describe("arguments", () => {
  const env = { RAINBOND_TOKEN: TOKEN };
  test.each([
    [["--base-url", "http://c", "--token", "s3cret"], env, /--token is refused/],
    [["--base-url", "http://c", "--tokn=s3cret"], env, /^unknown option --tokn$/],
    [["--team", "t"], env, /--base-url <console origin> is required/],
    [["--base-url", "http://c"], {}, /RAINBOND_TOKEN is not set/],
    [["--base-url", "http://c", "--app", "twelve"], env, /--app must be an application id/],
    [
      ["--base-url", "http://c", "--write", "--team", "t"],
      env,
      /--write changes the component you name: give --region, --app, --component/,
    ],
    [["--base-url", "http://c", "stray"], env, /unexpected argument/],
    [["--base-url", "http://c", "--id", "user_id"], env, /--id takes <name>=<value>/],
    [["--base-url", "http://c", "--id", "User=s3cret"], env, /--id takes <name>=<value>/],
  ])("%j is refused", (argv, environment, message) => {
    let error: unknown;
    try {
      parseOptions(argv, environment);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("s3cret");
  });

  test("a full command line", () => {
    const argv = ["--base-url", "http://c", "--team", "t", "--region", "r", "--app", "7", "--component", "s"];
    const more = ["--id", "user_id=2", "--id", "event_id=e=1"];
    expect(parseOptions([...argv, ...more, "--write", "--json", "--report", "r.md"], { RAINBOND_TOKEN: "x" })).toEqual({
      baseUrl: "http://c",
      token: "x",
      team: "t",
      region: "r",
      app: 7,
      component: "s",
      ids: { user_id: "2", event_id: "e=1" },
      write: true,
      json: true,
      report: "r.md",
    });
  });

  test("--id with a name that is no id of the spec: 2, naming the ids there are", async () => {
    const { code, stderr } = await runMain(["--base-url", standIn.url, "--id", "colour=blue"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^verify: --id colour: not an id of the spec \(.*service_id.*\)\n/);
  });
});

/** main() in this process, through the shared validator, with the spec of `dir`: its exit code and output. */
async function runMain(args: string[], env: Record<string, string> = { RAINBOND_TOKEN: TOKEN }, dir = root) {
  const out = { code: 0, stdout: "", stderr: "" };
  const write = (stream: "stdout" | "stderr") => ({ write: (text: string) => (out[stream] += text) });
  out.code = await main(args, env, { stdout: write("stdout"), stderr: write("stderr") }, dir, validator);
  return out;
}

/** `npm run verify`'s script in a process of its own (its own validator): exit code and output. */
function cli(args: string[]) {
  const child = spawn(process.execPath, scriptArgs("scripts/verify/main.ts", ...args), {
    cwd: root,
    env: { ...process.env, RAINBOND_TOKEN: TOKEN },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  return new Promise<{ code: number | null; stdout: string }>((resolve) =>
    child.once("close", (code) => resolve({ code, stdout })),
  );
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const oneLine = (text: string) => {
  expect(text.trim().split("\n")).toHaveLength(1);
  expect(text).not.toMatch(/\n\s+at /); // no stack
};

describe("npm run verify: arguments and exit codes", () => {
  test("--token is refused, saying why, without echoing it; 2", async () => {
    const { code, stdout, stderr } = await runMain(["--base-url", standIn.url, "--token=hunter2-secret"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--token is refused: .*shell's history.*`ps`.*RAINBOND_TOKEN/);
    expect(stdout + stderr).not.toContain("hunter2-secret");
  });

  test("a console that cannot be reached: one line, 2", async () => {
    const { code, stderr } = await runMain(["--base-url", `http://127.0.0.1:${await closedPort()}`]);
    expect(code).toBe(2);
    oneLine(stderr);
    expect(stderr).toMatch(/^verify: cannot reach the console at http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  });

  test("a refused token: one line, 2, the token not shown", async () => {
    const { code, stderr } = await runMain(["--base-url", standIn.url], { RAINBOND_TOKEN: "not-the-token" });
    expect(code).toBe(2);
    oneLine(stderr);
    expect(stderr).toMatch(/^verify: the console at .* refused the token: .*401: No such user or user is not admin/);
    expect(stderr).not.toContain("not-the-token");
    expect(stderr).not.toContain("Traceback");
  });

  test("0 on a clean console, the text report on stdout", async () => {
    const ok = await runMain(["--base-url", standIn.url]);
    expect([ok.code, ok.stderr]).toEqual([0, ""]);
    expect(ok.stdout).toMatch(/Result: every answer conforms to the spec .*\(exit 0, clean\)/);
    expect(ok.stdout).not.toContain(TOKEN);
  });

  test("the script: 1 on drift, with --json and --report file.md, masked", async () => {
    const drifting = await startConsoleStandIn().then(inUse);
    drifting.drift = on("listTeamRegions", (r) => {
      r.body.total = "1";
      r.body.regions[0].desc = [REGION_TOKEN];
    });
    const dir = await mkdtemp(join(tmpdir(), "verify-report-"));
    try {
      const file = join(dir, "report.md");
      const drift = await cli(["--base-url", drifting.url, "--json", "--report", file]);
      expect(drift.code).toBe(1);
      const json = JSON.parse(drift.stdout) as Report;
      expect(json.exitCode).toBe(1);
      expect(json.deviations.map((d) => d.occurrences[0]!.path)).toEqual(["$.total", "$.regions[0].desc"]);
      const markdown = await readFile(file, "utf8");
      expect(markdown).toContain("### ListTeamRegionsResp.total");
      expect(markdown).toContain("`$.regions[0].desc`");
      for (const output of [drift.stdout, markdown]) {
        expect(output).not.toContain(TOKEN);
        expect(output).not.toContain(REGION_TOKEN);
      }
    } finally {
      await Promise.all([drifting.close(), rm(dir, { recursive: true, force: true })]);
    }
  });
});

describe("npm run verify: a spec edited since generated/ was made", () => {
  /** main() on a copy of spec/ and generated/ in a temp directory, against the stand-in; what it wrote to stderr. */
  async function stderrOfRun(editSpec: (dir: string) => Promise<void>) {
    const dir = await mkdtemp(join(tmpdir(), "verify-stale-"));
    try {
      await Promise.all(["spec", "generated"].map((d) => cp(join(root, d), join(dir, d), { recursive: true })));
      await editSpec(dir);
      const { code, stderr } = await runMain(["--base-url", standIn.url], { RAINBOND_TOKEN: TOKEN }, dir);
      expect(code).toBe(0);
      return stderr;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  test("warns in one line on stderr, and still verifies against generated/", async () => {
    const stderr = await stderrOfRun(async (dir) => {
      const file = join(dir, "spec/paths/component.yaml");
      await writeFile(file, (await readFile(file, "utf8")).replace("summary: Read a component", "summary: Read one"));
    });
    expect(stderr).toBe(`${STALE_SPEC_WARNING}\n`);
  });

  test("says nothing when spec/ bundles to generated/openapi.json, whatever the files' times", async () => {
    const saved = await stderrOfRun(async (dir) => {
      // saved again, unchanged, an hour after generated/ was made
      const later = new Date(Date.now() + 3_600_000);
      await utimes(join(dir, "spec/paths/component.yaml"), later, later);
    });
    expect(saved).toBe("");
  });
});
