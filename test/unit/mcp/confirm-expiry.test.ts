// A confirmation's state expires with --confirm-timeout-ms: a person's answer that comes back later sends nothing.
// confirm.ts itself, on the 2026-07-28 path, with the clock faked and the SDK's part (checking the state before the
// handler runs) played by the codec's own `verify`.
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { afterEach, expect, test, vi } from "vitest";
import { confirmations } from "../../../mcp/src/confirm.ts";
import { entries } from "../../../mcp/src/tools.ts";
import { exampleArguments } from "../../helpers/mcp/helpers.js";

const entry = entries.get("deleteComponentPort")!;
const args = exampleArguments("deleteComponentPort");
const server = {} as Server; // the 2026-07-28 path asks nothing of the server: the question goes in the answer
const yes = { confirm: { action: "accept", content: { confirm: true } } };
/** What the call sends, as the question shows it, and what it does. */
const request = {
  shown: { line: "DELETE http://127.0.0.1:9/openapi/v1/...", masked: [], escaped: false },
  body: undefined,
  effect: "destructive" as const,
};

afterEach(() => void vi.useRealTimers());

/** A tools/call's context on 2026-07-28 from a client that can ask, with the state and answers it brings back. */
const context = (state?: unknown, inputResponses?: Record<string, unknown>) =>
  ({
    mcpReq: {
      envelope: {
        [PROTOCOL_VERSION_META_KEY]: "2026-07-28",
        [CLIENT_CAPABILITIES_META_KEY]: { elicitation: {} },
      },
      requestState: () => state,
      inputResponses,
      signal: new AbortController().signal,
    },
  }) as unknown as ServerContext;

/** Asks, and resolves with the verified state the client will bring back. */
async function ask(confirming: ReturnType<typeof confirmations>) {
  const first = await confirming.confirm(server, context(), entry, args, request);
  if (!("ask" in first)) throw new Error(`expected a question, got ${JSON.stringify(first)}`);
  return confirming.verify(first.ask.requestState!, context());
}

test("an answer within the time goes ahead; one after it sends nothing and says why", async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  const confirming = confirmations(30_000);
  const onTime = await ask(confirming);
  vi.advanceTimersByTime(30_000);
  expect(await confirming.confirm(server, context(onTime, yes), entry, args, request)).toEqual({ go: true });

  const late = await ask(confirming);
  vi.advanceTimersByTime(30_001);
  expect(await confirming.confirm(server, context(late, yes), entry, args, request)).toEqual({
    refused: expect.stringMatching(/^no confirmation from a person within 30 s: nothing was sent/),
  });
});

test("past the codec's own expiry, a minute later, the state itself is refused", async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  const confirming = confirmations(30_000);
  const first = await confirming.confirm(server, context(), entry, args, request);
  const state = "ask" in first ? first.ask.requestState! : "";
  vi.advanceTimersByTime(91_000);
  await expect(confirming.verify(state, context())).rejects.toThrow("expired");
});
