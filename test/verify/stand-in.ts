// A stand-in console of the tests' own (a loopback node:http server) that answers the way
// spec/source/live-console-behaviour.md says the live console does: the bare token in Authorization (anything else
// answers 401 with an `error_trace`), the port operations inside the `{code, msg, msg_show, data: {bean, list}}`
// envelope, bare arrays for the rule lists, 404s with an empty body, with `null`, with `{code, msg, msg_show}` or with
// only `{msg}`, 409 with code 2001 for a region the team is not opened in (as the real console answers), 400 "params
// error" without `start`/`end`. `drift` changes one answer, for the tests of what the verify reports.
import type { components } from "../../generated/schema.js";
import { startFaultServer, type SeenRequest, type Reply } from "../faults/server.js";

type S = components["schemas"];

export const TOKEN = "tok-LIVE-7d1e42a9";
export const REGION_TOKEN = "rt-REGION-SECRET-5581";
export const KEY_FILE = "-----BEGIN RSA PRIVATE KEY-----\nMIIEstandinSECRETkeyMATERIAL\n-----END RSA PRIVATE KEY-----";
export const ids = {
  team: "kq7w2m",
  tenant: "0b5e9c71d3a24f6e8a1c2b3d4e5f6071",
  region: "hangzhou",
  regionId: "9d0c1b2a3f4e5d6c7b8a9f0e1d2c3b4a",
  app: 31,
  component: "svc8d2k",
};
/** A region the team is not initialised in: its operations answer 409, code 2001. */
export const COLD_REGION = "cold";

const rule: S["HTTPGatewayRule"] = {
  ID: 5,
  http_rule_id: "a1b2c3d4e5f60718",
  region_id: ids.regionId,
  tenant_id: ids.tenant,
  service_id: ids.component,
  service_name: "orders-api",
  domain_name: "orders.example.net",
  container_port: 5000,
  protocol: "http",
  certificate_id: 0,
  domain_type: "www",
  service_alias: ids.component,
  is_senior: false,
  domain_path: "/",
  domain_cookie: "",
  domain_heander: "",
  type: 0,
  the_weight: 100,
  rule_extensions: [],
  is_outer_service: true,
  auto_ssl: false,
  auto_ssl_config: null,
  path_rewrite: false,
  rewrites: "",
};

const { rule_extensions: _, auto_ssl_config: __, ...ruleBase } = rule;
const enterpriseRule: S["EnterpriseHTTPGatewayRule"] = {
  ...ruleBase,
  region_name: ids.region,
  team_name: ids.team,
  app_id: ids.app,
  auto_ssl_config: "",
  rule_extensions: "",
  rewrites: "",
};

const regionRecord: S["TeamRegionsResp"] = {
  region_id: ids.regionId,
  region_name: ids.region,
  region_alias: "Hangzhou",
  tenant_name: ids.team,
  url: "https://10.2.0.5:8443",
  wsurl: "wss://10.2.0.5:6060",
  httpdomain: "hz.example.net",
  tcpdomain: "10.2.0.5",
  token: REGION_TOKEN,
  status: "1",
  desc: "",
  scope: "private",
};

const region: S["RegionInfoR"] = {
  region_name: ids.region,
  region_alias: "Hangzhou",
  url: "https://10.2.0.5:8443",
  wsurl: "wss://10.2.0.5:6060",
  httpdomain: "hz.example.net",
  tcpdomain: "10.2.0.5",
  scope: "private",
  ssl_ca_cert: "-----BEGIN CERTIFICATE-----\nMIIBca\n-----END CERTIFICATE-----",
  cert_file: "-----BEGIN CERTIFICATE-----\nMIIBcert\n-----END CERTIFICATE-----",
  key_file: KEY_FILE,
  desc: "",
  used_disk: 10,
  total_disk: 200,
  used_memory: 2048,
  total_memory: 16384,
  used_cpu: 1.5,
  total_cpu: 8,
  health_status: "healthy",
  status: "1",
};

const app: S["AppBaseInfo"] = {
  ID: ids.app,
  tenant_id: ids.tenant,
  group_name: "orders",
  region_name: ids.region,
  is_default: false,
  order_index: 0,
  note: null,
  username: "ops",
  governance_mode: "KUBERNETES_NATIVE_SERVICE",
  create_time: "2026-03-01T10:00:00Z",
  update_time: "2026-03-02T10:00:00Z",
  app_type: "rainbond",
  app_store_name: null,
  app_store_url: null,
  app_template_name: null,
  version: null,
  logo: null,
  k8s_app: "orders",
};

const component: S["ServiceBaseInfo"] = {
  status: "running",
  access_infos: [],
  service_id: ids.component,
  tenant_id: ids.tenant,
  service_key: "0c9d8e7f6a5b4c3d",
  service_alias: ids.component,
  service_cname: "orders-api",
  service_region: ids.region,
  desc: null,
  category: "application",
  version: "2.0.1",
  update_version: 1,
  image: "registry.example.net/orders-api:2.0.1",
  cmd: null,
  min_node: 1,
  min_cpu: 250,
  container_gpu: 0,
  min_memory: 256,
  extend_method: "stateless",
  code_from: null,
  git_url: null,
  git_project_id: 0,
  code_version: null,
  service_type: null,
  creater: 2,
  language: null,
  total_memory: 256,
  is_service: false,
  service_origin: "assistant",
  tenant_service_group_id: ids.app,
  open_webhooks: false,
  service_source: "docker_image",
  create_status: "complete",
  check_uuid: null,
  check_event_id: null,
  docker_cmd: null,
  server_type: "git",
  is_upgrate: false,
  build_upgrade: true,
  oauth_service_id: null,
  k8s_component_name: "orders-api",
};

const monitor: S["ComponentMonitorSerializers"][] = [
  {
    service_id: ids.component,
    service_cname: "orders-api",
    service_alias: ids.component,
    monitors: [
      {
        monitor_item: "request_time",
        status: "success",
        data: { resultType: "vector", result: [{ value: ["1767000000", "3.2"] }] },
      },
    ],
  },
];

const resources: S["TeamAppsResource"][] = [
  { team_id: ids.tenant, team_name: ids.team, team_alias: "Orders", used_memory: 512, used_memory_percentage: 3.1 },
];

const portOf = (port: number, protocol: S["PortProtocol"] = "http"): S["Port"] => ({
  container_port: port,
  protocol,
  port_alias: `${ids.component.toUpperCase()}${port}`,
  is_inner_service: false,
  is_outer_service: false,
  k8s_service_name: `${ids.component}-${port}`,
});

/** The console's general envelope, as the port operations answer. */
const envelope = (data: { bean?: unknown; list?: unknown[] }, msgShow = "成功"): Reply => ({
  body: { code: 200, msg: "success", msg_show: msgShow, data: { bean: data.bean ?? {}, list: data.list ?? [] } },
});
const error = (status: number, code: number, msg: string, msgShow: string): Reply => ({
  status,
  body: { code, msg, msg_show: msgShow },
});

export interface StandIn {
  url: string;
  requests: SeenRequest[];
  /** The component's ports, as the stand-in keeps them. */
  ports: Map<number, S["Port"]>;
  /** Changes the answer to one operation (by operationId); returns the reply to send instead, or nothing. */
  drift?: (operationId: string, reply: Reply) => Reply | void;
  /** Answer 500 to every port update. */
  failPortUpdate?: boolean;
  close(): Promise<void>;
}

const ROUTES: [method: string, pattern: RegExp, operationId: string][] = [
  ["GET", /^\/openapi\/v1\/httpdomains$/, "listEnterpriseHttpRules"],
  ["GET", /^\/openapi\/v1\/teams\/([^/]+)\/regions$/, "listTeamRegions"],
  ["GET", /^\/openapi\/v1\/regions\/([^/]+)$/, "getRegion"],
  ["POST", /^\/openapi\/v1\/teams\/resource$/, "listTeamResources"],
  ["GET", /^\/openapi\/v1\/teams\/([^/]+)\/regions\/([^/]+)\/apps$/, "listApps"],
  ["GET", /^\/openapi\/v1\/teams\/([^/]+)\/regions\/([^/]+)\/apps\/(\d+)\/httpdomains$/, "listAppHttpRules"],
  ["GET", /^\/openapi\/v1\/teams\/([^/]+)\/regions\/([^/]+)\/apps\/(\d+)\/monitor\/query$/, "queryComponentMonitor"],
  [
    "GET",
    /^\/openapi\/v1\/teams\/([^/]+)\/regions\/([^/]+)\/apps\/(\d+)\/monitor\/query_range$/,
    "queryComponentMonitorRange",
  ],
  ["GET", /^\/openapi\/v1\/teams\/([^/]+)\/regions\/([^/]+)\/apps\/(\d+)\/services\/([^/]+)$/, "getComponent"],
  [
    "GET",
    /^\/openapi\/v1\/teams\/([^/]+)\/regions\/([^/]+)\/apps\/(\d+)\/services\/([^/]+)\/ports$/,
    "listComponentPorts",
  ],
  [
    "POST",
    /^\/openapi\/v1\/teams\/([^/]+)\/regions\/([^/]+)\/apps\/(\d+)\/services\/([^/]+)\/ports$/,
    "addComponentPort",
  ],
  [
    "PUT",
    /^\/openapi\/v1\/teams\/([^/]+)\/regions\/([^/]+)\/apps\/(\d+)\/services\/([^/]+)\/ports\/(\d+)$/,
    "updateComponentPort",
  ],
  [
    "DELETE",
    /^\/openapi\/v1\/teams\/([^/]+)\/regions\/([^/]+)\/apps\/(\d+)\/services\/([^/]+)\/ports\/(\d+)$/,
    "deleteComponentPort",
  ],
];

export async function startStandIn(token = TOKEN): Promise<StandIn> {
  const ports = new Map<number, S["Port"]>([[5000, portOf(5000)]]);
  const standIn: StandIn = { url: "", requests: [], ports, close: async () => {} };

  /** The answer to a known team, region, app and component, or the console's error for the first unknown one. */
  const scoped = (params: string[], operationId: string): Reply | undefined => {
    const [team, regionName, appId, serviceId] = params;
    if (team !== undefined && team !== ids.team) return { status: 404, body: { msg: "team not found" } };
    if (regionName === COLD_REGION)
      return error(409, 2001, "the team is not initialized in the region", "团队未在该集群中初始化");
    if (regionName !== undefined && regionName !== ids.region)
      return error(404, 3000, "region not found", "集群不存在");
    if (appId !== undefined && Number(appId) !== ids.app) return error(404, 4000, "app not found", "应用不存在");
    if (serviceId !== undefined && serviceId !== ids.component) {
      // some 404s have an empty body, some the JSON null
      return operationId === "getComponent" ? { status: 404, body: "" } : { status: 404, body: "null" };
    }
    return undefined;
  };

  const handle = (operationId: string, params: string[], request: SeenRequest): Reply => {
    const refusal = operationId === "getRegion" ? undefined : scoped(params, operationId);
    if (refusal) return refusal;
    switch (operationId) {
      case "listEnterpriseHttpRules":
        return { body: [enterpriseRule] };
      case "listTeamRegions":
        return { body: { total: 1, regions: [regionRecord] } };
      case "getRegion":
        return params[0] === ids.region || params[0] === ids.regionId
          ? { body: region }
          : { status: 404, body: { msg: "region not found" } };
      case "listTeamResources":
        return { body: resources };
      case "listApps":
        return { body: [app] };
      case "listAppHttpRules":
        return { body: [rule] };
      case "queryComponentMonitor":
        return { body: monitor };
      case "queryComponentMonitorRange":
        return request.query.get("start") && request.query.get("end")
          ? { body: monitor }
          : error(400, 400, "params error", "参数错误");
      case "getComponent":
        return { body: component };
      case "listComponentPorts":
        return envelope({ list: [...ports.values()] }, "查询成功");
      case "addComponentPort": {
        const body = JSON.parse(request.body) as S["AddPortBody"];
        if (!body.port) {
          return {
            status: 400,
            body: {
              detail: "参数错误",
              err: { port: ["该字段是必填项。"] },
              code: 20400,
              error_type: "ValidationError",
            },
          };
        }
        if (ports.has(Number(body.port))) return error(409, 409, "port already exists", "端口已存在");
        const port = portOf(Number(body.port), body.protocol);
        ports.set(port.container_port, port);
        return envelope({ bean: port });
      }
      case "updateComponentPort": {
        if (standIn.failPortUpdate) return error(500, 500, "internal error", "系统异常");
        const port = ports.get(Number(params[4]));
        if (!port) return error(404, 404, "port not found", "端口不存在");
        const body = JSON.parse(request.body) as S["UpdatePortBody"];
        if (body.action === "change_port_alias" && body.port_alias) port.port_alias = body.port_alias;
        return envelope({ bean: port });
      }
      case "deleteComponentPort": {
        const port = ports.get(Number(params[4]));
        if (!port) return error(404, 404, "port not found", "端口不存在");
        ports.delete(port.container_port);
        return envelope({ bean: port });
      }
      default:
        return error(404, 404, "not found", "不存在");
    }
  };

  const server = await startFaultServer((request) => {
    if (request.headers.authorization !== token) {
      return {
        status: 401,
        body: {
          detail: "No token",
          code: 401,
          msg: "No token",
          msg_show: "No token",
          error_type: "AuthenticationFailed",
          error_trace: 'Traceback (most recent call last):\n  File "auth.py", line 12',
        },
      };
    }
    for (const [method, pattern, operationId] of ROUTES) {
      const match = request.method === method ? pattern.exec(request.pathname) : null;
      if (!match) continue;
      // a copy: a drift may change it freely
      const reply = structuredClone(handle(operationId, match.slice(1).map(decodeURIComponent), request));
      return standIn.drift?.(operationId, reply) ?? reply;
    }
    return error(404, 404, "not found", "不存在");
  });
  standIn.url = server.url;
  standIn.requests = server.requests as SeenRequest[]; // verify's tests empty it before each test
  standIn.close = () => server.close();
  return standIn;
}
