// rainbond-openapi-mcp: the command. stdio by default (stdout carries JSON-RPC only; every line of ours goes to
// stderr), or --http <port>. The console token comes from RAINBOND_TOKEN only.
import { Console } from "node:console";
import { parseArgs } from "node:util";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { LogLevel } from "rainbond-openapi";
import pkg from "../package.json" with { type: "json" };
import { createRainbondCore } from "rainbond-openapi/core";
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, RETRIED_STATUSES, retryPolicy } from "../../surface/runtime.js";
import { MIN_BEARER_CHARS, serveHttp } from "./http.js";
import { MAX_RESULT_CHARS, createServer } from "./server.js";
import { GROUPS, KEYWORDS, discovers, listedTools, servedOperations, unknownSelection } from "./tools.js";

const HELP = `Usage: rainbond-openapi-mcp --base-url <origin> [options]

An MCP server for a Rainbond console: every operation of its Open API v1, read-only by default.

  --base-url <origin>   the console's origin, e.g. https://console.example.org:7070 (or RAINBOND_URL)
  --allow-write         serve the tools that change the console too (default: only those that read); or
                        RAINBOND_MCP_ALLOW_WRITE=true, for clients that can only set the environment
  --tools <list>        what to list, comma-separated: groups, operations (getComponent) and
                        default: the first reads, and the discovery tools that find, describe and call
                          every other operation (without --tools, the default)
                        discovery: those three tools alone; all: every operation a tool of its own
                        Without default or discovery, what is named is all that is served.
${`Groups: ${GROUPS.join(", ")}.`.replace(/(.{1,78})(\s+|$)/g, `${" ".repeat(24)}$1\n`).trimEnd()}
  --trust-agent         run calls that expose, interrupt, remove or cannot undo something (opening, closing
                        or deleting a port, creating a gateway rule) without asking a person first; by default
                        the MCP client asks its user to confirm each such call, and one that cannot ask sends
                        nothing
  --confirm-timeout-ms <ms>  time a person has to confirm such a call (default 120000)
  --http <port>         serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio (0: any free port)
  --host <address>      the address --http binds (default 127.0.0.1). RAINBOND_MCP_TOKEN (at least
                        ${MIN_BEARER_CHARS} characters) is the bearer token every MCP client must then send: needed on
                        any other address, and for --allow-write; without it any process of this
                        machine can call the tools
  --timeout-ms <ms>     time allowed to each attempt of a request to the console (default ${DEFAULT_TIMEOUT_MS})
  --retries <n>         retries when no answer came or it was ${RETRIED_STATUSES.join("/")}, of requests that may be
                        sent again (default ${DEFAULT_RETRIES}; see Retries below)
  --log-level <level>   off, error, warn (default), info or debug; log lines go to stderr, masked
  --help                this text

Environment: RAINBOND_TOKEN (required: the console's API token; never a flag), RAINBOND_URL, RAINBOND_MCP_TOKEN,
RAINBOND_MCP_ALLOW_WRITE (true or false; --allow-write wins over false).
An answer longer than ${MAX_RESULT_CHARS} characters of JSON is cut, with a note on how to ask for less.
Retries: ${retryPolicy()
  .replace(/(.{1,110})(\s+|$)/g, "$1\n")
  .trimEnd()}`;

class UsageError extends Error {}

function integer(flag: string, value: string | undefined, min = 1, max = Number.MAX_SAFE_INTEGER) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`--${flag} must be an integer ${range} (got ${JSON.stringify(value)})`);
  }
  return n;
}

/** RAINBOND_MCP_ALLOW_WRITE: how a client that sets text only (an MCP bundle's boolean setting) says --allow-write. */
function allowWriteOf(value: string | undefined): boolean {
  if (value === undefined || value === "" || value === "false") return false;
  if (value === "true") return true;
  throw new UsageError(`RAINBOND_MCP_ALLOW_WRITE must be true or false (got ${JSON.stringify(value)})`);
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const err = new Console(process.stderr); // never stdout: in stdio mode it carries the protocol
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        "base-url": { type: "string" },
        "allow-write": { type: "boolean", default: false },
        "trust-agent": { type: "boolean", default: false },
        tools: { type: "string" },
        "confirm-timeout-ms": { type: "string" },
        http: { type: "string" },
        host: { type: "string", default: "127.0.0.1" },
        "timeout-ms": { type: "string" },
        retries: { type: "string" },
        "log-level": { type: "string" },
        token: { type: "string" },
        help: { type: "boolean", default: false },
      },
    }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message} (--help lists the options)`);
  }
  if (values.help) return void process.stdout.write(`${HELP}\n`);
  if (values.token !== undefined) {
    throw new UsageError(
      "--token is refused: a flag shows in process lists and shell history. Put the token in RAINBOND_TOKEN.",
    );
  }
  const baseUrl = values["base-url"] ?? env.RAINBOND_URL;
  if (!baseUrl) throw new UsageError("--base-url <origin> (or RAINBOND_URL) is required (--help lists the options)");
  const token = env.RAINBOND_TOKEN;
  if (!token) throw new UsageError("RAINBOND_TOKEN is not set: the console's API token comes from it, never a flag");
  const secrets = [token, env.RAINBOND_MCP_TOKEN ?? ""];
  let core;
  try {
    // a console on plain http to another machine: the client warns once, at `warn`, through this logger
    core = createRainbondCore({
      baseUrl,
      token,
      timeoutMs: integer("timeout-ms", values["timeout-ms"]),
      retries: integer("retries", values.retries, 0),
      logger: err,
      logLevel: values["log-level"] as LogLevel | undefined,
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const allowWrite = values["allow-write"] || allowWriteOf(env.RAINBOND_MCP_ALLOW_WRITE);
  const tools = values.tools?.split(",").map((name) => name.trim());
  const unknown = unknownSelection({ allowWrite, tools });
  if (unknown.length) {
    const names = `groups: ${GROUPS.join(", ")}; or ${KEYWORDS.join(", ")}`;
    throw new UsageError(`--tools: ${unknown.join(", ")} is no group, operation or keyword (${names})`);
  }
  const trustAgent = values["trust-agent"];
  const confirmTimeoutMs = integer("confirm-timeout-ms", values["confirm-timeout-ms"]);
  const identity = { name: pkg.name, version: pkg.version };
  const selection = { allowWrite, tools };
  const makeServer = () => createServer({ core, ...selection, trustAgent, confirmTimeoutMs, secrets, ...identity });
  const [listed, served] = [listedTools(selection).length, servedOperations(selection).length];
  const found = discovers(selection) ? `, ${served - listed} more through the discovery tools` : "";
  const mode = allowWrite ? "reading and writing" : "read-only; --allow-write serves the rest";
  const what = `${listed} operations as tools${found} (${mode})`;
  if (values.http === undefined) {
    if (argv.some((arg) => arg.startsWith("--host")))
      throw new UsageError("--host needs --http <port>: it is the address the HTTP server binds");
    serveStdio(makeServer);
    err.error(`rainbond-openapi-mcp: ${what} for ${core.baseUrl}, over stdio`);
    return;
  }
  const host = values.host;
  const bearer = env.RAINBOND_MCP_TOKEN || undefined;
  if (allowWrite && !bearer) {
    throw new UsageError(
      `--allow-write over --http needs RAINBOND_MCP_TOKEN (at least ${MIN_BEARER_CHARS} characters), the bearer ` +
        "token every MCP client must send: without it any process of this machine could call the tools that " +
        "change the console and, on 2026-07-28, answer its own confirmations",
    );
  }
  const { url, close } = await serveHttp({
    port: integer("http", values.http, 0, 65_535)!,
    host,
    bearer,
    makeServer,
  }).catch((e: Error) => {
    throw new UsageError(/RAINBOND_MCP_TOKEN/.test(e.message) ? e.message : `--http on ${host}: ${e.message}`);
  });
  const auth = bearer
    ? "; bearer token required"
    : "; Host checked; no RAINBOND_MCP_TOKEN: any process of this machine can call these tools";
  err.error(`rainbond-openapi-mcp: ${what} for ${core.baseUrl}, listening on ${url}${auth}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => void close().then(() => process.exit(0)));
}

main(process.argv.slice(2), process.env).catch((e: Error) => {
  process.stderr.write(`rainbond-openapi-mcp: ${e instanceof UsageError ? e.message : (e.stack ?? e.message)}\n`);
  process.exit(e instanceof UsageError ? 2 : 1);
});
