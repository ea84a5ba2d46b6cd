// --write: what the verify creates, changes and removes again, from the table alone (its `creates`, from the spec's
// `x-rainbond-undo`), inside the component named; and only when it knows what exists, removing only what it knows it
// made (docs/verifying-a-console.md, "What it sends").
import { effectOf } from "../../surface/effect.ts";
import type { Table, TableOperation } from "../../surface/table.ts";
import type { VerifyOptions } from "./options.ts";
import * as plan from "./plan.ts";
import type { OperationResult, Written } from "./result.ts";

export type Send = (
  o: TableOperation,
  input: plan.Request,
  phase: OperationResult["phase"],
  call?: string,
) => Promise<{ sent: false } | { sent: true; status?: number | undefined; ok: boolean; data: unknown }>;
export type Skip = (
  o: TableOperation,
  phase: OperationResult["phase"],
  outcome: OperationResult["outcome"],
  note: string,
) => void;

/**
 * --write: each create the table says how to remove, within the component named (plan.creates), as one sequence: a
 * new id none of what its list answered has, the create, the calls that change what it made (those whose effect is
 * `write`), and the undo. Nothing is written when what exists is not known (the list did not answer); the undo is sent
 * only for what is known to have been made: the create answered 2xx, or, when its outcome is not known (a 5xx, no
 * answer), the list read again shows it. Returns what each sequence made, and whether it was removed.
 */
export async function writeSequences(
  table: Table,
  options: VerifyOptions,
  scope: plan.Ids,
  ids: plan.Ids,
  answers: Map<string, unknown>,
  send: Send,
  skip: Skip,
) {
  const within = Object.keys(scope);
  const written: Written[] = [];
  for (const create of plan.creates(table, within)) {
    const { undo, id, list, changes } = create.creates!;
    const sequence = [create, ...changes.map((c) => table.operations[c]!), table.operations[undo]!];
    const notSent = (from: number, why: string) =>
      sequence.slice(from).forEach((o) => skip(o, "write", "not sent", why));
    if (!options.write) {
      notSent(0, "needs --write");
      continue;
    }
    const listing = list === undefined ? undefined : table.operations[list]!;
    const existing = list === undefined ? undefined : answers.get(list);
    if (!listing || existing === undefined) {
      notSent(0, `what exists is not known (${list ?? "no read at its path"} gave no answer to take): nothing written`);
      continue;
    }
    const made = { [id]: plan.unused(plan.recordsWith(listing, existing, id).map(([value]) => value)) };
    const at = { ...ids, ...made };
    const now = new Date();
    const input = plan.requestOf(create, at, now);
    const effect = effectOf(create.effect, input.body);
    if (effect !== "write") {
      notSent(0, `with the body the spec gives, it ${effect}: --write sends only what another call undoes`);
      continue;
    }
    const added = await send(create, input, "write");
    const status = added.sent ? added.status : undefined;
    let record =
      added.sent && added.ok && typeof added.data === "object" ? (added.data as Record<string, unknown>) : undefined;
    let madeIt: boolean | undefined = status !== undefined && status >= 200 && status < 300;
    if (!madeIt && added.sent && !(status !== undefined && status >= 400 && status < 500)) {
      // a 5xx or no answer: it may have been made; the list, read again, says whether it was
      const again = await send(listing, plan.requestOf(listing, ids, now), "write", `${listing.operationId} (again)`);
      const mine = again.sent && again.ok ? plan.recordsWith(listing, again.data, id) : undefined;
      const hit = mine?.find(([value]) => String(value) === String(made[id]));
      madeIt = mine === undefined ? undefined : hit !== undefined;
      record = hit?.[1];
    }
    const entry: Written = { operationId: create.operationId, made, created: madeIt };
    written.push(entry);
    if (!madeIt) {
      const why =
        madeIt === undefined ? "whether it was made is not known (the list did not answer again)" : "nothing was made";
      notSent(1, why);
      continue;
    }
    for (const change of changes.map((c) => table.operations[c]!)) {
      const calls = record ? plan.changesOf(table, change, record, at, now).filter((c) => c.effect === "write") : [];
      if (!calls.length)
        skip(change, "write", "not sent", record ? "no call of it only writes" : "what was made is not known");
      for (const call of calls)
        await send(change, { path: plan.requestOf(change, at, now).path, body: call.body }, "write", call.method.name);
    }
    const removed = await send(table.operations[undo]!, plan.requestOf(table.operations[undo]!, at, now), "write");
    entry.removed = removed.sent && removed.ok;
  }
  return written;
}
