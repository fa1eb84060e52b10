// AssemblyScript source of the NNUE kernel (compiled by `npm run build:wasm` to
// dist/nnue/nnue.wasm; never committed). The host (src/engine/nnue/wasm-kernel.ts) writes the
// network into the buffers allocated by init(); this file only adds and subtracts columns and
// takes the output layer's dot product, the same integer arithmetic as the TypeScript reference
// (src/engine/nnue/ts-kernel.ts), eight int16 lanes at a time.

let H: i32 = 0;
let NB: i32 = 0;
let QA: i32 = 255;
let QB: i32 = 64;
let SCALE: i32 = 400;
let W1: usize = 0;
let B1: usize = 0;
let W2: usize = 0;
let B2: usize = 0;
let ACC: usize = 0;
// Feature indices for update(): add W 0-1, sub W 2-3, add B 4-5, sub B 6-7; and 32 for refresh().
const DELTA = memory.data(32, 16);
const LIST = memory.data(128, 16);

export function init(hidden: i32, buckets: i32, qa: i32, qb: i32, scale: i32, slots: i32): void {
  H = hidden; NB = buckets; QA = qa; QB = qb; SCALE = scale;
  W1 = heap.alloc(<usize>(768 * H * 2));
  B1 = heap.alloc(<usize>(H * 2));
  W2 = heap.alloc(<usize>(NB * 2 * H * 2));
  B2 = heap.alloc(<usize>(NB * 4));
  ACC = heap.alloc(<usize>(slots * 2 * H * 2));
}
export function w1Ptr(): usize { return W1; }
export function b1Ptr(): usize { return B1; }
export function w2Ptr(): usize { return W2; }
export function b2Ptr(): usize { return B2; }
export function accPtr(): usize { return ACC; }
export function deltaPtr(): usize { return DELTA; }
export function listPtr(): usize { return LIST; }

@inline function acc(slot: i32, persp: i32): usize { return ACC + <usize>((slot * 2 + persp) * H * 2); }
@inline function col(f: i32): usize { return W1 + <usize>(f * H * 2); }

/** Accumulator (slot, persp) = bias + the columns of the n features in LIST. */
export function refresh(slot: i32, persp: i32, n: i32): void {
  const dst = acc(slot, persp);
  const bytes = H * 2;
  for (let i = 0; i < bytes; i += 16) v128.store(dst + i, v128.load(B1 + i));
  for (let k = 0; k < n; k++) {
    const c = col(load<i32>(LIST + (k << 2)));
    for (let i = 0; i < bytes; i += 16) v128.store(dst + i, i16x8.add(v128.load(dst + i), v128.load(c + i)));
  }
}

function updateOne(d: usize, s: usize, a0: usize, a1: usize, s0: usize, s1: usize, nAdd: i32, nSub: i32): void {
  const bytes = H * 2;
  if (nAdd === 1 && nSub === 1) {
    for (let i = 0; i < bytes; i += 16) {
      v128.store(d + i, i16x8.sub(i16x8.add(v128.load(s + i), v128.load(a0 + i)), v128.load(s0 + i)));
    }
  } else if (nAdd === 1 && nSub === 2) {
    for (let i = 0; i < bytes; i += 16) {
      v128.store(d + i, i16x8.sub(i16x8.sub(i16x8.add(v128.load(s + i), v128.load(a0 + i)), v128.load(s0 + i)), v128.load(s1 + i)));
    }
  } else {
    // Castling: two in, two out.
    for (let i = 0; i < bytes; i += 16) {
      const x = i16x8.add(i16x8.add(v128.load(s + i), v128.load(a0 + i)), v128.load(a1 + i));
      v128.store(d + i, i16x8.sub(i16x8.sub(x, v128.load(s0 + i)), v128.load(s1 + i)));
    }
  }
}

/** Accumulators of slot dst = those of slot src with the DELTA columns added and removed. */
export function update(dst: i32, src: i32, nAdd: i32, nSub: i32): void {
  for (let p = 0; p < 2; p++) {
    const o = DELTA + <usize>(p * 16);
    updateOne(acc(dst, p), acc(src, p), col(load<i32>(o)), col(load<i32>(o + 4)), col(load<i32>(o + 8)), col(load<i32>(o + 12)), nAdd, nSub);
  }
}

export function copy(dst: i32, src: i32): void {
  memory.copy(acc(dst, 0), acc(src, 0), <usize>(4 * H));
}

export function evaluate(slot: i32, stm: i32, bucket: i32): i32 {
  const us = acc(slot, stm), them = acc(slot, stm ^ 1);
  const w = W2 + <usize>(bucket * 4 * H);
  const zero = i16x8.splat(0), top = i16x8.splat(<i16>QA);
  let sum = i32x4.splat(0);
  const bytes = H * 2;
  for (let i = 0; i < bytes; i += 16) {
    const a = i16x8.min_s(i16x8.max_s(v128.load(us + i), zero), top);
    const b = i16x8.min_s(i16x8.max_s(v128.load(them + i), zero), top);
    sum = i32x4.add(sum, i32x4.dot_i16x8_s(a, v128.load(w + i)));
    sum = i32x4.add(sum, i32x4.dot_i16x8_s(b, v128.load(w + bytes + i)));
  }
  const total = i32x4.extract_lane(sum, 0) + i32x4.extract_lane(sum, 1) + i32x4.extract_lane(sum, 2) + i32x4.extract_lane(sum, 3)
    + load<i32>(B2 + <usize>(bucket * 4));
  return <i32>((<i64>total * <i64>SCALE) / <i64>(QA * QB));
}
