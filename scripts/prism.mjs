// Starts Prism (@stoplight/prism-cli) mocking generated/openapi.json on a free loopback port, waits until it answers
// over HTTP, and returns { url, stop }. Used by `npm start`, the test suite's global setup and the benchmarks.
// Prism runs as `node .../prism-cli/dist/index.js` in its own process group, so `stop` ends it and all its children.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const prismCli = join(
  dirname(createRequire(import.meta.url).resolve("@stoplight/prism-cli/package.json")),
  "dist/index.js",
);

/**
 * @param {{ spec?: string, errors?: boolean, timeoutMs?: number }} [options]
 * @returns {Promise<{ url: string, stop: () => Promise<void>, output: () => string }>}
 */
export async function startPrism({
  spec = join(root, "generated/openapi.json"),
  errors = true,
  timeoutMs = 60_000,
} = {}) {
  const args = [prismCli, "mock", spec, "-h", "127.0.0.1", "-p", "0", ...(errors ? ["--errors"] : [])];
  const child = spawn(process.execPath, args, { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  let exited = false;
  const exit = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  exit.then(() => (exited = true));
  child.stdout.on("data", (chunk) => (log += chunk));
  child.stderr.on("data", (chunk) => (log += chunk));

  const stop = async () => {
    if (exited) return;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      return;
    }
    const timer = setTimeout(() => !exited && process.kill(-child.pid, "SIGKILL"), 3000);
    await exit;
    clearTimeout(timer);
  };
  const stopOnExit = () => !exited && process.kill(-child.pid, "SIGKILL");
  process.once("exit", stopOnExit);

  try {
    const url = await waitUntilAnswering(
      () => log,
      () => exited,
      timeoutMs,
    );
    return {
      url,
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

async function waitUntilAnswering(getLog, hasExited, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasExited()) throw new Error("the Prism process exited");
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(getLog())?.[1];
    if (url) {
      try {
        await fetch(`${url}/openapi/v1/httpdomains`, { signal: AbortSignal.timeout(1000) });
        return url;
      } catch {
        // not answering yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no answer within ${timeoutMs} ms`);
}
