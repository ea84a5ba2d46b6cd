// `npm run verify` (scripts/verify/): against the Prism mock of the spec and against the console stand-in
// (test/console/stand-in.ts: the measured console, with the HTTP rule it had), 0 deviations; against the stand-in
// drifting, each drift reported by its
// JSON path, grouped by schema; --write's port sequence, whose delete is sent even when a step fails; secrets masked
// in the terminal, Markdown and JSON reports; and the command line's exit codes. One validator (the recording fetch,
// and Prism checking its answers offline) serves the in-process runs; the command-line runs start their own.
import { scriptArgs } from "../../scripts/lib/script.ts";
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, test } from "vitest";
import { readSpec } from "../../scripts/lib/spec.ts";
import { render, type Report } from "../../scripts/verify/report.ts";
import { STALE_SPEC_WARNING, UsageError, main, parseOptions, type VerifyOptions } from "../../scripts/verify/main.ts";
import { verify } from "../../scripts/verify/run.ts";
import { startValidator, validatorSpec, type Validator } from "../../scripts/verify/validator.ts";
import type { Reply } from "../faults/server.js";
import { root } from "../helpers/readme.js";
import {
  KEY_FILE,
  REGION_TOKEN,
  TOKEN,
  ids,
  inUse,
  startConsoleStandIn,
  type ConsoleStandIn,
} from "../console/stand-in.js";

const READ_OPERATIONS = [
  "listEnterpriseHttpRules",
  "listTeamRegions",
  "getRegion",
  "listApps",
  "listTeamResources",
  "listAppHttpRules",
  "queryComponentMonitor",
  "queryComponentMonitorRange",
  "getComponent",
  "listComponentPorts",
];
const PORT_OPERATIONS = ["addComponentPort", "updateComponentPort", "deleteComponentPort"];
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
const sent = (s: ConsoleStandIn) => s.requests.map((r) => `${r.method} ${r.pathname}`);

describe("a console that answers as the spec and the measured console say gives 0 deviations", () => {
  test("starting the validator (Prism's proxy) sends nothing to the console", () => {
    expect(sentWhileStarting).toBe(0);
  });

  test("the Prism mock of the spec: every read operation, ids found through the API; and --write", async () => {
    const prismUrl = inject("prismUrl");
    const read = await verify({ baseUrl: prismUrl, token: "demo-token", write: false, json: false }, root, validator);
    expect(read.deviations).toEqual([]);
    expect(read.exitCode).toBe(0);
    for (const op of READ_OPERATIONS) expect(outcomes(read)[op]).toBe("conforms");
    expect(read.ids.filter((id) => id.source === "not found")).toEqual([]);

    const write = await verify(
      { baseUrl: prismUrl, token: "demo-token", write: true, json: false, ...given },
      root,
      validator,
    );
    expect(write.deviations).toEqual([]);
    for (const op of [...READ_OPERATIONS, ...PORT_OPERATIONS]) expect(outcomes(write)[op]).toBe("conforms");
  });

  test("the console stand-in: ids found through the API, every read operation conforms, nothing written", async () => {
    const report = await run();
    expect(report.deviations).toEqual([]);
    expect(report.exitCode).toBe(0);
    // getRegion of a region without certificates is the 400 the console answers (finding 10), which the spec declares
    const regionLine = report.operations.find((o) => o.operationId === "getRegion");
    expect(regionLine).toMatchObject({ status: 400, outcome: "error" });
    for (const op of READ_OPERATIONS.filter((op) => op !== "getRegion")) expect(outcomes(report)[op]).toBe("conforms");
    const found = Object.fromEntries(report.ids.map((id) => [id.name, id.value]));
    expect(found).toEqual({
      team: ids.teamName, // the gateway rules name the team; the console takes its name or its id
      region: ids.region,
      "region id": ids.regionId,
      app: String(ids.app),
      component: ids.component,
      "tenant id": ids.tenant,
    });
    expect(report.ids.every((id) => id.source.startsWith("found in "))).toBe(true);
    for (const op of PORT_OPERATIONS) expect(outcomes(report)[op]).toBe("not sent");
    expect(standIn.requests.every((r) => r.method === "GET" || r.pathname === "/openapi/v1/teams/resource")).toBe(true);
  });

  test("--write on the console stand-in: a free port added, changed and deleted, inside the envelope", async () => {
    const report = await run({ write: true, ...given });
    expect(report.deviations).toEqual([]);
    for (const op of PORT_OPERATIONS) expect(outcomes(report)[op]).toBe("conforms");
    const base = `/openapi/v1/teams/${ids.team}/regions/${ids.region}/apps/${ids.app}/services/${ids.component}/ports`;
    expect(sent(standIn).filter((r) => !r.startsWith("GET") && !r.endsWith("/teams/resource"))).toEqual([
      `POST ${base}`,
      `PUT ${base}/20000`,
      `DELETE ${base}/20000`,
    ]);
    expect([...standIn.ports.keys()]).toEqual(portsBefore);
    // rule creation and installs are never sent, and the report says so
    expect(sent(standIn).some((r) => /httpdomains|domains|install/.test(r) && !r.startsWith("GET"))).toBe(false);
    for (const op of ["createGatewayRule", "createHttpRule", "installApp", "updateHttpRule"]) {
      expect(outcomes(report)[op]).toBe("never sent");
    }
    expect(report.notes.join(" ")).toMatch(/Rule creation and installs cannot be undone through the API/);
  });

  test("ids the API does not give: the operations that need them are not tried, and the report says why", async () => {
    standIn.drift = (op, reply) =>
      op === "listApps" || op === "listEnterpriseHttpRules" ? { ...reply, body: [] } : undefined;
    const report = await run({ team: ids.team, region: ids.region });
    expect(report.exitCode).toBe(0);
    const idLines = Object.fromEntries(report.ids.map((id) => [id.name, id.source]));
    expect(idLines).toMatchObject({ team: "given", region: "given", app: "not found", component: "not found" });
    const lines = Object.fromEntries(report.operations.map((o) => [o.operationId, o]));
    expect(lines.listAppHttpRules).toMatchObject({ outcome: "not tried", note: "no app given or found" });
    expect(lines.getComponent).toMatchObject({ outcome: "not tried", note: "no app, component given or found" });
    expect(lines.listTeamResources).toMatchObject({ outcome: "not tried", note: "no tenant id given or found" });
    expect(lines.listApps).toMatchObject({ outcome: "conforms" });
    expect(render(report)).toMatch(
      /not tried\s+GET\s+listAppHttpRules \(gateway\.listHttpRules\)\s+no app given or found/,
    );
  });

  test("the console's error answers conform: 404 with an empty body, with null; 409 (code 2001)", async () => {
    const unknownComponent = await run({ ...given, component: "nope" });
    expect(unknownComponent.deviations).toEqual([]);
    expect(unknownComponent.exitCode).toBe(0);
    const lines = Object.fromEntries(unknownComponent.operations.map((o) => [o.operationId, o]));
    expect(lines.getComponent).toMatchObject({ status: 404, outcome: "error" });
    expect(lines.listComponentPorts).toMatchObject({ status: 404, outcome: "error" });

    const coldRegion = await run({ team: ids.team, region: ids.certRegion, app: ids.app, component: ids.component });
    expect(coldRegion.deviations).toEqual([]);
    expect(coldRegion.exitCode).toBe(0);
    const cold = Object.fromEntries(coldRegion.operations.map((o) => [o.operationId, o]));
    expect(cold.listApps).toMatchObject({ status: 409, outcome: "error" });
    expect(cold.getRegion).toMatchObject({ status: 200, outcome: "conforms" }); // the region is there, the team is not
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

  test("one wrong field of Port sent by four operations shows once, listing them", async () => {
    standIn.drift = (_op, reply) => {
      const data = (reply.body as Body | undefined)?.data;
      for (const port of [data?.bean, ...(data?.list ?? [])]) {
        if (port?.container_port !== undefined) port.container_port = String(port.container_port);
      }
    };
    const report = await run({ ...given, write: true });
    expect(report.exitCode).toBe(1);
    expect(report.deviations.map((d) => d.title)).toEqual(["Port.container_port"]);
    expect(report.deviations[0]!.occurrences.map((o) => [o.operationId, o.path])).toEqual([
      ["listComponentPorts", "$.data.list[0].container_port"],
      ["addComponentPort", "$.data.bean.container_port"],
      ["updateComponentPort", "$.data.bean.container_port"],
      ["deleteComponentPort", "$.data.bean.container_port"],
    ]);
    const text = render(report);
    expect(text.match(/Port\.container_port: the spec says must be integer/g)).toHaveLength(1);
  });
});

describe("--write", () => {
  test("a failed update step still deletes the port", async () => {
    standIn.drift = (op) =>
      op === "updateComponentPort"
        ? { status: 500, body: { code: 500, msg: "internal error", msg_show: "系统异常" } }
        : undefined;
    const report = await run({ ...given, write: true });
    const base = `/openapi/v1/teams/${ids.team}/regions/${ids.region}/apps/${ids.app}/services/${ids.component}/ports`;
    expect(sent(standIn)).toContain(`DELETE ${base}/20000`);
    expect(sent(standIn).indexOf(`DELETE ${base}/20000`)).toBeGreaterThan(sent(standIn).indexOf(`PUT ${base}/20000`));
    expect([...standIn.ports.keys()]).toEqual(portsBefore);
    const lines = Object.fromEntries(report.operations.map((o) => [o.operationId, o]));
    expect(lines.updateComponentPort).toMatchObject({ status: 500, outcome: "error" });
    expect(lines.deleteComponentPort).toMatchObject({ status: 200, outcome: "conforms" });
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
    // getRegion takes the region's name instead, as when no id is found
    expect(standIn.requests.some((r) => r.pathname === `/openapi/v1/regions/${ids.region}`)).toBe(true);
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
    expect(parseOptions([...argv, "--write", "--json", "--report", "r.md"], { RAINBOND_TOKEN: "x" })).toEqual({
      baseUrl: "http://c",
      token: "x",
      team: "t",
      region: "r",
      app: 7,
      component: "s",
      write: true,
      json: true,
      report: "r.md",
    });
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
