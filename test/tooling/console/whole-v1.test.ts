// The console's whole Open API v1 as it was measured (fixtures/whole-v1: its 101 operations and 296 recorded
// exchanges): every operation of it has a method, a command, an MCP tool and a sample in the reference, so that none
// is lost later; and every successful answer it recorded is one the generated spec accepts on each surface that checks
// answers: the client (through `requestOperation`, whose input checks the recorded request passes too), verify's
// validator (Prism's proxy over the spec with every object closed) and the MCP server's output schema of its tool.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readSpec } from "../../../scripts/lib/spec.ts";
import { startValidator, validatorSpec, type Validator } from "../../../scripts/verify/validator.ts";
import { operations, type OperationId } from "../../../generated/operations.ts";
import { RainbondInputError, createRainbondCore } from "../../../src/core.js";
import { requestOperation } from "../../../src/operations.js";
import type { OperationSpec } from "../../../src/core/table.ts";
import { table } from "../../../surface/table.ts";

const fixtures = new URL("../../helpers/console/fixtures/whole-v1/", import.meta.url);
/** The 101 operations of the measurement. */
const measured: { operationId: string; method: string; path: string; fromSource: boolean }[] = JSON.parse(
  readFileSync(new URL("operations.json", fixtures), "utf8"),
);
/** One recorded exchange: the operation, the request (`path` below /openapi/v1, with its query) and the answer. */
interface Recorded {
  op: string;
  method: string;
  path: string;
  body: unknown;
  status: number;
  answer: unknown;
}
const recorded: Recorded[] = readFileSync(new URL("answers.jsonl", fixtures), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const successes = recorded.filter((e) => e.status >= 200 && e.status < 300);

/** The exchange's request by the spec's names, numbers where the spec wants them. */
function inputOf({ op, path, body }: Recorded) {
  const spec: OperationSpec = operations[op as OperationId];
  const url = new URL(`http://console/openapi/v1${path}`);
  const names = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const values = new RegExp(`^${spec.path.replace(/\{\w+\}/g, "([^/]+)")}$`).exec(url.pathname)!.slice(1);
  const rules: Record<string, { type?: unknown }> = { ...spec.pathParams, ...spec.query };
  const typed = (name: string, value: string) =>
    ["integer", "number"].includes(rules[name]?.type as string) ? Number(value) : decodeURIComponent(value);
  return {
    path: Object.fromEntries(names.map((name, i) => [name, typed(name, values[i]!)])),
    query: Object.fromEntries([...url.searchParams].map(([name, value]) => [name, typed(name, value)])),
    ...(body !== null && { body }),
  };
}

/**
 * The recorded requests the client refuses on purpose, where the spec is stricter than the console about a request that
 * does nothing (its description says so), with the argument it names and the body it takes instead.
 */
const REFUSED: Record<string, { argument: string; body: (body: Record<string, unknown>) => object }> = {
  // `service_ids: [null]` acts on every component; the client takes ids only (leave the member out for all of them)
  operateApp: { argument: "body.service_ids[0]", body: ({ service_ids: _, ...rest }) => rest },
  // `{}` is answered 200 and changes nothing (finding 32): the client requires the image
  changeComponentImage: { argument: "body.image", body: (body) => ({ ...body, image: "nginx:1.26" }) },
};

/** What the client hands back: nothing where the spec declares no content, the envelope's member, or the answer. */
function dataOf({ op, answer }: Recorded): unknown {
  const spec: OperationSpec = operations[op as OperationId];
  if (spec.response === "none") return undefined;
  return spec.envelope ? (answer as { data: Record<string, unknown> }).data[spec.envelope] : answer;
}

describe("the 101 operations the console serves", () => {
  test("each has its operation in the spec, a method of the client, a command and an MCP tool", () => {
    expect(measured).toHaveLength(101);
    for (const { operationId, method, path } of measured) {
      const operation = table.operations[operationId];
      expect(operation?.http, operationId).toBe(`${method} ${path}`);
      expect(table.methods.some((m) => m.operationId === operationId && m.kind === "operation")).toBe(true);
      expect(operation!.tool.name).toBe(operationId);
    }
    expect(Object.keys(table.operations).sort()).toEqual(measured.map((o) => o.operationId).sort());
  });

  test("the 84 the source document does not describe are marked as the console's, the 17 as the document's", () => {
    for (const { operationId, fromSource } of measured)
      expect(table.operations[operationId]!.source, operationId).toBe(fromSource ? "document" : "console");
  });
});

let validator: Validator;
let replay: Server;
let replayUrl: string;
let current: Recorded;

beforeAll(async () => {
  replay = createServer((req, res) => {
    req.resume().on("end", () => {
      const empty = current.answer === "";
      res.writeHead(current.status, empty ? {} : { "content-type": "application/json" });
      res.end(empty ? "" : JSON.stringify(current.answer));
    });
  });
  await new Promise<void>((resolve) => replay.listen(0, "127.0.0.1", resolve));
  replayUrl = `http://127.0.0.1:${(replay.address() as AddressInfo).port}`;
  validator = await startValidator(validatorSpec(readSpec()));
}, 60_000);
afterAll(async () => {
  await validator?.stop();
  await new Promise((resolve) => replay?.close(resolve));
});

test("the recorded successes reach 83 of the 101 operations' handlers", () => {
  expect(new Set(successes.map((e) => e.op)).size).toBe(83);
});

describe.each(
  successes.map((e, i) => [`${i + 1}. ${e.op}: ${e.method} ${e.path.slice(0, 60)} -> ${e.status}`, e] as const),
)("%s", (_, exchange) => {
  test("the client hands it back, and verify's validator finds no departure", async () => {
    current = exchange;
    const core = createRainbondCore({ baseUrl: replayUrl, token: "t0ken", fetch: validator.fetch, retries: 0 });
    const id = exchange.op as OperationId;
    let input = inputOf(exchange);
    const refused = await requestOperation(core, id, input, { signal: AbortSignal.abort() }).catch((e) => e);
    if (refused instanceof RainbondInputError) {
      // the spec is stricter than the console here, on purpose: the request as the client takes it
      expect(refused.argument).toBe(REFUSED[exchange.op]?.argument);
      input = { ...input, body: REFUSED[exchange.op]!.body(input.body as Record<string, unknown>) };
    }
    const before = validator.exchanges.length;
    await expect(requestOperation(core, id, input)).resolves.toEqual(dataOf(exchange));
    const seen = validator.exchanges.slice(before);
    expect(seen.map((e) => e.status)).toEqual([exchange.status]);
    await validator.check(seen[0]!);
    expect(seen[0]!.violations ?? "none").toBe("none");
  });

  test("the MCP server's output schema of its tool takes it", () => {
    const { tool, wrapped } = table.operations[exchange.op]!;
    const data = dataOf(exchange);
    if (!tool.outputSchema) return void expect(data).toBeUndefined(); // an answer without content: none to check
    const check = new AjvJsonSchemaValidator().getValidator(tool.outputSchema as never);
    expect(check(wrapped ? { items: data } : data)).toMatchObject({ valid: true });
  });
});
