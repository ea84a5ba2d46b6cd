// The spec's `x-rainbond-time-range`: query parameters that form a time range, checked together.
import { RainbondInputError } from "../core/errors.js";
import type { QueryRule } from "../core/table.js";
import { shown } from "./validate.js";

/**
 * The rules of a time range beyond each parameter's own (checked on numbers, after Dates became seconds): timestamps
 * in seconds, start before end, and no more points per series than the spec allows. Messages show the values as the
 * caller gave them: a Date as its ISO time, not as the seconds sent.
 */
export const timeRange: QueryRule = ({ name: operation, query: rules = {}, timeRange }, query, given, nameOf) => {
  const { start: from, end: to, step: every, maxPointsPerSeries: max = Infinity } = timeRange!;
  for (const param of [from, to]) {
    const value = query[param];
    const limit = rules[param]?.maximum;
    if (typeof value === "number" && Number.isFinite(value) && limit !== undefined && value > limit) {
      throw new RainbondInputError(
        operation,
        nameOf(param),
        `looks like milliseconds (${value}); pass Unix seconds or a Date`,
        "maximum",
      );
    }
  }
  const [start, end, step] = [query[from], query[to], query[every]];
  // anything else (missing, not a number, NaN, Infinity) is left to each parameter's own rules
  if (![start, end, step].every((v) => typeof v === "number" && Number.isFinite(v))) return;
  const [s, e, st] = [start, end, step] as [number, number, number];
  if (s >= e) {
    const [a, b] = [shown(given[from] ?? s), shown(given[to] ?? e)];
    const rule = `must be before ${nameOf(to)} (got ${a} >= ${b})`;
    throw new RainbondInputError(operation, nameOf(from), rule, "timeRange");
  }
  if (st > 0 && (e - s) / st > max) {
    throw new RainbondInputError(
      operation,
      nameOf(every),
      `gives ${Math.floor((e - s) / st)} points per series, over the limit of ${max}: use a step of at least ${Math.ceil((e - s) / max)} s`,
      "timeRange",
    );
  }
};
