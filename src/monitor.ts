// Monitoring helpers: the time-range rules of range queries, and samples as numbers.
import { maxPointsPerSeries, operations } from "../generated/operations.js";
import type { Sample } from "./api.js";
import { RainbondInputError } from "./errors.js";
import { shown } from "./validate.js";

const rangeQuery = operations.queryComponentMonitorRange.query;

/**
 * The rules of a range query beyond each parameter's own (checked on numbers, after Dates became seconds):
 * timestamps in seconds, `start` before `end`, and no more than the Prometheus limit of points per series. Messages
 * show the values as the caller gave them (`given`): a Date as its ISO time, not as the seconds sent.
 */
export function checkTimeRange(
  query: Record<string, unknown>,
  operation: string,
  given: Record<string, unknown> = query,
): void {
  for (const key of ["start", "end"] as const) {
    const value = query[key];
    const max = rangeQuery[key]?.maximum;
    if (typeof value === "number" && Number.isFinite(value) && max !== undefined && value > max) {
      throw new RainbondInputError(
        operation,
        `options.${key}`,
        `looks like milliseconds (${value}); pass Unix seconds or a Date`,
      );
    }
  }
  const { start, end, step } = query;
  // Anything else (missing, not a number, NaN, Infinity) is left to each parameter's own rules.
  if (![start, end, step].every(Number.isFinite)) return;
  if (typeof start !== "number" || typeof end !== "number" || typeof step !== "number") return;
  if (start >= end) {
    const [from, to] = [shown(given.start ?? start), shown(given.end ?? end)];
    throw new RainbondInputError(operation, "options.start", `must be before options.end (got ${from} >= ${to})`);
  }
  if (step > 0 && (end - start) / step > maxPointsPerSeries) {
    const least = Math.ceil((end - start) / maxPointsPerSeries);
    throw new RainbondInputError(
      operation,
      "options.step",
      `gives ${Math.floor((end - start) / step)} points per series, over the limit of ${maxPointsPerSeries}: use a step of at least ${least} s`,
    );
  }
}

/**
 * Turns a monitoring result's `[timestamp, value]` string pairs into `{ time: Date, value: number }`.
 *
 * @example
 * const [web] = await client.monitor.queryRange(app, { start, end });
 * const samples = toSamples(web.monitors?.[0]?.data);
 */
export function toSamples(data: { result: { value: string[] }[] } | null | undefined): Sample[] {
  return (data?.result ?? []).map(({ value: [time = "", value = ""] }) => ({
    time: new Date(Number(time) * 1000),
    value: Number(value),
  }));
}
