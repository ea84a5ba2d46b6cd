// A stand-in of the real Rainbond console (goodrain/rainbond-console at ae3f161) as it was measured: it checks
// requests by the console's own rules and answers with the records, statuses and bodies recorded from it
// (fixtures/recorded.json): the envelope of the port operations, DRF's validation bodies (`err`, in Chinese), the
// `{"msg"}`-only gateway refusals, 409 with code 2001, 412, 201 for an HTTP rule, and a 500 with a traceback in
// `msg_show` (the stand-in's own text) where the console crashes. A little state (ports, rules) so that a sequence of
// calls goes as it went on the console. Loopback only.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exchanges, type Exchange } from "./recorded.js";

export const TOKEN = "console-api-token";
export const ids = {
  team: "t0000000000000000000000000000001",
  /** A plain-HTTP region (empty certificate fields): getRegion answers 400. */
  region: "rainbond",
  /** A region with certificates, in which the team is not opened (409, code 2001). */
  certRegion: "withcerts",
  certRegionId: "r0000000000000000000000000000002",
  app: 1,
  component: "s0000000000000000000000000000001",
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- records as the console sends them
type Json = any;
type Reply = { status: number; body: Json };

/** The recorded answer of the first exchange that `pick` selects, as a fresh copy. */
function recorded(pick: (e: Exchange) => boolean): Reply {
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

const envelope = (msgShow: string, data: { bean?: Json; list?: Json[] }, code = 200): Json => ({
  code,
  msg: code === 200 ? "success" : "failed",
  msg_show: msgShow,
  data: { bean: data.bean ?? {}, list: data.list ?? [] },
});
/** DRF's answer to a body that fails validation, with the console's Chinese messages (LANGUAGE_CODE zh-hans). */
const invalid = (err: Json): Reply => ({
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

export interface ConsoleStandIn {
  url: string;
  /** Every request that reached it: method, path (after /openapi/v1), query and parsed body. */
  requests: { method: string; path: string; query: URLSearchParams; body: Json }[];
  close(): Promise<void>;
}

export async function startConsoleStandIn(): Promise<ConsoleStandIn> {
  const listed = at("GET", "/services/s0000000000000000000000000000001/ports", 200).body.data.list[0];
  const ports = new Map<number, Json>([[listed.container_port, listed]]);
  const httpRules: Json[] = [];
  const tcpRules: Json[] = [];
  const template = at("POST", "/apps/1/httpdomains", 201).body;
  const enterpriseTemplate = recorded((e) => e.path.endsWith("/v1/httpdomains") && JSON.stringify(e.answer) !== "[]");
  const tcpTemplate = recorded((e) => e.path.endsWith("/domains") && (e.answer as Json)?.tcp?.length > 0).body.tcp[0];

  function createHttp(body: Json): Reply {
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

  const routes: [string, RegExp, (m: string[], query: URLSearchParams, body: Json) => Reply][] = [
    [
      "GET",
      /^\/teams\/[\w-]+\/regions$/,
      (_, q) => (q.has("query") ? at("GET", "/regions", 500, "query") : at("GET", "/regions", 200)),
    ],
    [
      "GET",
      /^\/regions\/([\w-]+)$/,
      ([id], q) => {
        if (id === ids.certRegion || id === ids.certRegionId)
          return q.get("extend_info") === "true"
            ? at("GET", `/regions/${ids.certRegionId}`, 200)
            : at("GET", "/regions/withcerts", 200);
        if (id === ids.region) return at("GET", "/regions/rainbond", 400);
        return { status: 404, body: envelope("集群不存在", {}, 3000) };
      },
    ],
    [
      "GET",
      /^\/teams\/([\w-]+)\/regions\/([\w-]+)\/apps$/,
      ([team, region]) => {
        if (team !== ids.team) return at("GET", "/teams/nope/regions/rainbond/apps", 404);
        if (region === ids.certRegion) return at("GET", "/regions/withcerts/apps", 409);
        if (region !== ids.region) return at("GET", "/regions/nosuch/apps", 404);
        return at("GET", "/regions/rainbond/apps", 200);
      },
    ],
    [
      "GET",
      /\/apps\/\d+\/services\/[\w-]+\/ports$/,
      () => ({ status: 200, body: envelope("查询成功", { list: [...ports.values()] }) }),
    ],
    [
      "POST",
      /\/apps\/\d+\/services\/[\w-]+\/ports$/,
      (_, __, body) => {
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
    ],
    [
      "PUT",
      /\/apps\/\d+\/services\/[\w-]+\/ports\/(\d+)$/,
      ([p], _, body) => {
        const port = ports.get(Number(p));
        if (!port) return { status: 404, body: envelope("组件端口不存在", {}, 404) };
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
    ],
    [
      "DELETE",
      /\/apps\/\d+\/services\/[\w-]+\/ports\/(\d+)$/,
      ([p]) => {
        const port = ports.get(Number(p));
        if (!port) return { status: 404, body: envelope("组件端口不存在", {}, 404) };
        if (httpRules.some((r) => r.container_port === port.container_port)) return at("DELETE", "/ports/8080", 412);
        ports.delete(port.container_port);
        return { status: 200, body: envelope("删除成功", { bean: port }) };
      },
    ],
    ["POST", /\/apps\/\d+\/httpdomains$/, (_, __, body) => createHttp(body)],
    ["GET", /\/apps\/\d+\/httpdomains$/, () => ({ status: 200, body: httpRules })],
    [
      "PUT",
      /\/apps\/\d+\/httpdomains\/([\w-]+)$/,
      ([id], _, body) => {
        const rule = httpRules.find((r) => r.http_rule_id === id);
        if (!rule) return at("PUT", "/httpdomains/none", 404);
        if (body?.domain_name !== undefined) rule.domain_name = body.domain_name;
        const { ID: _id, rule_extensions: _ext, ...answer } = rule;
        return { status: 200, body: answer };
      },
    ],
    [
      "GET",
      /^\/httpdomains$/,
      (_, q) => {
        if (q.get("auto_ssl") === "true") return { status: 200, body: [] };
        const [base] = enterpriseTemplate.body;
        const list = httpRules.map((r) => ({ ...base, ...r, auto_ssl_config: null, rule_extensions: "" }));
        return { status: 200, body: list };
      },
    ],
    [
      "POST",
      /\/apps\/\d+\/domains$/,
      (_, __, body) => {
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
    ],
    [
      "GET",
      /\/monitor\/query$/,
      () => recorded((e) => e.path.endsWith("/monitor/query") && JSON.stringify(e.answer) !== "[]" && e.status === 200),
    ],
    [
      "GET",
      /\/monitor\/query_range$/,
      (_, q) =>
        q.has("start") && q.has("end")
          ? recorded((e) => e.path.endsWith("query_range") && e.status === 200 && JSON.stringify(e.answer) !== "[]")
          : at("GET", "/monitor/query_range", 400),
    ],
    ["POST", /^\/teams\/resource$/, () => at("POST", "/teams/resource", 200)],
    ["POST", /\/apps\/\d+\/install$/, () => at("POST", "/install", 500)],
    [
      "GET",
      /\/apps\/(\d+)\/services\/[\w-]+$/,
      ([app]) =>
        Number(app) === ids.app
          ? at("GET", `/services/${ids.component}`, 200)
          : at("GET", "/apps/999/services/s0000000000000000000000000000001", 404),
    ],
  ];

  const requests: ConsoleStandIn["requests"] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://console");
      const path = url.pathname.replace(/^\/openapi\/v1/, "");
      const text = Buffer.concat(chunks).toString("utf8");
      let body: Json;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      requests.push({ method: req.method ?? "", path, query: url.searchParams, body });
      const send = ({ status, body }: Reply) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      // the whole header value is looked up as an access key: `Bearer <token>` is no user (console/views/base.py:626)
      if (req.headers.authorization !== TOKEN) {
        const detail = "No such user or user is not admin";
        const error_trace = "AuthenticationFailed: No such user or user is not admin";
        return send({
          status: 401,
          body: { detail, code: 401, msg: detail, msg_show: detail, error_type: "AuthenticationFailed", error_trace },
        });
      }
      for (const [method, pattern, handle] of routes) {
        const match = method === req.method ? pattern.exec(path) : null;
        if (match) return send(handle(match.slice(1), url.searchParams, body));
      }
      send({ status: 404, body: envelope("no found", {}, 404) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
}
