// Client options that a loose check would let through (issue 20, item 11): each refused when the client is made, with
// a RainbondInputError naming the option, so that nothing is ever sent with it; and a client whose methods no one can
// swap.
import { expect, it } from "vitest";
import { createRainbondClient, RainbondInputError, type ClientOptions } from "../../../src/index.js";
import { TOKEN, component } from "./helpers.js";
import { useFaultServer } from "../../helpers/faults/server.js";

const server = useFaultServer();

it.each([
  ["a baseUrl ending in #, which would send every request to /", { baseUrl: "URL/#" }, "baseUrl"],
  ["a baseUrl ending in ?, which would send the path as a query", { baseUrl: "URL/?" }, "baseUrl"],
  ["an unknown option", { timeout: 5 }, "timeout"],
  ["retries: 1e9", { retries: 1e9 }, "retries"],
  ["a logger without its methods", { logger: {} }, "logger.error"],
  ["middleware that is not an array", { middleware: {} }, "middleware"],
  ["a fetch that is not a function", { fetch: "x" }, "fetch"],
  ["a transfer-encoding header", { headers: { "transfer-encoding": "chunked" } }, 'headers["transfer-encoding"]'],
  ["a Host header", { headers: { Host: "evil.example" } }, 'headers["Host"]'],
])("%s is refused when the client is made", (_, extra, argument) => {
  const options = { baseUrl: server.url, token: TOKEN, ...extra } as Record<string, unknown>;
  if (typeof options.baseUrl === "string") options.baseUrl = options.baseUrl.replace("URL", server.url);
  let err: unknown;
  try {
    createRainbondClient(options as unknown as ClientOptions);
  } catch (caught) {
    err = caught;
  }
  expect(err).toBeInstanceOf(RainbondInputError);
  expect(err).toMatchObject({ operation: "createRainbondClient", argument });
  expect(server.requests).toHaveLength(0);
});

it("a signal that is not an AbortSignal is refused before the call sends anything", async () => {
  const client = createRainbondClient({ baseUrl: server.url, token: TOKEN });
  await expect(client.components.get(component, { signal: {} as AbortSignal })).rejects.toMatchObject({
    name: "RainbondInputError",
    argument: "signal",
  });
  expect(server.requests).toHaveLength(0);
});

it("the client and its groups are frozen: no method can be swapped", () => {
  const client = createRainbondClient({ baseUrl: server.url, token: TOKEN });
  expect(Object.isFrozen(client)).toBe(true);
  for (const group of [client.ports, client.regions, client.components, client.gateway]) {
    expect(Object.isFrozen(group)).toBe(true);
  }
  expect(() => {
    (client.ports as { list: unknown }).list = () => "swapped";
  }).toThrow(TypeError);
});
