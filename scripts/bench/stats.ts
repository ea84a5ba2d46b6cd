// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// Summary statistics of repeated measurements: median and spread (p25-p75 and MAD), never a single sample.

/** The q-quantile (0..1) of sorted numbers, linearly interpolated. */
function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/** { median, p25, p75, mad, min, max, n, samples } of a list of numbers. */
export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  const deviations = sorted.map((x) => Math.abs(x - median)).sort((a, b) => a - b);
  return {
    median,
    p25: quantile(sorted, 0.25),
    p75: quantile(sorted, 0.75),
    mad: quantile(deviations, 0.5),
    min: sorted[0],
    max: sorted.at(-1),
    n: sorted.length,
    samples,
  };
}

/** "12.3 [11.9-12.8]": median and p25-p75, with `digits` decimals. */
export function fmtSpread(s, digits = 1) {
  return `${s.median.toFixed(digits)} [${s.p25.toFixed(digits)}-${s.p75.toFixed(digits)}]`;
}

/** The contenders in a different order each round (a rotation), so drift and noise fall on all of them alike. */
export function rotation(items, round) {
  const k = round % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}
