// One verify run: checks that the console answers and takes the token, starts the validator (Prism's proxy over the
// verify's copy of the spec, checking recorded answers offline), sends the operations the table plans (plan.ts) to the
// console through the project's client, judges each answer, and builds the report.
import type { OperationId } from "../../generated/operations.js";
import {
  RainbondAuthError,
  RainbondConnectionError,
  RainbondInputError,
  RainbondServerError,
  createRainbondCore,
} from "../../src/core.js";
import { requestOperation } from "../../src/operations.js";
import { MEANING, strongest } from "../../surface/effect.ts";
import type { Table, TableOperation } from "../../surface/table.ts";
import { readTable } from "../lib/methods.ts";
import { readSpec, type JsonObject } from "../lib/spec.ts";
import { judge, parsed, type Judgement } from "./judge.ts";
import type { VerifyOptions } from "./options.ts";
import * as plan from "./plan.ts";
import { overlayOf, type Found } from "./overlay.ts";
import { buildReport, type Report } from "./report.ts";
import type { OperationResult } from "./result.ts";
import { holdsSecret, secretsSeen } from "./secrets.ts";
import { startValidator, validatorSpec, type Exchange, type Validator } from "./validator.ts";
import { writeSequences, type Send } from "./write.ts";

/** One request per operation, straight to the console: what it answered first is judged. */
const ONE_REQUEST = { retries: 0, timeoutMs: 30_000, logLevel: "off" } as const;

/** The ids given on the command line, by the spec's names: each scope flag (`--team`) is the id it names. */
export function givenIds(table: Table, options: VerifyOptions): plan.Ids {
  const given: plan.Ids = {};
  for (const input of table.methods.flatMap((m) => m.inputs)) {
    const value = input.kind === "scope" ? options[input.name as "team"] : undefined;
    if (value !== undefined) given[input.spec] = value;
  }
  return given;
}

/** The ids given with `--id name=value`: a number where the spec's rule for it is an integer. */
function typedIds(table: Table, ids: Record<string, string> = {}): plan.Ids {
  const rules = new Map(table.methods.flatMap((m) => m.inputs).map((i) => [i.spec, i.rule]));
  const integer = (name: string, value: string) => rules.get(name)?.type === "integer" && /^\d+$/.test(value);
  return Object.fromEntries(
    Object.entries(ids).map(([name, value]) => [name, integer(name, value) ? Number(value) : value]),
  );
}

/** One request straight to the console through the client, the first the run would send: can it be reached, and does
 * it take the token? */
async function preflight({ baseUrl, token }: VerifyOptions, first: TableOperation | undefined, ids: plan.Ids) {
  let core;
  try {
    // "warn": the client's one warning of plain http to a console (once per origin), on stderr; no retries to log
    core = createRainbondCore({ baseUrl, token, retries: 0, logLevel: "warn" });
  } catch (err) {
    if (!(err instanceof RainbondInputError)) throw err;
    throw new Error(`${err.argument === "token" ? "RAINBOND_TOKEN" : "--base-url"} ${err.rule}`);
  }
  if (!first) return;
  try {
    await requestOperation(core, first.operationId as OperationId, plan.requestOf(first, ids, new Date()));
  } catch (err) {
    const gateway = err instanceof RainbondServerError && [502, 503, 504].includes(err.status);
    if (err instanceof RainbondConnectionError || gateway)
      throw new Error(`cannot reach the console at ${core.baseUrl}: ${err.message}`);
    if (err instanceof RainbondAuthError)
      throw new Error(`the console at ${core.baseUrl} refused the token: ${err.message}`);
    if (err instanceof RainbondInputError) throw err;
    // any other answer (a 404, a body that is not JSON) is the console's: the run judges it
  }
}

/** A judged answer of an operation the spec marks a console defect: the defect when it shows (not a departure), or
 * a note that it did not (it may be fixed). A refusal or no answer is what it is. */
function withDefect(operation: TableOperation, judged: Judgement): Judgement & Pick<OperationResult, "defect"> {
  if (!operation.defect || !["conforms", "deviates", "error"].includes(judged.outcome)) return judged;
  const findings = operation.findings?.length ? ` (finding ${operation.findings.join(", ")})` : "";
  if (judged.outcome === "conforms")
    return {
      ...judged,
      defect: "not shown",
      note: `the console's known defect${findings} did not show: it may be fixed`,
    };
  const note = `the console's known defect${findings}: ${operation.defect}`;
  return { outcome: "defect", status: judged.status, deviations: [], note, defect: "shown" };
}

/** Why an operation the run never sends is not sent: what a call of it does. */
function neverSent(operation: TableOperation): string {
  const effect = strongest(operation.effect);
  return effect === "write"
    ? "changes the console: --write changes only what it creates and then removes"
    : `${effect}: ${MEANING[effect]}`;
}

/** A run against `options.baseUrl`, with the spec of `root`, through `shared`: a validator already running (tests). */
export async function verify(options: VerifyOptions, root: string, shared?: Validator): Promise<Report & Found> {
  const table = readTable(root);
  const scope = givenIds(table, options);
  const given = { ...scope, ...typedIds(table, options.ids) };
  const reads = plan.readOperations(table);
  await preflight(options, plan.nextRead(reads, given), given);
  const spec = readSpec(root);
  const doc = validatorSpec(spec);
  const judged = new Map<string, JsonObject>();
  for (const item of Object.values(doc.paths as Record<string, Record<string, JsonObject>>)) {
    for (const operation of Object.values(item)) judged.set(operation.operationId as string, operation);
  }
  const validator = shared ?? (await startValidator(doc));
  try {
    const { baseUrl, token } = options;
    const core = createRainbondCore({ baseUrl, token, fetch: validator.fetch, ...ONE_REQUEST });
    const results: OperationResult[] = [];
    const line = (operation: TableOperation, phase: OperationResult["phase"], call?: string) => {
      const [method, path] = operation.http.split(" ") as [string, string];
      return { operationId: operation.operationId, ...(call && { call }), method, path, phase };
    };
    const skip = (
      o: TableOperation,
      phase: OperationResult["phase"],
      outcome: OperationResult["outcome"],
      note: string,
    ) => results.push({ ...line(o, phase), outcome, note, deviations: [] });
    /** The data of each operation's last answer the client took (a 2xx), by operationId. */
    const answers = new Map<string, unknown>();
    let secrets = [token];
    const ids: plan.Ids = { ...given };
    const found: Record<string, string> = {};

    /** Sends one request through the client and judges what the console answered. */
    const send = async (o: TableOperation, input: plan.Request, phase: OperationResult["phase"], call?: string) => {
      validator.exchanges.length = 0;
      let error: unknown;
      const data = await requestOperation(core, o.operationId as OperationId, input).catch((err) => void (error = err));
      // the last answer is the one the client kept (after any redirect within the console's origin)
      const exchange = validator.exchanges.at(-1);
      if (!exchange) {
        results.push({ ...line(o, phase, call), outcome: "not sent", note: messageOf(error), deviations: [] });
        return { sent: false } as const;
      }
      secrets = secretsSeen(secrets, parsed(exchange.body)?.value);
      await check(validator, exchange);
      const judgement = withDefect(o, judge(doc, judged.get(o.operationId)!, o.operationId, exchange));
      results.push({ ...line(o, phase, call), ...judgement });
      if (error === undefined) answers.set(o.operationId, data);
      return { sent: true, status: judgement.status, ok: error === undefined, data } as const;
    };

    // every read operation, once the ids it needs are known; the ids each answer gives, learned as it comes
    const pending = [...reads];
    for (let next = plan.nextRead(pending, ids); next; next = plan.nextRead(pending, ids)) {
      pending.splice(pending.indexOf(next), 1);
      const sent = plan.idsOf(next, ids);
      const answer = await send(next, plan.requestOf(next, ids, new Date()), "read");
      if (!answer.ok) continue;
      // an id goes into URL paths: never one that is, or holds, a secret the run has seen (the token echoed)
      const refuse = (value: string | number) => holdsSecret(String(value), secrets);
      for (const [id, value] of Object.entries(plan.idsFound(table, next, sent, answer.data, ids, refuse))) {
        ids[id] = value;
        found[id] = `found in ${next.operationId}`;
      }
    }
    for (const o of pending) skip(o, "read", "not tried", plan.lacking(o, ids)!);

    const written = await writeSequences(table, options, scope, ids, answers, send, skip);
    const planned = new Set(results.map((r) => r.operationId));
    for (const o of Object.values(table.operations))
      if (!planned.has(o.operationId)) skip(o, "never", "never sent", neverSent(o));

    const version = String((doc.info as JsonObject | undefined)?.version ?? "?");
    const needed = [...new Set(reads.flatMap(plan.needs))];
    const report = buildReport(options, version, {
      ids,
      given,
      found,
      needed,
      results,
      secrets,
      written,
      scopes: table.ids,
    });
    const origin = new URL(options.baseUrl).origin;
    return options.overlay ? { ...report, overlay: overlayOf(spec, results, secrets, origin) } : report;
  } finally {
    if (!shared) await validator.stop();
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : "the client sent nothing");

/** Asks Prism about an answer the client took whole; a check that fails is said as the answer's one deviation. */
async function check(validator: Validator, exchange: Exchange) {
  const whole = exchange.status !== undefined && exchange.error === undefined && exchange.cut === undefined;
  if (!whole || exchange.redirect !== undefined) return;
  try {
    await validator.check(exchange);
  } catch (err) {
    const message = `Prism could not check this answer (${messageOf(err)})`;
    exchange.violations = JSON.stringify([{ location: ["response"], message }]);
  }
}
