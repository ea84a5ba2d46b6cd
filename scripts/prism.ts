// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Starts Prism (@stoplight/prism-cli) on a free loopback port and returns { url, stop } once it listens:
//   mock  (default) answers from the spec (generated/openapi.json): `npm start`, the test suite's global setup, the
//         benchmarks; ready once it answers over HTTP.
//   proxy forwards every request to `upstream` and checks the answer against the spec, adding an `sl-violations`
//         header (a JSON array of { location, severity, code, message }) when it differs; `npm run verify`. Ready
//         once it accepts a connection: an HTTP probe would be forwarded to the upstream, a real console.
// Prism runs as `node .../prism-cli/dist/index.js` in its own process group, so `stop` ends it and all its children.
//
// Prism mocks a private copy of the spec: its CLI restarts the server whenever its file changes, attributes included
// (a touch, a hard link), and with `-p 0` the restarted server listens on another port, so the URL handed out would
// stop answering. Seen in CI as ECONNREFUSED half-way through a run.
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { createWriteStream, rmSync } from "node:fs";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const prismCli = join(
  dirname(createRequire(import.meta.url).resolve("@stoplight/prism-cli/package.json")),
  "dist/index.js",
);

/**
 * @param {{ spec?: string, errors?: boolean, timeoutMs?: number, port?: number, proxyTo?: string }} [options]
 *   `port` 0 (the default) takes a free port; `proxyTo`: the upstream's origin, starts proxy mode instead of the mock.
 * @returns {Promise<{ url: string, spec: string, stop: () => Promise<void>, output: () => string }>}
 */
export async function startPrism({
  spec = join(root, "generated/openapi.json"),
  errors = true,
  timeoutMs = 60_000,
  port = 0,
  proxyTo,
} = {}) {
  const dir = await mkdtemp(join(tmpdir(), "rainbond-prism-"));
  const mocked = join(dir, "openapi.json");
  await copyFile(spec, mocked);
  const mode = proxyTo === undefined ? ["mock", mocked] : ["proxy", mocked, proxyTo];
  const args = [prismCli, ...mode, "-h", "127.0.0.1", "-p", String(port), ...(errors ? ["--errors"] : [])];
  const child = spawn(process.execPath, args, { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  let exited = false;
  const exit = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  exit.then(() => (exited = true));
  // PRISM_LOG=<file> keeps Prism's whole output (what it was asked, and why it stopped) for debugging.
  const logFile = process.env.PRISM_LOG ? createWriteStream(process.env.PRISM_LOG) : undefined;
  const keep = (chunk) => {
    log += chunk;
    logFile?.write(chunk);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);

  const stop = async () => {
    if (!exited) {
      try {
        process.kill(-child.pid, "SIGTERM");
        const timer = setTimeout(() => !exited && process.kill(-child.pid, "SIGKILL"), 3000);
        await exit;
        clearTimeout(timer);
      } catch {
        // already gone
      }
    }
    await rm(dir, { recursive: true, force: true });
  };
  const stopOnExit = () => {
    if (!exited) process.kill(-child.pid, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", stopOnExit);

  try {
    const url = await waitUntilAnswering(
      () => log,
      () => exited,
      timeoutMs,
      proxyTo === undefined ? answersHttp : acceptsConnections,
    );
    return {
      url,
      spec: mocked,
      output: () => log,
      stop: async () => {
        process.off("exit", stopOnExit);
        await stop();
      },
    };
  } catch (err) {
    await stop();
    throw new Error(`Prism did not start: ${err.message}\n${log.slice(-2000)}`);
  }
}

async function waitUntilAnswering(getLog, hasExited, timeoutMs, isReady) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasExited()) throw new Error("the Prism process exited");
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(getLog())?.[1];
    if (url && (await isReady(url))) return url;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no answer within ${timeoutMs} ms`);
}

/** The mock answers a request of the spec. */
async function answersHttp(url) {
  try {
    await fetch(`${url}/openapi/v1/httpdomains`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

/** The proxy accepts a connection (nothing is sent: a request would reach the upstream). */
function acceptsConnections(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port), timeout: 1000 });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("timeout", () => done(false));
  });
}
