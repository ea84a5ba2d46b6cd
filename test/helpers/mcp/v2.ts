// A client of the SDK's v2 line (@modelcontextprotocol/client), on the 2025 revisions as it is by default, or pinned to
// 2026-07-28 (there confirmations come as `input_required` results, which the client fulfils with its elicitation
// handler and calls again).
import {
  Client,
  StreamableHTTPClientTransport,
  type ElicitRequest,
  type ElicitResult,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { bin, nodeProcess } from "./helpers.js";

/** How a test's client answers a request for a person's confirmation (form elicitation). */
export type V2Confirm = (request: ElicitRequest["params"]) => ElicitResult | Promise<ElicitResult>;

export interface V2Options {
  /** Answers confirmations; without it the client offers no elicitation (it cannot ask a person). */
  confirm?: V2Confirm;
  /** false: `input_required` results come back to the test rather than being fulfilled (manual mode). */
  autoFulfill?: boolean;
  /** "2026-07-28": that revision, or the connection fails; default: the SDK's default, the 2025 revisions. */
  pin?: "2026-07-28";
}

/** A v2 client, connected over `transport`. */
export async function v2Client(
  transport: StdioClientTransport | StreamableHTTPClientTransport,
  options: V2Options = {},
) {
  const { confirm, autoFulfill = true, pin } = options;
  const capabilities = confirm || !autoFulfill ? { elicitation: { form: {} } } : {};
  const client = new Client(
    { name: "rainbond-openapi-test-v2", version: "0" },
    { capabilities, inputRequired: { autoFulfill }, versionNegotiation: pin && { mode: { pin } } },
  );
  if (confirm) client.setRequestHandler("elicitation/create", (request) => confirm(request.params));
  await client.connect(transport);
  return client;
}

/** The built server over stdio, with `args` and only `env` (plus PATH) in its environment. */
export const v2Stdio = (args: string[], env: Record<string, string>) =>
  new StdioClientTransport(nodeProcess([bin, ...args], env));

/** The server listening for Streamable HTTP at `url`; with `bearer`, each request carries it (RAINBOND_MCP_TOKEN). */
export const v2Http = (url: string, bearer?: string) =>
  new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} },
  });

/** Starts the built server over stdio with `args` and only `env` (plus PATH), and connects a v2 client pinned to
 * 2026-07-28: the same shape as helpers.ts's overStdio, so that a test runs with either line's client. */
export async function v2OverStdio(args: string[], env: Record<string, string>): Promise<V2Running> {
  const transport = v2Stdio(args, env);
  let stderr = "";
  transport.stderr?.on("data", (chunk) => (stderr += chunk));
  const client = await v2Client(transport, { pin: "2026-07-28" });
  return { client, stderr: () => stderr, close: () => client.close() };
}

export interface V2Running {
  client: Awaited<ReturnType<typeof v2Client>>;
  stderr: () => string;
  close: () => Promise<void>;
}
