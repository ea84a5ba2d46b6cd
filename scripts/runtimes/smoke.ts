// The smoke suite of the runtime matrix, run unchanged (its types stripped) in every runtime. It imports nothing: each
// runtime's entry (entries.ts) loads the package its own way and hands its exports in, so the same checks run against
// the ESM and the CommonJS builds; its asserts are its own because no assertion library runs in all five.
import type * as Package from "../../src/index.ts";

/** `baseUrl`: the Prism mock; `hangUrl`: a server that never finishes an answer (entries.ts). */
export type SmokeConfig = { baseUrl: string; hangUrl: string; token: string; timeoutMs?: number };
/** `runtime`: where the suite ran, as the runtime says (`node 22.23.3`, `HeadlessChrome 143.0.7499.0`, ...); `inspect`:
 *  whether it had an `inspect` for the token check to look through. */
export type SmokeReport = { runtime: string; inspect: boolean; ok: boolean; checks: SmokeCheck[] };
type SmokeCheck = { name: string; ok: boolean; detail?: string };

/** The line an entry prints for the runner to find among whatever else the runtime prints. */
export const REPORT_MARK = "rainbond-smoke-report ";

/** The component the Prism mock answers for (the spec's examples). */
const component = { teamId: "q8k2mz5d", regionName: "rainbond", appId: 12, serviceId: "gr3f9c2a" };

class CheckFailed extends Error {}
const show = (value: unknown) => JSON.stringify(value) ?? String(value);
const describe = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : show(err));
function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}
function fields(actual: object, expected: Record<string, unknown>, what = "") {
  for (const [key, value] of Object.entries(expected)) {
    const got: unknown = (actual as Record<string, unknown>)[key];
    assert(Object.is(got, value), `${what}${key}: expected ${show(value)}, got ${show(got)}`);
  }
}
type ErrorName = Extract<keyof typeof Package, `Rainbond${string}Error`>;

/** Where this code runs, as the runtime tells it (the runner checks it against the runtime it started), and the
 *  runtime's own `inspect` where it has one: Deno's, or node:util's (Node, Bun). */
function where(): { runtime: string; inspect?: (value: unknown) => string } {
  const { EdgeRuntime, Bun, Deno, process } = globalThis as {
    EdgeRuntime?: unknown;
    Bun?: { version: string };
    Deno?: { version: { deno: string }; inspect(value: unknown, options: object): string };
    process?: { versions?: { node?: string }; getBuiltinModule?(id: "node:util"): typeof import("node:util") };
  };
  if (typeof EdgeRuntime === "string") return { runtime: `edge-runtime (${EdgeRuntime})` };
  if (Deno) return { runtime: `deno ${Deno.version.deno}`, inspect: (value) => Deno.inspect(value, { depth: 10 }) };
  const util = process?.getBuiltinModule?.("node:util");
  const inspect = util && ((value: unknown) => util.inspect(value, { depth: 10, showHidden: true }));
  if (Bun) return { runtime: `bun ${Bun.version}`, inspect };
  if (process?.versions?.node) return { runtime: `node ${process.versions.node}`, inspect };
  const agent = globalThis.navigator?.userAgent || "unknown";
  const browser = /(\w*Chrome|Firefox)\/([\d.]+)/.exec(agent);
  return { runtime: browser ? `${browser[1]} ${browser[2]}` : agent };
}

export async function smoke(lib: typeof Package, { baseUrl, hangUrl, token, timeoutMs = 300 }: SmokeConfig) {
  let sent = 0; // the requests the clients sent: bad input must be refused with none
  const countingFetch: typeof fetch = (input, init) => (sent++, globalThis.fetch(input, init));
  const client = (options: Partial<Package.ClientOptions> = {}) =>
    lib.createRainbondClient({ baseUrl, token, logLevel: "off", fetch: countingFetch, ...options });
  /** `call` must reject with an instance (by `instanceof`, not by name) of each class named, of RainbondError and of
   *  Error, named after the first; resolves with what it rejected with. */
  async function failure(call: () => Promise<unknown>, what: string, ...names: ErrorName[]) {
    const err: unknown = await call().then(
      () => Promise.reject(new CheckFailed(`${what}: resolved, but it should have failed`)),
      (e: unknown) => e,
    );
    for (const name of [...names, "RainbondError", "Error"] as const) {
      const Class: unknown = name === "Error" ? Error : lib[name];
      assert(typeof Class === "function", `the package exports no ${name}`);
      assert(err instanceof Class, `${what}: ${describe(err)} is not instanceof ${name}`);
    }
    fields(err as Error, { name: names[0] }, `${what}: `);
    return err as Error;
  }
  let notFound: Error | undefined; // the 404 error, shown in the last check

  const checks: Record<string, () => Promise<void>> = {
    "a scoped GET returns the component": async () => {
      const c = await client().components.get(component);
      fields(c, { service_cname: "web-frontend", version: "1.4.2", status: "running" });
      fields({ "typeof is_upgrate": typeof c.is_upgrate }, { "typeof is_upgrate": "boolean" });
    },
    "a POST returns the added port": async () => {
      const port = await client().ports.add(component, { port: 8080, protocol: "http" });
      fields(port, { container_port: 8080, protocol: "http", k8s_service_name: "gr3f9c2a-8080" });
    },
    "a 404 is a RainbondNotFoundError with its status": async () => {
      const c = client({ headers: { Prefer: "code=404" } });
      const call = () => c.components.get(component);
      notFound = await failure(call, "the 404", "RainbondNotFoundError", "RainbondApiError");
      fields(notFound, { status: 404, operation: "components.get" });
    },
    "bad input is refused before any request": async () => {
      const c = client();
      sent = 0;
      const badPort = () => c.ports.add(component, { port: 70000, protocol: "http" });
      fields(await failure(badPort, "port 70000", "RainbondInputError"), { argument: "body.port" });
      const { appId: _, ...noApp } = component;
      // @ts-expect-error a component scope without appId, as a JavaScript caller may pass
      await failure(() => c.components.get(noApp), "no appId", "RainbondInputError");
      await failure(async () => client({ baseUrl: "ftp://127.0.0.1" }), "baseUrl ftp:", "RainbondInputError");
      fields({ "requests sent": sent }, { "requests sent": 0 });
    },
    "a timeout ends the call with a RainbondTimeoutError": async () => {
      const c = client({ baseUrl: hangUrl, retries: 0, timeoutMs });
      const call = () => c.components.get(component);
      await failure(call, "the timeout", "RainbondTimeoutError", "RainbondConnectionError");
    },
    "an abort ends the call with a RainbondAbortError": async () => {
      // The server sends an answer's headers and never its body: once they are here, the call is in flight.
      let headersCame = () => {};
      const inFlight = new Promise<void>((resolve) => (headersCame = resolve));
      const fetch: typeof countingFetch = (input, init) => countingFetch(input, init).then((r) => (headersCame(), r));
      const c = client({ baseUrl: `${hangUrl}/headers-first`, fetch });
      sent = 0;
      const controller = new AbortController();
      const call = c.components.get(component, { signal: controller.signal, timeoutMs: 60_000 });
      await Promise.race([inFlight, call.catch(() => {})]);
      controller.abort();
      await failure(() => call, "the abort", "RainbondAbortError");
      fields({ "requests sent": sent }, { "requests sent": 1 });
    },
    "the client and its errors show no token": async () => {
      const c = client();
      const inspect = where().inspect ?? String; // where there is none, String again
      const shown = {
        "String(client)": String(c),
        "JSON.stringify(client)": JSON.stringify(c),
        "inspect(client)": inspect(c),
        "the 404's message": notFound?.message,
        "the 404's stack": notFound?.stack,
        "JSON.stringify(the 404)": JSON.stringify(notFound),
        "inspect(the 404)": notFound && inspect(notFound),
      };
      for (const [what, text] of Object.entries(shown)) assert(!text?.includes(token), `${what} shows the token`);
      fields(shown, { "String(client)": `RainbondClient { baseUrl: ${JSON.stringify(baseUrl)} }` });
    },
  };

  const results: SmokeCheck[] = [];
  for (const [name, check] of Object.entries(checks)) {
    const detail = await check().then(
      () => undefined,
      (err: unknown) => (err instanceof CheckFailed ? err.message : `threw ${describe(err)}`),
    );
    results.push(detail === undefined ? { name, ok: true } : { name, ok: false, detail });
  }
  const { runtime, inspect } = where();
  return { runtime, inspect: !!inspect, ok: results.every((r) => r.ok), checks: results };
}
