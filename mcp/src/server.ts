// The MCP server: the low-level SDK Server with its own tools/list and tools/call handlers over the generated tools.
// Every outcome of a call is a tool result: the answer (structuredContent, plus its JSON as text), or isError with
// what went wrong (bad input names the field and sends nothing; an API error gives status, code and the console's
// message; no answer says so). Nothing secret reaches a result: the token, and the value of every field the spec marks
// x-sensitive, are masked.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  RainbondAbortError,
  RainbondApiError,
  RainbondBadRequestError,
  RainbondConnectionError,
  RainbondInputError,
  RainbondTimeoutError,
} from "rainbond-openapi";
import type { RainbondCore } from "rainbond-openapi/core";
import { requestOperation, type OperationId } from "rainbond-openapi/operations";
import { checkArguments, entries, inputOf, mismatch, sensitiveFields, servedTools, type ToolEntry } from "./tools.js";

/** An answer whose JSON is longer than this is cut, with a note on how to ask for less. */
export const MAX_RESULT_CHARS = 50_000;
export const MASK = "[redacted]";
const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;

export interface ServerOptions {
  core: RainbondCore;
  /** Serve the tools that change the console too. */
  allowWrite: boolean;
  /** Strings never to show (the console token). */
  secrets: readonly string[];
  name: string;
  version: string;
}

export function createServer({ core, allowWrite, secrets, name, version }: ServerOptions): Server {
  const server = new Server({ name, version }, { capabilities: { tools: {} } });
  const served = servedTools(allowWrite);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: served.map((entry) => entry.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name: tool, arguments: args = {} } = request.params;
    const entry = entries.get(tool);
    if (!entry) return failure(`Unknown tool ${tool}.`);
    if (!served.includes(entry)) {
      return failure(`${tool} changes the console (${entry.operation.effect}): start the server with --allow-write.`);
    }
    const wrong = checkArguments(entry, args);
    if (wrong) return failure(`Refused, nothing was sent: ${wrong}.`);
    const mask = masker([...secrets, ...secretsIn(args)]); // a market_access_key given is never shown back
    try {
      const data = await requestOperation(core, tool as OperationId, inputOf(entry, args), { signal: extra.signal });
      return answer(entry, mask(entry.operation.wrapped ? { items: data } : data));
    } catch (err) {
      return failure(mask(explain(err)) as string);
    }
  });
  return server;
}

function failure(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}

/** What went wrong, for a person or a model reading the result. */
function explain(err: unknown): string {
  if (err instanceof RainbondInputError) return `Refused, nothing was sent: ${err.argument} ${ruleOf(err)}.`;
  if (err instanceof RainbondApiError) {
    const said = [err.msgShow, err.msg].filter((text, i, all) => text && all.indexOf(text) === i).join(" / ");
    const fields =
      err instanceof RainbondBadRequestError
        ? Object.entries(err.fieldErrors).map(([field, messages]) => `\n${field}: ${messages.join(" ")}`)
        : [];
    return `The console answered ${err.status}${err.code === undefined ? "" : ` (code ${err.code})`}: ${said || err.message}${fields.join("")}`;
  }
  if (err instanceof RainbondTimeoutError) return `No answer from the console in time (timeout): ${err.message}`;
  if (err instanceof RainbondConnectionError) return `The console could not be reached: ${err.message}`;
  if (err instanceof RainbondAbortError) return "Cancelled.";
  return `Failed: ${err instanceof Error ? err.message : String(err)}`;
}

function ruleOf(err: RainbondInputError): string {
  return err.message.slice(`${err.operation}: ${err.argument} `.length);
}

/** The string values of the x-sensitive fields in `value`, at any depth. */
function secretsIn(value: unknown): string[] {
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    sensitiveFields.has(key) && typeof item === "string" ? [item] : secretsIn(item),
  );
}

/** A deep copy with x-sensitive fields masked, and each secret and any PEM private key replaced in every string. */
function masker(secrets: readonly string[]) {
  const text = (value: string) => {
    for (const secret of secrets) if (secret) value = value.split(secret).join(MASK);
    return value.includes("PRIVATE KEY-----") ? value.replace(PRIVATE_KEY, MASK) : value;
  };
  const mask = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (Array.isArray(value)) return value.map(mask);
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, sensitiveFields.has(key) && item != null ? MASK : mask(item)]),
    );
  };
  return mask;
}

/** A successful answer: structuredContent, checked against the tool's outputSchema, and its JSON, cut when too long. */
function answer(entry: ToolEntry, data: unknown): CallToolResult {
  const { tool, operation } = entry;
  const wrong = tool.outputSchema && mismatch(tool.outputSchema, data, "answer");
  if (wrong) {
    return failure(
      `The console's answer does not match the spec (${wrong}); \`npm run verify\` reports such departures. ` +
        `The answer: ${cut(JSON.stringify(data), MAX_RESULT_CHARS)}`,
    );
  }
  const json = JSON.stringify(data);
  if (json.length <= MAX_RESULT_CHARS) {
    return { structuredContent: data as Record<string, unknown>, content: [{ type: "text", text: json }] };
  }
  const shortened = shorten(data);
  const ask = operation.paging
    ? `ask for one page at a time with ${operation.paging.page} and ${operation.paging.pageSize}`
    : "ask for less: a narrower scope (one application or component, fewer teams) or a shorter time range";
  const note = `The answer is ${json.length} characters of JSON, over the ${MAX_RESULT_CHARS} this server returns: ${shortened.note}; ${ask}.`;
  const text = JSON.stringify(shortened.value);
  return {
    structuredContent: shortened.value as Record<string, unknown>,
    content: [
      { type: "text", text: cut(text, MAX_RESULT_CHARS) },
      { type: "text", text: note },
    ],
  };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The answer with its longest array (at the top or one level down) cut to what fits, so that it still matches the
 * outputSchema; when it has no array, it is kept whole and only its text is cut.
 */
function shorten(data: unknown): { value: unknown; note: string } {
  const record = data as Record<string, unknown>;
  const arrays = Object.entries(record).filter((e): e is [string, unknown[]] => Array.isArray(e[1]));
  const [key, list] = arrays.sort((a, b) => JSON.stringify(b[1]).length - JSON.stringify(a[1]).length)[0] ?? [];
  if (!key || !list) return { value: data, note: "its text is cut" };
  let count = list.length;
  let value: unknown = data;
  while (count > 0 && JSON.stringify(value).length > MAX_RESULT_CHARS) {
    count = Math.floor(count / 2);
    value = { ...record, [key]: list.slice(0, count) };
  }
  return { value, note: `showing the first ${count} of the ${list.length} entries of \`${key}\`` };
}
