// Secrets the console echoes where no body is: in the reason phrase of its status line, in `x-request-id`, and in a
// page that is not JSON just past the excerpt's scan window or HTML-escaped. Each is masked by the client's one
// masking (src/core/redact.ts) in the error's message, String(), util.inspect, JSON and in every log line.
import { describe, expect, it } from "vitest";
import { RainbondAuthError, RainbondNotFoundError, RainbondServerError, excerpt } from "../../../src/index.js";
import { EXCERPT_SCAN } from "../../../src/core/redact.js";
import { TOKEN, app, component, expectNoSecrets, faultClient, installBodyWith, paths, rejection } from "./helpers.js";
import { answer, renderings, useFaultServer, type Answer } from "../../helpers/faults/server.js";

const server = useFaultServer();

const withReason = (a: Answer, statusText: string): Answer => ({ ...a, statusText }) as Answer;

describe("the reason phrase of the status line", () => {
  it("401 Unauthorized <token>: the token is in no message, rendering or log line", async () => {
    server.script("GET", paths.component, withReason(answer.text(401, ""), `Unauthorized ${TOKEN}`));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondAuthError);
    expect((err as Error).message).toMatch(/failed with 401 Unauthorized \[redacted\]$/);
    expectNoSecrets(err, log.lines);
  });

  it("the retry warning at the default level (warn) does not show it either", async () => {
    const failing = withReason(answer.text(503, ""), `Service Unavailable for ${TOKEN}`);
    server.script("GET", paths.component, failing, answer.json(200, { service_id: "gr3f9c2a" }));
    const { client, log } = faultClient(server.url, { logLevel: "warn" });
    await client.components.get(component);
    const warnings = log.lines.filter((line) => line.startsWith("warn"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/failed with 503 Service Unavailable for \[redacted\]; retry 1 of 2/);
    expectNoSecrets(undefined, log.lines);
  });

  it("403 bad key <market_access_key> after apps.install: the key the request carried is masked", async () => {
    const key = "mkey-Zr8vQ2nL5pX1";
    server.script("POST", paths.install, withReason(answer.text(403, ""), `bad key ${key}`));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.apps.install(app, installBodyWith(key)));
    expect(err).toBeInstanceOf(RainbondAuthError);
    expect((err as Error).message).toMatch(/failed with 403 bad key \[redacted\]$/);
    expectNoSecrets(err, log.lines, [TOKEN, key]);
  });
});

describe("x-request-id", () => {
  it("a request id holding the token is masked in requestId, util.inspect and JSON", async () => {
    const headers = { "x-request-id": `req-${TOKEN}\tx` };
    server.script("GET", paths.component, answer.json(404, { msg: "not found" }, headers));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondNotFoundError);
    expect((err as RainbondNotFoundError).requestId).toBe("req-[redacted]\\tx");
    expectNoSecrets(err, log.lines);
  });

  it("a plain request id is kept as sent", async () => {
    server.script("GET", paths.component, answer.json(404, { msg: "not found" }, { "x-request-id": "req-77aa" }));
    const { client } = faultClient(server.url);
    const err = await rejection(client.components.get(component));
    expect(err).toMatchObject({ requestId: "req-77aa" });
  });
});

describe("excerpts of a page that is not JSON", () => {
  /** A page whose tags fill the first `offset` characters, then the token: the tags go, the token would show. */
  const pageWithTokenAt = (offset: number, token = TOKEN) =>
    `${"<i>".repeat(offset / 3)}${"x".repeat(offset % 3)}${token} end`;

  it("a token beginning anywhere around the scan window's end is never shown, not even in part", () => {
    for (let offset = EXCERPT_SCAN - TOKEN.length - 2; offset <= EXCERPT_SCAN + 2; offset++) {
      const page = pageWithTokenAt(offset);
      expect(page.indexOf(TOKEN)).toBe(offset);
      const shown = excerpt(page, [TOKEN]);
      expect(shown, `token at ${offset}`).not.toContain(TOKEN.slice(0, 6));
    }
  });

  it("the same page as a 502 answer: no part of the token in the error or the logs", async () => {
    const page = pageWithTokenAt(EXCERPT_SCAN + 2);
    server.script("POST", paths.install, answer.html(502, page));
    const { client, log } = faultClient(server.url);
    const err = await rejection(client.apps.install(app, installBodyWith("mkey-Zr8vQ2nL5pX1")));
    expect(err).toBeInstanceOf(RainbondServerError);
    for (const text of [...renderings(err), ...log.lines]) expect(text).not.toContain(TOKEN.slice(0, 6));
  });

  it.each([
    ["Django and Python (&quot; &#x27;)", { "&": "&amp;", '"': "&quot;", "'": "&#x27;" }],
    ["Jinja (&#34; &#39;)", { "&": "&amp;", '"': "&#34;", "'": "&#39;" }],
  ])("a token with & \" ' echoed HTML-escaped, %s: masked as sent and once decoded", async (_, escapes) => {
    const token = `rb&"'tok-Q7pL2mX9vR4zK8wN3`;
    const escaped = (text: string) => text.replace(/[&"']/g, (c) => escapes[c as keyof typeof escapes]);
    server.script(
      "GET",
      paths.component,
      answer.echo((seen) => answer.html(404, `<p>no component for ${escaped(String(seen.headers.authorization))}</p>`)),
    );
    const { client, log } = faultClient(server.url, { token });
    const err = await rejection(client.components.get(component));
    expect(err).toBeInstanceOf(RainbondNotFoundError);
    expect((err as Error).message).toContain("no component for [redacted]");
    expectNoSecrets(err, log.lines, [token, escaped(token), "Q7pL2mX9vR4zK8wN3"]);
    // at the scan window's end too
    const page = pageWithTokenAt(EXCERPT_SCAN - 10, escaped(token));
    expect(excerpt(page, [token])).not.toMatch(/tok|Q7pL/);
  });
});
