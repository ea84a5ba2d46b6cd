// Every successful answer the real console gave when it was measured (fixtures/recorded.json) is one the generated
// spec accepts, on each surface that checks answers: the client (through `requestOperation`, the checked path every
// method takes), verify's validator (Prism's proxy over the spec with every object closed, so an undeclared field is
// a departure too) and the MCP server's output schema of the operation's tool (generated/table.json).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readSpec } from "../../../scripts/lib/spec.ts";
import { startValidator, validatorSpec, type Validator } from "../../../scripts/verify/validator.ts";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { table, type Table } from "../../../surface/table.ts";
import { createRainbondCore } from "../../../src/core.js";
import { requestOperation } from "../../../src/operations.js";
import { dataOf, inputOf, operationOf, successes, type Exchange } from "../../helpers/console/recorded.js";

let validator: Validator;
let replay: Server;
/** The replaying console's origin: the client talks to it through the validator's recording fetch. */
let replayUrl: string;
/** The exchange the replaying console answers with. */
let current: Exchange;

beforeAll(async () => {
  replay = createServer((req, res) => {
    req.resume().on("end", () => {
      res.writeHead(current.status, { "content-type": "application/json" }).end(JSON.stringify(current.answer));
    });
  });
  await new Promise<void>((resolve) => replay.listen(0, "127.0.0.1", resolve));
  replayUrl = `http://127.0.0.1:${(replay.address() as AddressInfo).port}`;
  validator = await startValidator(validatorSpec(readSpec()));
});
afterAll(async () => {
  await validator?.stop();
  await new Promise((resolve) => replay?.close(resolve));
});

test("the fixtures hold every kind of successful answer the measurement recorded", () => {
  const operations = new Set(successes.map(operationOf));
  // 16 of the 17 operations reached their handlers; installApp stopped at its request checks (no app store)
  expect(operations.size).toBe(16);
  expect(operations.has("installApp")).toBe(false);
});

describe.each(successes.map((e, i) => [`${i + 1}. ${e.method} ${e.path.slice(11)} -> ${e.status}`, e] as const))(
  "%s",
  (_, exchange) => {
    const id = operationOf(exchange);

    test("the client hands it back, and verify's validator finds no departure", async () => {
      current = exchange;
      const core = createRainbondCore({ baseUrl: replayUrl, token: "t0ken", fetch: validator.fetch, retries: 0 });
      const before = validator.exchanges.length;
      await expect(requestOperation(core, id, inputOf(exchange))).resolves.toEqual(dataOf(exchange));
      const seen = validator.exchanges.slice(before);
      expect(seen.map((e) => e.status)).toEqual([exchange.status]);
      await validator.check(seen[0]!);
      expect(seen[0]!.violations ?? "none").toBe("none");
    });

    test("the MCP server's output schema of its tool takes it", () => {
      // the server's check: the SDK's Ajv validator over the tool's outputSchema, an array answer as { items }
      const { tool, wrapped } = (table as unknown as Table).operations[id]!;
      const check = new AjvJsonSchemaValidator().getValidator(tool.outputSchema as never);
      const data = dataOf(exchange);
      expect(check(wrapped ? { items: data } : data)).toMatchObject({ valid: true });
    });
  },
);
