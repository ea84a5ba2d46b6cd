// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The smoke suite of the runtime matrix: one plain ES module, run unchanged in Node, Bun, Deno, the edge runtime and
// Chromium. It imports nothing (not even the package): each runtime's entry loads the package its own way (`import`,
// `require`, an import map, a bundle) and hands its exports in, so the same checks run against the ESM and the
// CommonJS builds. Its assertions are a few lines of its own because no assertion library runs in all five.
//
//   const report = await smoke(lib, { baseUrl, hangUrl, token });
//   report.checks: [{ name, ok, detail }], report.ok, report.runtime (where it really ran, e.g. "node 22.23.3"),
//   report.inspect (whether the runtime had an `inspect` for the token check to look through)

/** The component the Prism mock answers for (the spec's examples). */
const component = { teamId: "q8k2mz5d", regionName: "rainbond", appId: 12, serviceId: "gr3f9c2a" };

class CheckFailed extends Error {}

function assert(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

function equal(actual, expected, what) {
  assert(Object.is(actual, expected), `${what}: expected ${show(expected)}, got ${show(actual)}`);
}

function show(value) {
  try {
    return typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    return String(value);
  }
}

/** Runs `call`, which must reject; returns what it rejected with. */
async function rejection(call, what) {
  try {
    await call();
  } catch (err) {
    return err;
  }
  throw new CheckFailed(`${what}: resolved, but it should have failed`);
}

/** `err` is an instance of each class (by `instanceof`, not by name), and is named after the first. */
function isA(err, classes, what) {
  for (const [name, Class] of Object.entries(classes)) {
    assert(typeof Class === "function", `the package exports no ${name}`);
    assert(err instanceof Class, `${what}: ${describe(err)} is not instanceof ${name}`);
  }
  equal(err.name, Object.keys(classes)[0], `${what}: name`);
}

function describe(err) {
  return err instanceof Error ? `${err.name}: ${err.message}` : show(err);
}

/** Where this code runs, as the runtime tells it (the runner checks it against the runtime it started). */
export function runtimeName() {
  const g = globalThis;
  if (typeof g.EdgeRuntime === "string") return `edge-runtime (${g.EdgeRuntime})`;
  if (g.Bun) return `bun ${g.Bun.version}`;
  if (g.Deno) return `deno ${g.Deno.version.deno}`;
  if (g.process?.versions?.node) return `node ${g.process.versions.node}`;
  const browser = /(\w*Chrome|Firefox)\/([\d.]+)/.exec(g.navigator?.userAgent ?? "");
  if (browser) return `${browser[1]} ${browser[2]}`;
  if (g.navigator?.userAgent) return g.navigator.userAgent;
  return "unknown";
}

/** The runtime's own `inspect`, where it has one: Deno's, or node:util's (Node, Bun). */
function runtimeInspect() {
  const g = globalThis;
  if (g.Deno?.inspect) return (value) => g.Deno.inspect(value, { depth: 10 });
  const util = g.process?.getBuiltinModule?.("node:util");
  return util ? (value) => util.inspect(value, { depth: 10, showHidden: true }) : undefined;
}

/**
 * The checks, each against the Prism mock at `baseUrl` (or the server at `hangUrl`, which never finishes an answer:
 * servers.mjs).
 * @param {Record<string, any>} lib the package's exports
 * @param {{ baseUrl: string, hangUrl: string, token: string, timeoutMs?: number }} config
 */
export async function smoke(
  lib: Record<string, any>,
  { baseUrl, hangUrl, token, timeoutMs = 300 }: SmokeConfig,
): Promise<SmokeReport> {
  const { createRainbondClient } = lib;
  let sent = 0;
  // Counts the requests a client sends: bad input must be refused with none.
  const countingFetch = (input, init) => {
    sent++;
    return globalThis.fetch(input, init);
  };
  const client = () => createRainbondClient({ baseUrl, token, logLevel: "off", fetch: countingFetch });
  const errors = {
    RainbondError: lib.RainbondError,
    Error,
  };
  let notFound; // the 404 error, shown in the last check

  const checks = {
    "a scoped GET returns the component": async () => {
      const c = await client().components.get(component);
      equal(c.service_cname, "web-frontend", "service_cname");
      equal(c.version, "1.4.2", "version");
      equal(c.status, "running", "status");
      equal(typeof c.is_upgrate, "boolean", "typeof is_upgrate");
    },
    "a POST returns the added port": async () => {
      const p = await client().ports.add(component, { port: 8080, protocol: "http" });
      equal(p.container_port, 8080, "container_port");
      equal(p.protocol, "http", "protocol");
      equal(p.k8s_service_name, "gr3f9c2a-8080", "k8s_service_name");
    },
    "a 404 is a RainbondNotFoundError with its status": async () => {
      const c = createRainbondClient({ baseUrl, token, logLevel: "off", headers: { Prefer: "code=404" } });
      notFound = await rejection(() => c.components.get(component), "components.get with Prefer: code=404");
      isA(
        notFound,
        { RainbondNotFoundError: lib.RainbondNotFoundError, RainbondApiError: lib.RainbondApiError, ...errors },
        "the 404",
      );
      equal(notFound.status, 404, "status");
      equal(notFound.operation, "components.get", "operation");
    },
    "bad input is refused before any request": async () => {
      const c = client();
      sent = 0;
      const badPort = await rejection(() => c.ports.add(component, { port: 70000, protocol: "http" }), "port 70000");
      isA(badPort, { RainbondInputError: lib.RainbondInputError, ...errors }, "port 70000");
      equal(badPort.argument, "body.port", "argument");
      const { appId: _, ...noApp } = component;
      const missing = await rejection(() => c.components.get(noApp), "a component scope without appId");
      isA(missing, { RainbondInputError: lib.RainbondInputError, ...errors }, "no appId");
      const badClient = await rejection(
        async () => createRainbondClient({ baseUrl: "ftp://127.0.0.1", token }),
        "baseUrl ftp:",
      );
      isA(badClient, { RainbondInputError: lib.RainbondInputError, ...errors }, "baseUrl ftp:");
      equal(sent, 0, "requests sent");
    },
    "a timeout ends the call with a RainbondTimeoutError": async () => {
      const c = createRainbondClient({ baseUrl: hangUrl, token, logLevel: "off", retries: 0, timeoutMs });
      const err = await rejection(() => c.components.get(component), "a call to a server that never answers");
      isA(
        err,
        {
          RainbondTimeoutError: lib.RainbondTimeoutError,
          RainbondConnectionError: lib.RainbondConnectionError,
          ...errors,
        },
        "the timeout",
      );
    },
    "an abort ends the call with a RainbondAbortError": async () => {
      // The server sends an answer's headers and never its body: once they are here, the call is in flight.
      let headersCame;
      const inFlight = new Promise((resolve) => (headersCame = resolve));
      const fetchSignallingHeaders = (input, init) => countingFetch(input, init).then((r) => (headersCame(), r));
      const c = createRainbondClient({
        baseUrl: `${hangUrl}/headers-first`,
        token,
        logLevel: "off",
        fetch: fetchSignallingHeaders,
      });
      sent = 0;
      const controller = new AbortController();
      const call = c.components.get(component, { signal: controller.signal, timeoutMs: 60_000 });
      await Promise.race([
        inFlight,
        call.then(
          () => {},
          () => {},
        ),
      ]);
      controller.abort();
      const err = await rejection(() => call, "an aborted call");
      isA(err, { RainbondAbortError: lib.RainbondAbortError, ...errors }, "the abort");
      equal(sent, 1, "requests sent");
    },
    "the client and its errors show no token": async () => {
      const c = client();
      const shown = { "String(client)": String(c), "JSON.stringify(client)": JSON.stringify(c) };
      const inspect = runtimeInspect();
      if (inspect) shown["inspect(client)"] = inspect(c);
      if (notFound) {
        shown["the 404's message"] = notFound.message;
        shown["the 404's stack"] = String(notFound.stack);
        shown["JSON.stringify(the 404)"] = JSON.stringify(notFound);
        if (inspect) shown["inspect(the 404)"] = inspect(notFound);
      }
      for (const [what, text] of Object.entries(shown)) assert(!text.includes(token), `${what} shows the token`);
      equal(shown["String(client)"], `RainbondClient { baseUrl: ${JSON.stringify(baseUrl)} }`, "String(client)");
    },
  };

  const results = [];
  for (const [name, check] of Object.entries(checks)) {
    try {
      await check();
      results.push({ name, ok: true });
    } catch (err) {
      const detail = err instanceof CheckFailed ? err.message : `threw ${describe(err)}`;
      results.push({ name, ok: false, detail });
    }
  }
  return {
    runtime: runtimeName(),
    inspect: Boolean(runtimeInspect()),
    ok: results.every((r) => r.ok),
    checks: results,
  };
}

/** The line an entry prints for the runner to find among whatever else the runtime prints. */
export const REPORT_MARK = "rainbond-smoke-report ";

export interface SmokeCheck {
  name: string;
  ok: boolean;
  /** Why it failed. */
  detail?: string;
}
export interface SmokeReport {
  /** Where the suite ran, as the runtime says: `node 22.23.3`, `bun 1.4.4`, `HeadlessChrome 143.0.7499.0`, ... */
  runtime: string;
  /** Whether the runtime had an `inspect` for the token check. */
  inspect: boolean;
  ok: boolean;
  checks: SmokeCheck[];
}
export interface SmokeConfig {
  baseUrl: string;
  hangUrl: string;
  token: string;
  timeoutMs?: number;
}
