// --http: Streamable HTTP at /mcp, stateless (a server and a transport per request). The SDK's Express app refuses a
// foreign Host with 403 when bound to a loopback address (DNS-rebinding protection); any other address needs a bearer
// token of its own for MCP clients (RAINBOND_MCP_TOKEN), checked on every request.
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

// Express's request (with the parsed JSON body) and response, as far as used here (express ships no types).
type Request = IncomingMessage & { body?: unknown };
type Response = ServerResponse;

export const LOOPBACK: ReadonlySet<string> = new Set(["127.0.0.1", "localhost", "::1"]);

export interface HttpOptions {
  port: number;
  host: string;
  /** The bearer token MCP clients must send; required unless `host` is a loopback address. */
  bearer: string | undefined;
  makeServer: () => Server;
}

function jsonRpcError(res: Response, status: number, message: string) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Listens, and resolves with the endpoint's URL and a way to stop. */
export async function serveHttp({ port, host, bearer, makeServer }: HttpOptions) {
  if (!LOOPBACK.has(host) && !bearer) {
    throw new Error(
      `--host ${host} is not a loopback address: set RAINBOND_MCP_TOKEN, the bearer token MCP clients send`,
    );
  }
  const app = createMcpExpressApp({ host });
  if (bearer) {
    const expected = digest(`Bearer ${bearer}`);
    app.use((req: Request, res: Response, next: () => void) => {
      if (timingSafeEqual(digest(req.headers.authorization ?? ""), expected)) return next();
      res.setHeader("WWW-Authenticate", 'Bearer realm="rainbond-openapi-mcp"');
      jsonRpcError(res, 401, "Unauthorized: send Authorization: Bearer <RAINBOND_MCP_TOKEN>");
    });
  }
  app.post("/mcp", async (req: Request, res: Response) => {
    const server = makeServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (err) {
      if (!res.headersSent) jsonRpcError(res, 500, `Internal error: ${(err as Error).message}`);
    }
  });
  const stateless = (_req: Request, res: Response) => {
    res.setHeader("Allow", "POST");
    jsonRpcError(res, 405, "Method not allowed: this server is stateless; POST JSON-RPC to /mcp");
  };
  app.get("/mcp", stateless);
  app.delete("/mcp", stateless);

  const listener = createHttpServer(app);
  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(port, host, () => resolve());
  });
  const { address, port: bound } = listener.address() as AddressInfo;
  const url = `http://${address.includes(":") ? `[${address}]` : address}:${bound}/mcp`;
  const close = () => new Promise<void>((resolve) => listener.close(() => resolve()).closeAllConnections());
  return { url, close };
}
