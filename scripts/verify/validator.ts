// The response validator between the client and the console (docs/verifying-a-console.md, "How it checks"):
//   client --validator.fetch--> Prism proxy (checks each answer: `sl-violations`) --> recorder --> console
// The recorder keeps each answer as the console sent it: Prism cannot read an empty or cut-short body labelled JSON
// (it answers its own 500, naming neither status nor body), and the report shows the real status and body.
import { createServer, request, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buffer } from "node:stream/consumers";
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
export type Exchange = Partial<Record<"contentType" | "body" | "error" | "violations", string>> & { status?: number };

export type Validator = Awaited<ReturnType<typeof startValidator>>;

/** One request over node:http, whose headers may be of any size, and its answer read whole. */
async function send(url: string, method: string, headers: OutgoingHttpHeaders, body: Buffer, signal: AbortSignal) {
  const req = request(url, { method, headers, maxHeaderSize: 2 ** 24, signal }).end(body);
  const [res] = (await once(req, "response")) as [IncomingMessage];
  return { status: res.statusCode ?? 500, headers: res.headers, body: await buffer(res) };
}

/** Starts the recorder and Prism's proxy in front of it over `spec` (a validatorSpec). */
export async function startValidator(spec: JsonObject, timeoutMs = 30_000) {
  const exchanges: Exchange[] = [];
  const recorder = createServer(async (req, res) => {
    const exchange: Exchange = {};
    exchanges.push(exchange);
    // the console's own host, and an answer left uncompressed, to be read
    const { host: _, "accept-encoding": __, ...headers } = req.headers;
    try {
      const signal = AbortSignal.timeout(timeoutMs);
      const answer = await send(validator.target + req.url, req.method!, headers, await buffer(req), signal);
      [exchange.status, exchange.body] = [answer.status, answer.body.toString()];
      exchange.contentType = answer.headers["content-type"];
      res.writeHead(answer.status, answer.headers).end(answer.body);
    } catch (err) {
      const { name, code, message } = err as { name?: string; code?: string; message?: string };
      exchange.error = name === "AbortError" ? "no answer in time" : (code ?? message ?? String(err));
      res.writeHead(502, { "content-type": "text/plain" }).end(`no answer from the console: ${exchange.error}`);
    }
  });
  const closeRecorder = () => new Promise<void>((resolve) => recorder.close(() => resolve()).closeAllConnections());
  await new Promise<void>((resolve) => recorder.listen(0, "127.0.0.1", resolve));
  const recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
  const file = join(await mkdtemp(join(tmpdir(), "rainbond-verify-")), "openapi.json");
  await writeFile(file, JSON.stringify(spec));
  const prism = await startPrism({ spec: file, errors: false, proxyTo: recorderUrl }) // copies the file
    .catch((err: unknown) => closeRecorder().then(() => Promise.reject(err)))
    .finally(() => rm(dirname(file), { recursive: true, force: true }));
  const validator = {
    /** Where the client sends its requests, through `fetch`. */
    url: prism.url,
    /** The console's origin, set by each run. */
    target: "",
    /** What reached the console, in order. */
    exchanges,
    /** node:http, which reads `sl-violations` into the last exchange. Not the global fetch: its headers may not exceed
     * 16 KB, and Prism lists every violation in that one header (some 30 KB for 200 rules with an extra field each). */
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const asked = new Request(input, init);
      const body = Buffer.from(await asked.arrayBuffer());
      const answer = await send(asked.url, asked.method, Object.fromEntries(asked.headers), body, asked.signal);
      const { "sl-violations": violations, ...headers } = answer.headers;
      const exchange = exchanges.at(-1);
      if (exchange && typeof violations === "string") exchange.violations = violations;
      const list = Object.entries(headers).flatMap(([name, v]) => [v ?? []].flat().map((value) => [name, value]));
      const out = { status: answer.status, headers: list as [string, string][] };
      return new Response([204, 205, 304].includes(answer.status) ? null : answer.body, out);
    },
    stop: () => prism.stop().then(closeRecorder),
  };
  return validator;
}
