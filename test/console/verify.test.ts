// `npm run verify` against the console stand-in (./stand-in.ts, which answers as the measured console did): with the
// console overlay applied to the spec, verify reports no departure, reading only and with --write (the port sequence).
// Against the transcription alone, the same console departs: the overlay is what closes the gap.
import { afterAll, beforeAll, expect, test } from "vitest";
import { bundleSpec, readSpec } from "../../scripts/lib/spec.ts";
import { root } from "../../scripts/lib/script.ts";
import type { Report } from "../../scripts/verify/report.ts";
import { verify } from "../../scripts/verify/run.ts";
import { startValidator, validatorSpec, type Validator } from "../../scripts/verify/validator.ts";
import { ids, startConsoleStandIn, TOKEN, type ConsoleStandIn } from "./stand-in.js";

let standIn: ConsoleStandIn;
let validator: Validator;
beforeAll(async () => {
  [standIn, validator] = await Promise.all([startConsoleStandIn(), startValidator(validatorSpec(readSpec(root)))]);
});
afterAll(async () => {
  await Promise.all([validator?.stop(), standIn?.close()]);
});

const scope = { team: ids.team, region: ids.region, app: ids.app, component: ids.component };
const run = (write: boolean) =>
  verify({ baseUrl: standIn.url, token: TOKEN, write, json: false, ...scope }, root, validator);
const outcomes = (report: Report) => Object.fromEntries(report.operations.map((o) => [o.operationId, o.outcome]));

test("reading: no departure, and the operations it can reach conform", async () => {
  const report = await run(false);
  expect(report.deviations).toEqual([]);
  expect(Object.values(outcomes(report))).toContain("conforms");
  expect(Object.values(outcomes(report))).not.toContain("deviates");
}, 120_000);

test("with --write (a port added, changed and deleted): no departure", async () => {
  const report = await run(true);
  expect(report.deviations).toEqual([]);
  expect(outcomes(report).addComponentPort).toBe("conforms");
  expect(outcomes(report).deleteComponentPort).toBe("conforms");
}, 120_000);

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
