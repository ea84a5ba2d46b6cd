// The live console answers the four port operations inside its envelope
// `{"code":200,"msg":"success","msg_show":"...","data":{"bean":{...},"list":[...]}}` (the list in data.list, the
// one port of add/update/delete in data.bean) and HTTP rule creation with 201. A local server answers that way; the
// client must hand back the plain records.
import { beforeAll, describe, expect, test } from "vitest";
import { createRainbondClient, type Port, type RainbondClient } from "../../src/index.js";
import { useFaultServer, type SeenRequest, type Reply } from "../helpers/faults/server.js";

const region = { teamId: "q8k2mz5d", regionName: "rainbond" };
const app = { ...region, appId: 12 };
const component = { ...app, serviceId: "gr3f9c2a" };
const portsPath = "/openapi/v1/teams/q8k2mz5d/regions/rainbond/apps/12/services/gr3f9c2a/ports";
const rulesPath = "/openapi/v1/teams/q8k2mz5d/regions/rainbond/apps/12/httpdomains";

const web: Port = {
  container_port: 8080,
  protocol: "http",
  port_alias: "GR3F9C2A8080",
  is_inner_service: true,
  is_outer_service: false,
  k8s_service_name: "gr3f9c2a-8080",
};
const db: Port = {
  ...web,
  container_port: 3306,
  protocol: "mysql",
  port_alias: "GR3F9C2A3306",
  k8s_service_name: "gr3f9c2a-3306",
};
const opened: Port = { ...web, is_outer_service: true };
const added: Port = { ...web, container_port: 9000, port_alias: "GR3F9C2A9000", k8s_service_name: "gr3f9c2a-9000" };

const createdRule = {
  ID: 41,
  http_rule_id: "9a8b7c6d5e4f3a2b",
  region_id: "3c8e1f0a2b4d4c6e8f0a1b2c3d4e5f60",
  tenant_id: "7f3b2c9e1d4a4e6b8c0d2f1a3b5c7d9e",
  service_id: "gr3f9c2a",
  service_name: "web-frontend",
  domain_name: "shop.example.org",
  container_port: 8080,
  protocol: "http",
  domain_path: "/",
  domain_heander: "X-Canary=true",
  rule_extensions: [],
  auto_ssl: false,
  auto_ssl_config: null,
};

/** The console's general envelope. Like the live console, the unused member is still there (empty). */
const envelope = (data: { bean?: unknown; list?: unknown[] }): Reply => ({
  body: { code: 200, msg: "success", msg_show: "查询成功", data: { bean: data.bean ?? {}, list: data.list ?? [] } },
});

function answer(req: SeenRequest): Reply {
  if (req.pathname === portsPath && req.method === "GET") return envelope({ list: [web, db] });
  if (req.pathname === portsPath && req.method === "POST") return envelope({ bean: added });
  if (req.pathname === `${portsPath}/8080` && req.method === "PUT") return envelope({ bean: opened });
  if (req.pathname === `${portsPath}/8080` && req.method === "DELETE") return envelope({ bean: web });
  if (req.pathname === rulesPath && req.method === "POST") return { status: 201, body: createdRule };
  if (req.pathname === rulesPath && req.method === "GET") return { body: [createdRule] };
  return { status: 404, body: { code: 404, msg: "not found", msg_show: "not found" } };
}

const server = useFaultServer(answer);
let client: RainbondClient;
beforeAll(() => {
  client = createRainbondClient({ baseUrl: server.url, token: "envelope-token", logLevel: "off", retries: 0 });
});

/** The request the last call made (exactly one). */
function onlyRequestSince(before: number): SeenRequest {
  expect(server.requests.length).toBe(before + 1);
  return server.requests.at(-1)!;
}

describe("port operations inside the console's envelope", () => {
  test("ports.list returns data.list as Port[]", async () => {
    const before = server.requests.length;
    const ports = await client.ports.list(component);
    expect(ports).toEqual([web, db]);
    expect(Array.isArray(ports)).toBe(true);
    const req = onlyRequestSince(before);
    expect([req.method, req.pathname]).toEqual(["GET", portsPath]);
    expect(req.headers.authorization).toBe("envelope-token");
  });

  test("ports.add returns data.bean as the Port", async () => {
    const before = server.requests.length;
    const port = await client.ports.add(component, { port: 9000, protocol: "http" });
    expect(port).toEqual(added);
    const req = onlyRequestSince(before);
    expect([req.method, req.pathname]).toEqual(["POST", portsPath]);
    // is_inner_service: the console requires it, the spec's overlay defaults it to false, and the client sends that
    expect(JSON.parse(req.body)).toEqual({ port: "9000", protocol: "http", is_inner_service: false });
  });

  test("ports.update (and its shortcuts) return data.bean as the Port", async () => {
    const before = server.requests.length;
    expect(await client.ports.update(component, 8080, { action: "open_outer" })).toEqual(opened);
    expect(await client.ports.openOuter(component, 8080)).toEqual(opened);
    expect(await client.ports.changeAlias(component, 8080, { port_alias: "WEB", k8s_service_name: "web" })).toEqual(
      opened,
    );
    expect(server.requests.length).toBe(before + 3);
    const sent = server.requests.slice(before);
    expect(sent.map((r) => [r.method, r.pathname])).toEqual(Array(3).fill(["PUT", `${portsPath}/8080`]));
    expect(sent.map((r) => JSON.parse(r.body))).toEqual([
      { action: "open_outer" },
      { action: "open_outer" },
      { action: "change_port_alias", port_alias: "WEB", k8s_service_name: "web" },
    ]);
  });

  test("ports.delete returns data.bean as the deleted Port", async () => {
    const before = server.requests.length;
    const port = await client.ports.delete(component, 8080);
    expect(port).toEqual(web);
    const req = onlyRequestSince(before);
    expect([req.method, req.pathname]).toEqual(["DELETE", `${portsPath}/8080`]);
  });

  test("withResponse() gives the unwrapped data with the console's Response", async () => {
    const { data, response } = await client.ports.list(component).withResponse();
    expect(data).toEqual([web, db]);
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${server.url}${portsPath}`);
  });
});

describe("HTTP rule creation answered with 201", () => {
  test("gateway.createHttpRule resolves with the HTTPGatewayRule record", async () => {
    const before = server.requests.length;
    const { data, response } = await client.gateway
      .createHttpRule(app, {
        service_id: "gr3f9c2a",
        container_port: 8080,
        domain_name: "shop.example.org",
        domain_header: "X-Canary=true",
      })
      .withResponse();
    expect(response.status).toBe(201);
    expect(data).toEqual(createdRule);
    expect(data.domain_heander).toBe("X-Canary=true");
    const req = onlyRequestSince(before);
    expect([req.method, req.pathname]).toEqual(["POST", rulesPath]);
    expect(JSON.parse(req.body)).toEqual({
      service_id: "gr3f9c2a",
      container_port: 8080,
      domain_name: "shop.example.org",
      domain_header: "X-Canary=true",
      // the console's defaults, which the spec's overlay states and the client sends
      certificate_id: 0,
      domain_path: "/",
      rule_extensions: [],
      whether_open: false,
      auto_ssl: false,
    });
  });

  test("a bare array answer of a non-port operation is returned as it is", async () => {
    expect(await client.gateway.listHttpRules(app)).toEqual([createdRule]);
  });
});
