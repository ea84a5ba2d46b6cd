// The per-operation path (`rainbond-openapi/core` + `rainbond-openapi/operations`) has every feature of the grouped
// client, against a fault server of our own: input checks (nothing sent), typed errors, retries, per-attempt timeouts,
// abort, masking, the console's envelope, withResponse(); and requestOperation by the spec's names.
import { describe, expect, it } from "vitest";
import {
  RainbondAbortError,
  RainbondInputError,
  RainbondNotFoundError,
  RainbondTimeoutError,
  createRainbondCore,
  type ClientOptions,
} from "../../src/core.js";
import { addComponentPort, getComponent, listComponentPorts, requestOperation } from "../../src/operations.js";
import { TOKEN, component, expectNoSecrets, paths, rejection } from "./faults/helpers.js";
import { answer, recordingLogger, useFaultServer } from "../helpers/faults/server.js";

const server = useFaultServer();

const PORT = {
  container_port: 8080,
  protocol: "http",
  port_alias: "WEB",
  is_inner_service: true,
  is_outer_service: false,
  k8s_service_name: "web",
};

function core(options: Partial<ClientOptions> = {}) {
  const log = recordingLogger();
  const made = createRainbondCore({
    baseUrl: server.url,
    token: TOKEN,
    timeoutMs: 30_000,
    retryDelay: { baseMs: 1, maxMs: 2 },
    logger: log.logger,
    logLevel: "debug",
    ...options,
  });
  return { core: made, log };
}

describe("operation functions", () => {
  it("refuse bad input before sending anything, naming the argument", async () => {
    const err = await rejection(getComponent(core().core, { ...component, serviceId: "../x" }));
    expect(err).toBeInstanceOf(RainbondInputError);
    expect(err).toMatchObject({ operation: "components.get", argument: "component.serviceId" });
    expect(server.requests).toHaveLength(0);
  });

  it("refuse a first argument that is not a core", async () => {
    await expect(getComponent({ baseUrl: server.url } as never, component)).rejects.toThrow(
      /made by createRainbondCore/,
    );
  });

  it("throw the typed error of the answer, with nothing secret in it or in the log", async () => {
    server.script("GET", paths.component, answer.json(404, { code: 404, msg: "not found", msg_show: `no ${TOKEN}` }));
    const { core: c, log } = core();
    const err = await rejection(getComponent(c, component));
    expect(err).toBeInstanceOf(RainbondNotFoundError);
    expect((err as RainbondNotFoundError).status).toBe(404);
    expectNoSecrets(err, log.lines);
    expect(JSON.stringify((err as RainbondNotFoundError).body)).toContain("[redacted]");
  });

  it("retry an idempotent call and give the data and the Response through withResponse()", async () => {
    server.script(
      "GET",
      paths.ports,
      answer.json(503, {}),
      answer.json(200, { code: 200, msg: "success", msg_show: "", data: { bean: {}, list: [PORT] } }),
    );
    const { data, response } = await listComponentPorts(core().core, component).withResponse();
    expect(data).toEqual([PORT]); // unwrapped from the console's envelope
    expect(response.status).toBe(200);
    expect(server.count("GET", paths.ports)).toBe(2);
  });

  it("time out each attempt, and stop on the caller's abort", async () => {
    server.script("GET", paths.component, answer.hang());
    const c = core({ retries: 0 }).core;
    await expect(getComponent(c, component, { timeoutMs: 50 })).rejects.toBeInstanceOf(RainbondTimeoutError);
    const controller = new AbortController();
    const pending = getComponent(c, component, { signal: controller.signal });
    await server.waitFor("GET", paths.component, 2);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(RainbondAbortError);
  });

  it("send numbers where the spec takes digits, and never replay a POST", async () => {
    server.script("POST", paths.ports, answer.json(503, {}));
    await rejection(addComponentPort(core().core, component, { port: 8080, protocol: "http" }));
    expect(server.count("POST", paths.ports)).toBe(1);
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ port: "8080", protocol: "http", is_inner_service: false });
  });
});

describe("requestOperation: any operation by the spec's names", () => {
  const ids = { team_id: "q8k2mz5d", region_name: "rainbond", app_id: 12, service_id: "gr3f9c2a" };

  it("sends the operation and returns its data", async () => {
    server.script("GET", paths.ports, answer.json(200, [PORT]));
    await expect(requestOperation(core().core, "listComponentPorts", { path: ids })).resolves.toEqual([PORT]);
  });

  it.each([
    ["a path parameter", { path: { ...ids, service_id: "a b" } }, "service_id"],
    ["a missing one", { path: { ...ids, team_id: undefined } }, "team_id"],
    ["a body member", { path: ids, body: { port: 70000, protocol: "http" } }, "body.port"],
    ["an unknown query parameter", { path: ids, query: { page_size: 1 } }, "page_size"],
  ])("refuses %s, named as the spec names it, with nothing sent", async (_, input, argument) => {
    const err = await rejection(requestOperation(core().core, "addComponentPort", input));
    expect(err).toMatchObject({ name: "RainbondInputError", argument });
    expect(server.requests).toHaveLength(0);
  });

  it("refuses an operationId the spec does not have, and an input that is not an object", async () => {
    await expect(requestOperation(core().core, "dropTeam" as never)).rejects.toMatchObject({ argument: "id" });
    await expect(requestOperation(core().core, "getComponent", "x" as never)).rejects.toMatchObject({
      argument: "input",
    });
  });
});
