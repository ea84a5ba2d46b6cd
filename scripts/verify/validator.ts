// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The response validator between the client and the console: Prism in proxy mode, over the verify's own copy of the
// spec, in front of the recording relay:
//
//   client --fetch--> Prism proxy (checks each answer, `sl-violations` header) --> recorder --> console
//
// Why Prism's proxy rather than `redocly respect` (Arazzo): the check must run on the requests the project's client
// sends (its encoding of ids, booleans and bodies, its envelope handling), and Prism checks whatever passes through it,
// request and answer, against the spec: status, media type and body. `respect` sends requests of its own, built from an
// Arazzo workflow, so it would test the spec against the console but not the client; and it stops a workflow at its
// first failed step, where a report wants every deviation of every operation.
//
// Prism runs without `--errors`: it then passes the console's answer through and adds `sl-violations`, so the client
// gets the real data (ids to discover, the port to delete) and the report sees every violation, also those of
// answers that are errors themselves.
import { request } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPrism } from "../prism.ts";
import { startRecorder, type Recorder } from "./recorder.js";

// ---- the verify's copy of the spec -----------------------------------------------------------------------------------

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Names the verify gives inline schemas it builds, so that the report can name them. */
export const ENVELOPE_NAME = "console envelope";

/**
 * The spec as the verify hands it to Prism: what the spec marks about the live console applied, and every object
 * closed. The spec itself is left as it is (its generated types and the client's results stay the bare shapes).
 *
 * - A media type marked `x-console-envelope: data.list` (or `data.bean`): its schema, or the console's envelope
 *   (`components.x-console-envelope`) with that schema at that member. An `if` on `data` picks the branch, so a
 *   deviation is reported in the branch the answer took, not twice.
 * - A response marked `x-console-may-send: [..., "null"]`: its schema, or the JSON `null` (an `empty` body is judged by
 *   the verify itself: Prism cannot read an empty body labelled JSON).
 * - `additionalProperties: false` on every object schema that does not say otherwise: a field the spec does not name
 *   is reported (Prism names it: "found 'x'"). The spec stays open, as a later console may add fields without
 *   breaking a client; the verify is where the maintainer learns of them, to add them to the spec.
 */
export function validatorSpec(spec: JsonObject): JsonObject {
  const doc = structuredClone(spec);
  const components = doc.components as JsonObject;
  const envelope = components["x-console-envelope"];
  for (const item of Object.values(doc.paths as JsonObject)) {
    for (const operation of Object.values(item as JsonObject)) {
      if (!isObject(operation) || !isObject(operation.responses)) continue;
      for (const response of Object.values(operation.responses)) {
        for (const media of Object.values(isObject(response) && isObject(response.content) ? response.content : {})) {
          if (!isObject(media) || typeof media["x-console-envelope"] !== "string") continue;
          if (!isObject(envelope))
            throw new Error("the spec marks an envelope but has no components.x-console-envelope");
          media.schema = {
            if: { type: "object", required: ["data"] },
            then: wrap(envelope, media["x-console-envelope"], media.schema!),
            else: media.schema!,
          };
        }
      }
    }
  }
  for (const response of Object.values(isObject(components.responses) ? components.responses : {})) {
    if (!isObject(response) || !Array.isArray(response["x-console-may-send"])) continue;
    if (!response["x-console-may-send"].includes("null")) continue;
    for (const media of Object.values(isObject(response.content) ? response.content : {})) {
      if (isObject(media)) media.schema = { if: { type: "null" }, then: true, else: media.schema! };
    }
  }
  close(doc);
  return doc;
}

/** The envelope with `schema` at `member` (`data.list`), marked with its name for the report. */
function wrap(envelope: JsonObject, member: string, schema: Json): JsonObject {
  const out = structuredClone(envelope);
  out["x-verify-schema"] = ENVELOPE_NAME;
  const keys = member.split(".");
  let at = out;
  for (const key of keys.slice(0, -1)) at = (at.properties as JsonObject)[key] as JsonObject;
  (at.properties as JsonObject)[keys.at(-1)!] = schema;
  return out;
}

/** Sets `additionalProperties: false` on every schema with `properties` that says nothing of other properties. */
function close(node: Json): void {
  if (Array.isArray(node)) return node.forEach(close);
  if (!isObject(node)) return;
  if (
    isObject(node.properties) &&
    node.additionalProperties === undefined &&
    !node.allOf &&
    !node.anyOf &&
    !node.oneOf
  ) {
    node.additionalProperties = false;
  }
  for (const [key, value] of Object.entries(node)) if (key !== "example" && key !== "examples") close(value);
}

// ---- running it --------------------------------------------------------------------------------------------------

export interface Validator {
  /** Where the client sends its requests. */
  url: string;
  recorder: Recorder;
  stop(): Promise<void>;
}

/** Starts the recorder (towards `consoleUrl`) and Prism's proxy over `spec` (already a validatorSpec). */
export async function startValidator(consoleUrl: string, spec: JsonObject, timeoutMs = 30_000): Promise<Validator> {
  const recorder = await startRecorder(consoleUrl, timeoutMs);
  const dir = await mkdtemp(join(tmpdir(), "rainbond-verify-"));
  try {
    const file = join(dir, "openapi.json");
    await writeFile(file, JSON.stringify(spec));
    const prism = await startPrism({ spec: file, errors: false, proxyTo: recorder.url });
    return {
      url: prism.url,
      recorder,
      stop: async () => {
        await prism.stop();
        await recorder.close();
      },
    };
  } catch (err) {
    await recorder.close();
    throw err;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What Prism said of one answer: its `sl-violations` header, if any. */
export interface Verdict {
  violations: string | null;
}

/**
 * The `fetch` the client is given: a request over node:http that records the `sl-violations` header of each answer.
 * Not the global fetch: its headers may not exceed 16 KB, and Prism lists every violation in that one header (a list
 * of 200 gateway rules, each with one extra field, is some 30 KB), which would make fetch fail with no answer at all.
 */
export function recordingFetch(verdicts: Verdict[]): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
    const body = init?.body ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      const req = request(
        url,
        {
          method: init?.method ?? "GET",
          headers: Object.fromEntries(headers),
          maxHeaderSize: 16 * 1024 * 1024,
          signal: init?.signal ?? undefined,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", reject);
          res.on("end", () => {
            const violations = res.headers["sl-violations"];
            verdicts.push({ violations: typeof violations === "string" ? violations : null });
            const out = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined && name !== "sl-violations") out.set(name, String(value));
            }
            const status = res.statusCode ?? 500;
            const nullBody = status === 204 || status === 205 || status === 304;
            resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, headers: out }));
          });
        },
      );
      req.on("error", reject);
      req.end(typeof body === "string" ? body : undefined);
    });
  };
}
