// What goes wrong, as a script sees it: an exit code per class of failure, the client's one-line message on stderr,
// nothing on stdout; retries and a timeout; bad input refused before anything is sent, named by its flag; a destructive
// method that nobody confirmed sends nothing; and the token in no output, --dry-run and debug logs included. Against
// the fault server of test/helpers/faults/ and the console stand-in of test/helpers/console/ (loopback servers of our own).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, type Answer, type FaultServer } from "../../helpers/faults/server.js";
import {
  KEY_FILE,
  REGION_TOKEN,
  TOKEN,
  ids,
  startConsoleStandIn,
  type ConsoleStandIn,
} from "../../helpers/console/stand-in.js";
import { rainbond, withFaultServer, type Ran } from "../../helpers/cli/helpers.js";

const token = "tok-CLI-FAULT-91b3e6d0";
const component = ["--team", "q8k2mz5d", "--region", "rainbond", "--app", "12", "--component", "gr3f9c2a"];
const base = "/openapi/v1/teams/q8k2mz5d/regions/rainbond/apps/12/services/gr3f9c2a";
const against = withFaultServer(token);
let fault: FaultServer;
beforeAll(() => void (fault = against.server()));

/** Runs against the fault server with the token, `--retries 0` unless given. */
function run(args: string[], env: Record<string, string> = {}, input = ""): Promise<Ran> {
  return against.run(args.includes("--retries") ? args : [...args, "--retries", "0"], { env, input });
}

describe("exit codes by class of failure", () => {
  const cases: [string, Answer, number, RegExp][] = [
    [
      "400 to a read: the console refused its own record (as getRegion of a plain-HTTP region does)",
      answer.json(400, { code: 400, msg: "params error", err: { port: ["bad"] } }),
      6,
      /failed with 400: params error; the console refused its own record: not the request's fault \(port: bad\)/,
    ],
    ["401: auth", answer.json(401, { detail: "Authentication credentials were not provided." }), 3, /failed with 401/],
    ["403: auth", answer.json(403, { msg: "forbidden" }), 3, /failed with 403: forbidden/],
    [
      "404: not found",
      answer.json(404, { code: 4000, msg: "app not found", msg_show: "应用不存在" }),
      4,
      /failed with 404: 应用不存在/,
    ],
    ["409: conflict", answer.json(409, { msg: "port exists" }), 5, /failed with 409: port exists/],
    ["500: console failure", answer.json(500, { msg: "boom" }), 6, /failed with 500: boom/],
    [
      "HTML for 200: console failure",
      answer.html(200, "<html>gateway</html>"),
      6,
      /answered 200 with a body that is not JSON/,
    ],
    ["reset connection: no connection", answer.reset(), 7, /ports\.list \(GET .*\): /],
  ];
  test.each(cases)("%s", async (_name, reply, code, message) => {
    fault.reset();
    fault.script("GET", `${base}/ports`, reply);
    const ran = await run(["ports", "list", ...component]);
    expect([ran.code, ran.stdout]).toEqual([code, ""]);
    expect(ran.stderr).toMatch(/^rainbond: ports\.list \(GET \/openapi\/v1\/teams\/q8k2mz5d\//);
    expect(ran.stderr).toMatch(message);
    expect(ran.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("no answer within --timeout-ms, and a console that is not there, are 7; no token is 3", async () => {
    fault.reset();
    fault.script("GET", `${base}/ports`, answer.hang());
    const slow = await run(["ports", "list", ...component, "--timeout-ms", "200"]);
    expect([slow.code, slow.stderr]).toEqual([7, expect.stringMatching(/no answer within 200 ms/)]);
    const nowhere = await run(["ports", "list", ...component], { RAINBOND_URL: "http://127.0.0.1:9" });
    expect(nowhere.code).toBe(7);
    const tokenless = await rainbond(["ports", "list", ...component], { env: { RAINBOND_URL: fault.url } });
    expect([tokenless.code, tokenless.stderr]).toEqual([
      3,
      expect.stringMatching(/^rainbond: no token: set RAINBOND_TOKEN/),
    ]);
  });
});

describe("retries", () => {
  test("an idempotent request is retried on a 503 as the client retries, with its warning on stderr", async () => {
    fault.reset();
    const busy = answer.json(503, { msg: "busy" }, { "retry-after": "0.01" });
    fault.script("GET", `${base}/ports`, busy, busy, answer.json(200, [{ container_port: 80, protocol: "http" }]));
    const ran = await run(["ports", "list", ...component, "--retries", "2"]);
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual([{ container_port: 80, protocol: "http" }]);
    expect(fault.count("GET", `${base}/ports`)).toBe(3);
    expect(ran.stderr.match(/retry \d of 2/g)).toEqual(["retry 1 of 2", "retry 2 of 2"]);
  });

  test("a POST is not retried: one request, exit 6", async () => {
    fault.reset();
    fault.script("POST", `${base}/ports`, answer.json(503, { msg: "busy" }, { "retry-after": "0.01" }));
    const ran = await run(["ports", "add", ...component, "--port", "8080", "--protocol", "http", "--retries", "2"]);
    expect(ran.code).toBe(6);
    expect(fault.count("POST", `${base}/ports`)).toBe(1);
  });
});

describe("input refused before anything is sent, named as the user typed it", () => {
  const cases: [string[], string, string?][] = [
    [
      ["ports", "add", ...component, "--port", "70000", "--protocol", "http"],
      "rainbond: ports.add: --port must be a port number from 1 to 65535 (got 70000)",
    ],
    [
      ["ports", "add", ...component, "--port", "80", "--protocol", "ftp"],
      'rainbond: ports.add: --protocol must be one of "tcp", "http", "mysql", "grpc", "udp" (got "ftp")',
    ],
    [["ports", "list", ...component.slice(0, 6)], "rainbond: ports.list: --component is required"],
    [
      ["ports", "list", ...component, "--app", "twelve"],
      'rainbond: ports.list: --app must be an integer (got "twelve")',
    ],
    [
      ["regions", "list-for-team", "--team", "q8k2mz5d", "--page-size", "0"],
      "rainbond: regions.listForTeam: --page-size must be a positive integer (got 0)",
    ],
    [
      ["ports", "delete", ...component, "99999"],
      "rainbond: ports.delete: <port> must be a port number from 1 to 65535 (got 99999)",
    ],
    [["ports", "list", ...component, "--timeout-ms", "0"], "rainbond: --timeout-ms must be at least 1 (got 0)"],
    [["ports", "add", ...component, "--body", "[1,"], "rainbond: --body must be JSON: Unexpected end of JSON input"],
    [
      ["ports", "add", ...component, "--body", "-"],
      'rainbond: ports.add: --body.port must be a port number from 1 to 65535 (got "0")',
      '{"port": "0", "protocol": "http"}',
    ],
    [["ports", "add", ...component, "--body", "@no/such/file.json"], "rainbond: --body @no/such/file.json: ENOENT"],
    [
      ["ports", "add", ...component, "--port", "80", "--protocol", "http", "--token", "x"],
      "rainbond: --token is refused: a flag shows in process lists and shell history. Use RAINBOND_TOKEN or a profile.",
    ],
  ];
  test.each(cases)("%j", async (args, message, input) => {
    fault.reset();
    const ran = await run(args, {}, input);
    expect([ran.code, ran.stdout, ran.stderr.trim()]).toEqual([2, "", message]);
    expect(fault.requests).toHaveLength(0);
  });

  test("scope ids come from the environment when not given as flags; flags win", async () => {
    fault.reset();
    fault.script("GET", `${base}/ports`, answer.json(200, []));
    const env = {
      RAINBOND_TEAM: "q8k2mz5d",
      RAINBOND_REGION: "rainbond",
      RAINBOND_APP: "12",
      RAINBOND_COMPONENT: "other",
    };
    const ran = await run(["ports", "list", "--component", "gr3f9c2a"], env);
    expect([ran.code, ran.stdout.trim()]).toEqual([0, "[]"]);
    expect(fault.requests.map((r) => r.pathname)).toEqual([`${base}/ports`]);
  });
});

describe("calls a person confirms", () => {
  test("without --yes and with no terminal to ask on, nothing is sent; bad input is refused before that", async () => {
    fault.reset();
    const ran = await run(["ports", "delete", ...component, "8080"]);
    expect([ran.code, ran.stdout]).toEqual([2, ""]);
    expect(ran.stderr).toBe(
      `rainbond: ports delete: Delete a port of a component: DELETE ${fault.url}${base}/ports/8080. It removes or ` +
        "overwrites this for good: it cannot be undone. Pass --yes to go on (there is no terminal to ask on); nothing " +
        "was sent\n",
    );
    const bad = await run(["ports", "open-outer", ...component, "0"]); // a shortcut of ports.update: the client names that
    expect(bad.stderr).toMatch(/^rainbond: ports\.update: <port> must be a port number from 1 to 65535 \(got 0\)\n$/);
    expect(fault.requests).toHaveLength(0);
    fault.script("DELETE", `${base}/ports/8080`, answer.json(200, { container_port: 8080, protocol: "http" }));
    const yes = await run(["ports", "delete", ...component, "8080", "--yes"]);
    expect(yes.code).toBe(0);
    expect(fault.count("DELETE", `${base}/ports/8080`)).toBe(1);
  });

  test("each says what it does, and only what is true of it; a change that exposes nothing is not asked", async () => {
    fault.reset();
    const open = await run(["ports", "open-outer", ...component, "8080"]);
    expect(open.stderr).toBe(
      `rainbond: ports open-outer: Enables external service on a port: PUT ${fault.url}${base}/ports/8080 ` +
        '{"action":"open_outer"}. ' +
        "It opens this to the outside network (another call can close it again). Pass --yes to go on (there is no " +
        "terminal to ask on); nothing was sent\n",
    );
    const close = await run(["ports", "close-outer", ...component, "8080"]);
    expect(close.stderr).toMatch(/: PUT \S+\/ports\/8080 \{"action":"close_outer"\}\. It cuts off access /);
    expect(close.stderr).not.toMatch(/cannot be undone/);
    // ports update judges the action it sends
    const update = await run(["ports", "update", ...component, "8080", "--action", "open_outer"]);
    expect(update.stderr).toMatch(/outside network/);
    expect(fault.requests).toHaveLength(0);
    fault.script("PUT", `${base}/ports/8080`, answer.json(200, { container_port: 8080, protocol: "tcp" }));
    const protocol = await run(["ports", "change-protocol", ...component, "8080", "tcp"]);
    expect([protocol.code, protocol.stderr]).toEqual([0, ""]);
    const plain = await run([
      "ports",
      "update",
      ...component,
      "8080",
      "--action",
      "change_protocol",
      "--protocol",
      "tcp",
    ]);
    expect([plain.code, plain.stderr]).toEqual([0, ""]);
    expect(fault.count("PUT", `${base}/ports/8080`)).toBe(2);
  });
});

describe("--dry-run", () => {
  test("prints the request as curl with the token as $RAINBOND_TOKEN and secret members masked; sends nothing", async () => {
    fault.reset();
    const secret = "market-SECRET-5c2f";
    const app = ["--team", "q8k2mz5d", "--region", "rainbond", "--app", "12"];
    const body = JSON.stringify({ market_access_key: secret });
    const ran = await run(
      [
        "apps",
        "install",
        ...app,
        "--market-url",
        "https://hub.grapps.cn",
        "--market-domain",
        "rainbond",
        "--market-type",
        "rainstore",
        "--app-model-id",
        "m1",
        "--app-model-version",
        "1.0",
        "--is-deploy",
        "--body",
        "-",
        "--dry-run",
      ],
      {},
      body,
    );
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe(
      `curl -X POST '${fault.url}/openapi/v1/teams/q8k2mz5d/regions/rainbond/apps/12/install?is_deploy=true' -H "Authorization: $RAINBOND_TOKEN" -H 'Content-Type: application/json' -d '{"market_access_key":"[redacted]","market_url":"https://hub.grapps.cn","market_domain":"rainbond","market_type":"rainstore","app_model_id":"m1","app_model_version":"1.0"}'\n`,
    );
    expect(`${ran.stdout}${ran.stderr}`).not.toContain(secret);
    const noToken = await rainbond(["ports", "delete", ...component, "8080", "--dry-run"], {
      env: { RAINBOND_URL: fault.url },
    });
    expect([noToken.code, noToken.stdout]).toEqual([
      0,
      `curl -X DELETE '${fault.url}${base}/ports/8080' -H "Authorization: $RAINBOND_TOKEN"\n`,
    ]);
    expect(fault.requests).toHaveLength(0);
  });

  test("debug logs on stderr are masked too", async () => {
    fault.reset();
    fault.script("GET", `${base}/ports`, answer.json(200, [{ container_port: 80, desc: `echo ${token}` }]));
    const ran = await run(["ports", "list", ...component, "--log-level", "debug"]);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toMatch(/\[rainbond\] /);
    expect(JSON.parse(ran.stdout)).toEqual([{ container_port: 80, desc: "echo [redacted]" }]);
  });
});

describe("against the console stand-in", () => {
  let standIn: ConsoleStandIn;
  beforeAll(async () => {
    standIn = await startConsoleStandIn();
  });
  afterAll(() => standIn?.close());
  const env = () => ({ RAINBOND_URL: standIn.url, RAINBOND_TOKEN: TOKEN });
  const scope = ["--team", ids.team, "--region", ids.region, "--app", String(ids.app)];

  test("requests the console refuses are refused before sending; what it takes, answers as the spec says", async () => {
    const dotted = await rainbond(["components", "get", ...scope, "--component", "svc.8d2k"], { env: env() });
    expect([dotted.code, dotted.stderr.trim()]).toEqual([
      2,
      expect.stringMatching(/^rainbond: components\.get: --component must be letters, digits/),
    ]);
    const range = await rainbond(["monitor", "query-range", ...scope], { env: env() });
    expect([range.code, range.stderr.trim()]).toEqual([2, "rainbond: monitor.queryRange: --start is required"]);
    expect(standIn.requests).toHaveLength(0);
    const ports = await rainbond(["ports", "list", ...scope, "--component", ids.component], { env: env() });
    expect(ports.code).toBe(0);
    expect(JSON.parse(ports.stdout)).toEqual([...standIn.ports.values()]); // out of the console's envelope
    const cold = await rainbond(["apps", "list", "--team", ids.team, "--region", ids.certRegion], { env: env() });
    expect([cold.code, cold.stderr]).toEqual([5, expect.stringMatching(/failed with 409: 团队未在该集群中初始化/)]);
  });

  test("a region's token and key file are masked on stdout", async () => {
    // the measured console's key_file is a path: a key, where the console would send one
    standIn.drift = (op, reply) =>
      void (op === "getRegion" && Object.assign(reply.body as object, { key_file: KEY_FILE }));
    const ran = await rainbond(["regions", "get", ids.certRegionId], { env: env() });
    expect(ran.code).toBe(0);
    expect(ran.stdout).not.toContain(KEY_FILE.slice(0, 30));
    expect(ran.stdout).not.toContain(REGION_TOKEN);
    expect(JSON.parse(ran.stdout).key_file).toBe("[redacted]");
  });
});
