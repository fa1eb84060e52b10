/**
 * Golden-section search: the argument in [lo, hi] at which a function with one minimum there is
 * least, the interval shrinking by 0.618 per iteration (one new evaluation each). The tuners fit
 * their sigmoid scales with it (texel/fit.ts fitK, nnue/train.ts fitWdlScale).
 */
export function goldenSectionMin(f: (x: number) => number, lo: number, hi: number, iterations: number): number {
  const g = (Math.sqrt(5) - 1) / 2;
  let a = lo,
    b = hi;
  let c = b - g * (b - a),
    d = a + g * (b - a);
  let fc = f(c),
    fd = f(d);
  for (let it = 0; it < iterations; it++) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - g * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + g * (b - a);
      fd = f(d);
    }
  }
  return (a + b) / 2;
}
