// What a call sends, as the command line shows it before a person confirms it and as it sends it, against the fault
// server of test/helpers/faults/ (a loopback server of our own): the question shows the request as it will go (surface/
// request.ts: the whole body, console-like text included; secret members masked and named), a body member the spec
// does not know is refused before anything is asked, the console's destructive GETs are asked like any destructive
// call and never sent twice, and an answer without content prints nothing.
import { beforeAll, describe, expect, test } from "vitest";
import { answer, type FaultServer } from "../../helpers/faults/server.js";
import { withFaultServer } from "../../helpers/cli/helpers.js";

const token = "tok-CLI-REQUESTS-7d21c4f9";
const region = ["--team", "q8k2mz5d", "--region", "rainbond"];
const component = [...region, "--app", "12", "--component", "gr3f9c2a"];
const against = withFaultServer(token);
let fault: FaultServer;
beforeAll(() => void (fault = against.server()));
/** Runs against the fault server with the token and no terminal. */
const run = (args: string[], input = "") => against.run(args, { input });

describe("the question before a confirmed call shows the request as it will be sent", () => {
  test("a body holding console-like text is shown as sent, not replaced as an answer's traceback is", async () => {
    fault.reset();
    const text = "Traceback (most recent call last): ours";
    const ran = await run(["app-models", "start-import", "465f0ec6", ...region, "--file-name", text]);
    expect([ran.code, ran.stdout]).toEqual([2, ""]);
    expect(ran.stderr).toBe(
      `rainbond: app-models start-import: Import uploaded app packages into the local store: POST ${fault.url}` +
        `/openapi/v1/teams/q8k2mz5d/regions/rainbond/app-model/import/465f0ec6 {"file_name":"${text}"}. It adds ` +
        "what the API cannot remove: it cannot be undone through the API. Pass --yes to go on (there is no terminal " +
        "to ask on); nothing was sent\n",
    );
    expect(fault.requests).toHaveLength(0);
  });

  test("secret members are masked and named, characters that do not show escaped; the body is whole", async () => {
    fault.reset();
    const password = "correct-horse-S1";
    const body = JSON.stringify({ password, password1: password });
    const own = await run(["users", "change-own-password", "--body", "-"], body);
    expect(own.stderr).toContain(
      `PUT ${fault.url}/openapi/v1/changepwd {"password":"[redacted]","password1":"[redacted]"} (shown as ` +
        "[redacted], sent as given: body.password, body.password1). It adds what the API cannot remove",
    );
    expect(own.stderr).not.toContain(password);
    const bidi = "web\u202egnp.exe";
    const long = "x".repeat(3_000);
    const start = await run(["app-models", "start-import", "465f0ec6", ...region, "--file-name", `${bidi}${long}`]);
    expect(start.stderr).toContain(`{"file_name":"web\\u202egnp.exe${long}"} (characters that do not show as`);
    expect(start.stderr).not.toContain("\u202e");
    expect(fault.requests).toHaveLength(0);
  });
});

describe("a body member the spec does not know is refused before anything is asked or sent", () => {
  const cases: [string, string[], string][] = [
    [
      "at the top, with --yes",
      ["ports", "update", "8080", ...component, "--yes", "--body", '{"action":"open_outer","prot":1}'],
      "rainbond: ports.update: --body.prot: not in the spec (--body takes action, protocol, port_alias, " +
        "k8s_service_name); nothing was sent",
    ],
    [
      "in an array's item, with --dry-run",
      [
        "components",
        "update-envs",
        ...component,
        "--dry-run",
        "--body",
        '{"envs":[{"name":"A","value":"1","bogus":1}]}',
      ],
      "rainbond: components.updateEnvs: --body.envs[0].bogus: not in the spec (--body.envs[0] takes name, value, " +
        "note, is_change, scope); nothing was sent",
    ],
    [
      "of a call no one confirms",
      ["ports", "add", ...component, "--port", "80", "--protocol", "http", "--body", '{"is_outer_service":true}'],
      "rainbond: ports.add: --body.is_outer_service: not in the spec (--body takes port, protocol, port_alias, " +
        "is_inner_service); nothing was sent",
    ],
  ];
  test.each(cases)("%s", async (_, args, message) => {
    fault.reset();
    const ran = await run(args);
    expect([ran.code, ran.stdout, ran.stderr]).toEqual([2, "", `${message}\n`]);
    expect(fault.requests).toHaveLength(0);
  });
});

describe("the console's destructive GETs", () => {
  test.each([
    ["close-components", "/openapi/v1/users/2/close", "It cuts off access or stops what runs until it is restored."],
    ["delete-apps", "/openapi/v1/users/2/delete", "It removes or overwrites this for good: it cannot be undone."],
  ])("users %s is asked like any such call, and never sent twice", async (method, path, warning) => {
    fault.reset();
    const asked = await run(["users", method, "2", "--retries", "2"]);
    expect([asked.code, asked.stdout]).toEqual([2, ""]);
    expect(asked.stderr).toContain(`: GET ${fault.url}${path}. ${warning} Pass --yes to go on`);
    expect(fault.requests).toHaveLength(0);
    fault.script("GET", path, answer.json(503, { msg: "busy" }, { "retry-after": "0.01" }));
    const sent = await run(["users", method, "2", "--retries", "2", "--yes"]);
    expect(sent.code).toBe(6);
    expect(fault.count("GET", path)).toBe(1);
  });
});

test("an answer without content prints nothing on stdout, whatever --output or --query; exit 0", async () => {
  fault.reset();
  fault.script("POST", "/openapi/v1/users", answer.text(201, ""), answer.text(201, ""), answer.text(201, ""));
  const user = ["users", "create", "--nick-name", "user1", "--enterprise-id", "e1", "--email", "user1@example.local"];
  for (const more of [[], ["-o", "table"], ["--query", "length(@)"]]) {
    const ran = await run([...user, ...more, "--body", "-"], JSON.stringify({ password: "correct-horse-1" }));
    expect([ran.code, ran.stdout, ran.stderr]).toEqual([0, "", ""]);
  }
  expect(fault.count("POST", "/openapi/v1/users")).toBe(3);
});
