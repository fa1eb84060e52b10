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
// 1: squared clipped ReLU (clamp²·w, the sum divided by QA); 0: clipped ReLU.
let SQUARED: i32 = 0;
// The squared activation's int32 partial sums cover this many bytes of one accumulator (the
// host's squaredChunkNeurons(QA) neurons) before they widen to int64.
let CHUNK_BYTES: i32 = 0;
let W1: usize = 0;
let B1: usize = 0;
let W2: usize = 0;
let B2: usize = 0;
let ACC: usize = 0;
let PSQT: usize = 0;
let PSQ: usize = 0;
// Feature indices for update(): add W 0-1, sub W 2-3, add B 4-5, sub B 6-7; and 32 for refresh().
const DELTA = memory.data(32, 16);
const LIST = memory.data(128, 16);

// The buffers come from the stub runtime's bump allocator, which grows the memory as they need
// (3840 inputs × 512 hidden × 2 bytes of W1 is 60 pages; the limit is the 4 GiB address space),
// and nothing is allocated after init, so the host's views of the memory stay valid.
// `inputs`: the rows of W1 and PSQT (the feature set's: 768, or 3840 with king buckets).
// `chunkNeurons`: squaredChunkNeurons(qa) (src/engine/nnue/network.ts), a multiple of 8.
export function init(inputs: i32, hidden: i32, buckets: i32, qa: i32, qb: i32, scale: i32, slots: i32, squared: i32, chunkNeurons: i32): void {
  H = hidden; NB = buckets; QA = qa; QB = qb; SCALE = scale; SQUARED = squared; CHUNK_BYTES = chunkNeurons * 2;
  W1 = heap.alloc(<usize>inputs * <usize>H * 2);
  B1 = heap.alloc(<usize>(H * 2));
  W2 = heap.alloc(<usize>(NB * 2 * H * 2));
  B2 = heap.alloc(<usize>(NB * 4));
  ACC = heap.alloc(<usize>(slots * 2 * H * 2));
  PSQT = heap.alloc(<usize>inputs * <usize>NB * 4);
  PSQ = heap.alloc(<usize>(slots * 2 * NB * 4));
}
export function psqtPtr(): usize { return PSQT; }
export function w1Ptr(): usize { return W1; }
export function b1Ptr(): usize { return B1; }
export function w2Ptr(): usize { return W2; }
export function b2Ptr(): usize { return B2; }
export function accPtr(): usize { return ACC; }
export function deltaPtr(): usize { return DELTA; }
export function listPtr(): usize { return LIST; }

@inline function acc(slot: i32, persp: i32): usize { return ACC + <usize>((slot * 2 + persp) * H * 2); }
@inline function col(f: i32): usize { return W1 + <usize>(f * H * 2); }
@inline function psq(slot: i32, persp: i32): usize { return PSQ + <usize>((slot * 2 + persp) * NB * 4); }
@inline function prow(f: i32): usize { return PSQT + <usize>(f * NB * 4); }

/** Accumulator (slot, persp) = bias + the columns of the n features in LIST. */
export function refresh(slot: i32, persp: i32, n: i32): void {
  const dst = acc(slot, persp);
  const bytes = H * 2;
  for (let i = 0; i < bytes; i += 16) v128.store(dst + i, v128.load(B1 + i));
  const q = psq(slot, persp);
  for (let b = 0; b < NB; b++) store<i32>(q + (b << 2), 0);
  for (let k = 0; k < n; k++) {
    const f = load<i32>(LIST + (k << 2));
    const c = col(f);
    for (let i = 0; i < bytes; i += 16) v128.store(dst + i, i16x8.add(v128.load(dst + i), v128.load(c + i)));
    const r = prow(f);
    for (let b = 0; b < NB; b++) store<i32>(q + (b << 2), load<i32>(q + (b << 2)) + load<i32>(r + (b << 2)));
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
    const a0 = load<i32>(o), a1 = load<i32>(o + 4), s0 = load<i32>(o + 8), s1 = load<i32>(o + 12);
    updateOne(acc(dst, p), acc(src, p), col(a0), col(a1), col(s0), col(s1), nAdd, nSub);
    const qd = psq(dst, p), qs = psq(src, p), ra0 = prow(a0), ra1 = prow(a1), rs0 = prow(s0), rs1 = prow(s1);
    for (let b = 0; b < NB; b++) {
      const k = <usize>(b << 2);
      let x = load<i32>(qs + k) + load<i32>(ra0 + k) - load<i32>(rs0 + k);
      if (nAdd === 2) x += load<i32>(ra1 + k);
      if (nSub === 2) x -= load<i32>(rs1 + k);
      store<i32>(qd + k, x);
    }
  }
}

export function copy(dst: i32, src: i32): void {
  memory.copy(acc(dst, 0), acc(src, 0), <usize>(4 * H));
  memory.copy(psq(dst, 0), psq(src, 0), <usize>(8 * NB));
}

/**
 * The squared activation's sum Σ clamp(us)²·w + Σ clamp(them)²·w, exact at any width. Each
 * clamp·w is exact in an int16 lane (QA·|w| ≤ 32767, the loader's check), i32x4.dot_i16x8_s
 * multiplies it by the clamp again and adds pairs into int32 lanes, one accumulator a
 * perspective; after CHUNK_BYTES of neurons (at most 2^31 / (2·32767·QA) blocks, so no lane can
 * overflow) the lanes widen into int64 ones. The old single int32 sum held only 128 neurons.
 */
function squaredSum(us: usize, them: usize, w: usize): i64 {
  const zero = i16x8.splat(0), top = i16x8.splat(<i16>QA);
  const bytes = H * 2;
  let wide = i64x2.splat(0);
  for (let start = 0; start < bytes; start += CHUNK_BYTES) {
    const end = min(start + CHUNK_BYTES, bytes);
    let su = i32x4.splat(0), st = i32x4.splat(0);
    for (let i = start; i < end; i += 16) {
      const a = i16x8.min_s(i16x8.max_s(v128.load(us + i), zero), top);
      const b = i16x8.min_s(i16x8.max_s(v128.load(them + i), zero), top);
      su = i32x4.add(su, i32x4.dot_i16x8_s(i16x8.mul(a, v128.load(w + i)), a));
      st = i32x4.add(st, i32x4.dot_i16x8_s(i16x8.mul(b, v128.load(w + bytes + i)), b));
    }
    wide = i64x2.add(wide, i64x2.add(i64x2.extend_low_i32x4_s(su), i64x2.extend_high_i32x4_s(su)));
    wide = i64x2.add(wide, i64x2.add(i64x2.extend_low_i32x4_s(st), i64x2.extend_high_i32x4_s(st)));
  }
  return i64x2.extract_lane(wide, 0) + i64x2.extract_lane(wide, 1);
}

/**
 * The clipped activation's sum Σ clamp(us)·w + Σ clamp(them)·w: i32x4.dot_i16x8_s adds pairs of
 * products into int32 lanes, one accumulator a perspective (two independent chains of additions);
 * the loader bounds the whole sum, and so every partial one, below 2^31.
 */
function clippedSum(us: usize, them: usize, w: usize): i32 {
  const zero = i16x8.splat(0), top = i16x8.splat(<i16>QA);
  const bytes = H * 2;
  let su = i32x4.splat(0), st = i32x4.splat(0);
  for (let i = 0; i < bytes; i += 16) {
    const a = i16x8.min_s(i16x8.max_s(v128.load(us + i), zero), top);
    const b = i16x8.min_s(i16x8.max_s(v128.load(them + i), zero), top);
    su = i32x4.add(su, i32x4.dot_i16x8_s(a, v128.load(w + i)));
    st = i32x4.add(st, i32x4.dot_i16x8_s(b, v128.load(w + bytes + i)));
  }
  const sum = i32x4.add(su, st);
  return i32x4.extract_lane(sum, 0) + i32x4.extract_lane(sum, 1) + i32x4.extract_lane(sum, 2) + i32x4.extract_lane(sum, 3);
}

export function evaluate(slot: i32, stm: i32, bucket: i32): i32 {
  const us = acc(slot, stm), them = acc(slot, stm ^ 1);
  const w = W2 + <usize>(bucket * 4 * H);
  let hidden: i32;
  if (SQUARED) {
    // Divided by QA (truncated, as the reference), it is within the clipped sum's 32-bit bound.
    hidden = <i32>(squaredSum(us, them, w) / <i64>QA);
  } else {
    hidden = clippedSum(us, them, w);
  }
  const total = hidden
    + load<i32>(B2 + <usize>(bucket * 4))
    + (load<i32>(psq(slot, stm) + <usize>(bucket << 2)) - load<i32>(psq(slot, stm ^ 1) + <usize>(bucket << 2))) / 2;
  return <i32>((<i64>total * <i64>SCALE) / <i64>(QA * QB));
}
