// AssemblyScript source of the BNN slider kernel (compiled by `npm run build:wasm` to
// dist/bnn/bnn.wasm; never committed). The host (src/bnn/wasm-kernel.ts) fills the tables
// below from the weights file and the layout, so this file holds no chess knowledge beyond
// the gather/scatter arithmetic.
//
// Per (piece, square) an INFO entry of 64 bytes:
//   0 maskA u64    relevant occupancy of line A (rank / diagonal)
//   8 maskB u64    relevant occupancy of line B (file / anti-diagonal)
//  16 mulB u64     multiplier gathering line B into the top byte
//  24 lineA u64    line A squares (scatter target of output bits 0..7)
//  32 lineB u64    line B squares (scatter target of output bits 8..15)
//  40 weights u32  address of the square's first network
//  44 count u32    number of networks (targets)
//  48 shiftB u32   right shift before the line-B multiply (file of a rook, else 0)
//  52 spread u32   address of the 256-entry u64 table spreading output byte B onto line B (pre-shift)
//  56 bits u32     address of the per-network output bit numbers (u8)

const INFO_SIZE: u32 = 64;
const MAX_NETWORKS: u32 = 1456;

const INFO = memory.data(128 * 64, 16);
const BITS = memory.data(MAX_NETWORKS, 16);
const WEIGHTS = memory.data(MAX_NETWORKS * 64, 16);
const SPREAD = memory.data(2 * 256 * 8, 16);
const OUT = memory.data(16, 16);

export function infoPtr(): usize { return INFO; }
export function bitsPtr(): usize { return BITS; }
export function weightsPtr(): usize { return WEIGHTS; }
export function spreadPtr(): usize { return SPREAD; }
export function outPtr(): usize { return OUT; }
/** Scratch memory for batches (bump allocation, never freed: callers reuse it). */
export function alloc(bytes: usize): usize { return heap.alloc(bytes); }

/** 1 = 16x32x1, 2 = 64x64x1: chosen once by the host after loading weights. */
let layout: i32 = 1;
export function setLayout(id: i32): void { layout = id; }

// @ts-ignore: decorator
@inline function gather16(e: usize, occ: u64): u32 {
  const a = ((occ & load<u64>(e, 0)) * 0x0101010101010101) >> 56;
  const b = (((occ & load<u64>(e, 8)) >> (load<u32>(e, 48) as u64)) * load<u64>(e, 16)) >> 56;
  return (a | (b << 8)) as u32;
}

// @ts-ignore: decorator
@inline function scatter(e: usize, word: u32): u64 {
  const a = ((word & 0xff) as u64) * 0x0101010101010101 & load<u64>(e, 24);
  const b = (load<u64>(load<u32>(e, 52) + ((word >> 8) << 3)) << (load<u32>(e, 48) as u64)) & load<u64>(e, 32);
  return a | b;
}

/** 16x32x1: 32 byte-neurons per network; i16x8.splat puts the low byte in even lanes, the high byte in odd lanes. */
// @ts-ignore: decorator
@inline function infer16(e: usize, word: u32): u32 {
  const input = i16x8.splat(word as i16);
  const four = i8x16.splat(4);
  let w = load<u32>(e, 40) as usize;
  const n = load<u32>(e, 44);
  const bits = load<u32>(e, 56) as usize;
  let out: u32 = 0;
  for (let k: usize = 0; k < n; k++, w += 32) {
    const m0 = i8x16.lt_s(i8x16.popcnt(v128.xor(input, v128.load(w))), four);
    const m1 = i8x16.lt_s(i8x16.popcnt(v128.xor(input, v128.load(w, 16))), four);
    const fired = popcnt<u32>((i8x16.bitmask(m0) as u32) | ((i8x16.bitmask(m1) as u32) << 16));
    out |= ((16 - fired) >> 31) << (load<u8>(bits + k) as u32);
  }
  return out;
}

/** 64x64x1: i64x2.splat of the masked occupancy puts byte (i mod 8) in lane i, as neuron i reads. */
// @ts-ignore: decorator
@inline function infer64(e: usize, occ: u64): u32 {
  const input = i64x2.splat((occ & (load<u64>(e, 0) | load<u64>(e, 8))) as i64);
  const four = i8x16.splat(4);
  let w = load<u32>(e, 40) as usize;
  const n = load<u32>(e, 44);
  const bits = load<u32>(e, 56) as usize;
  let out: u32 = 0;
  for (let k: usize = 0; k < n; k++, w += 64) {
    const m0 = i8x16.lt_s(i8x16.popcnt(v128.xor(input, v128.load(w))), four);
    const m1 = i8x16.lt_s(i8x16.popcnt(v128.xor(input, v128.load(w, 16))), four);
    const m2 = i8x16.lt_s(i8x16.popcnt(v128.xor(input, v128.load(w, 32))), four);
    const m3 = i8x16.lt_s(i8x16.popcnt(v128.xor(input, v128.load(w, 48))), four);
    const fired = popcnt<u32>((i8x16.bitmask(m0) as u32) | ((i8x16.bitmask(m1) as u32) << 16))
      + popcnt<u32>((i8x16.bitmask(m2) as u32) | ((i8x16.bitmask(m3) as u32) << 16));
    out |= ((16 - fired) >> 31) << (load<u8>(bits + k) as u32);
  }
  return out;
}

// @ts-ignore: decorator
@inline function slide(entry: u32, occ: u64): u64 {
  const e = INFO + (entry as usize) * INFO_SIZE;
  const word = layout == 1 ? infer16(e, gather16(e, occ)) : infer64(e, occ);
  return scatter(e, word);
}

/** Attacks of one slider; piece 0 rook, 1 bishop. Result at OUT (lo, hi) and returned low half. */
export function attacks(piece: i32, sq: i32, lo: i32, hi: i32): i32 {
  const occ = ((hi as u64) << 32) | ((lo as u32) as u64);
  const r = slide(((piece << 6) | sq) as u32, occ);
  store<u64>(OUT, r);
  return r as i32;
}

/**
 * The bench loop: for each of `count` occupancies, queen attacks (rook | bishop) on `perOcc`
 * squares; returns a checksum (sums of the attack sets' halves, stored at OUT as lo, hi)
 * so that nothing is optimised away.
 */
export function queenBatch(occPtr: usize, sqPtr: usize, count: i32, perOcc: i32): i32 {
  // Two 32-bit sums of the halves (no carry between them), as the JS benchmarks compute them.
  let sum: u64 = 0;
  let s = sqPtr;
  for (let i = 0; i < count; i++) {
    const occ = load<u64>(occPtr + ((i as usize) << 3));
    for (let j = 0; j < perOcc; j++, s++) {
      const sq = load<u8>(s) as u32;
      const a = slide(sq, occ) | slide(64 | sq, occ);
      sum = (((sum >> 32) + (a >> 32)) << 32) | (((sum as u32) + (a as u32)) as u64);
    }
  }
  store<u64>(OUT, sum);
  return (sum ^ (sum >> 32)) as i32;
}
