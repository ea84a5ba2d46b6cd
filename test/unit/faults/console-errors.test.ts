// The real console's error answers (console-answers.ts), as the client reads them: a team not opened in the region is
// a RainbondTeamNotOpenedError; refusals inside the console's envelope and validation bodies read with both texts and
// their fields; an unhandled error's traceback is in no message, rendering or log line; getRegion's 400 on a plain-HTTP
// region says the console refused its own record.
import { describe, expect, it } from "vitest";
import {
  RainbondApiError,
  RainbondBadRequestError,
  RainbondConflictError,
  RainbondError,
  RainbondNotFoundError,
  RainbondServerError,
  RainbondTeamNotOpenedError,
} from "../../../src/index.js";
import { consoleAnswers as recorded } from "./console-answers.js";
import { app, component, expectNoSecrets, faultClient, paths, region, rejection, team } from "./helpers.js";
import { answer, renderings, useFaultServer } from "../../helpers/faults/server.js";

const server = useFaultServer();

const appsPath = `/openapi/v1/teams/${team}/regions/rainbond/apps`;

describe("a team not opened in the region (code 2001)", () => {
  it("409: a RainbondTeamNotOpenedError, a RainbondConflictError, reason team-not-opened, both texts", async () => {
    server.script("GET", appsPath, answer.json(409, recorded.teamNotOpened));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.apps.list(region));
    expect(err).toBeInstanceOf(RainbondTeamNotOpenedError);
    expect(err).toBeInstanceOf(RainbondConflictError);
    expect(err).toBeInstanceOf(RainbondError);
    expect(err).toMatchObject({
      name: "RainbondTeamNotOpenedError",
      status: 409,
      code: 2001,
      reason: "team-not-opened",
      msg: "the team is not initialized in the region",
      msgShow: "团队未在该集群中初始化",
    });
    expect((err as Error).message).toBe(
      `apps.list (GET ${appsPath}) failed with 409: 团队未在该集群中初始化 (the team is not initialized in the region)`,
    );
    expect(server.count("GET", appsPath)).toBe(1); // a 409 is not retried
    expectNoSecrets(err, log.lines);
  });

  it("code 2001 with 412 (as older notes had it) is recognised too; a 412 of another code is not", async () => {
    server.script("GET", appsPath, answer.json(412, recorded.teamNotOpened));
    const { client } = faultClient(server.url);
    expect(await rejection(client.apps.list(region))).toBeInstanceOf(RainbondTeamNotOpenedError);
    server.script("DELETE", paths.port, answer.json(412, recorded.portHasDomains));
    const other = await rejection(client.ports.delete(component, 8080));
    expect(other).not.toBeInstanceOf(RainbondTeamNotOpenedError);
    expect(other).toMatchObject({ status: 412, code: 412, reason: undefined });
    expect((other as Error).message).toMatch(
      /failed with 412: 该端口有自定义域名，请先解绑域名 \(contains custom domains\)$/,
    );
  });
});

describe("refusals inside the console's envelope (code 3000 and others, with data)", () => {
  it.each([
    ["a region not found", recorded.regionNotFound, 3000, "集群不存在 (the region is not found)"],
    ["an app not found", recorded.appNotFound, 404, "应用不存在 (no found app)"],
  ])("%s: a RainbondNotFoundError with its code and both texts", async (_, body, code, said) => {
    server.script("GET", appsPath, answer.json(404, body));
    const { client } = faultClient(server.url);
    const err = await rejection(client.apps.list(region));
    expect(err).toBeInstanceOf(RainbondNotFoundError);
    expect(err).toMatchObject({ status: 404, code, msg: body.msg, msgShow: body.msg_show, body, reason: undefined });
    expect((err as Error).message).toBe(`apps.list (GET ${appsPath}) failed with 404: ${said}`);
  });

  it("a 400 whose body is only {msg} (a gateway refusal): the message is msg", async () => {
    server.script("POST", paths.httpRules, answer.json(400, recorded.outerPortClosed));
    const { client } = faultClient(server.url);
    const body = { domain_name: "www.example.com", service_id: "gr3f9c2a", container_port: 8080 };
    const err = await rejection(client.gateway.createHttpRule(app, body));
    expect(err).toBeInstanceOf(RainbondBadRequestError);
    expect(err).toMatchObject({ msg: "没有开启对外端口", code: undefined, fieldErrors: {}, reason: undefined });
    expect((err as Error).message).toMatch(/failed with 400: 没有开启对外端口$/);
  });

  it("code 10411 (the region unreachable): both texts, the code kept", async () => {
    server.script("POST", paths.httpRules, answer.json(400, recorded.regionUnreachable));
    const { client } = faultClient(server.url);
    const body = { domain_name: "www.example.com", service_id: "gr3f9c2a", container_port: 8080 };
    const err = await rejection(client.gateway.createHttpRule(app, body));
    expect(err).toMatchObject({ status: 400, code: 10411, msgShow: "访问数据中心异常，请稍后重试" });
    expect((err as Error).message).toMatch(/failed with 400: 访问数据中心异常，请稍后重试 \(MaxRetryError/);
  });
});

describe("validation bodies: err fills fieldErrors", () => {
  it("a field's messages, in Chinese", async () => {
    server.script("POST", paths.ports, answer.json(400, recorded.innerServiceRequired));
    const { client } = faultClient(server.url);
    const err = await rejection(client.ports.add(component, { port: 9091, protocol: "http", is_inner_service: false }));
    expect(err).toBeInstanceOf(RainbondBadRequestError);
    expect(err).toMatchObject({
      code: 20400,
      fieldErrors: { is_inner_service: ["该字段是必填项。"] },
      reason: undefined,
    });
    expect((err as Error).message).toMatch(/failed with 400: 参数错误 \(is_inner_service: 该字段是必填项。\)$/);
  });

  it("a nested serializer's messages, by path (tcp.default_ip), and a list's by index", async () => {
    const domains = `${paths.httpRules.replace(/httpdomains$/, "domains")}`;
    server.script(
      "POST",
      domains,
      answer.json(400, recorded.tcpDefaultIpRequired),
      answer.json(400, { detail: "参数错误", err: { http: { set_headers: [{}, { key: ["该字段是必填项。"] }] } } }),
    );
    const { client } = faultClient(server.url);
    const tcp = { container_port: 8080, service_id: "gr3f9c2a", end_point: "127.0.0.1:30001", default_port: 30001 };
    const err = await rejection(client.gateway.createRule(app, { protocol: "tcp", tcp: { ...tcp, default_ip: "" } }));
    expect(err).toMatchObject({ fieldErrors: { "tcp.default_ip": ["该字段是必填项。"] } });
    expect((err as Error).message).toMatch(/\(tcp\.default_ip: 该字段是必填项。\)$/);
    const http = { domain_name: "api.example.com", service_id: "gr3f9c2a", container_port: 8080 };
    const list = await rejection(client.gateway.createRule(app, { protocol: "http", http }));
    expect(list).toMatchObject({ fieldErrors: { "http.set_headers[1].key": ["该字段是必填项。"] } });
  });
});

describe("an unhandled error: a 500 whose msg_show is a Python traceback", () => {
  it("the message says the console failed, with msg; the traceback is in no message, rendering or log line", async () => {
    server.script("PUT", paths.port, answer.json(500, recorded.aliasCrash));
    const { client, log } = faultClient(server.url); // logs at debug: every line the client writes
    const err = await rejection(
      client.ports.update(component, 8080, {
        action: "change_port_alias",
        port_alias: "A",
        k8s_service_name: "web-8080",
      }),
    );
    expect(err).toBeInstanceOf(RainbondServerError);
    expect(err).toMatchObject({
      status: 500,
      code: 10401,
      reason: "console-failed",
      msg: "object of type 'NoneType' has no len()",
      msgShow: undefined,
    });
    expect((err as Error).message).toBe(
      `ports.update (PUT ${paths.port}) failed with 500: the console failed: object of type 'NoneType' has no len()`,
    );
    expect((err as RainbondApiError).body).toMatchObject({ msg_show: "[a server traceback, not kept]" });
    for (const text of [...renderings(err), ...log.lines]) {
      expect(text).not.toContain("Traceback");
      expect(text).not.toContain("stand_in/");
      expect(text).not.toContain("len(service_name)");
    }
  });

  it("a traceback as a page that is not JSON: cut where it begins", async () => {
    const page = `Server Error (500)\n${recorded.aliasCrash.msg_show}`;
    server.script("GET", paths.component, answer.text(500, page));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect((err as Error).message).toMatch(/failed with 500: Server Error \(500\) \[a server traceback, not kept\]$/);
    for (const text of [...renderings(err), ...log.lines]) expect(text).not.toContain("stand_in/");
  });
});

describe("getRegion's 400 on a plain-HTTP region", () => {
  it("is the console's refusal of its own record, not the caller's fault: said so, reason console-record-invalid", async () => {
    server.script("GET", paths.region("rainbond"), answer.json(400, recorded.regionCertificatesEmpty));
    const { client } = faultClient(server.url);
    const err = await rejection(client.regions.get("rainbond"));
    expect(err).toBeInstanceOf(RainbondBadRequestError);
    expect(err).toMatchObject({
      reason: "console-record-invalid",
      fieldErrors: {
        ssl_ca_cert: ["该字段不能为空。"],
        cert_file: ["该字段不能为空。"],
        key_file: ["该字段不能为空。"],
      },
    });
    expect((err as Error).message).toBe(
      `regions.get (GET ${paths.region("rainbond")}) failed with 400: 参数错误; the console refused its own record: ` +
        "not the request's fault (ssl_ca_cert: 该字段不能为空。; cert_file: 该字段不能为空。; key_file: 该字段不能为空。)",
    );
  });

  it("a key_file value the console echoes in a message is still masked", async () => {
    const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEconsoleECHOED\n-----END RSA PRIVATE KEY-----";
    server.script("GET", paths.region("rainbond"), answer.json(400, { err: { key_file: [`${pem} is not valid`] } }));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.regions.get("rainbond"));
    expect(err).toMatchObject({ fieldErrors: { key_file: ["[redacted] is not valid"] } });
    expectNoSecrets(err, log.lines, ["MIIEconsoleECHOED"]);
  });
});
