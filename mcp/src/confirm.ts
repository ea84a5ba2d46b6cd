// A person confirms what cannot be undone, through the protocol, before anything is sent. One question, asked the way
// the client's protocol revision asks:
//   - 2025 revisions: the server sends `elicitation/create` (form mode) and waits for the answer, at most the timeout.
//   - 2026-07-28, which has no requests from server to client: the tools/call answers `input_required` with the same
//     question and a signed state naming the call (multi round-trip requests); the client asks its person and calls
//     again with the answer and the state.
// Either way the call sent is the one confirmed, and the question shows it whole (question()): the tool, the request
// line and the effect, then every member of the body as the client sends it; masked secrets named, characters that do
// not show escaped; too long to show whole, it is refused rather than cut. The state binds the tool and a digest of its exact arguments, is
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
  type ElicitRequestFormParams,
  type InputRequiredResult,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { MASK } from "../../surface/runtime.js";
import { WARNING, effectOf, type Effect } from "../../surface/effect.js";
import type { ShownRequest } from "../../surface/request.js";
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
  "nothing was sent. A person confirms, through the MCP client, each call that exposes, interrupts, removes or cannot " +
  "undo something; to let the agent run them without asking, start the server with --trust-agent.";

/** The key states are signed with: one per process, so every server it makes (one per HTTP request) can check them. */
const key = randomBytes(32);
/** The ids of states already used, with their expiry: a confirmation is for one call. */
const used = new Map<string, number>();

/** The longest question a person is asked: one that would be longer is refused, never cut (what a person confirms is
 * all that is sent). */
export const MAX_QUESTION_CHARS = 2_000;

/** The question to put to a person: the tool, the request line and the effect first, then the body, every member as
 * sent; or, when it is too long to show whole, why nothing is asked and nothing sent. */
export function question(entry: ToolEntry, shown: ShownRequest, effect: Effect, body: unknown): Question {
  const { tool, operation } = entry;
  const title = tool.title ?? tool.name;
  const mark = operation.effect;
  const value = typeof mark === "string" ? undefined : (body as Record<string, unknown> | undefined)?.[mark.by];
  const by = typeof mark !== "string" && effectOf(mark, body) !== mark.otherwise;
  const lines = [
    `${tool.name}: ${/[.!?]$/.test(title) ? title : `${title}.`}`,
    shown.line,
    `Effect: ${effect}${by ? ` (${mark.by} ${JSON.stringify(value)})` : ""}. ${WARNING[effect]}`,
    shown.body === undefined ? "No body." : `Body (JSON, every member as sent): ${shown.body}`,
    ...(shown.masked.length ? [`Shown as ${MASK}, sent as given: ${shown.masked.join(", ")}.`] : []),
    ...(shown.escaped ? [ESCAPED] : []),
    "Make this call?",
  ];
  const message = lines.join("\n");
  if (message.length > MAX_QUESTION_CHARS) {
    return {
      refused:
        `the question a person would confirm is ${message.length} characters, over the ${MAX_QUESTION_CHARS} this ` +
        "server asks. It is never shortened, so that a person reads all that is sent: nothing was sent. Send " +
        "shorter values.",
    };
  }
  const requestedSchema = {
    type: "object" as const,
    properties: { confirm: { type: "boolean" as const, title: `Yes: ${title.toLowerCase()}`, default: false } },
    required: ["confirm"],
  };
  return { asked: { mode: "form" as const, message, requestedSchema } };
}

/** The question, as an elicitation form asks it; or why none is asked. */
type Question = { refused: string } | { asked: ElicitRequestFormParams };

const ESCAPED =
  "Characters that do not show as themselves (controls, direction marks, zero-width ones) are written as \\u escapes.";

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
  async function askAndWait(server: Server, asked: ElicitRequestFormParams, signal: AbortSignal) {
    try {
      return refusal(await server.elicitInput(asked, { timeout: timeoutMs, signal }));
    } catch {
      return late;
    }
  }

  /** 2026-07-28: the question as an input_required answer, or, on the call that brings the answer, what it means. */
  async function askInBand(
    ctx: ServerContext,
    entry: ToolEntry,
    args: Record<string, unknown>,
    asked: ElicitRequestFormParams,
  ): Promise<Confirmation> {
    const state = ctx.mcpReq.requestState<Pending>(); // checked by `verify` before the handler runs
    const call = digest(entry.tool.name, args);
    if (state === undefined) {
      const pending = { call, expires: Date.now() + timeoutMs, id: randomUUID() };
      const confirm = inputRequired.elicit(asked);
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
    /** Whether a call may go ahead, asking the person at the client the way its revision asks: `request` is what it
     * sends (the request as shown, and its body), `effect` what it does. */
    async confirm(
      server: Server,
      ctx: ServerContext,
      entry: ToolEntry,
      args: Record<string, unknown>,
      request: { shown: ShownRequest; body: unknown; effect: Effect },
    ): Promise<Confirmation> {
      const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
      const modern = envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined;
      const capabilities = modern
        ? (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
        : server.getClientCapabilities();
      if (!asksForms(capabilities)) {
        const why =
          "a person confirms this call, and this client cannot ask a person to confirm (it offers no form elicitation)";
        return { refused: `${why}: ${UNCONFIRMED}` };
      }
      const put = question(entry, request.shown, request.effect, request.body);
      if ("refused" in put) return put;
      if (modern) return askInBand(ctx, entry, args, put.asked);
      const why = await askAndWait(server, put.asked, ctx.mcpReq.signal);
      return why ? { refused: why } : { go: true };
    },
  };
}
