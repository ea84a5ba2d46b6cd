// Monitoring results' samples as numbers.

/** A sample of a monitoring series, as numbers. */
export interface Sample {
  time: Date;
  value: number;
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
