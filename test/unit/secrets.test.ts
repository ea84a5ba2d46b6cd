// Secrets: the token never shows when a client is printed, and no error or log line ever holds the token or a value
// the spec marks secret (market_access_key in requests, key_file and a region's token in records). error_trace is
// dropped from error bodies.
import { Console } from "node:console";
import { Writable } from "node:stream";
import { format, inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  RainbondApiError,
  RainbondInputError,
  RainbondResponseError,
  RainbondServerError,
  createRainbondClient,
  excerpt,
  redact,
  type RainbondClient,
} from "../../src/index.js";
import { spec } from "../helpers/spec.js";
import {
  TOKEN,
  app,
  component,
  installBodyWith,
  expectNoSecrets,
  faultClient,
  paths,
  rejection,
} from "./faults/helpers.js";
import {
  answer,
  closedPort,
  countingFetch,
  recordingLogger,
  renderings,
  useFaultServer,
} from "../helpers/faults/server.js";

const ACCESS_KEY = "mkey-Zr8vQ2nL5pX1";
const KEY_FILE = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAq7Jk3sTESTKEY9x\n-----END RSA PRIVATE KEY-----";
const KEY_FILE_INNER = "MIIEowIBAAKCAQEAq7Jk3sTESTKEY9x";
const REGION_TOKEN = "regtok-Jd83kS02mZ";
const REGION_ID = "3c8e1f0a2b4d4c6e8f0a1b2c3d4e5f60";

const installBody = installBodyWith(ACCESS_KEY);

const server = useFaultServer();

/** What console.log prints, through a real Console writing to memory. */
function consoleLogOf(...values: unknown[]): string {
  let out = "";
  const sink = new Writable({
    write(chunk, _encoding, done) {
      out += String(chunk);
      done();
    },
  });
  new Console({ stdout: sink, stderr: sink }).log(...values);
  return out;
}

/** Every string reachable from `root` through own properties, enumerable or not, symbol-keyed too. */
function reachableStrings(root: unknown): string[] {
  const seen = new Set<unknown>();
  const strings: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value === "string") return void strings.push(value);
    if ((typeof value !== "object" && typeof value !== "function") || value === null || seen.has(value)) return;
    seen.add(value);
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor && "value" in descriptor) visit(descriptor.value);
    }
  };
  visit(root);
  return strings;
}

describe("printing a client", () => {
  const client: RainbondClient = createRainbondClient({
    baseUrl: "http://127.0.0.1:7070",
    token: TOKEN,
    logLevel: "off",
  });

  it("console.log, util.inspect, %o, JSON.stringify and String show the base URL and never the token", () => {
    const shown = [
      consoleLogOf(client),
      consoleLogOf("%o", client),
      inspect(client),
      inspect(client, { depth: Infinity, showHidden: true }),
      format("%o", client),
      format("%j", client),
      JSON.stringify(client),
      String(client),
      `${client}`,
    ];
    for (const text of shown) {
      expect(text).not.toContain(TOKEN);
      expect(text).toContain("127.0.0.1:7070");
    }
    expect(JSON.parse(JSON.stringify(client))).toEqual({ baseUrl: "http://127.0.0.1:7070" });
  });

  it("without its custom inspect, and walking every own property, the token is still nowhere (closures only)", () => {
    expect(inspect(client, { customInspect: false, depth: Infinity, showHidden: true, getters: true })).not.toContain(
      TOKEN,
    );
    const strings = reachableStrings(client);
    expect(strings.length).toBeGreaterThan(0);
    for (const text of strings) expect(text).not.toContain(TOKEN);
  });

  it("a refused token is not repeated in the error", () => {
    const bad = `${TOKEN} with a space`;
    let err: unknown;
    try {
      createRainbondClient({ baseUrl: "http://127.0.0.1:7070", token: bad });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RainbondInputError);
    expect(err).toMatchObject({ argument: "token" });
    for (const text of renderings(err)) expect(text).not.toContain(TOKEN);
  });
});

describe("errors never show a secret", () => {
  it("an error body echoing the token, market_access_key and a trace: all masked, the trace dropped", async () => {
    server.script(
      "POST",
      paths.install,
      answer.json(500, {
        code: 500,
        msg: `install failed: market_access_key ${ACCESS_KEY} refused for ${TOKEN}`,
        msg_show: `应用商店拒绝了密钥 ${ACCESS_KEY}`,
        market_access_key: ACCESS_KEY,
        request: { headers: { Authorization: TOKEN }, body: { market_access_key: ACCESS_KEY } },
        error_trace: `Traceback (most recent call last):\n  market_access_key=${ACCESS_KEY}\n  token=${TOKEN}`,
      }),
    );
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.apps.install(app, installBody, { deploy: true }));
    expect(err).toBeInstanceOf(RainbondServerError);
    const e = err as RainbondServerError;
    expect(e.body).not.toHaveProperty("error_trace");
    expect(e.body).toEqual({
      code: 500,
      msg: "install failed: market_access_key [redacted] refused for [redacted]",
      msg_show: "应用商店拒绝了密钥 [redacted]",
      market_access_key: "[redacted]",
      request: { headers: { Authorization: "[redacted]" }, body: { market_access_key: "[redacted]" } },
    });
    expect(e.msg).toBe("install failed: market_access_key [redacted] refused for [redacted]");
    expect(e.message).toMatch(
      /^apps\.install \(POST .*\) failed with 500: 应用商店拒绝了密钥 \[redacted\] \(install failed: market_access_key \[redacted\] refused for \[redacted\]\)$/,
    );
    for (const text of renderings(err)) expect(text).not.toContain("Traceback");
    expect(server.count("POST", paths.install)).toBe(1);
    expectNoSecrets(err, log.lines, [TOKEN, ACCESS_KEY]);
  });

  it("an error body carrying a region's key_file and token: masked by name, and where a message echoes them", async () => {
    server.script(
      "GET",
      paths.region(REGION_ID),
      answer.json(500, {
        code: 500,
        msg: `cannot load key ${KEY_FILE}`,
        msg_show: `区域 ${REGION_TOKEN} 证书错误`,
        bean: { region_name: "rainbond", key_file: KEY_FILE, token: REGION_TOKEN, cert_file: "CERT" },
      }),
    );
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.regions.get(REGION_ID, { extendInfo: true }));
    expect(err).toBeInstanceOf(RainbondServerError);
    expect((err as RainbondServerError).body).toMatchObject({
      bean: { region_name: "rainbond", key_file: "[redacted]", token: "[redacted]", cert_file: "CERT" },
    });
    expect((err as Error).message).toContain("区域 [redacted] 证书错误");
    expectNoSecrets(err, log.lines, [TOKEN, KEY_FILE_INNER, REGION_TOKEN]);
  });

  it("an HTML error page echoing the token and a private key: the excerpt masks both", async () => {
    server.script(
      "GET",
      paths.region(REGION_ID),
      answer.html(502, `<html><body><h1>Bad Gateway</h1><pre>Authorization: ${TOKEN}\n${KEY_FILE}</pre></body></html>`),
    );
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.regions.get(REGION_ID));
    expect(err).toBeInstanceOf(RainbondServerError);
    expect((err as RainbondServerError).body).toBe("Bad Gateway Authorization: [redacted] [redacted]");
    expect(server.count("GET", paths.region(REGION_ID))).toBe(3);
    expectNoSecrets(err, log.lines, [TOKEN, KEY_FILE_INNER, "PRIVATE KEY"]);
  });

  it("a 200 whose body is cut short inside a key_file: the excerpt masks the secret member", async () => {
    const cut = JSON.stringify({
      region_name: "rainbond",
      key_file: "c2VjcmV0LWtleS1ub3QtcGVt",
      token: REGION_TOKEN,
    }).slice(0, -20);
    server.script("GET", paths.region(REGION_ID), answer.text(200, cut, "application/json"));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.regions.get(REGION_ID));
    expect(err).toBeInstanceOf(RainbondResponseError);
    expect((err as RainbondResponseError).excerpt).toContain('"key_file":"[redacted]"');
    expectNoSecrets(err, log.lines, [TOKEN, "c2VjcmV0LWtleS1ub3QtcGVt", REGION_TOKEN.slice(0, 8)]);
  });

  it("a 200 that is not JSON, echoing the request's market_access_key: masked in the excerpt", async () => {
    server.script(
      "POST",
      paths.install,
      answer.text(200, `ok, installed with ${ACCESS_KEY} (token ${TOKEN})`, "application/json"),
    );
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.apps.install(app, installBody));
    expect(err).toBeInstanceOf(RainbondResponseError);
    expect((err as RainbondResponseError).excerpt).toBe("ok, installed with [redacted] (token [redacted])");
    expectNoSecrets(err, log.lines, [TOKEN, ACCESS_KEY]);
  });

  it("a connection error (its cause included) holds no secret", async () => {
    const port = await closedPort();
    const counter = countingFetch();
    const { client, log } = faultClient(`http://127.0.0.1:${port}`, { fetch: counter.fetch });
    const err = await rejection(client.apps.install(app, installBody, {}, { retries: 0 }));
    expect(counter.calls).toHaveLength(1);
    expectNoSecrets(err, log.lines, [TOKEN, ACCESS_KEY]);
  });

  it("input errors never show a secret value, even when the secret sits inside the wrong value", async () => {
    const counter = countingFetch();
    const client = createRainbondClient({ baseUrl: server.url, token: TOKEN, fetch: counter.fetch, logLevel: "off" });
    const wrongType = await rejection(
      client.apps.install(app, { ...installBody, market_access_key: 12345678 as unknown as string }),
    );
    expect(wrongType).toBeInstanceOf(RainbondInputError);
    expect(wrongType).toMatchObject({ argument: "body.market_access_key" });
    expect((wrongType as Error).message).toBe("apps.install: body.market_access_key must be a string or a null");
    const wrapped = await rejection(
      client.apps.install(app, [Object.assign({ market_access_key: ACCESS_KEY }, installBody)] as never),
    );
    expect(wrapped).toBeInstanceOf(RainbondInputError);
    expect((wrapped as Error).message).toContain("must be an object");
    expect(counter.calls).toHaveLength(0);
    for (const err of [wrongType, wrapped]) {
      for (const text of renderings(err)) {
        expect(text).not.toContain(ACCESS_KEY);
        expect(text).not.toContain("12345678");
      }
    }
  });
});

describe("a secret echoed in another form than sent", () => {
  /** A token holding `&`, `"` and `'`, as a visible-ASCII token may. */
  const token = `rb&"'tok-Q7pL2mX9vR4zK8wN3`;
  const b64 = (text: string) => Buffer.from(text).toString("base64");
  const html = (entities: Record<string, string>) => token.replace(/[&"']/g, (c) => entities[c]!);
  /** Each form of the token a console (or a proxy, a framework's error page) may echo: none may show. */
  const forms: [string, string][] = [
    ["upper-cased", token.toUpperCase()],
    ["lower-cased", token.toLowerCase()],
    ["URL-encoded", encodeURIComponent(token)],
    ["URL-encoded, lower-case hex", encodeURIComponent(token).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
    ["URL-encoded twice", encodeURIComponent(encodeURIComponent(token))],
    ["form-encoded", new URLSearchParams({ t: token }).toString().slice(2)],
    ["base64", b64(token)],
    ["base64 after one byte", b64(`:${token}`)],
    ["base64 inside Basic credentials", b64(`admin:${token}`)],
    ["base64url", Buffer.from(token).toString("base64url")],
    ["HTML-escaped by PHP (&amp; &quot; &#039;)", html({ "&": "&amp;", '"': "&quot;", "'": "&#039;" })],
    ["HTML5-escaped (&apos;)", html({ "&": "&amp;", '"': "&quot;", "'": "&apos;" })],
    ["HTML-escaped in hex (&#x26; &#x22; &#x27;)", html({ "&": "&#x26;", '"': "&#x22;", "'": "&#x27;" })],
    ["JSON-escaped in a text", JSON.stringify(token).slice(1, -1)],
    ["Python's repr of its bytes", "b'rb&\"\\'tok-Q7pL2mX9vR4zK8wN3'"],
  ];
  /** What must not show of a form: the form, and its middle (a masked form may keep a character at each end). */
  const traces = (form: string) => [form, form.slice(3, -3), "Q7pL2mX9vR4zK8wN3", "q7pl2mx9vr4zk8wn3"];

  it.each(forms)("%s: masked in the message, the body, x-request-id, the excerpt and the logs", async (_, form) => {
    server.script(
      "GET",
      paths.component,
      answer.json(503, { msg: `bad token ${form}`, detail: { echoed: form, [form]: 1 } }, { "x-request-id": form }),
      answer.html(502, `<p>bad token ${form}</p>`),
    );
    const { client, log } = faultClient(server.url, { token, retries: 1 });
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondServerError);
    // a form masked may keep what lies around the secret: a base64 form, the characters that encode other bytes too
    const masked = /^bad token \S{0,10}\[redacted\]\S{0,3}$/;
    expect((err as RainbondServerError).body).toMatch(masked);
    const warning = log.lines.find((line) => line.startsWith("warn"))!;
    expect(warning.replace(/^.*failed with 503: (.*); retry.*$/, "$1")).toMatch(masked);
    const first = excerpt(`<b>${form}</b>`, [token]);
    const retried = JSON.stringify(redact({ msg: `bad token ${form}`, [form]: form }, [token]));
    for (const text of [first, retried]) expect(text).toContain("[redacted]");
    for (const trace of traces(form)) {
      for (const text of [...renderings(err), ...log.lines, first, retried]) {
        expect(text).not.toContain(trace);
      }
    }
  });

  it("a token of other letters in the same words is left alone; a short one only as a whole word", () => {
    expect(redact(`${token.slice(0, -1)}x rb`, [token])).toBe(`${token.slice(0, -1)}x rb`);
    expect(redact("ab12 AB12 xab12 ab12x", ["ab12"])).toBe("[redacted] [redacted] xab12 ab12x");
  });

  it("a custom header's value is masked wherever the console echoes it: every custom header is secret", async () => {
    const headers = { "X-Api-Key": "proxy-key-8f2a9c1e7b", "X-Tenant": "acme-tenant-7" };
    server.script(
      "GET",
      paths.component,
      answer.echo((seen) =>
        answer.json(
          404,
          { msg: `no component for ${seen.headers["x-api-key"]}`, tenant: seen.headers["x-tenant"] },
          { "x-request-id": String(seen.headers["x-api-key"]).toUpperCase() },
        ),
      ),
    );
    const { client, log } = faultClient(server.url, { headers });
    const err = await rejection(client.components.get(component));
    expect(err).toMatchObject({
      msg: "no component for [redacted]",
      body: { msg: "no component for [redacted]", tenant: "[redacted]" },
      requestId: "[redacted]",
    });
    expect(server.requests[0]!.headers["x-api-key"]).toBe("proxy-key-8f2a9c1e7b"); // sent as given
    expectNoSecrets(err, log.lines, [...Object.values(headers), "PROXY-KEY-8F2A9C1E7B"]);
  });
});

describe("what is secret", () => {
  it("is every field the spec marks x-sensitive, in request bodies and in records alike", () => {
    const marked = new Set<string>();
    const walk = (node: unknown) => {
      if (typeof node !== "object" || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        const props = key === "properties" && typeof value === "object" && value !== null ? Object.entries(value) : [];
        for (const [name, schema] of props)
          if ((schema as Record<string, unknown>)["x-sensitive"] === true) marked.add(name);
        walk(value);
      }
    };
    walk(spec);
    // the region's key and token and the store's key (the source document's); the console's own operations add
    // passwords, certificates' private keys, and a third-party component's API key and secret
    expect([...marked].sort()).toEqual([
      "api_service_key",
      "key_file",
      "market_access_key",
      "password",
      "password1",
      "private_key",
      "secret",
      "token",
    ]);
    // the entries give the runtime these names: the package's own redact masks each of them, and nothing else
    const record = Object.fromEntries([...marked, "name"].map((key) => [key, "a value"]));
    const masked = Object.fromEntries([...marked].map((key) => [key, "[redacted]"]));
    expect(redact(record, [])).toEqual({ ...masked, name: "a value" });
  });
});

describe("the logger", () => {
  it("at debug, an install call logs its body with market_access_key and Authorization masked", async () => {
    server.script("POST", paths.install, answer.json(200, { ID: 12, service_list: [] }));
    const { client, log } = faultClient(server.url);
    await expect(client.apps.install(app, installBody, { deploy: true })).resolves.toEqual({
      ID: 12,
      service_list: [],
    });
    // The request itself carried the real values.
    expect(server.requests[0]!.headers.authorization).toBe(TOKEN);
    expect(JSON.parse(server.requests[0]!.body)).toEqual(installBody);
    expect(log.lines).toHaveLength(2);
    const [request, answered] = log.lines as [string, string];
    expect(request).toMatch(/^debug \[rainbond\] → POST \/openapi\/v1\/teams\/q8k2mz5d.*\/install/);
    expect(request).toContain("Authorization: '[redacted]'");
    expect(request).toContain("market_access_key: '[redacted]'");
    expect(request).toContain("app_model_version: '2.1.0'");
    expect(answered).toMatch(/^info \[rainbond\] POST \/openapi\/v1\/teams\/q8k2mz5d.*\/install → 200 in \d+ ms$/);
    expectNoSecrets(undefined, log.lines, [TOKEN, ACCESS_KEY]);
  });

  it("retries are warnings (the default level) that hold no secret; off logs nothing", async () => {
    server.script(
      "GET",
      paths.region(REGION_ID),
      answer.json(503, { msg: `region ${REGION_TOKEN} busy`, token: REGION_TOKEN, key_file: KEY_FILE }),
      answer.json(200, { region_name: "rainbond" }),
    );
    const log = recordingLogger();
    const client = createRainbondClient({
      baseUrl: server.url,
      token: TOKEN,
      logger: log.logger,
      retryDelay: { baseMs: 1 },
    });
    await expect(client.regions.get(REGION_ID)).resolves.toEqual({ region_name: "rainbond" });
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatch(
      /^warn \[rainbond\] regions\.get \(GET .*\) failed with 503: region \[redacted\] busy; retry 1 of 2/,
    );
    expectNoSecrets(undefined, log.lines, [TOKEN, REGION_TOKEN, KEY_FILE_INNER]);

    const quiet = recordingLogger();
    const silent = createRainbondClient({
      baseUrl: server.url,
      token: TOKEN,
      logger: quiet.logger,
      logLevel: "off",
      retryDelay: { baseMs: 1 },
    });
    server.script("GET", paths.region(REGION_ID), answer.json(503, null), answer.json(200, {}));
    await silent.regions.get(REGION_ID);
    expect(quiet.lines).toEqual([]);
  });

  it("at info, each attempt's outcome is logged, masked, and a failure thrown to the caller is not logged as well", async () => {
    const log = recordingLogger();
    const client = createRainbondClient({
      baseUrl: server.url,
      token: TOKEN,
      logger: log.logger,
      logLevel: "info",
      retries: 0,
    });
    server.script("GET", paths.region(REGION_ID), answer.json(502, { msg: `proxy lost ${TOKEN}`, key_file: KEY_FILE }));
    const err = await rejection(client.regions.get(REGION_ID));
    expect(err).toBeInstanceOf(RainbondApiError);
    expect((err as Error).message).toMatch(/failed with 502: proxy lost \[redacted\]$/);
    await expect(client.regions.get("../x")).rejects.toThrow(/regionId/);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatch(/^info \[rainbond\] GET \/openapi\/v1\/regions\/\w+ → 502 in \d+ ms$/);
    expectNoSecrets(err, log.lines, [TOKEN, KEY_FILE_INNER]);
  });

  it("an API error thrown by the client is a RainbondApiError whose JSON holds no secret", async () => {
    server.script(
      "PUT",
      paths.httpRule,
      answer.json(400, { detail: "参数错误", err: { service_id: [`bad ${TOKEN}`] }, code: 20400 }),
    );
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.gateway.updateHttpRule(app, "5f2e8a1c9b7d4e3f", { service_id: "gr3f9c2a" }));
    expect(err).toBeInstanceOf(RainbondApiError);
    expect((err as Error).message).toContain("service_id: bad [redacted]");
    expectNoSecrets(err, log.lines);
  });
});

describe("redact and excerpt, exported for a caller's own logs", () => {
  it("mask a record's secret fields and the strings given, in a copy", async () => {
    const { excerpt, redact } = await import("../../src/index.js");
    const region = {
      region_name: "rainbond",
      token: "region-token-9x",
      url: `https://h/?t=${TOKEN}`,
      nested: [{ key_file: "k" }],
    };
    expect(redact(region, [TOKEN])).toEqual({
      region_name: "rainbond",
      token: "[redacted]",
      url: "https://h/?t=[redacted]",
      nested: [{ key_file: "[redacted]" }],
    });
    expect(region.token).toBe("region-token-9x");
    expect(excerpt(`<h1>Bad gateway</h1><p>token ${TOKEN}</p>`, [TOKEN])).toBe("Bad gateway token [redacted]");
  });
});
