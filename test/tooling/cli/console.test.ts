// The command line against the stand-in of the real console (test/helpers/console/stand-in.ts, which answers as the measured
// console did): what that console refuses or crashes on is refused before sending, with the console's rule in the
// message and exit code 2; what it takes goes through with the documented defaults; a team not opened in a region is
// a conflict (exit 5).
import { afterAll, beforeEach, expect, test } from "vitest";
import { ids, startConsoleStandIn, TOKEN, type ConsoleStandIn } from "../../helpers/console/stand-in.js";
import { rainbond } from "../../helpers/cli/helpers.js";

let standIn: ConsoleStandIn;
beforeEach(async () => {
  await standIn?.close();
  standIn = await startConsoleStandIn();
});
afterAll(() => standIn?.close());

const env = () => ({ RAINBOND_URL: standIn.url, RAINBOND_TOKEN: TOKEN });
const app = ["--team", ids.team, "--region", ids.region, "--app", String(ids.app)];
const component = [...app, "--component", ids.component];

test("an HTTP rule without a domain is refused before sending, naming the console's rule", async () => {
  const ran = await rainbond(
    ["gateway", "create-http-rule", ...app, "--service-id", ids.component, "--container-port", "8080"],
    { env: env() },
  );
  expect(ran.code).toBe(2);
  expect(ran.stderr).toMatch(/^rainbond: gateway\.createHttpRule: .*domain_name/);
  expect(standIn.requests).toHaveLength(0);
});

test("a port alias change without k8s_service_name (which crashes the console) is refused before sending", async () => {
  const ran = await rainbond(
    ["ports", "update", "8080", ...component, "--action", "change_port_alias", "--port-alias", "WEB", "--yes"],
    { env: env() },
  );
  expect(ran.code).toBe(2);
  expect(ran.stderr).toMatch(/k8s_service_name/);
  expect(standIn.requests).toHaveLength(0);
});

test("a port added without is_inner_service is sent with its default, false, and the console takes it", async () => {
  const ran = await rainbond(["ports", "add", ...component, "--port", "9090", "--protocol", "tcp"], { env: env() });
  expect([ran.code, ran.stderr]).toEqual([0, ""]);
  expect(standIn.requests.map((r) => r.body)).toEqual([{ port: "9090", protocol: "tcp", is_inner_service: false }]);
  expect(JSON.parse(ran.stdout)).toMatchObject({ container_port: 9090, protocol: "tcp", is_inner_service: false });
});

test("a team not opened in the region: 409 with code 2001, exit 5", async () => {
  const ran = await rainbond(["apps", "list", "--team", ids.team, "--region", ids.certRegion], { env: env() });
  expect(ran.code).toBe(5);
  expect(ran.stderr).toMatch(/failed with 409: /);
});
