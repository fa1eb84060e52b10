/** The median of a sample (the mean of the middle two for an even count; NaN if any value is NaN), for the benches' repeated runs. */
export function median(xs: number[]): number {
  if (xs.some((x) => Number.isNaN(x))) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
