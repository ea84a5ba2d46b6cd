// The response validator (docs/verifying-a-console.md, "How it checks"). The client talks to the console itself, through
// a recording fetch: its own rule on redirects (within the console's origin only) is the only one, and every answer is
// read up to a cap. Each answer is then checked offline: Prism's proxy, over the verify's copy of the spec, is sent the
// same request with a stand-in token and proxies it to a loopback replay of the recorded answer; its `sl-violations`
// header lists what differs. Prism never holds the token and never reaches the network, so nothing it does (it follows
// redirects itself) can carry the token elsewhere.
import { createServer, request, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { isObject, type Json, type JsonObject } from "../lib/spec.ts";
import { startPrism } from "../prism.ts";

/**
 * The spec as the verify hands it to Prism, the spec itself left as it is: its marks about the live console applied
 * (`x-console-envelope`: the schema, or the envelope with it at that member; `x-console-may-send: [null]`: or `null`),
 * as `if`s so that a deviation is reported once, in the branch the answer took; and every object closed, so that Prism
 * names each field the spec lacks (docs/verifying-a-console.md says why the spec itself stays open).
 */
export function validatorSpec(spec: JsonObject): JsonObject {
  const doc = structuredClone(spec);
  const envelope = (doc.components as JsonObject)["x-console-envelope"];
  const visit = (node: Json): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    const member = node["x-console-envelope"];
    if (typeof member === "string") {
      if (!isObject(envelope)) throw new Error("the spec marks an envelope but has no components.x-console-envelope");
      // the envelope, named for the report (judge.ts reads `x-verify-schema`), with the schema at `member`
      const then: JsonObject = { ...structuredClone(envelope), "x-verify-schema": "console envelope" };
      const keys = member.split(".");
      const parent = keys.slice(0, -1).reduce((at, key) => (at.properties as JsonObject)[key] as JsonObject, then);
      (parent.properties as JsonObject)[keys.at(-1)!] = node.schema!;
      node.schema = { if: { type: "object", required: ["data"] }, then, else: node.schema! };
    }
    const maySend = node["x-console-may-send"];
    if (Array.isArray(maySend) && maySend.includes("null") && isObject(node.content)) {
      for (const media of Object.values(node.content)) {
        if (isObject(media)) media.schema = { if: { type: "null" }, then: true, else: media.schema! };
      }
    }
    const open = node.additionalProperties === undefined && !(node.allOf || node.anyOf || node.oneOf);
    if (isObject(node.properties) && open) node.additionalProperties = false;
    for (const [key, value] of Object.entries(node)) if (key !== "example" && key !== "examples") visit(value);
  };
  visit(doc);
  return doc;
}

/** One request as the console answered it (or why no answer came), and Prism's `sl-violations` for the answer. */
export type Exchange = Partial<Record<"contentType" | "body" | "error" | "violations" | "redirect", string>> & {
  status?: number;
  /** The answer was longer than this many bytes: only these were read. */
  cut?: number;
  /** The request as the client made it, to replay through Prism (its Authorization header left out). */
  request?: { method: string; url: string; headers: [string, string][]; body: Buffer };
};

export type Validator = Awaited<ReturnType<typeof startValidator>>;

/** The most of an answer the verify reads (the client's own default maxResponseBytes): the rest is a finding. */
export const MAX_ANSWER_BYTES = 10_485_760;
/** What Prism is sent in place of the token: it checks that the header is there, not what it holds. */
const STAND_IN_TOKEN = "verify-stand-in-token";

/** A character a header cannot carry (past Latin-1), or a backslash (so that the escapes below read back as they were). */
const UNSENDABLE = /[\\\u0100-\uffff]/g;
const ESCAPED = /\\u([0-9a-f]{4})/g;
const unescapeKey = (key: string) => key.replace(ESCAPED, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * `body` (an answer's JSON) with each key holding a character past Latin-1 written with `\uXXXX` escapes, or undefined
 * when none does. Prism names a field the spec lacks in its `sl-violations` header, and fails to send the header at
 * all (the connection ends) when the name is not Latin-1 (`名称`, `\u202eevil`): the answer is checked with such keys
 * escaped, and the names in its violations are read back.
 */
export function escapedKeys(body: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  let escaped = false;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== "object" || node === null) return node;
    const entries = Object.entries(node).map(([key, item]) => {
      const safe = key.replace(UNSENDABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
      escaped ||= safe !== key && /[^\u0000-\u00ff]/.test(key);
      return [safe, walk(item)];
    });
    return Object.fromEntries(entries);
  };
  const replayed = JSON.stringify(walk(value));
  return escaped ? replayed : undefined;
}

/** Prism's violations of an answer replayed with escaped keys, with the keys' names read back. */
function keysReadBack(violations: string): string {
  const list = (() => {
    try {
      return JSON.parse(violations) as unknown;
    } catch {
      return undefined;
    }
  })();
  if (!Array.isArray(list)) return violations;
  const back = list.map((v: { location?: unknown; message?: unknown }) => ({
    ...v,
    ...(Array.isArray(v.location) && { location: v.location.map((s) => (typeof s === "string" ? unescapeKey(s) : s)) }),
    ...(typeof v.message === "string" && {
      message: v.message.replace(/; found '(.*)'$/, (_, key: string) => `; found '${unescapeKey(key)}'`),
    }),
  }));
  return JSON.stringify(back);
}

/** Up to `max` bytes of a body; `cut` when it had more (the rest is not read: the stream is cancelled). */
async function readCapped(body: ReadableStream<Uint8Array> | null, max: number) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body?.getReader();
  for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader!.read()) {
    size += chunk.value.byteLength;
    if (size > max) {
      void reader!.cancel().catch(() => {});
      return { bytes: Buffer.concat([...chunks, chunk.value]).subarray(0, max), cut: true };
    }
    chunks.push(chunk.value);
  }
  return { bytes: Buffer.concat(chunks), cut: false };
}

/** Why fetch failed, in a few words: `no answer in time`, a code such as ECONNREFUSED, or its message. */
function failure(err: unknown, signal: AbortSignal | null | undefined): string {
  if (signal?.aborted) return "no answer in time";
  const { code, message } = ((err as { cause?: unknown })?.cause ?? err ?? {}) as { code?: string; message?: string };
  return code ?? message ?? String(err);
}

/** Starts the replay of recorded answers and Prism's proxy in front of it over `spec` (a validatorSpec). */
export async function startValidator(spec: JsonObject, maxAnswerBytes = MAX_ANSWER_BYTES) {
  const exchanges: Exchange[] = [];
  let replaying: Exchange | undefined;
  // Prism's upstream: the answer being checked, from memory; never a redirect (no Location is replayed)
  const replay = createServer((req, res) => {
    req.resume();
    const { status = 500, contentType, body = "" } = replaying ?? {};
    res.writeHead(status, contentType ? { "content-type": contentType } : {}).end(body);
  });
  const closeReplay = () => new Promise<void>((resolve) => replay.close(() => resolve()).closeAllConnections());
  await new Promise<void>((resolve) => replay.listen(0, "127.0.0.1", resolve));
  const replayUrl = `http://127.0.0.1:${(replay.address() as AddressInfo).port}`;
  const file = join(await mkdtemp(join(tmpdir(), "rainbond-verify-")), "openapi.json");
  await writeFile(file, JSON.stringify(spec));
  const prism = await startPrism({ spec: file, errors: false, proxyTo: replayUrl }) // copies the file
    .catch((err: unknown) => closeReplay().then(() => Promise.reject(err)))
    .finally(() => rm(dirname(file), { recursive: true, force: true }));

  return {
    /** What the client sent and the console answered, one per fetch (a redirect followed is two), in order. */
    exchanges,
    /** The client's fetch: the global one, never following a redirect (the client follows those within the console's
     * origin), each answer recorded and read up to the cap; past it the client gets a failure, as for a lost answer. */
    fetch: async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const asked = new Request(input, { ...init, redirect: "manual" });
      const body = Buffer.from(await asked.clone().arrayBuffer());
      const headers = [...asked.headers].filter(([name]) => name !== "authorization");
      const exchange: Exchange = { request: { method: asked.method, url: asked.url, headers, body } };
      exchanges.push(exchange);
      let answer: Response;
      try {
        answer = await fetch(asked);
      } catch (err) {
        exchange.error = failure(err, asked.signal);
        throw err;
      }
      const { status, statusText } = answer;
      exchange.status = status;
      exchange.contentType = answer.headers.get("content-type") ?? undefined;
      const location = answer.headers.get("location");
      if (location !== null && status >= 300 && status < 400) {
        exchange.redirect = URL.canParse(location, asked.url) ? new URL(location, asked.url).origin : "(unreadable)";
      }
      const read = await readCapped(answer.body, maxAnswerBytes).catch((err: unknown) => {
        exchange.error = failure(err, asked.signal);
        throw err;
      });
      exchange.body = read.bytes.toString();
      if (read.cut) {
        exchange.cut = maxAnswerBytes;
        throw new Error(`an answer over ${maxAnswerBytes} bytes, not read further`);
      }
      const kept = new Headers(answer.headers);
      for (const name of ["content-encoding", "content-length", "transfer-encoding"]) kept.delete(name);
      const empty = [204, 205, 304].includes(status);
      return new Response(empty ? null : read.bytes, { status, statusText, headers: kept });
    },
    /** Asks Prism about `exchange`'s answer: the request replayed with a stand-in token; sets its `violations`. */
    async check(exchange: Exchange): Promise<void> {
      const { request: asked } = exchange;
      if (!asked) return;
      const { pathname, search } = new URL(asked.url);
      const path = pathname.slice(Math.max(0, pathname.indexOf("/openapi/v1/"))); // a console under a path prefix
      const headers: OutgoingHttpHeaders = { ...Object.fromEntries(asked.headers), authorization: STAND_IN_TOKEN };
      const escaped = /\bjson\b/i.test(exchange.contentType ?? "") ? escapedKeys(exchange.body ?? "") : undefined;
      replaying = escaped === undefined ? exchange : { ...exchange, body: escaped };
      try {
        const req = request(prism.url + path + search, { method: asked.method, headers, maxHeaderSize: 2 ** 24 });
        req.end(asked.body);
        const [res] = (await once(req, "response")) as [IncomingMessage];
        res.resume(); // Prism's copy of the answer: the recorded one is judged
        const violations = res.headers["sl-violations"];
        if (typeof violations === "string") exchange.violations = escaped ? keysReadBack(violations) : violations;
      } finally {
        replaying = undefined;
      }
    },
    stop: () => prism.stop().then(closeReplay),
  };
}
