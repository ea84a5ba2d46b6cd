// The fault matrix, part 1: how the console (or a proxy in front of it) answers, and what the client makes of each
// answer: the error class and its fields, how many requests reached the server, and no token anywhere.
import { describe, expect, it } from "vitest";
import {
  RainbondApiError,
  RainbondAuthError,
  RainbondBadRequestError,
  RainbondConflictError,
  RainbondError,
  RainbondNotFoundError,
  RainbondResponseError,
  RainbondServerError,
} from "../../../src/index.js";
import { TOKEN, component, expectNoSecrets, faultClient, paths, rejection } from "./helpers.js";
import { NGINX_502, answer, useFaultServer } from "../../helpers/faults/server.js";

const server = useFaultServer();

const bean = (port: Record<string, unknown>) => ({
  code: 200,
  msg: "success",
  msg_show: "成功",
  data: { bean: port, list: [] },
});

describe("non-JSON and empty bodies", () => {
  it("an HTML 502 from a proxy is a RainbondServerError with a short text excerpt; GET is tried 3 times", async () => {
    server.script("GET", paths.component, answer.html(502, NGINX_502));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondServerError);
    expect(err).toBeInstanceOf(RainbondApiError);
    expect(err).toBeInstanceOf(RainbondError);
    expect(err).toBeInstanceOf(Error);
    const e = err as RainbondServerError;
    expect(e.name).toBe("RainbondServerError");
    expect(e.status).toBe(502);
    expect(e.operation).toBe("components.get");
    expect(e.method).toBe("GET");
    expect(e.path).toBe(paths.component); // the path as sent, ids filled in
    expect(e.code).toBeUndefined();
    expect(typeof e.body).toBe("string");
    expect(e.body).toContain("502 Bad Gateway");
    expect(e.body).not.toMatch(/[<>]|font-family/);
    expect((e.body as string).length).toBeLessThanOrEqual(161);
    expect(e.message).toMatch(
      /^components\.get \(GET \/openapi\/v1\/teams\/q8k2mz5d.*\) failed with 502: 502 Bad Gateway/,
    );
    expect(server.count("GET", paths.component)).toBe(3);
    expect(log.lines.filter((l) => l.startsWith("warn") && l.includes("retry"))).toHaveLength(2);
    expectNoSecrets(err, log.lines);
  });

  it("an HTML 502 answering a POST is not replayed", async () => {
    server.script("POST", paths.ports, answer.html(502, NGINX_502));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.ports.add(component, { port: 8080, protocol: "http" }));
    expect(err).toBeInstanceOf(RainbondServerError);
    expect(err).toMatchObject({ status: 502, operation: "ports.add", method: "POST" });
    expect(server.count("POST", paths.ports)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("invalid JSON with a 200 is a RainbondResponseError with the status and a safe excerpt, never a SyntaxError", async () => {
    server.script(
      "GET",
      paths.component,
      answer.text(200, `{"service_id": "gr3f9c2a", "token": "${TOKEN}", `, "application/json"),
    );
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondResponseError);
    expect(err).toBeInstanceOf(RainbondError);
    expect(err).not.toBeInstanceOf(SyntaxError);
    const e = err as RainbondResponseError;
    expect(e.status).toBe(200);
    expect(e.operation).toBe("components.get");
    expect(e.excerpt).toContain('"service_id": "gr3f9c2a"');
    expect(e.excerpt).toContain("[redacted]");
    expect(e.message).toMatch(/^components\.get \(GET .*\) answered 200 with a body that is not JSON/);
    expect(server.count("GET", paths.component)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("invalid JSON in an error answer is a RainbondApiError with the excerpt as its body", async () => {
    server.script("GET", paths.component, answer.text(500, "{'msg': internal error", "application/json"));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondServerError);
    expect(err).toMatchObject({ status: 500, body: "{'msg': internal error", code: undefined });
    expect((err as Error).message).toContain("failed with 500: {'msg': internal error");
    expect(server.count("GET", paths.component)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("an empty 404 (Content-Length: 0) is a RainbondNotFoundError with a null body", async () => {
    server.script("GET", paths.component, answer.text(404, "", "application/json"));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondNotFoundError);
    expect(err).toMatchObject({ status: 404, body: null, code: undefined, msg: undefined, msgShow: undefined });
    expect((err as Error).message).toMatch(
      /^components\.get \(GET \/openapi\/v1\/teams\/.*\) failed with 404 Not Found$/,
    );
    expect(server.count("GET", paths.component)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("an empty chunked 404 is the same as an empty one with a length", async () => {
    server.script("DELETE", paths.port, answer.slow(404, [], 1));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.ports.delete(component, 8080));
    expect(err).toBeInstanceOf(RainbondNotFoundError);
    expect(err).toMatchObject({ status: 404, body: null, operation: "ports.delete", method: "DELETE" });
    expect((err as Error).message).toMatch(/failed with 404 Not Found$/);
    expect(server.count("DELETE", paths.port)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("a JSON null 404 is a RainbondNotFoundError with a null body", async () => {
    server.script("GET", paths.component, answer.json(404, null));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondNotFoundError);
    expect(err).toMatchObject({ status: 404, body: null, code: undefined });
    expect((err as Error).message).toMatch(/failed with 404 Not Found$/);
    expect(server.count("GET", paths.component)).toBe(1);
    expectNoSecrets(err, log.lines);
  });
});

describe("the console's JSON error bodies", () => {
  it("{code, msg, msg_show} with a business code: the message shows msg_show and msg", async () => {
    server.script(
      "GET",
      paths.component,
      answer.json(404, { code: 4000, msg: "app not found", msg_show: "应用不存在" }, { "x-request-id": "req-77aa" }),
    );
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondNotFoundError);
    expect(err).toMatchObject({
      status: 404,
      code: 4000,
      msg: "app not found",
      msgShow: "应用不存在",
      requestId: "req-77aa",
      body: { code: 4000, msg: "app not found", msg_show: "应用不存在" },
    });
    // both texts: msg_show for people (Chinese), msg (English)
    expect((err as Error).message).toBe(
      `components.get (GET ${paths.component}) failed with 404: 应用不存在 (app not found)`,
    );
    expect(server.count("GET", paths.component)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("{msg} alone (a 409): the message shows msg", async () => {
    server.script("PUT", paths.port, answer.json(409, { msg: "port is already open" }));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.ports.openOuter(component, 8080));
    expect(err).toBeInstanceOf(RainbondConflictError);
    expect(err).toMatchObject({
      status: 409,
      msg: "port is already open",
      msgShow: undefined,
      code: undefined,
      requestId: undefined,
    });
    expect((err as Error).message).toMatch(/^ports\.update \(PUT .*\) failed with 409: port is already open$/);
    expect(server.count("PUT", paths.port)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("the validation body: a RainbondBadRequestError whose fieldErrors is the console's err map", async () => {
    const body = {
      detail: "参数错误",
      err: { port: ["A valid integer is required."], protocol: ['"ftp" is not a valid choice.'] },
      code: 20400,
      error_type: "ValidationError",
    };
    server.script("POST", paths.ports, answer.json(400, body));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.ports.add(component, { port: 8080, protocol: "http" }));
    expect(err).toBeInstanceOf(RainbondBadRequestError);
    const e = err as RainbondBadRequestError;
    expect(e.status).toBe(400);
    expect(e.code).toBe(20400);
    expect(e.fieldErrors).toEqual({
      port: ["A valid integer is required."],
      protocol: ['"ftp" is not a valid choice.'],
    });
    expect(e.message).toContain("ports.add (POST ");
    expect(e.message).toContain("failed with 400: 参数错误");
    expect(e.message).toContain("port: A valid integer is required.");
    expect(e.message).toContain('protocol: "ftp" is not a valid choice.');
    expect(server.count("POST", paths.ports)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("an authentication error carrying a server trace: the trace is dropped, the message shows msg_show", async () => {
    const trace = `Traceback (most recent call last):\n  File "console/views.py", line 42\n    Authorization: ${TOKEN}\nAuthenticationFailed`;
    server.script(
      "GET",
      paths.component,
      answer.json(401, {
        detail: "No token",
        code: 401,
        msg: "No token",
        msg_show: "No token",
        error_type: "AuthenticationFailed",
        error_trace: trace,
      }),
    );
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondAuthError);
    const e = err as RainbondAuthError;
    expect(e).toMatchObject({ status: 401, code: 401, msg: "No token", msgShow: "No token" });
    expect(e.body).toEqual({
      detail: "No token",
      code: 401,
      msg: "No token",
      msg_show: "No token",
      error_type: "AuthenticationFailed",
    });
    expect(e.body).not.toHaveProperty("error_trace");
    expect(e.message).toMatch(/failed with 401: No token$/);
    for (const text of [e.message, JSON.stringify(e), String(e)]) expect(text).not.toContain("Traceback");
    expect(server.count("GET", paths.component)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("a 403 is a RainbondAuthError too", async () => {
    server.script("DELETE", paths.port, answer.json(403, { code: 403, msg: "no permission", msg_show: "没有权限" }));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.ports.delete(component, 8080));
    expect(err).toBeInstanceOf(RainbondAuthError);
    expect(err).toMatchObject({ status: 403, code: 403, msgShow: "没有权限" });
    expect(server.count("DELETE", paths.port)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("a 412 (no class of its own) is a plain RainbondApiError", async () => {
    server.script(
      "POST",
      paths.install,
      answer.json(412, { code: 10406, msg: "resource not enough", msg_show: "资源不足" }),
    );
    const { client, log } = faultClient(server.url);
    const err = await rejection(
      client.apps.install(
        { teamId: "q8k2mz5d", regionName: "rainbond", appId: 12 },
        {
          market_url: "https://hub.grapps.cn",
          market_domain: "rainbond",
          market_type: "rainstore",
          market_access_key: "mk-secret-1",
          app_model_id: "9e2c7a1f5b3d4e8a",
          app_model_version: "2.1.0",
        },
      ),
    );
    expect(err).toBeInstanceOf(RainbondApiError);
    expect(Object.getPrototypeOf(err)).toBe(RainbondApiError.prototype);
    expect(err).toMatchObject({ status: 412, code: 10406, msgShow: "资源不足", operation: "apps.install" });
    expect(server.count("POST", paths.install)).toBe(1);
    expectNoSecrets(err, log.lines, [TOKEN, "mk-secret-1"]);
  });

  it("a 500 with a request id: a RainbondServerError, not retried (500 is not in the retry list)", async () => {
    server.script(
      "GET",
      paths.component,
      answer.json(500, { code: 500, msg: "internal error", msg_show: "系统异常" }, { "x-request-id": "7d1c2e" }),
    );
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondServerError);
    expect(err).toMatchObject({
      status: 500,
      code: 500,
      msg: "internal error",
      msgShow: "系统异常",
      requestId: "7d1c2e",
    });
    expect(server.count("GET", paths.component)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("a success inside the console's envelope is unwrapped (bean)", async () => {
    server.script("PUT", paths.port, answer.json(200, bean({ container_port: 8080, is_outer_service: true })));
    const { client } = faultClient(server.url);
    await expect(client.ports.openOuter(component, 8080)).resolves.toEqual({
      container_port: 8080,
      is_outer_service: true,
    });
    expect(server.count("PUT", paths.port)).toBe(1);
  });
});
