// surface/request.ts in this process: the request a call makes, as a person reads it (masked and named, escaped, whole),
// how it is recorded without being sent, and which body members a schema does not know.
import { expect, test } from "vitest";
import { recorder, shownRequest, unknownMembers, type MemberSchema } from "../../../surface/request.ts";

const token = "tok-shown-unit-8e1f0a";
const at = (found: { at: string }[]) => found.map((member) => member.at);

test("a request is recorded as the client gives it to fetch, a URL and init or a Request, and nothing is sent", async () => {
  const direct = recorder();
  const init = { method: "PUT", headers: { "content-type": "application/json" }, body: '{"a":1}' };
  await expect(direct.fetch("http://127.0.0.1:9/openapi/v1/x", init)).rejects.toThrow("recorded, not sent");
  expect(direct.recorded()).toMatchObject({ method: "PUT", url: "http://127.0.0.1:9/openapi/v1/x", body: '{"a":1}' });

  const wrapped = recorder(); // as with middleware: a Request, its body read
  const request = new Request("http://127.0.0.1:9/openapi/v1/y?q=1", { method: "POST", body: '{"b":2}' });
  await expect(wrapped.fetch(request)).rejects.toThrow();
  expect(wrapped.recorded()).toMatchObject({
    method: "POST",
    url: "http://127.0.0.1:9/openapi/v1/y?q=1",
    body: '{"b":2}',
  });
});

test("every value as sent, but secret members and the token masked, each place named", () => {
  const body = {
    market_access_key: "mk-1",
    note: `made with ${token}`,
    [token]: "a key",
    nested: [{ key_file: "-----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----", name: "n" }],
    empty: { token: null },
  };
  const shown = shownRequest(
    { method: "POST", url: `http://127.0.0.1:9/openapi/v1/x?query=${token}`, headers: {}, body: JSON.stringify(body) },
    [token],
  );
  expect(shown.line).toBe("POST http://127.0.0.1:9/openapi/v1/x?query=[redacted]");
  expect(JSON.parse(shown.body!)).toEqual({
    market_access_key: "[redacted]",
    note: "made with [redacted]",
    "[redacted]": "a key",
    nested: [{ key_file: "[redacted]", name: "n" }],
    empty: { token: null }, // nothing secret sent: nothing masked
  });
  expect(shown.masked).toEqual([
    "the request line",
    "body.market_access_key",
    "body.note",
    `body.${token}`,
    "body.nested[0].key_file",
  ]);
  expect(shown.escaped).toBe(false);
});

test("characters that do not show as themselves are escaped, JSON reads them back, and nothing is cut", () => {
  const value = `a\u202emoc.live\u202c\u200b\u2028\u0085\u{e0041}${"x".repeat(10_000)}`;
  const shown = shownRequest({ method: "PUT", url: "http://h/p", headers: {}, body: JSON.stringify({ v: value }) }, []);
  expect(shown.body).toMatch(/^\{"v":"a\\u202emoc\.live\\u202c\\u200b\\u2028\\u0085\\udb40\\udc41x{10000}"\}$/);
  expect(JSON.parse(shown.body!)).toEqual({ v: value });
  expect(shown.escaped).toBe(true);
  expect(shownRequest({ method: "DELETE", url: "http://h/p", headers: {} }, [])).toEqual({
    line: "DELETE http://h/p",
    masked: [],
    escaped: false,
  });
});

test("body members a schema does not name are found at any depth, in arrays, and named plainly", () => {
  const schema: MemberSchema = {
    properties: {
      protocol: {},
      tcp: { properties: { port: {}, rules: { items: { properties: { key: {} } } } } },
      labels: { additionalProperties: { properties: { text: {} } } }, // a map of records
      free: {}, // no members named: any
    },
    then: { properties: { alias: {} } },
    allOf: [{ properties: { weight: {} } }],
  };
  const body = {
    protocol: "tcp",
    alias: "a",
    weight: 1,
    free: { anything: true },
    tcp: { port: 1, open_to: "0.0.0.0/0", rules: [{ key: "k" }, { key: "k", value: "v" }] },
    labels: { one: { text: "t", colour: "red" } },
    "a.b": 1,
    ["__proto__"]: 1,
  };
  const found = unknownMembers(schema, JSON.parse(JSON.stringify(body)), "body");
  expect(at(found)).toEqual([
    "body.tcp.open_to",
    "body.tcp.rules[1].value",
    "body.labels.one.colour",
    'body["a.b"]',
    "body.__proto__",
  ]);
  expect(found[0]).toEqual({ at: "body.tcp.open_to", object: "body.tcp", known: ["port", "rules"] });
  expect(unknownMembers({ properties: { a: {} }, additionalProperties: true }, { b: 1 }, "body")).toEqual([]);
  expect(at(unknownMembers({ items: { properties: { a: {} } } }, [{ a: 1 }, { b: 2 }], "body"))).toEqual(["body[1].b"]);
});
