// One verify run: checks that the console answers and takes the token, starts the validator (Prism's proxy over the
// verify's copy of the spec, and the recorder), sends the operations through the project's client, judges each answer
// and builds the report.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { OperationId } from "../../generated/operations.js";
import {
  RainbondAuthError,
  RainbondConnectionError,
  RainbondInputError,
  RainbondServerError,
  createRainbondClient,
} from "../../src/index.js";
import { maskText, secretsIn } from "../../src/redact.js";
import { judge } from "./judge.js";
import type { VerifyOptions } from "./options.js";
import {
  ID_LABELS,
  NEVER_SENT,
  WRITE_OPERATIONS,
  freePort,
  idSources,
  portSequence,
  readSteps,
  type IdName,
  type Ids,
} from "./operations.js";
import { buildReport, type OperationResult, type Report } from "./report.js";
import {
  recordingFetch,
  startValidator,
  validatorSpec,
  type JsonObject,
  type Validator,
  type Verdict,
} from "./validator.js";

/** The verify could not run: the console cannot be reached, the token is refused, or an argument is wrong. */
export class CannotVerify extends Error {
  override name = "CannotVerify";
}

export interface RunContext {
  /** The project's root (generated/openapi.json is read from it). */
  root: string;
  /** A validator already running (the tests share one); its recorder is pointed at the console. */
  validator?: Validator;
  /** Unix seconds, for the range monitoring query. */
  now?: number;
}

const TIMEOUT_MS = 30_000;

/** One request straight to the console, through the client: can it be reached, and does it take the token? */
async function preflight(options: VerifyOptions): Promise<void> {
  let client;
  try {
    client = createRainbondClient({ baseUrl: options.baseUrl, token: options.token, retries: 0, logLevel: "off" });
  } catch (err) {
    if (!(err instanceof RainbondInputError)) throw err;
    const rule = err.message.slice(`${err.operation}: ${err.argument} `.length);
    throw new CannotVerify(`${err.argument === "token" ? "RAINBOND_TOKEN" : "--base-url"} ${rule}`);
  }
  try {
    await (options.team ? client.regions.listForTeam(options.team) : client.gateway.listEnterpriseHttpRules());
  } catch (err) {
    const gateway = err instanceof RainbondServerError && [502, 503, 504].includes(err.status);
    if (err instanceof RainbondConnectionError || gateway) {
      throw new CannotVerify(`cannot reach the console at ${client.baseUrl}: ${(err as Error).message}`);
    }
    if (err instanceof RainbondAuthError) {
      throw new CannotVerify(`the console at ${client.baseUrl} refused the token: ${err.message}`);
    }
    if (err instanceof RainbondInputError) throw new CannotVerify(err.message);
    // any other answer (a 404, a body that is not JSON) is the console's: the run judges it
  }
}

/** The operations of the spec by operationId: method, path template and the operation object. */
function operationsOf(doc: JsonObject) {
  const out = new Map<string, { method: string; path: string; operation: JsonObject }>();
  for (const [path, item] of Object.entries(doc.paths as JsonObject)) {
    for (const [method, operation] of Object.entries(item as JsonObject)) {
      const op = operation as JsonObject;
      if (typeof op?.operationId === "string")
        out.set(op.operationId, { method: method.toUpperCase(), path, operation: op });
    }
  }
  return out;
}

export async function verify(options: VerifyOptions, context: RunContext): Promise<Report> {
  await preflight(options);
  const spec = JSON.parse(await readFile(join(context.root, "generated/openapi.json"), "utf8")) as JsonObject;
  const doc = validatorSpec(spec);
  const operations = operationsOf(doc);
  const validator = context.validator ?? (await startValidator(options.baseUrl, doc, TIMEOUT_MS));
  validator.recorder.target = options.baseUrl.replace(/\/+$/, "");
  try {
    const verdicts: Verdict[] = [];
    const client = createRainbondClient({
      baseUrl: validator.url,
      token: options.token,
      fetch: recordingFetch(verdicts),
      retries: 0, // one request per operation: what the console answered first is what is judged
      timeoutMs: TIMEOUT_MS + 5_000, // the recorder gives up first, and records why
      logLevel: "off",
    });
    const results: OperationResult[] = [];
    const answers = new Map<OperationId, unknown>();
    const bodies: unknown[] = [];
    const ids: Ids = { team: options.team, region: options.region, app: options.app, component: options.component };
    const found: Partial<Record<IdName, string>> = {};
    const now = context.now ?? Math.floor(Date.now() / 1000);

    const learn = () => {
      for (const source of idSources) {
        if (ids[source.id] !== undefined || !answers.has(source.from)) continue;
        let value: string | number | undefined;
        try {
          value = source.pick(answers.get(source.from), ids);
        } catch {
          value = undefined; // an answer of another shape: reported as a deviation, gives no id
        }
        // an id goes into URL paths: never one that is, or holds, a secret the run has seen (the token echoed)
        const secrets = secretsIn([options.token], ...bodies);
        if (value !== undefined && maskText(String(value), secrets) !== String(value)) value = undefined;
        if (value !== undefined) {
          (ids as Record<IdName, string | number>)[source.id] = value;
          found[source.id] = `found in ${source.from}`;
        }
      }
    };

    /** Sends one operation through the client and judges what the console answered. */
    const send = async (operationId: OperationId, call: () => Promise<unknown>) => {
      const { method, path, operation } = operations.get(operationId)!;
      const fromExchange = validator.recorder.exchanges.length;
      const fromVerdict = verdicts.length;
      let data: unknown;
      let error: unknown;
      try {
        data = await call();
      } catch (err) {
        error = err;
      }
      const exchange = validator.recorder.exchanges[fromExchange];
      if (!exchange) {
        const note = error instanceof Error ? error.message : "the client sent nothing";
        results.push({ operationId, method, path, outcome: "not sent", note, deviations: [] });
        return { sent: false };
      }
      try {
        bodies.push(JSON.parse(exchange.body ?? ""));
      } catch {
        // not JSON: holds no secret field to learn
      }
      const verdict = verdicts[fromVerdict];
      const judged = judge({ doc, operation, operationId, exchange, violations: verdict?.violations });
      results.push({ operationId, method, path, ...judged });
      if (error === undefined) answers.set(operationId, data);
      return { sent: true, status: judged.status };
    };

    for (const step of readSteps) {
      learn();
      const missing = step.needs.filter((name) => ids[name] === undefined);
      const { method, path } = operations.get(step.operationId)!;
      if (missing.length) {
        const note = `no ${missing.map((name) => ID_LABELS[name]).join(", ")} given or found`;
        results.push({ operationId: step.operationId, method, path, outcome: "not tried", note, deviations: [] });
        continue;
      }
      await send(step.operationId, () => step.call(client, ids as Required<Ids>, now));
    }
    learn();

    let portUsed: number | undefined;
    if (options.write) {
      portUsed = freePort(answers.get("listComponentPorts"));
      await portSequence(client, ids as Required<Ids>, portUsed, send);
    }
    for (const operationId of [...WRITE_OPERATIONS, ...NEVER_SENT.map((n) => n.operationId)]) {
      if (results.some((r) => r.operationId === operationId)) continue;
      const { method, path } = operations.get(operationId)!;
      const never = NEVER_SENT.find((n) => n.operationId === operationId);
      if (never) {
        results.push({ operationId, method, path, outcome: "never sent", note: never.why, deviations: [] });
        continue;
      }
      const note = options.write ? "the port was not added" : "needs --write";
      results.push({ operationId, method, path, outcome: "not sent", note, deviations: [] });
    }

    return buildReport({
      console: options.baseUrl,
      specVersion: String((spec.info as JsonObject | undefined)?.version ?? "?"),
      write: options.write,
      ids,
      idSources: found,
      results,
      secrets: secretsIn([options.token], ...bodies),
      ...(portUsed === undefined ? {} : { portUsed }),
    });
  } finally {
    if (!context.validator) await validator.stop();
  }
}
