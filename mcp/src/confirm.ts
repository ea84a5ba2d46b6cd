// A person confirms what cannot be undone, through the protocol, before anything is sent. One question, asked the way
// the client's protocol revision asks:
//   - 2025 revisions: the server sends `elicitation/create` (form mode) and waits for the answer, at most the timeout.
//   - 2026-07-28, which has no requests from server to client: the tools/call answers `input_required` with the same
//     question and a signed state naming the call (multi round-trip requests); the client asks its person and calls
//     again with the answer and the state.
// Either way the call sent is the one confirmed. The state binds the tool and a digest of its exact arguments, is
// signed with a key of this process (the SDK's HMAC codec, so a client cannot forge or alter it), expires with the
// timeout, and is good for one call.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type InputRequiredResult,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { redact } from "../../src/core.js";
import { oneLine } from "../../src/core/redact.js";
import type { ToolEntry } from "./tools.js";

/** How long a person has to answer a confirmation, by default. */
export const CONFIRM_TIMEOUT_MS = 120_000;

/** Go ahead; or why nothing is sent; or (2026-07-28) the question to put to the person, for the client to answer. */
export type Confirmation = { go: true } | { refused: string } | { ask: InputRequiredResult };

/** What the signed state of a question says: the call it is for (a digest of the tool and its arguments), when it
 * expires, and its one-time id. */
interface Pending {
  call: string;
  expires: number;
  id: string;
}

const UNCONFIRMED =
  "nothing was sent. A person confirms each destructive call through the MCP client; to let the agent run them " +
  "without asking, start the server with --trust-agent.";

/** The key states are signed with: one per process, so every server it makes (one per HTTP request) can check them. */
const key = randomBytes(32);
/** The ids of states already used, with their expiry: a confirmation is for one call. */
const used = new Map<string, number>();

/** The question to put to a person: what will change, and a box to tick. */
function question(entry: ToolEntry, args: Record<string, unknown>) {
  const { tool, operation } = entry;
  const title = tool.title ?? tool.name;
  const request = operation.http.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(args[name])));
  const ids = [...operation.pathParams, ...operation.queryParams].filter((name) => args[name] !== undefined);
  const body = args.body === undefined ? "" : `, with the body ${JSON.stringify(redact(args.body, []))}`;
  const message = oneLine(
    `${title}: ${ids.map((id) => `${id} ${JSON.stringify(args[id])}`).join(", ")}${body} (${request}). ` +
      "This cannot be undone. Make this call?",
    2_000,
  );
  const requestedSchema = {
    type: "object" as const,
    properties: { confirm: { type: "boolean" as const, title: `Yes: ${title.toLowerCase()}`, default: false } },
    required: ["confirm"],
  };
  return { mode: "form" as const, message, requestedSchema };
}

/** Whether a client can put a form to its person (an empty `elicitation` capability means form). */
function asksForms(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  return !!elicitation && (Object.keys(elicitation).length === 0 || elicitation.form !== undefined);
}

/** What a person's answer means: undefined when they confirmed, else why nothing is sent. */
function refusal(answer: { action: string; content?: Record<string, unknown> }): string | undefined {
  if (answer.action === "accept" && answer.content?.confirm === true) return undefined;
  return `the person did not confirm it (${answer.action === "accept" ? "not ticked" : answer.action}): nothing was sent.`;
}

const digest = (tool: string, args: Record<string, unknown>) =>
  createHash("sha256")
    .update(`${tool}\0${JSON.stringify(args)}`)
    .digest("base64url");

/** The confirmations of one server: `verify` goes to the SDK (ServerOptions.requestState), `confirm` before a call. */
export function confirmations(timeoutMs = CONFIRM_TIMEOUT_MS) {
  // the codec's own expiry is a backstop a minute after ours, so that a late answer is told so by the tool's result
  const codec = createRequestStateCodec<Pending>({ key, ttlSeconds: Math.ceil(timeoutMs / 1000) + 60 });
  const late = `no confirmation from a person within ${timeoutMs / 1000} s: ${UNCONFIRMED}`;

  /** 2025 revisions: ask with elicitation/create and wait. */
  async function askAndWait(server: Server, entry: ToolEntry, args: Record<string, unknown>, signal: AbortSignal) {
    try {
      return refusal(await server.elicitInput(question(entry, args), { timeout: timeoutMs, signal }));
    } catch {
      return late;
    }
  }

  /** 2026-07-28: the question as an input_required answer, or, on the call that brings the answer, what it means. */
  async function askInBand(ctx: ServerContext, entry: ToolEntry, args: Record<string, unknown>): Promise<Confirmation> {
    const state = ctx.mcpReq.requestState<Pending>(); // checked by `verify` before the handler runs
    const call = digest(entry.tool.name, args);
    if (state === undefined) {
      const pending = { call, expires: Date.now() + timeoutMs, id: randomUUID() };
      const confirm = inputRequired.elicit(question(entry, args));
      return { ask: inputRequired({ inputRequests: { confirm }, requestState: await codec.mint(pending) }) };
    }
    if (state.call !== call) {
      return { refused: "the confirmation given was for another call or other arguments: nothing was sent." };
    }
    if (Date.now() > state.expires) return { refused: late };
    if (used.has(state.id)) return { refused: "that confirmation was already used for a call: nothing was sent." };
    const answer = inputResponse(ctx.mcpReq.inputResponses, "confirm");
    const why = answer.kind === "elicit" ? refusal(answer) : "no answer from the person came back: nothing was sent.";
    if (why) return { refused: why };
    for (const [id, expires] of used) if (expires < Date.now()) used.delete(id);
    used.set(state.id, state.expires);
    return { go: true };
  }

  return {
    verify: codec.verify,
    /** Whether a destructive call may go ahead, asking the person at the client the way its revision asks. */
    async confirm(server: Server, ctx: ServerContext, entry: ToolEntry, args: Record<string, unknown>) {
      const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
      const modern = envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined;
      const capabilities = modern
        ? (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
        : server.getClientCapabilities();
      if (!asksForms(capabilities)) {
        const why =
          "a destructive tool, and this client cannot ask a person to confirm (it offers no form elicitation)";
        return { refused: `${why}: ${UNCONFIRMED}` } satisfies Confirmation;
      }
      if (modern) return askInBand(ctx, entry, args);
      const why = await askAndWait(server, entry, args, ctx.mcpReq.signal);
      return (why ? { refused: why } : { go: true }) satisfies Confirmation;
    },
  };
}
