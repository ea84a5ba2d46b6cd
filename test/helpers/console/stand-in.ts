// The tests' one stand-in of the real Rainbond console (goodrain/rainbond-console at ae3f161) as it was measured: it
// checks requests by the console's own rules and answers with the records, statuses and bodies recorded from it
// (fixtures/recorded.json): the envelope of the port operations, DRF's validation bodies (`err`, in Chinese), the
// `{"msg"}`-only gateway refusals, 409 with code 2001, 412, 201 for an HTTP rule, and a 500 with a traceback in
// `msg_show` (the stand-in's own text) where the console crashes. A little state (ports, rules) so that a sequence of
// calls goes as it went on the console. Loopback only, on the tests' one server (test/helpers/faults/server.ts).
//
// Requests are matched to the spec's operations (generated/openapi.json). An operation with no rule of its own below
// answers its first recorded 2xx answer (fixtures/recorded.json, else the measurement of all 101 operations,
// fixtures/whole-v1, by the same ids), or, where it never succeeded, its first recorded answer: an operation's
// recordings added to the fixtures are answered as they are.
// `drift` makes the console depart from what was measured, one answer at a time: verify's tests use it to see each
// departure reported.
import { startFaultServer, type Reply, type SeenRequest } from "../faults/server.js";
import { specOperations } from "../spec.js";
import { exchanges, measuredWhole, operationOf, type Exchange } from "./recorded.js";

/** The API token the stand-in takes (the whole Authorization header, as the console reads it). */
export const TOKEN = "console-api-token";
export const ids = {
  /** The team's id, as the recorded paths name it; its name (`teamName`) is taken too, as the console takes both. */
  team: "t0000000000000000000000000000001",
  teamName: "team1",
  tenant: "t0000000000000000000000000000001",
  /** A plain-HTTP region (empty certificate fields): getRegion answers 400, by its name or its id. */
  region: "rainbond",
  regionId: "r0000000000000000000000000000001",
  /** A region with certificates, in which the team is not opened (409, code 2001). */
  certRegion: "withcerts",
  certRegionId: "r0000000000000000000000000000002",
  app: 1,
  component: "s0000000000000000000000000000001",
};
/** The region token the console lists with the team's regions (a secret: no surface may show it). */
export const REGION_TOKEN = "region-secret-token";
/** A private key for a drift to plant where a console could send one (the measured console's key_file is a path). */
export const KEY_FILE = "-----BEGIN RSA PRIVATE KEY-----\nMIIEstandinSECRETkeyMATERIAL\n-----END RSA PRIVATE KEY-----";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- records as the console sends them
type Json = any;
type Answer = { status: number; body: Json };

/** A request as the stand-in saw it: its JSON body parsed (the text when it is not JSON). */
export interface ConsoleRequest {
  method: string;
  /** The URL's path, `/openapi/v1/...`. */
  pathname: string;
  query: URLSearchParams;
  body: Json;
}

export interface ConsoleStandIn {
  url: string;
  /** Every request that reached it, in order; a test may empty it. */
  requests: ConsoleRequest[];
  /** The component's ports, as the stand-in keeps them. */
  ports: Map<number, Json>;
  /** Changes the answer to one operation (by operationId, on a copy); returns the reply to send instead, or nothing. */
  drift?: (operationId: string, reply: Reply) => Reply | void;
  close(): Promise<void>;
}

/** The recorded answer of the first exchange that `pick` selects, as a fresh copy. */
function recorded(pick: (e: Exchange) => boolean): Answer {
  const found = exchanges.find(pick);
  if (!found) throw new Error("the stand-in's fixture has no such exchange");
  return { status: found.status, body: structuredClone(found.answer) };
}
const at = (method: string, tail: string, status: number, query?: string) =>
  recorded(
    (e) =>
      e.method === method &&
      e.path.endsWith(tail) &&
      e.status === status &&
      (query === undefined || Object.hasOwn(e.query ?? {}, query)),
  );
/**
 * What an operation without a rule of its own answers: its first 2xx answer of the first measurement, else of the
 * second (all 101 operations), else the second's first answer (an operation that never succeeded there: the console's
 * defects, an id that was never there).
 */
function recordedAnswer(operationId: string): Answer {
  const ok = (e: Exchange) => e.status >= 200 && e.status < 300;
  if (exchanges.some((e) => ok(e) && operationOf(e) === operationId))
    return recorded((e) => ok(e) && operationOf(e) === operationId);
  const whole = measuredWhole.filter((e) => e.operationId === operationId);
  const found = whole.find(ok) ?? whole[0];
  if (!found) throw new Error(`the stand-in's fixtures have no answer of ${operationId}`);
  return { status: found.status, body: structuredClone(found.answer) };
}

const envelope = (msgShow: string, data: { bean?: Json; list?: Json[] }, code = 200): Json => ({
  code,
  msg: code === 200 ? "success" : "failed",
  msg_show: msgShow,
  data: { bean: data.bean ?? {}, list: data.list ?? [] },
});
/** DRF's answer to a body that fails validation, with the console's Chinese messages (LANGUAGE_CODE zh-hans). */
const invalid = (err: Json): Answer => ({
  status: 400,
  body: { detail: "参数错误", err, code: 20400, error_type: "ValidationError" },
});
const REQUIRED = ["该字段是必填项。"];
const tooLong = (max: number) => [`请确保这个字段不能超过 ${max} 个字符。`];

/** The console's rules for a body, as DRF applies them: the first breach of each field, in the serializer's order. */
function fieldErrors(body: Json, fields: Record<string, { required?: boolean; max?: number }>) {
  const err: Record<string, string[]> = {};
  for (const [name, { required, max }] of Object.entries(fields)) {
    const value = body?.[name];
    if (value === undefined || value === null) {
      if (required) err[name] = REQUIRED;
    } else if (max !== undefined && String(value).length > max) err[name] = tooLong(max);
  }
  return Object.keys(err).length ? err : undefined;
}
const HTTP_RULE = {
  service_id: { required: true },
  container_port: { required: true },
  domain_name: { required: true, max: 253 },
};
const TCP_RULE = {
  container_port: { required: true },
  service_id: { required: true, max: 32 },
  end_point: { required: true, max: 32 },
  default_port: { required: true },
  default_ip: { required: true, max: 32 },
};

/** The operation of the spec a request goes to, and its path parameters by the spec's names. */
const routes = specOperations.map(({ operationId, method, path }) => {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, "([^/]+)")}$`);
  return { operationId, method, pattern, names };
});
function route(method: string, pathname: string) {
  for (const { operationId, method: m, pattern, names } of routes) {
    const match = m === method ? pattern.exec(pathname) : null;
    if (match) {
      const values = match.slice(1).map(decodeURIComponent);
      return { operationId, params: Object.fromEntries(names.map((name, i) => [name, values[i]!])) };
    }
  }
  return undefined;
}

/**
 * The console's answer when a path names a team, region, app or component it does not know: checked in that order,
 * as its views are entered (openapi/views/base.py takes a team by id or by name).
 */
function unknownScope(operationId: string, p: Record<string, string>): Answer | undefined {
  if (p.team_id !== undefined && p.team_id !== ids.team && p.team_id !== ids.teamName)
    return at("GET", "/teams/nope/regions/rainbond/apps", 404);
  if (p.region_name === ids.certRegion) return at("GET", "/regions/withcerts/apps", 409);
  if (p.region_name !== undefined && p.region_name !== ids.region) return at("GET", "/regions/nosuch/apps", 404);
  if (p.app_id !== undefined && Number(p.app_id) !== ids.app)
    return at("GET", "/apps/999/services/s0000000000000000000000000000001", 404);
  if (p.service_id !== undefined && p.service_id !== ids.component) {
    // as spec/source/live-console-behaviour.md has it: some 404s have an empty body, some the JSON null
    return operationId === "getComponent" ? { status: 404, body: "" } : { status: 404, body: "null" };
  }
  return undefined;
}

export async function startConsoleStandIn(): Promise<ConsoleStandIn> {
  const listed = at("GET", `/services/${ids.component}/ports`, 200).body.data.list[0];
  const ports = new Map<number, Json>([[listed.container_port, listed]]);
  const httpRules: Json[] = [];
  const tcpRules: Json[] = [];
  const template = at("POST", "/apps/1/httpdomains", 201).body;
  const enterpriseTemplate = recorded((e) => e.path.endsWith("/v1/httpdomains") && JSON.stringify(e.answer) !== "[]");
  const tcpTemplate = recorded((e) => e.path.endsWith("/domains") && (e.answer as Json)?.tcp?.length > 0).body.tcp[0];

  function createHttp(body: Json): Answer {
    const err = fieldErrors(body, HTTP_RULE);
    if (err) return invalid(err);
    const port = ports.get(body.container_port);
    if (!body.whether_open && !port?.is_outer_service) return at("POST", "/apps/1/httpdomains", 400);
    if (port) port.is_outer_service = true;
    const id = `${(httpRules.length + 1).toString(16).padStart(32, "0")}`;
    const rule = { ...template, http_rule_id: id, domain_name: body.domain_name, domain_path: body.domain_path ?? "/" };
    httpRules.push({ ID: httpRules.length + 1, rule_extensions: [], ...rule, rewrites: "[]" });
    return { status: 201, body: rule };
  }
  const rulesAnswer = () => ({ status: 200, body: { http: httpRules, tcp: tcpRules } });
  const portNamed = (p: Record<string, string>) => ports.get(Number(p.port));
  const noPort: Answer = { status: 404, body: envelope("组件端口不存在", {}, 404) };

  /** The operations with rules of their own; each gets its path parameters, the query and the parsed body. */
  const rules: Record<string, (p: Record<string, string>, query: URLSearchParams, body: Json) => Answer> = {
    listTeamRegions: (_, q) => (q.has("query") ? at("GET", "/regions", 500, "query") : at("GET", "/regions", 200)),
    getRegion: ({ region_id: id }, q) => {
      if (id === ids.certRegion || id === ids.certRegionId)
        return q.get("extend_info") === "true"
          ? at("GET", `/regions/${ids.certRegionId}`, 200)
          : at("GET", "/regions/withcerts", 200);
      if (id === ids.region || id === ids.regionId) return at("GET", "/regions/rainbond", 400);
      return { status: 404, body: envelope("集群不存在", {}, 3000) };
    },
    listComponentPorts: () => ({ status: 200, body: envelope("查询成功", { list: [...ports.values()] }) }),
    addComponentPort: (_, __, body) => {
      const port = Number(body?.port);
      if (body?.is_inner_service === undefined) return invalid({ is_inner_service: REQUIRED });
      if (!Number.isInteger(port)) return invalid({ port: ["请填写合法的整数值。"] });
      const record = {
        container_port: port,
        mapping_port: port,
        lb_mapping_port: 0,
        protocol: body.protocol ?? "http",
        port_alias: body.port_alias ?? "",
        is_inner_service: body.is_inner_service,
        is_outer_service: false,
        k8s_service_name: `web-${port}`,
      };
      ports.set(port, record);
      return { status: 200, body: envelope("添加成功", { bean: record }) };
    },
    updateComponentPort: (p, _, body) => {
      const port = portNamed(p);
      if (!port) return noPort;
      switch (body?.action) {
        case "change_port_alias":
          // the console checks the length of k8s_service_name before anything else: None crashes it
          if (body.k8s_service_name == null) return at("PUT", "/ports/9090", 500);
          Object.assign(port, { port_alias: body.port_alias, k8s_service_name: body.k8s_service_name });
          break;
        case "open_outer":
          if (!port.is_inner_service) return at("PUT", "/ports/8080", 404);
          port.is_outer_service = true;
          break;
        case "only_open_outer":
          port.is_outer_service = true;
          break;
        case "close_outer":
          port.is_outer_service = false;
          break;
        case "open_inner":
          port.is_inner_service = true;
          break;
        case "close_inner":
          port.is_inner_service = false;
          break;
        case "change_protocol":
          port.protocol = body.protocol ?? "http";
          break;
        default:
          return invalid({ action: [`"${body?.action}" 不是合法选项。`] });
      }
      return { status: 200, body: envelope("操作成功", { bean: port }) };
    },
    deleteComponentPort: (p) => {
      const port = portNamed(p);
      if (!port) return noPort;
      if (httpRules.some((r) => r.container_port === port.container_port)) return at("DELETE", "/ports/8080", 412);
      ports.delete(port.container_port);
      return { status: 200, body: envelope("删除成功", { bean: port }) };
    },
    createHttpRule: (_, __, body) => createHttp(body),
    listAppHttpRules: () => ({ status: 200, body: httpRules }),
    updateHttpRule: ({ rule_id: id }, _, body) => {
      const rule = httpRules.find((r) => r.http_rule_id === id);
      if (!rule) return at("PUT", "/httpdomains/none", 404);
      if (body?.domain_name !== undefined) rule.domain_name = body.domain_name;
      const { ID: _id, rule_extensions: _ext, ...answer } = rule;
      return { status: 200, body: answer };
    },
    listEnterpriseHttpRules: (_, q) => {
      if (q.get("auto_ssl") === "true") return { status: 200, body: [] };
      const [base] = enterpriseTemplate.body;
      const list = httpRules.map((r) => ({ ...base, ...r, auto_ssl_config: null, rule_extensions: "" }));
      return { status: 200, body: list };
    },
    createGatewayRule: (_, __, body) => {
      if (body?.protocol === "tcp") {
        const err = fieldErrors(body.tcp, TCP_RULE);
        if (err) return invalid({ tcp: err });
        tcpRules.push({ ...tcpTemplate, ID: tcpRules.length + 1, end_point: body.tcp.end_point });
        return rulesAnswer();
      }
      const created = createHttp(body?.http);
      if (created.status !== 201)
        return created.status === 400 && created.body.err ? invalid({ http: created.body.err }) : created;
      return rulesAnswer();
    },
    queryComponentMonitor: () =>
      recorded((e) => e.path.endsWith("/monitor/query") && JSON.stringify(e.answer) !== "[]" && e.status === 200),
    queryComponentMonitorRange: (_, q) =>
      q.has("start") && q.has("end")
        ? recorded((e) => e.path.endsWith("query_range") && e.status === 200 && JSON.stringify(e.answer) !== "[]")
        : at("GET", "/monitor/query_range", 400),
    installApp: () => at("POST", "/install", 500),
  };

  /** The console's answer to an authorised request. */
  function answer(method: string, pathname: string, query: URLSearchParams, body: Json): [string, Answer] {
    const found = route(method, pathname);
    if (!found) return ["", { status: 404, body: envelope("no found", {}, 404) }];
    const { operationId, params } = found;
    const refused = unknownScope(operationId, params);
    if (refused) return [operationId, refused];
    return [operationId, rules[operationId]?.(params, query, body) ?? recordedAnswer(operationId)];
  }

  const requests: ConsoleRequest[] = [];
  const standIn: ConsoleStandIn = { url: "", requests, ports, close: async () => {} };
  const server = await startFaultServer((seen: SeenRequest) => {
    let body: Json;
    try {
      body = seen.body ? JSON.parse(seen.body) : undefined;
    } catch {
      body = seen.body;
    }
    requests.push({ method: seen.method, pathname: seen.pathname, query: seen.query, body });
    // the whole header value is looked up as an access key: `Bearer <token>` is no user (console/views/base.py:626)
    if (seen.headers.authorization !== TOKEN) {
      const detail = "No such user or user is not admin";
      const error_trace = "AuthenticationFailed: No such user or user is not admin";
      return {
        status: 401,
        body: { detail, code: 401, msg: detail, msg_show: detail, error_type: "AuthenticationFailed", error_trace },
      };
    }
    const [operationId, { status, body: answered }] = answer(seen.method, seen.pathname, seen.query, body);
    const reply: Reply = { status, body: typeof answered === "string" ? answered : structuredClone(answered) };
    return (operationId && standIn.drift?.(operationId, reply)) || reply;
  });
  standIn.url = server.url;
  standIn.close = () => server.close();
  return standIn;
}

/**
 * The stand-in as the measurement left the console: with the HTTP rule it created (its recorded 201 request, sent
 * again), so that both rule lists have a rule to read. The request is not kept in `requests`.
 */
export async function inUse(standIn: ConsoleStandIn): Promise<ConsoleStandIn> {
  const created = exchanges.find((e) => e.status === 201)!;
  const before = standIn.requests.length;
  const response = await fetch(`${standIn.url}${created.path}`, {
    method: created.method,
    headers: { authorization: TOKEN, "content-type": "application/json" },
    body: JSON.stringify(created.body),
  });
  if (response.status !== 201) throw new Error(`the stand-in refused the recorded rule: ${await response.text()}`);
  standIn.requests.splice(before);
  return standIn;
}
