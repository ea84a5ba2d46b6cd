// The fault matrix, part 4: hostile and broken answers (issue 20). Each case settles in bounded time and memory with
// a typed error (or the data), and nothing secret reaches a message, a log line or another origin.
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  RainbondAbortError,
  RainbondBadRequestError,
  RainbondConnectionError,
  RainbondRedirectError,
  RainbondResponseError,
  RainbondResponseTooLargeError,
  RainbondServerError,
  RainbondTimeoutError,
  createRainbondClient,
  excerpt,
} from "../../../src/index.js";
import { EXCERPT_SCAN } from "../../../src/core/redact.js";
import { TOKEN, app, installBodyWith, component, expectNoSecrets, faultClient, paths, rejection } from "./helpers.js";
import { answer, recordingLogger, useFaultServer } from "../../helpers/faults/server.js";

const server = useFaultServer();
/** A second origin: where a hostile redirect points. */
const other = useFaultServer();
afterEach(() => {
  vi.useRealTimers();
});

const MiB = 1024 * 1024;
const ACCESS_KEY = "mkey-hostile-Q7w3Zp9L";
const installBody = installBodyWith(ACCESS_KEY);

describe("1. a body that freezes a regular expression", () => {
  // How long the excerpt takes is not measured here (a busy machine would decide it): the test below bounds what it
  // reads, which is what keeps it from freezing.
  it("128 KB of '<' as text/html on a 502: three attempts, each a RainbondServerError with its excerpt", async () => {
    server.script("GET", paths.ports, answer.html(502, "<".repeat(128 * 1024)));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.ports.list(component));
    expect(err).toBeInstanceOf(RainbondServerError);
    expect(server.count("GET", paths.ports)).toBe(3);
    expectNoSecrets(err, log.lines);
  });

  it("excerpt() reads only the first EXCERPT_SCAN characters: what follows them changes nothing", () => {
    const head = "<".repeat(128 * 1024);
    expect(excerpt(`${head}<b>one ending</b>`, [])).toBe(excerpt(`${head}<i>another</i>`, []));
    expect(excerpt(`${"x".repeat(EXCERPT_SCAN)}${TOKEN}`, [TOKEN])).not.toContain(TOKEN.slice(0, 6));
  });
});

describe("2. the body is capped (maxResponseBytes, default 10 MiB)", () => {
  it("an endless 200 body: RainbondResponseTooLargeError after about 10 MiB, not retried", async () => {
    server.script("GET", paths.ports, answer.stream(200, "[1,", undefined));
    const { client, log } = faultClient(server.url, { timeoutMs: 20_000 });
    const err = await rejection(client.ports.list(component));
    expect(err).toBeInstanceOf(RainbondResponseTooLargeError);
    expect(err).toBeInstanceOf(RainbondResponseError);
    expect(err).toMatchObject({ status: 200, maxResponseBytes: 10 * MiB, operation: "ports.list" });
    expect((err as Error).message).toMatch(/answered 200 with a body over maxResponseBytes \(10485760 bytes\)/);
    expect(server.count("GET", paths.ports)).toBe(1);
    expect(server.streamedBytes[0]).toBeGreaterThan(10 * MiB); // counted before written, so before the client read it
    expect(server.streamedBytes[0]).toBeLessThan(40 * MiB); // what socket buffers hold beyond the cap, no more
    expectNoSecrets(err, log.lines);
  });

  it("a gzip bomb on a 503: the decompressed bytes are counted; no retry downloads it again", async () => {
    server.script("GET", paths.ports, answer.stream(503, "\0", 600 * MiB, true));
    const { client, log } = faultClient(server.url, { timeoutMs: 20_000, maxResponseBytes: 2 * MiB });
    const err = await rejection(client.ports.list(component));
    expect(err).toBeInstanceOf(RainbondResponseTooLargeError);
    expect(err).toMatchObject({ status: 503, maxResponseBytes: 2 * MiB });
    expect(server.count("GET", paths.ports)).toBe(1);
    expect(server.streamedBytes[0]).toBeLessThan(200 * MiB);
    expectNoSecrets(err, log.lines);
  });

  it("a Content-Length over the cap is refused before reading; the option raises the cap", async () => {
    const ports = [{ container_port: 8080, protocol: "http" }];
    server.script("GET", paths.ports, answer.json(200, ports));
    const small = faultClient(server.url, { maxResponseBytes: 10 });
    await expect(small.client.ports.list(component)).rejects.toBeInstanceOf(RainbondResponseTooLargeError);
    const enough = faultClient(server.url, { maxResponseBytes: 1_000 });
    await expect(enough.client.ports.list(component)).resolves.toEqual(ports);
  });
});

describe("3. deep JSON, and errors after fetch resolved", () => {
  it("an error body nested 5,000 deep: the RainbondBadRequestError with its status, sent once", async () => {
    const deep = `{"msg":"bad nesting","err":${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}}`;
    server.script("GET", paths.ports, answer.text(400, deep, "application/json"));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.ports.list(component));
    expect(err).toBeInstanceOf(RainbondBadRequestError);
    expect(err).toMatchObject({ status: 400, msg: "bad nesting" });
    expect(server.count("GET", paths.ports)).toBe(1);
    expectNoSecrets(err, log.lines);
  });

  it("what a middleware throws after fetch resolved reaches the caller as it is: no connection error, no retry", async () => {
    server.script("GET", paths.ports, answer.json(200, []));
    const thrown = new Error("the middleware's own failure");
    const { client } = faultClient(server.url, {
      middleware: [
        {
          onResponse() {
            throw thrown;
          },
        },
      ],
    });
    await expect(client.ports.list(component)).rejects.toBe(thrown);
    expect(server.count("GET", paths.ports)).toBe(1);
  });
});

describe("5. redirects", () => {
  it("a 307 to another origin answering a POST is refused: nothing reaches it, the error names its origin only", async () => {
    server.script("POST", paths.install, answer.redirect(307, `${other.url}/steal?key=1`));
    const { client, log } = faultClient(server.url, { headers: { "X-Custom": "custom-secret" } });
    const err = await rejection(client.apps.install(app, installBody));
    expect(err).toBeInstanceOf(RainbondRedirectError);
    expect(err).toMatchObject({ status: 307, location: other.url, operation: "apps.install" });
    expect((err as Error).message).not.toContain("steal");
    expect(other.requests).toHaveLength(0);
    expect(server.count("POST", paths.install)).toBe(1);
    expectNoSecrets(err, log.lines, [TOKEN, ACCESS_KEY]);
  });

  it("a redirect from 127.0.0.1 to localhost (another origin, the same machine) is refused too, not retried", async () => {
    const port = new URL(server.url).port;
    server.script("GET", paths.ports, answer.redirect(302, `http://localhost:${port}${paths.ports}`));
    const { client } = faultClient(server.url);
    await expect(client.ports.list(component)).rejects.toBeInstanceOf(RainbondRedirectError);
    expect(server.count("GET", paths.ports)).toBe(1);
  });

  it("a redirect within the origin is followed with the token; a 303 after a POST becomes a GET", async () => {
    server.script("GET", paths.ports, answer.redirect(301, `${paths.ports}/`));
    server.script("GET", `${paths.ports}/`, answer.json(200, [{ container_port: 80 }]));
    const { client } = faultClient(server.url);
    await expect(client.ports.list(component)).resolves.toEqual([{ container_port: 80 }]);
    expect(server.requests.at(-1)!.headers.authorization).toBe(TOKEN);
    server.script("POST", paths.ports, answer.redirect(303, paths.port));
    server.script("GET", paths.port, answer.json(200, { container_port: 8080 }));
    await expect(client.ports.add(component, { port: 8080, protocol: "http" })).resolves.toEqual({
      container_port: 8080,
    });
    expect(server.requests.at(-1)).toMatchObject({ method: "GET", body: "" });
  });

  it("a redirect loop within the origin: 'redirect count exceeded' after 20, not retried", async () => {
    server.script("GET", paths.ports, answer.redirect(302, paths.ports));
    const { client } = faultClient(server.url);
    const err = await rejection(client.ports.list(component));
    expect(err).toBeInstanceOf(RainbondResponseError);
    expect((err as Error).message).toContain("redirect count exceeded");
    expect(server.count("GET", paths.ports)).toBe(21);
  });
});

describe("6. __proto__ in an answer", () => {
  it("cannot choose the prototype of err.body", async () => {
    const text = '{"msg":"real","__proto__":{"msg_show":"injected","polluted":true}}';
    server.script("GET", paths.ports, answer.text(400, text, "application/json"));
    const { client } = faultClient(server.url);
    const err = (await rejection(client.ports.list(component))) as RainbondBadRequestError;
    expect(err.msgShow).toBeUndefined();
    expect(err.message).toMatch(/failed with 400: real$/);
    expect(Object.getPrototypeOf(err.body)).toBe(Object.prototype);
    expect((err.body as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(err.body as object)).toEqual(["msg", "__proto__"]);
  });
});

describe("7. masking gaps", () => {
  it("the token as a key of a 400's field errors: masked in the message and in fieldErrors", async () => {
    server.script(
      "GET",
      paths.ports,
      answer.echo((seen) => answer.json(400, { msg: "bad", err: { [String(seen.headers.authorization)]: ["no"] } })),
    );
    const { client, log } = faultClient(server.url);
    const err = (await rejection(client.ports.list(component))) as RainbondBadRequestError;
    expect(err.fieldErrors).toEqual({ "[redacted]": ["no"] });
    expectNoSecrets(err, log.lines);
  });

  it("Python-style and HTML bodies: key_file, market_access_key and token values are masked", async () => {
    const echo = (seen: { body: string }) => {
      const key = (JSON.parse(seen.body) as { market_access_key: string }).market_access_key;
      return `{'key_file': 'pem-in-python', 'market_access_key': '${key}', 'token': 'regtok-py'}`;
    };
    const html = (seen: { body: string }) =>
      `<table><tr><td>key_file</td><td class="code"><pre>&#x27;pem-in-html&#x27;</pre></td></tr>` +
      `<tr><td>token</td><td><pre>&quot;regtok-html&quot;</pre></td></tr>${echo(seen)}</table>`;
    server.script(
      "POST",
      paths.install,
      answer.echo((seen) => answer.text(500, echo(seen), "text/plain")),
      answer.echo((seen) => answer.html(500, html(seen))),
    );
    const { client, log } = faultClient(server.url);
    const secrets = [TOKEN, ACCESS_KEY, "pem-in", "regtok-"];
    for (let i = 0; i < 2; i++) {
      const err = await rejection(client.apps.install(app, { ...installBody, market_access_key: `${ACCESS_KEY}x` }));
      expect(err).toBeInstanceOf(RainbondServerError);
      expect((err as Error).message).toContain("key_file");
      expectNoSecrets(err, log.lines, secrets);
    }
    expect(server.count("POST", paths.install)).toBe(2);
  });

  it("err.cause never raw: a custom fetch's error holding the token, and one that throws a string", async () => {
    const tokenOf = (init?: RequestInit) => new Headers(init?.headers).get("authorization")!;
    const throwing: typeof fetch = async (_input, init) => {
      throw new TypeError(`boom ${tokenOf(init)}`, { cause: { code: "EBOOM", message: tokenOf(init) } });
    };
    const { client, log } = faultClient(server.url, { fetch: throwing, retries: 0 });
    const err = await rejection(client.ports.list(component));
    expect(err).toBeInstanceOf(RainbondConnectionError);
    expect((err as Error).message).toMatch(/boom \[redacted\] \(EBOOM\)$/);
    expect(inspect(err, { depth: Infinity, showHidden: true })).toContain("EBOOM");
    expectNoSecrets(err, log.lines);
    const stringy: typeof fetch = async (_input, init) => {
      throw `a string with ${tokenOf(init)}`; // eslint-disable-line no-throw-literal
    };
    const second = faultClient(server.url, { fetch: stringy, retries: 0 });
    const thrown = await rejection(second.client.ports.list(component));
    expect(thrown).toBeInstanceOf(RainbondConnectionError);
    expect((thrown as Error).message).toMatch(/a string with \[redacted\]$/);
    expectNoSecrets(thrown, second.log.lines);
  });

  it("a one-character token is masked where it stands alone, and does not garble other words", async () => {
    server.script(
      "GET",
      paths.ports,
      answer.echo((seen) => answer.json(403, { msg: `token ${seen.headers.authorization} refused` })),
    );
    const log = recordingLogger();
    const client = createRainbondClient({ baseUrl: server.url, token: "f", logger: log.logger, logLevel: "debug" });
    const err = await rejection(client.ports.list(component));
    expect((err as Error).message).toMatch(/ports\.list \(GET .*\) failed with 403: token \[redacted\] refused$/);
  });
});

describe("8. Retry-After", () => {
  it("0, negative, past and unparsable values wait the client's own backoff, measured on fake timers", async () => {
    const past = new Date(Date.now() - 60_000).toUTCString();
    const values = ["0", "-1", past, "0x2"];
    server.script(
      "GET",
      paths.ports,
      ...values.map((v) => answer.json(503, null, { "retry-after": v })),
      answer.json(200, []),
    );
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { client, log } = faultClient(server.url, { retries: 4, retryDelay: { baseMs: 1_000, maxMs: 1_000 } });
    const call = client.ports.list(component);
    for (let n = 1; n <= values.length; n++) {
      const line = await log.waitForLine((l) => l.includes(`retry ${n} of 4`));
      const delay = Number(/in (\d+) ms$/.exec(line)![1]);
      expect(delay).toBeGreaterThanOrEqual(750); // the backoff (1 s, up to 25% jitter), not 0 nor 2 s
      expect(delay).toBeLessThanOrEqual(1_000);
      await vi.advanceTimersByTimeAsync(delay - 5);
      expect(server.count("GET", paths.ports)).toBe(n);
      await vi.advanceTimersByTimeAsync(5);
      await server.waitFor("GET", paths.ports, n + 1);
    }
    await expect(call).resolves.toEqual([]);
  });
});

describe("9. server text is cut and escaped", () => {
  it("a 1 MB msg_show with a newline and ANSI escapes: a one-line message of at most 500 characters of it", async () => {
    const forged = `fine\n[rainbond] forged line \u001b[31mred\u0000${"x".repeat(MiB)}`;
    server.script("GET", paths.ports, answer.json(503, { msg_show: forged }), answer.json(200, []));
    const { client, log } = faultClient(server.url, { retries: 0 });
    const err = await rejection(client.ports.list(component));
    const message = (err as Error).message;
    expect(message.length).toBeLessThan(700);
    expect(message).toContain("fine\\n[rainbond] forged line \\x1b[31mred\\x00xxx");
    expect(message).not.toMatch(/[\n\u001b\u0000]/);
    const retried = faultClient(server.url, { retries: 1 });
    server.script("GET", paths.ports, answer.json(503, { msg_show: forged }), answer.json(200, []));
    await expect(retried.client.ports.list(component)).resolves.toEqual([]);
    const warn = retried.log.lines.find((l) => l.startsWith("warn"))!;
    expect(warn.length).toBeLessThan(800);
    expect(warn).not.toMatch(/[\n\u001b\u0000]/);
    expectNoSecrets(err, log.lines);
  });
});

describe("12. a fetch that ignores the signal", () => {
  it("settles as RainbondTimeoutError at its deadline, the body read included (on a fake clock)", async () => {
    let headers!: () => void;
    const answered = new Promise<void>((resolve) => (headers = resolve));
    const deaf: typeof fetch = async (input, init) => {
      const response = await fetch(input, { ...init, signal: undefined });
      headers();
      return response;
    };
    server.script("GET", paths.ports, answer.hang());
    server.script("DELETE", paths.port, answer.slow(200, ["[", "1", ",", "2"], 1_000));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const t0 = Date.now();
    const { client, log } = faultClient(server.url, { fetch: deaf, timeoutMs: 300, retries: 0 });
    const listed = rejection(client.ports.list(component));
    await server.waitFor("GET", paths.ports, 1);
    await vi.advanceTimersByTimeAsync(300);
    const err = await listed;
    expect(Date.now() - t0).toBe(300);
    expect(err).toBeInstanceOf(RainbondTimeoutError);
    expect((err as Error).message).toMatch(/no answer within 300 ms$/);
    const deleted = rejection(client.ports.delete(component, 8080));
    await answered; // the headers are in, the body comes a chunk a second: what times out is reading it
    await vi.advanceTimersByTimeAsync(300);
    expect(await deleted).toBeInstanceOf(RainbondTimeoutError);
    expect(Date.now() - t0).toBe(600);
    expectNoSecrets(err, log.lines);
  });

  it("settles on the caller's abort too", async () => {
    const deaf: typeof fetch = (input, init) => fetch(input, { ...init, signal: undefined });
    server.script("GET", paths.ports, answer.hang());
    const { client } = faultClient(server.url, { fetch: deaf, timeoutMs: 60_000 });
    const controller = new AbortController();
    const call = client.ports.list(component, { signal: controller.signal });
    await server.waitFor("GET", paths.ports, 1);
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(RainbondAbortError);
  });
});

describe("14. successful answers have the declared top-level shape", () => {
  it.each([
    ["null", null],
    ["a list that is not an array", { code: 200, data: { list: "notarray" } }],
    ["a string", "ports"],
  ])("ports.list answered with %s: RainbondResponseError naming the operation", async (_name, body) => {
    server.script("GET", paths.ports, answer.json(200, body));
    const { client } = faultClient(server.url);
    const err = await rejection(client.ports.list(component));
    expect(err).toBeInstanceOf(RainbondResponseError);
    expect((err as Error).message).toMatch(
      /^ports\.list \(GET .*\) answered 200 with .* where the spec declares an array$/,
    );
    expect(server.count("GET", paths.ports)).toBe(1);
  });

  it("an array where an object is declared fails; a bare array where one is declared is the data", async () => {
    server.script("GET", paths.component, answer.json(200, []));
    server.script("GET", paths.ports, answer.json(200, [{ container_port: 80 }]));
    const { client } = faultClient(server.url);
    await expect(client.components.get(component)).rejects.toThrow(/an array where the spec declares an object/);
    await expect(client.ports.list(component)).resolves.toEqual([{ container_port: 80 }]);
  });
});
