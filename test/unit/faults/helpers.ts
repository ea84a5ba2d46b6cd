// Shared by the fault tests: a client pointed at a fault server, with fast backoff and a recording logger, and the
// check that nothing the client shows holds a secret.
import { expect } from "vitest";
import { createRainbondClient, type ClientOptions } from "../../../src/index.js";
import { recordingLogger, renderings } from "../../helpers/faults/server.js";

export const TOKEN = "rbtok-5Qx9LmT2vW8zK3pA7sD1";

export const team = "q8k2mz5d";
export const region = { teamId: team, regionName: "rainbond" };
export const app = { ...region, appId: 12 };
export const component = { ...app, serviceId: "gr3f9c2a" };

const base = `/openapi/v1/teams/${team}/regions/rainbond/apps/12`;
export const paths = {
  component: `${base}/services/gr3f9c2a`,
  ports: `${base}/services/gr3f9c2a/ports`,
  port: `${base}/services/gr3f9c2a/ports/8080`,
  install: `${base}/install`,
  httpRules: `${base}/httpdomains`,
  httpRule: `${base}/httpdomains/5f2e8a1c9b7d4e3f`,
  teamRegions: `/openapi/v1/teams/${team}/regions`,
  region: (id: string) => `/openapi/v1/regions/${id}`,
};

/** A body of apps.install whose market_access_key (a secret field) is `key`. */
export const installBodyWith = (key: string) => ({
  market_url: "https://hub.grapps.cn",
  market_domain: "rainbond",
  market_type: "rainstore",
  market_access_key: key,
  app_model_id: "9e2c7a1f5b3d4e8a",
  app_model_version: "2.1.0",
});

/**
 * A client of `url` with a recording logger at debug and a backoff of a few ms. Its per-attempt timeout (30 s) never
 * fires on a busy machine by chance: a test of a deadline sets its own, on fake timers or against an answer that
 * never comes.
 */
export function faultClient(url: string, options: Partial<ClientOptions> = {}) {
  const log = recordingLogger();
  const client = createRainbondClient({
    baseUrl: url,
    token: TOKEN,
    timeoutMs: 30_000,
    retryDelay: { baseMs: 5, maxMs: 20, retryAfterCapMs: 5_000 },
    logger: log.logger,
    logLevel: "debug",
    ...options,
  });
  return { client, log };
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected the call to fail, but it resolved");
}

/** No secret in the error's message, String(), util.inspect or JSON, nor in any log line. */
export function expectNoSecrets(err: unknown, lines: readonly string[], secrets: readonly string[] = [TOKEN]) {
  const shown = [...renderings(err), ...lines];
  for (const secret of secrets) {
    for (const text of shown) expect(text).not.toContain(secret);
  }
}
