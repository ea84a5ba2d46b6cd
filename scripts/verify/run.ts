// One verify run: checks that the console answers and takes the token, starts the validator (Prism's proxy over the
// verify's copy of the spec, checking recorded answers offline), sends the operations to the console through the
// project's client, judges each answer and builds the report.
import type { OperationId } from "../../generated/operations.js";
import {
  RainbondAuthError,
  RainbondConnectionError,
  RainbondInputError,
  RainbondServerError,
  createRainbondClient,
} from "../../src/index.js";
import { readSpec, type JsonObject } from "../lib/spec.ts";
import { judge, parsed } from "./judge.ts";
import type { VerifyOptions } from "./main.ts";
import * as plan from "./operations.ts";
import { overlayOf, type Found } from "./overlay.ts";
import { buildReport, holdsSecret, secretsSeen, type OperationResult, type Report } from "./report.ts";
import { startValidator, validatorSpec, type Validator } from "./validator.ts";

/** One request per operation, straight to the console: what it answered first is judged. */
const ONE_REQUEST = { retries: 0, timeoutMs: 30_000, logLevel: "off" } as const;

/** One request straight to the console, through the client: can it be reached, and does it take the token? */
async function preflight({ baseUrl, token, team }: VerifyOptions): Promise<void> {
  let client;
  try {
    client = createRainbondClient({ baseUrl, token, retries: 0, logLevel: "off" });
  } catch (err) {
    if (!(err instanceof RainbondInputError)) throw err;
    throw new Error(`${err.argument === "token" ? "RAINBOND_TOKEN" : "--base-url"} ${err.rule}`);
  }
  try {
    await (team ? client.regions.listForTeam(team) : client.gateway.listEnterpriseHttpRules());
  } catch (err) {
    const gateway = err instanceof RainbondServerError && [502, 503, 504].includes(err.status);
    if (err instanceof RainbondConnectionError || gateway)
      throw new Error(`cannot reach the console at ${client.baseUrl}: ${err.message}`);
    if (err instanceof RainbondAuthError)
      throw new Error(`the console at ${client.baseUrl} refused the token: ${err.message}`);
    if (err instanceof RainbondInputError) throw err;
    // any other answer (a 404, a body that is not JSON) is the console's: the run judges it
  }
}

/** A run against `options.baseUrl`, with the spec of `root`, through `shared`: a validator already running (tests). */
export async function verify(options: VerifyOptions, root: string, shared?: Validator): Promise<Report & Found> {
  await preflight(options);
  const spec = readSpec(root);
  const doc = validatorSpec(spec);
  const operations = new Map<string, { method: string; path: string; operation: JsonObject }>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, JsonObject>>)) {
    for (const [method, operation] of Object.entries(item))
      operations.set(operation.operationId as string, { method: method.toUpperCase(), path, operation });
  }
  const validator = shared ?? (await startValidator(doc));
  try {
    const { baseUrl, token } = options;
    const client = createRainbondClient({ baseUrl, token, fetch: validator.fetch, ...ONE_REQUEST });
    const results: OperationResult[] = [];
    const skip = (operationId: string, outcome: OperationResult["outcome"], note: string) => {
      const { method, path } = operations.get(operationId)!;
      results.push({ operationId, method, path, outcome, note, deviations: [] });
    };
    const answers = new Map<OperationId, unknown>();
    let secrets = [options.token];
    const { team, region, app, component } = options;
    const ids: plan.Ids = { team, region, app, component };
    const found: Partial<Record<plan.IdName, string>> = {};
    const learn = () => {
      for (const [id, from, pick] of plan.idSources) {
        const value = ids[id] === undefined && answers.has(from) ? pick(answers.get(from), ids) : undefined;
        // an id goes into URL paths: never one that is, or holds, a secret the run has seen (the token echoed)
        if (value === undefined || holdsSecret(String(value), secrets)) continue;
        Object.assign(ids, { [id]: value });
        found[id] = `found in ${from}`;
      }
    };

    const send = async (operationId: OperationId, call: () => Promise<unknown>) => {
      const { method, path, operation } = operations.get(operationId)!;
      validator.exchanges.length = 0;
      let error: unknown;
      const data = await call().catch((err: unknown) => void (error = err));
      // the last answer is the one the client kept (after any redirect within the console's origin)
      const exchange = validator.exchanges.at(-1);
      if (!exchange) {
        skip(operationId, "not sent", error instanceof Error ? error.message : "the client sent nothing");
        return { sent: false };
      }
      secrets = secretsSeen(secrets, parsed(exchange.body)?.value);
      const whole = exchange.status !== undefined && exchange.error === undefined && exchange.cut === undefined;
      if (whole && exchange.redirect === undefined) await validator.check(exchange);
      const judged = judge(doc, operation, operationId, exchange);
      results.push({ operationId, method, path, ...judged });
      if (error === undefined) answers.set(operationId, data);
      return { sent: true, status: judged.status };
    };

    for (const [operationId, needs, call] of plan.readSteps) {
      learn();
      const missing = needs.filter((name) => ids[name] === undefined);
      if (missing.length) skip(operationId, "not tried", `no ${missing.map(plan.label).join(", ")} given or found`);
      else await send(operationId, () => call(client, ids as Required<plan.Ids>));
    }
    learn();

    const portUsed = options.write ? plan.freePort(answers.get("listComponentPorts")) : undefined;
    if (portUsed !== undefined) await plan.portSequence(client, ids as Required<plan.Ids>, portUsed, send);
    const unsent = plan.WRITE_OPERATIONS.filter((id) => !results.some((r) => r.operationId === id));
    for (const id of unsent) skip(id, "not sent", options.write ? "the port was not added" : "needs --write");
    for (const { operationId, why } of plan.NEVER_SENT) skip(operationId, "never sent", why);

    const version = String((doc.info as JsonObject | undefined)?.version ?? "?");
    const report = buildReport(options, version, { ids, found, results, secrets, portUsed });
    const origin = new URL(options.baseUrl).origin;
    return options.overlay ? { ...report, overlay: overlayOf(spec, results, secrets, origin) } : report;
  } finally {
    if (!shared) await validator.stop();
  }
}
