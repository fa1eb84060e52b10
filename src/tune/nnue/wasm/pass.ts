// AssemblyScript source of the trainer's pass kernel (compiled by `npm run build:wasm` to
// dist/tune/nnue-pass.wasm; never committed). The host (src/tune/nnue/pass-wasm.ts) copies the
// float network and the gradient buffers in and out and computes the position's columns, the loss
// and the sigmoid; this file does the rest of one position's forward and backward pass with the
// same floating-point operations, in the same order, as the TypeScript reference (src/tune/nnue/pass.ts), so the two
// give bit-identical gradients. The column sums (accumulators forward, first-layer gradient
// backward) are single-precision additions, elementwise, four lanes at a time; the output's dot
// product and the per-neuron gradient are double precision in the reference's order.

let H: i32 = 0;
let NB: i32 = 0;
let SQUARED: bool = false;
let W1: usize = 0;
let B1: usize = 0;
let W2: usize = 0;
let PSQT: usize = 0;
let GW1: usize = 0;
let GB1: usize = 0;
let GW2: usize = 0;
let GPSQT: usize = 0;
let ACCS: usize = 0;
let ACCN: usize = 0;
let DS: usize = 0;
let DN: usize = 0;
// The position's columns from the side to move's and the other side's view (i32 each, up to 64:
// a feature and its factor column), written by the host before forward() and kept for backward().
const COLS = memory.data(64 * 4, 16);
const COLN = memory.data(64 * 4, 16);
let N: i32 = 0;
let BUCKET: i32 = 0;

// Adam's moments of W1, b1, W2 and the piece-square term (in that order), when the trainer keeps
// them here (init's `moments`).
const MOMENTS = memory.data(8 * 8, 16);

/**
 * `inputs`: W1's and the piece-square term's rows (the feature set's inputs and any factor block);
 * `moments` 1: also Adam's moments, for a trainer that keeps its whole state here.
 */
export function init(hidden: i32, buckets: i32, squared: i32, inputs: i32, moments: i32): void {
  H = hidden; NB = buckets; SQUARED = squared !== 0;
  const w1 = <usize>(inputs * H * 4), b1 = <usize>(H * 4), w2 = <usize>(NB * 2 * H * 4), psqt = <usize>(inputs * NB * 4);
  W1 = heap.alloc(w1); B1 = heap.alloc(b1); W2 = heap.alloc(w2); PSQT = heap.alloc(psqt);
  GW1 = heap.alloc(w1); GB1 = heap.alloc(b1); GW2 = heap.alloc(w2); GPSQT = heap.alloc(psqt);
  ACCS = heap.alloc(b1); ACCN = heap.alloc(b1); DS = heap.alloc(b1); DN = heap.alloc(b1);
  if (moments !== 0) {
    const sizes: usize[] = [w1, b1, w2, psqt];
    for (let p = 0; p < 4; p++) {
      store<usize>(MOMENTS + (<usize>(2 * p) << 3), heap.alloc(sizes[p]));
      store<usize>(MOMENTS + (<usize>(2 * p + 1) << 3), heap.alloc(sizes[p]));
    }
  }
}
/** Adam's first (which 0) or second (1) moment of weight array p (0 W1, 1 b1, 2 W2, 3 piece-square term). */
export function momentPtr(p: i32, which: i32): usize { return load<usize>(MOMENTS + (<usize>(2 * p + which) << 3)); }
export function w1Ptr(): usize { return W1; }
export function b1Ptr(): usize { return B1; }
export function w2Ptr(): usize { return W2; }
export function psqtPtr(): usize { return PSQT; }
export function gw1Ptr(): usize { return GW1; }
export function gb1Ptr(): usize { return GB1; }
export function gw2Ptr(): usize { return GW2; }
export function gpsqtPtr(): usize { return GPSQT; }
export function colsPtr(): usize { return COLS; }
export function colnPtr(): usize { return COLN; }

@inline function clamp01(x: f64): f64 { return x < 0 ? 0 : x > 1 ? 1 : x; }

/**
 * The output (before σ) of the position whose n columns are in COLS and COLN: out0 is the host's
 * start (the bucket's bias, plus the classical term of a residual network).
 */
export function forward(n: i32, bucket: i32, out0: f64): f64 {
  N = n; BUCKET = bucket;
  const bytes = H * 4;
  for (let i = 0; i < bytes; i += 16) {
    const b = v128.load(B1 + i);
    v128.store(ACCS + i, b);
    v128.store(ACCN + i, b);
  }
  let out = out0;
  for (let f = 0; f < n; f++) {
    const fs = load<i32>(COLS + (f << 2)), fn = load<i32>(COLN + (f << 2));
    const cs = W1 + <usize>(fs * bytes), cn = W1 + <usize>(fn * bytes);
    for (let i = 0; i < bytes; i += 16) {
      v128.store(ACCS + i, f32x4.add(v128.load(ACCS + i), v128.load(cs + i)));
      v128.store(ACCN + i, f32x4.add(v128.load(ACCN + i), v128.load(cn + i)));
    }
  }
  for (let f = 0; f < n; f++) {
    const fs = load<i32>(COLS + (f << 2)), fn = load<i32>(COLN + (f << 2));
    out += 0.5 * (<f64>load<f32>(PSQT + <usize>((fs * NB + bucket) << 2)) - <f64>load<f32>(PSQT + <usize>((fn * NB + bucket) << 2)));
  }
  const wo = W2 + <usize>(bucket * 2 * bytes);
  for (let j = 0; j < H; j++) {
    const k = <usize>(j << 2);
    const s = clamp01(<f64>load<f32>(ACCS + k)), o = clamp01(<f64>load<f32>(ACCN + k));
    const ws = <f64>load<f32>(wo + k), wn = <f64>load<f32>(wo + <usize>bytes + k);
    out += SQUARED ? s * s * ws + o * o * wn : s * ws + o * wn;
  }
  return out;
}

/** Adds the gradient of the last forward() position, whose output's derivative is g, to the G buffers. */
export function backward(g: f64): void {
  const bytes = H * 4, bucket = BUCKET, n = N;
  const wo = W2 + <usize>(bucket * 2 * bytes), go = GW2 + <usize>(bucket * 2 * bytes);
  for (let j = 0; j < H; j++) {
    const k = <usize>(j << 2);
    const s = <f64>load<f32>(ACCS + k), o = <f64>load<f32>(ACCN + k);
    const cs = clamp01(s), co = clamp01(o);
    store<f32>(go + k, <f32>(<f64>load<f32>(go + k) + g * (SQUARED ? cs * cs : cs)));
    store<f32>(go + <usize>bytes + k, <f32>(<f64>load<f32>(go + <usize>bytes + k) + g * (SQUARED ? co * co : co)));
    const ds: f64 = s > 0 && s < 1 ? g * <f64>load<f32>(wo + k) * (SQUARED ? 2 * s : 1) : 0;
    const dn: f64 = o > 0 && o < 1 ? g * <f64>load<f32>(wo + <usize>bytes + k) * (SQUARED ? 2 * o : 1) : 0;
    store<f32>(DS + k, <f32>ds);
    store<f32>(DN + k, <f32>dn);
    store<f32>(GB1 + k, <f32>(<f64>load<f32>(GB1 + k) + (ds + dn)));
  }
  const half = 0.5 * g;
  for (let f = 0; f < n; f++) {
    const fs = load<i32>(COLS + (f << 2)), fn = load<i32>(COLN + (f << 2));
    const cs = GW1 + <usize>(fs * bytes), cn = GW1 + <usize>(fn * bytes);
    for (let i = 0; i < bytes; i += 16) {
      v128.store(cs + i, f32x4.add(v128.load(cs + i), v128.load(DS + i)));
      v128.store(cn + i, f32x4.add(v128.load(cn + i), v128.load(DN + i)));
    }
    const ps = GPSQT + <usize>((fs * NB + bucket) << 2), pn = GPSQT + <usize>((fn * NB + bucket) << 2);
    store<f32>(ps, <f32>(<f64>load<f32>(ps) + half));
    store<f32>(pn, <f32>(<f64>load<f32>(pn) - half));
  }
}

/**
 * Adam with decoupled weight decay over the n f32 weights at w (gradients g, moments m and v), the
 * TypeScript reference's updateRange (src/tune/nnue/gradients.ts) bit for bit: the same f64
 * operations in the same order, two lanes at a time, each moment rounded to f32 when stored and
 * read back so, and lanes whose gradient and first moment are both 0 left as they are.
 */
export function adam(w: usize, g: usize, m: usize, v: usize, n: i32, clip: f64, shrink: f64, lr: f64, scale: f64, c1: f64, c2: f64): void {
  const b1: f64 = 0.9, b2: f64 = 0.999, eps: f64 = 1e-8;
  const vb1 = f64x2.splat(b1), vb1c = f64x2.splat(1 - b1), vb2 = f64x2.splat(b2), vb2c = f64x2.splat(1 - b2);
  const vscale = f64x2.splat(scale), vshrink = f64x2.splat(shrink), vlr = f64x2.splat(lr), vc1 = f64x2.splat(c1), vc2 = f64x2.splat(c2);
  const veps = f64x2.splat(eps), vclip = f64x2.splat(clip), vnclip = f64x2.splat(-clip), zero = f64x2.splat(0);
  let i = 0;
  for (; i + 2 <= n; i += 2) {
    const o = <usize>(i << 2);
    const gi = f64x2.mul(f64x2.promote_low_f32x4(v128.load64_zero(g + o)), vscale);
    const m0 = f64x2.promote_low_f32x4(v128.load64_zero(m + o));
    const v0 = f64x2.promote_low_f32x4(v128.load64_zero(v + o));
    const w0 = f64x2.promote_low_f32x4(v128.load64_zero(w + o));
    const skip = v128.and(f64x2.eq(gi, zero), f64x2.eq(m0, zero));
    const m32 = f32x4.demote_f64x2_zero(f64x2.add(f64x2.mul(vb1, m0), f64x2.mul(vb1c, gi)));
    const v32 = f32x4.demote_f64x2_zero(f64x2.add(f64x2.mul(vb2, v0), f64x2.mul(f64x2.mul(vb2c, gi), gi)));
    const m1 = f64x2.promote_low_f32x4(m32), v1 = f64x2.promote_low_f32x4(v32);
    let x = f64x2.sub(f64x2.mul(w0, vshrink), f64x2.div(f64x2.mul(vlr, f64x2.div(m1, vc1)), f64x2.add(f64x2.sqrt(f64x2.div(v1, vc2)), veps)));
    x = v128.bitselect(vclip, x, f64x2.gt(x, vclip));
    x = v128.bitselect(vnclip, x, f64x2.lt(x, vnclip));
    const w32 = f32x4.demote_f64x2_zero(x);
    // The 64-bit lanes' mask as two 32-bit lanes, for the f32 pairs.
    const skip32 = v128.shuffle<i32>(skip, skip, 0, 2, 0, 2);
    v128.store64_lane(m + o, v128.bitselect(v128.load64_zero(m + o), m32, skip32), 0);
    v128.store64_lane(v + o, v128.bitselect(v128.load64_zero(v + o), v32, skip32), 0);
    v128.store64_lane(w + o, v128.bitselect(v128.load64_zero(w + o), w32, skip32), 0);
  }
  for (; i < n; i++) {
    const o = <usize>(i << 2);
    const gi = <f64>load<f32>(g + o) * scale;
    if (gi == 0 && <f64>load<f32>(m + o) == 0) continue;
    store<f32>(m + o, <f32>(b1 * <f64>load<f32>(m + o) + (1 - b1) * gi));
    store<f32>(v + o, <f32>(b2 * <f64>load<f32>(v + o) + (1 - b2) * gi * gi));
    let x = <f64>load<f32>(w + o) * shrink - (lr * (<f64>load<f32>(m + o) / c1)) / (Math.sqrt(<f64>load<f32>(v + o) / c2) + eps);
    if (x > clip) x = clip;
    else if (x < -clip) x = -clip;
    store<f32>(w + o, <f32>x);
  }
}
