// `npm run verify` against the console stand-in (./stand-in.ts, which answers as the measured console did, all 101
// operations): with the console overlay applied to the spec, verify reports no departure beyond the console's
// documented defects, reading only and with --write (the port sequence), and its counts are those of the table and
// the fixtures. Against the transcription alone, the same console departs: the overlay is what closes the gap.
import { afterAll, beforeAll, expect, test } from "vitest";
import { readTable } from "../../../scripts/lib/methods.ts";
import { bundleSpec, readSpec } from "../../../scripts/lib/spec.ts";
import { root } from "../../../scripts/lib/script.ts";
import { readOperations } from "../../../scripts/verify/plan.ts";
import type { Report } from "../../../scripts/verify/report.ts";
import { verify } from "../../../scripts/verify/run.ts";
import { startValidator, validatorSpec, type Validator } from "../../../scripts/verify/validator.ts";
import { ids, startConsoleStandIn, TOKEN, type ConsoleStandIn } from "../../helpers/console/stand-in.js";

let standIn: ConsoleStandIn;
let validator: Validator;
beforeAll(async () => {
  [standIn, validator] = await Promise.all([startConsoleStandIn(), startValidator(validatorSpec(readSpec(root)))]);
});
afterAll(async () => {
  await Promise.all([validator?.stop(), standIn?.close()]);
});

const table = readTable(root);
const reads = readOperations(table);
/** The read operations the spec marks as failing on this console whatever the request. */
const defects = reads.filter((o) => o.defect).map((o) => o.operationId);
/** The ids no recorded answer of the stand-in holds: the measured component had no events, the team no certificate. */
const UNFOUND = ["certificate_id", "event_id"];
const needing = (id: string) => reads.filter((o) => o.pathParams.includes(id)).map((o) => o.operationId);

const scope = { team: ids.team, region: ids.region, app: ids.app, component: ids.component };
const run = (write: boolean, more: Record<string, string> = {}) =>
  verify({ baseUrl: standIn.url, token: TOKEN, write, json: false, ...scope, ids: more }, root, validator);
const lines = (report: Report) => Object.fromEntries(report.operations.map((o) => [o.operationId, o]));

test("reading: no departure; every read operation sent but those whose ids no answer holds; the defects said", async () => {
  const report = await run(false);
  expect(report.deviations).toEqual([]);
  expect(report.exitCode).toBe(0);
  const notTried = [...new Set(UNFOUND.flatMap(needing))].sort();
  expect(
    report.operations
      .filter((o) => o.outcome === "not tried")
      .map((o) => o.operationId)
      .sort(),
  ).toEqual(notTried);
  expect(report.counts).toEqual({
    operations: 101,
    read: reads.length,
    readSent: reads.length - notTried.length,
    notTried: notTried.length,
    defects: defects.length,
    defectsNotShown: 0,
    written: 0,
    neverSent: 101 - reads.length - 3, // the port sequence is "not sent" (needs --write), not "never"
  });
  for (const op of defects) {
    expect(lines(report)[op]).toMatchObject({ outcome: "defect", defect: "shown", deviations: [] });
    expect(lines(report)[op]!.note).toMatch(/^the console's known defect \(finding \d+\): /);
  }
  expect(defects.length).toBeGreaterThan(0);
});

test("with the ids no answer holds given (--id): every read operation of the table is sent", async () => {
  const report = await run(false, { event_id: "5e1f0c0de0e0400a9b8c7d6e5f4a3b2c", certificate_id: "3" });
  expect(report.deviations).toEqual([]);
  expect(report.counts).toMatchObject({ read: reads.length, readSent: reads.length, notTried: 0 });
  for (const { operationId } of reads) expect(lines(report)[operationId]!.status, operationId).toBeDefined();
  expect(report.ids.find((id) => id.name === "certificate_id")).toEqual({
    name: "certificate_id",
    value: "3",
    source: "given",
  });
});

test("with --write (a port added, changed and deleted): no departure, and the port is gone again", async () => {
  const before = [...standIn.ports.keys()];
  const report = await run(true);
  expect(report.deviations).toEqual([]);
  expect(report.exitCode).toBe(0);
  expect(report.counts.written).toBe(5);
  expect(lines(report).addComponentPort).toMatchObject({ outcome: "conforms", phase: "write" });
  expect(lines(report).deleteComponentPort).toMatchObject({ outcome: "conforms", phase: "write" });
  expect([...standIn.ports.keys()]).toEqual(before);
});

test("a defect that no longer shows is reported as such (it may be fixed), not as a departure", async () => {
  const [fixed] = defects;
  standIn.drift = (op) => (op === fixed ? { status: 200, body: [] } : undefined);
  try {
    const report = await run(false);
    expect(lines(report)[fixed!]).toMatchObject({ outcome: "conforms", defect: "not shown" });
    expect(lines(report)[fixed!]!.note).toMatch(/known defect .*did not show: it may be fixed/);
    expect(report.counts).toMatchObject({ defects: defects.length - 1, defectsNotShown: 1 });
    expect(report.exitCode).toBe(0);
  } finally {
    standIn.drift = undefined;
  }
});

test("the transcription alone departs from the same console: the overlay closes the gap", async () => {
  const transcription = await bundleSpec(undefined, { overlay: false });
  const bare = await startValidator(validatorSpec(transcription));
  try {
    const options = { baseUrl: standIn.url, token: TOKEN, write: false, json: false, ...scope };
    const report = await verify(options, root, bare);
    expect(report.deviations.length).toBeGreaterThan(0);
  } finally {
    await bare.stop();
  }
}, 120_000);
