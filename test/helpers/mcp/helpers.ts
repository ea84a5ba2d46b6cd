// The MCP server as its users run it: the built bin (mcp/dist/cli.js), driven by the SDK's own Client over stdio or
// Streamable HTTP. Arguments for each tool come from the spec's examples.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { readMethods } from "../../../scripts/lib/methods.ts";
import type { Table } from "../../../surface/table.ts";
import { root } from "../readme.js";

export const bin = join(root, "mcp/dist/cli.js");
export const table: Table = JSON.parse(readFileSync(join(root, "generated/table.json"), "utf8"));
/** Every tool, sorted by name, with its operation. */
export const tools = Object.values(table.operations).map((operation) => ({ tool: operation.tool, operation }));
const spec = JSON.parse(readFileSync(join(root, "generated/openapi.json"), "utf8"));
const methods = readMethods();

export interface Running {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr: () => string;
  close: () => Promise<void>;
}

/** How a test's client answers the server's requests for a person's confirmation (form elicitation). */
export type Confirm = (request: ElicitRequest["params"]) => ElicitResult | Promise<ElicitResult>;

/** A person's answers that confirm nothing, and what a tool's result says of each: nothing is sent. */
export const NOT_CONFIRMED = [
  ["declines", { action: "decline" } as const, /did not confirm it \(decline\): nothing was sent/],
  ["cancels", { action: "cancel" } as const, /did not confirm it \(cancel\): nothing was sent/],
  ["accepts without ticking", { action: "accept", content: { confirm: false } } as const, /not ticked/],
] as const;

/** A Client; with `confirm`, one that offers form elicitation and answers with it. */
function clientOf(confirm?: Confirm): Client {
  const capabilities = confirm ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: "rainbond-openapi-test", version: "0" }, { capabilities });
  if (confirm) client.setRequestHandler(ElicitRequestSchema, (request) => confirm(request.params));
  return client;
}

/** Starts the bin over stdio with `args` and only `env` (plus PATH) in its environment, and connects a Client. */
export function overStdio(args: string[], env: Record<string, string>, confirm?: Confirm): Promise<Running> {
  return nodeOverStdio([bin, ...args], env, confirm);
}

/** How a stdio transport (of either SDK line) starts Node with `args`: only `env` (plus PATH), stderr piped. */
export const nodeProcess = (args: string[], env: Record<string, string>) => ({
  command: process.execPath,
  args,
  env: { PATH: process.env.PATH ?? "", ...env },
  stderr: "pipe" as const,
});

/** Starts Node with `args` (a script and its arguments) over stdio, with only `env` (plus PATH), and connects a Client. */
export async function nodeOverStdio(args: string[], env: Record<string, string>, confirm?: Confirm): Promise<Running> {
  const transport = new StdioClientTransport(nodeProcess(args, env));
  let stderr = "";
  transport.stderr?.on("data", (chunk) => (stderr += chunk));
  const client = clientOf(confirm);
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** A RAINBOND_MCP_TOKEN for the tests' HTTP servers that write (--allow-write over HTTP needs one). */
export const MCP_BEARER = "test-mcp-bearer-0f3e9d2c7b1a6e5d4c8b";

export interface HttpRunning {
  url: string;
  stderr: () => string;
  stop: () => Promise<void>;
}

/** Starts the bin with --http 0 and resolves with its endpoint once it says where it listens. */
export function overHttp(args: string[], env: Record<string, string>): Promise<HttpRunning> {
  const child = spawn(process.execPath, [bin, "--http", "0", ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const url = /listening on (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url) resolve({ url, stderr: () => stderr, stop });
    });
    child.once("exit", (code) => reject(new Error(`the server exited with ${code}:\n${stderr}`)));
  });
}

/** A Client connected over Streamable HTTP, sending `headers` on every request. */
export async function httpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "rainbond-openapi-test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

type Json = Record<string, any>;

/** The spec's example of an operation's answer (200 or 201). */
export function exampleAnswer(operationId: string): any {
  for (const item of Object.values(spec.paths) as Json[]) {
    for (const op of Object.values(item) as Json[]) {
      if (op?.operationId === operationId)
        return (op.responses["200"] ?? op.responses["201"]).content["application/json"].example;
    }
  }
  throw new Error(`no operation ${operationId}`);
}

/** Valid arguments for a tool, from the one table's examples: every required parameter, and the body. */
export function exampleArguments(operationId: string): Record<string, unknown> {
  const method = methods.find((m) => m.operationId === operationId && m.kind === "operation");
  if (!method) throw new Error(`no operation ${operationId}`);
  const args: Record<string, unknown> = {};
  for (const arg of method.args) {
    if (arg.example === undefined) continue;
    if (arg.kind === "body") args.body = arg.example;
    else if (arg.kind === "path") args[arg.param!] = arg.example;
    // a scope's ids and the options, by the client's names: each by its spec name
    else
      for (const [key, value] of Object.entries(arg.example as object))
        args[method.inputs.find((input) => input.client === `${arg.name}.${key}`)!.spec] = value;
  }
  return args;
}

/** The text of a tool result's content. */
export function textOf(result: unknown): string {
  return (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[])
    .map((c) => c.text ?? "")
    .join("\n");
}
