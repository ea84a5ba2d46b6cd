// --http: Streamable HTTP at /mcp on node:http, through the SDK's createMcpHandler (a server per request, every
// protocol revision the SDK serves). Each request is
// checked before its body is read: its Host, when bound to a loopback address (DNS-rebinding protection: 403 for a
// foreign one), then the bearer token of MCP clients (RAINBOND_MCP_TOKEN, at least MIN_BEARER_CHARS long), required on
// any other address and, on loopback, by cli.ts for --allow-write (any process of the machine reaches loopback). Then the
// body is read, up to MAX_BODY_BYTES, and parsed. Every refusal is a JSON-RPC error without internals.
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { hostHeaderValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, type Server } from "@modelcontextprotocol/server";

export const LOOPBACK: ReadonlySet<string> = new Set(["127.0.0.1", "localhost", "::1"]);
/** The shortest RAINBOND_MCP_TOKEN taken: one shorter could be guessed (`openssl rand -hex 32` makes 64 characters). */
export const MIN_BEARER_CHARS = 32;
/** The largest request body read: JSON-RPC requests of these tools are a few kilobytes. */
export const MAX_BODY_BYTES = 100_000;

export interface HttpOptions {
  port: number;
  host: string;
  /** The bearer token MCP clients must send; required unless `host` is a loopback address. */
  bearer: string | undefined;
  makeServer: () => Server;
}

/** A JSON-RPC error answer (codes: -32700 parse error, -32000 otherwise), and no more of the request is read. */
function refuse(res: ServerResponse, status: number, message: string, code = -32000, headers = {}) {
  res.writeHead(status, { "content-type": "application/json", connection: "close", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The body, or undefined once it passes `max` bytes. */
async function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if ((size += chunk.length) > max) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Why a request may not be served (status, message, headers), or undefined: checked before its body is read. */
function gate(req: IncomingMessage, expected: Buffer | undefined) {
  if (expected && !timingSafeEqual(digest(req.headers.authorization ?? ""), expected)) {
    const challenge = { "www-authenticate": 'Bearer realm="rainbond-openapi-mcp"' };
    return [401, "Unauthorized: send Authorization: Bearer <RAINBOND_MCP_TOKEN>", challenge] as const;
  }
  if (new URL(req.url ?? "/", "http://x").pathname !== "/mcp") return [404, "Not found: the endpoint is /mcp"] as const;
  if (req.method !== "POST") {
    return [405, "Method not allowed: this server is stateless; POST JSON-RPC to /mcp", { allow: "POST" }] as const;
  }
  return undefined;
}

/** Listens, and resolves with the endpoint's URL and a way to stop. */
export async function serveHttp({ port, host, bearer, makeServer }: HttpOptions) {
  if (!LOOPBACK.has(host) && !bearer) {
    throw new Error(
      `--host ${host} is not a loopback address: set RAINBOND_MCP_TOKEN, the bearer token MCP clients send`,
    );
  }
  if (bearer !== undefined && bearer.length < MIN_BEARER_CHARS) {
    throw new Error(
      `RAINBOND_MCP_TOKEN must be at least ${MIN_BEARER_CHARS} characters (it has ${bearer.length}): a short one ` +
        "can be guessed. Make one with `openssl rand -hex 32`",
    );
  }
  const expected = bearer ? digest(`Bearer ${bearer}`) : undefined;
  // the SDK's guard answers a foreign Host with 403 itself (DNS-rebinding protection on a loopback address)
  const hostAllowed = LOOPBACK.has(host) ? hostHeaderValidation(["127.0.0.1", "localhost", "[::1]"]) : () => true;
  const mcp = toNodeHandler(createMcpHandler(makeServer)); // every revision the SDK serves, each request on its own
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!hostAllowed(req, res)) return;
    const refused = gate(req, expected);
    if (refused) return refuse(res, refused[0], refused[1], -32000, refused[2]);
    const text = await readBody(req, MAX_BODY_BYTES);
    if (text === undefined) return refuse(res, 413, `Request too large: over ${MAX_BODY_BYTES} bytes`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return refuse(res, 400, "Parse error: the body is not JSON", -32700);
    }
    await mcp(req, res, body);
  };
  const listener = createHttpServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, "Internal error");
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(port, host, () => resolve());
  });
  const { address, port: bound } = listener.address() as AddressInfo;
  const url = `http://${address.includes(":") ? `[${address}]` : address}:${bound}/mcp`;
  const close = () => new Promise<void>((resolve) => listener.close(() => resolve()).closeAllConnections());
  return { url, close };
}
