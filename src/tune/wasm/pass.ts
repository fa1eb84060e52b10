// AssemblyScript source of the trainer's pass kernel (compiled by `npm run build:wasm` to
// dist/tune/nnue-pass.wasm; never committed). The host (src/tune/nnue-pass-wasm.ts) copies the
// float network and the gradient buffers in and out and computes the position's columns, the loss
// and the sigmoid; this file does the rest of one position's forward and backward pass with the
// same floating-point operations, in the same order, as the TypeScript reference (src/tune/nnue-pass.ts), so the two
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

/** `inputs`: W1's and the piece-square term's rows (the feature set's inputs and any factor block). */
export function init(hidden: i32, buckets: i32, squared: i32, inputs: i32): void {
  H = hidden; NB = buckets; SQUARED = squared !== 0;
  const w1 = <usize>(inputs * H * 4), b1 = <usize>(H * 4), w2 = <usize>(NB * 2 * H * 4), psqt = <usize>(inputs * NB * 4);
  W1 = heap.alloc(w1); B1 = heap.alloc(b1); W2 = heap.alloc(w2); PSQT = heap.alloc(psqt);
  GW1 = heap.alloc(w1); GB1 = heap.alloc(b1); GW2 = heap.alloc(w2); GPSQT = heap.alloc(psqt);
  ACCS = heap.alloc(b1); ACCN = heap.alloc(b1); DS = heap.alloc(b1); DN = heap.alloc(b1);
}
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
