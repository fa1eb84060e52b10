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
//  60 holes u32    nA | holeA << 4 | shiftA << 8 | holeB << 12 | shiftB << 16: how the networks'
//                  outputs (in order, contiguous) spread to the output word's bits
//  64 planes u32   address of the square's networks as bit planes (16x32x1 only, see below)
//  68 groups u32   networks / 4, rounded up
//  72 live u32     (1 << networks) - 1

const INFO_SIZE: u32 = 80;
const MAX_NETWORKS: u32 = 1456;
const MAX_PADDED: u32 = 2048;

const INFO = memory.data(128 * 80, 16);
// 16x32x1 weights re-laid as bit planes, in groups of 4 networks (128 bytes a group): plane p
// (16 bytes at 16p) holds bit p of every weight byte, network j of the group in 32-bit lane j,
// neuron i at bit i of the lane; except that planes 0 and 7 hold w0 XOR w7 and w0 AND w7 (the
// half-adder of the two weight bits whose input is always 0). Padding networks are zero and
// masked off by `live`.
const PLANES = memory.data(MAX_PADDED * 32, 16);
// Input bit planes: INPUT_PLANES + b*128 + 16p is all-0x55555555 lanes when bit p of byte b is
// set (the even neurons, which read the low byte), INPUT_PLANES + 32768 + ... the same with
// 0xAAAAAAAA for the odd neurons and the high byte. OR-ing the two gives the input as seen by
// all 32 neurons, bit p.
const INPUT_PLANES = memory.data(2 * 256 * 128, 16);
// 16x8x1, one 144-byte group per (piece, square) at PLANES8 + entry * 144: byte lane k answers
// output bit k (lanes 0..7 line A, 8..15 line B; lanes without a target are empty), bit i of a
// lane is neuron i. Planes 1..6 (16 bytes at 16p) hold bit p of the weight bytes. Input bits 0
// and 7 are never set (line edges), so weight bits 0 and 7 only add a constant 0..2 to a neuron's
// popcount: plane 0 marks the neurons where exactly one of them is set, plane 7 where both are.
// Bytes 128..143 hold 8 - T per lane (0 for empty lanes, so they never fire).
const PLANES8 = memory.data(128 * 144, 16);
const BITS = memory.data(MAX_NETWORKS, 16);
const WEIGHTS = memory.data(MAX_NETWORKS * 64, 16);
const SPREAD = memory.data(2 * 256 * 8, 16);
const OUT = memory.data(16, 16);

export function infoPtr(): usize { return INFO; }
export function bitsPtr(): usize { return BITS; }
export function weightsPtr(): usize { return WEIGHTS; }
export function spreadPtr(): usize { return SPREAD; }
export function outPtr(): usize { return OUT; }
export function planesPtr(): usize { return PLANES; }
export function inputPlanesPtr(): usize { return INPUT_PLANES; }
export function planes8Ptr(): usize { return PLANES8; }
/** Scratch memory for batches (bump allocation, never freed: callers reuse it). */
export function alloc(bytes: usize): usize { return heap.alloc(bytes); }

/** 1 = 16x32x1, 2 = 64x64x1 (attacks, queenBatch): chosen once by the host after loading weights. 16x8x1 has its own entry points. */
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

/**
 * 16x32x1, bit-sliced: 128 neurons (4 networks) per vector. d_p = input_p ^ weight_p is bit p of
 * every neuron's XOR; an adder tree over the 8 planes finds the neurons whose popcount is 4 or
 * more (the ones that do not fire), and a lane popcount counts them per network: the output
 * fires when fewer than 16 of 32 neurons stay silent, i.e. more than 16 fire.
 */
// @ts-ignore: decorator
@inline function infer16(e: usize, word: u32): u32 {
  // Input bits 0 and 7 are always 0 (line edges are never relevant), so only planes 1..6 take
  // part in the XOR; they stay in registers across the square's groups.
  const pl = INPUT_PLANES + ((word & 0xff) << 7), ph = INPUT_PLANES + 32768 + ((word >> 8) << 7);
  const i1 = v128.or(v128.load(pl, 16), v128.load(ph, 16));
  const i2 = v128.or(v128.load(pl, 32), v128.load(ph, 32));
  const i3 = v128.or(v128.load(pl, 48), v128.load(ph, 48));
  const i4 = v128.or(v128.load(pl, 64), v128.load(ph, 64));
  const i5 = v128.or(v128.load(pl, 80), v128.load(ph, 80));
  const i6 = v128.or(v128.load(pl, 96), v128.load(ph, 96));
  // Every square has 2..4 groups (7..16 networks): unrolled, no loop.
  const w = load<u32>(e, 64) as usize;
  const groups = load<u32>(e, 68);
  let x = group16(w, i1, i2, i3, i4, i5, i6) | (group16(w + 128, i1, i2, i3, i4, i5, i6) << 4);
  if (groups > 2) {
    x |= group16(w + 256, i1, i2, i3, i4, i5, i6) << 8;
    if (groups > 3) x |= group16(w + 384, i1, i2, i3, i4, i5, i6) << 12;
  }
  x &= load<u32>(e, 72);
  // Spread the networks' outputs (contiguous, in target order) to their bits of the word.
  const h = load<u32>(e, 60);
  const nA = h & 15;
  const a = insertZero(x & ((1 << nA) - 1), (h >> 4) & 15) << ((h >> 8) & 15);
  const b = insertZero(x >> nA, (h >> 12) & 15) << ((h >> 16) & 31);
  return a | b;
}

/** One group of 4 networks: bit j set when network j fires. */
// @ts-ignore: decorator
@inline function group16(w: usize, i1: v128, i2: v128, i3: v128, i4: v128, i5: v128, i6: v128): u32 {
  // Pairs: value 2c + s in 0..2. Pair 3 is weight bits 0 and 7 alone (their input is 0), stored
  // by the host already added: sum at plane 0, carry at plane 7.
  const d1 = v128.xor(i1, v128.load(w, 16)), d2 = v128.xor(i2, v128.load(w, 32));
  const s0 = v128.xor(d1, d2), c0 = v128.and(d1, d2);
  const d3 = v128.xor(i3, v128.load(w, 48)), d4 = v128.xor(i4, v128.load(w, 64));
  const s1 = v128.xor(d3, d4), c1 = v128.and(d3, d4);
  const d5 = v128.xor(i5, v128.load(w, 80)), d6 = v128.xor(i6, v128.load(w, 96));
  const s2 = v128.xor(d5, d6), c2 = v128.and(d5, d6);
  const silent = fourOrMore(s0, c0, s1, c1, s2, c2, v128.load(w), v128.load(w, 112));
  const counts = i32x4.extadd_pairwise_i16x8_s(i16x8.extadd_pairwise_i8x16_u(i8x16.popcnt(silent)));
  return i32x4.bitmask(i32x4.lt_s(counts, i32x4.splat(16))) as u32;
}

/**
 * Bit-sliced "popcount of 8 bits is 4 or more" from four half-added pairs of bit planes: pair k
 * is worth 2 c_k + s_k (0..2; never both bits set). popcount = S + 2C with S = s0+s1+s2+s3 and
 * C = c0+c1+c2+c3; it is 4 or more iff C >= 2, or C >= 1 and S >= 2, or S = 4.
 */
// @ts-ignore: decorator
@inline function fourOrMore(s0: v128, c0: v128, s1: v128, c1: v128, s2: v128, c2: v128, s3: v128, c3: v128): v128 {
  const cl = v128.or(c0, c1), ch = v128.or(c2, c3);
  const c2plus = v128.or(v128.or(v128.and(c0, c1), v128.and(c2, c3)), v128.and(cl, ch));
  const sl = v128.and(s0, s1), sh = v128.and(s2, s3);
  const s2plus = v128.or(v128.or(sl, sh), v128.and(v128.or(s0, s1), v128.or(s2, s3)));
  return v128.or(v128.or(c2plus, v128.and(v128.or(cl, ch), s2plus)), v128.and(sl, sh));
}

// @ts-ignore: decorator
@inline function insertZero(x: u32, at: u32): u32 {
  const low = (1 << at) - 1;
  return (x & low) | ((x & ~low) << 1);
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

/** Two 32-bit sums of the halves (no carry between them), as the JS benchmarks compute them. */
// @ts-ignore: decorator
@inline function addHalves(sum: u64, a: u64): u64 {
  return (((sum >> 32) + (a >> 32)) << 32) | (((sum as u32) + (a as u32)) as u64);
}

/**
 * The bench loop: for each of `count` occupancies, queen attacks (rook | bishop) on `perOcc`
 * squares; returns a checksum (sums of the attack sets' halves, stored at OUT as lo, hi)
 * so that nothing is optimised away.
 */
export function queenBatch(occPtr: usize, sqPtr: usize, count: i32, perOcc: i32): i32 {
  let sum: u64 = 0;
  let s = sqPtr;
  for (let i = 0; i < count; i++) {
    const occ = load<u64>(occPtr + ((i as usize) << 3));
    for (let j = 0; j < perOcc; j++, s++) {
      const sq = load<u8>(s) as u32;
      sum = addHalves(sum, slide(sq, occ) | slide(64 | sq, occ));
    }
  }
  store<u64>(OUT, sum);
  return (sum ^ (sum >> 32)) as i32;
}

/**
 * 16x8x1, bit-sliced over one square: 16 networks x 8 neurons = one vector per bit plane. The
 * input word is spread to lanes (line byte A in lanes 0..7, B in 8..15); a 16-bit shift puts
 * input bit p at the top of every byte, and a sign compare widens it to the lane (input plane
 * p). Two full adders and a half adder count each neuron's differing bits 1..6 (b2 b1 b0), the
 * weight bits 0 and 7 decide how many more are needed for popcount >= 4 (silent), i8x16.popcnt
 * counts the silent neurons per network, and the network fires when fewer than 8 - T are silent
 * (more than T fire). The lanes are the output bits, so i8x16.bitmask is the output word.
 */
// @ts-ignore: decorator
@inline function infer8(entry: u32, word: u32): u32 {
  const v = i8x16.shuffle(i16x8.splat(word as i16), i16x8.splat(word as i16), 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1);
  const z = i8x16.splat(0);
  const w = PLANES8 + (entry as usize) * 144;
  const d1 = v128.xor(i8x16.lt_s(i16x8.shl(v, 6), z), v128.load(w, 16));
  const d2 = v128.xor(i8x16.lt_s(i16x8.shl(v, 5), z), v128.load(w, 32));
  const d3 = v128.xor(i8x16.lt_s(i16x8.shl(v, 4), z), v128.load(w, 48));
  const d4 = v128.xor(i8x16.lt_s(i16x8.shl(v, 3), z), v128.load(w, 64));
  const d5 = v128.xor(i8x16.lt_s(i16x8.shl(v, 2), z), v128.load(w, 80));
  const d6 = v128.xor(i8x16.lt_s(i16x8.shl(v, 1), z), v128.load(w, 96));
  const x12 = v128.xor(d1, d2), x45 = v128.xor(d4, d5);
  const sa = v128.xor(x12, d3), ca = v128.or(v128.and(d1, d2), v128.and(x12, d3));
  const sb = v128.xor(x45, d6), cb = v128.or(v128.and(d4, d5), v128.and(x45, d6));
  const b0 = v128.xor(sa, sb), k = v128.and(sa, sb);
  const xc = v128.xor(ca, cb);
  const b1 = v128.xor(xc, k), b2 = v128.or(v128.and(ca, cb), v128.and(xc, k));
  // Silent: count >= 4, or >= 3 with one of w0, w7 set (plane 0), or >= 2 with both (plane 7).
  const silent = v128.or(b2, v128.and(b1, v128.or(v128.load(w, 112), v128.and(v128.load(w), b0))));
  // Counts and 8 - T are at most 8, so the signed compare is exact.
  return i8x16.bitmask(i8x16.gt_s(v128.load(w, 128), i8x16.popcnt(silent))) as u32;
}

// @ts-ignore: decorator
@inline function slide8(entry: u32, occ: u64): u64 {
  const e = INFO + (entry as usize) * INFO_SIZE;
  return scatter(e, infer8(entry, gather16(e, occ)));
}

/** 16x8x1 `attacks`: one slider; piece 0 rook, 1 bishop. Result at OUT (lo, hi) and returned low half. */
export function attacks8(piece: i32, sq: i32, lo: i32, hi: i32): i32 {
  const occ = ((hi as u64) << 32) | ((lo as u32) as u64);
  const r = slide8(((piece << 6) | sq) as u32, occ);
  store<u64>(OUT, r);
  return r as i32;
}

/** 16x8x1 `queenBatch`: same inputs, loop and checksum. */
export function queenBatch8(occPtr: usize, sqPtr: usize, count: i32, perOcc: i32): i32 {
  let sum: u64 = 0;
  let s = sqPtr;
  for (let i = 0; i < count; i++) {
    const occ = load<u64>(occPtr + ((i as usize) << 3));
    for (let j = 0; j < perOcc; j++, s++) {
      const sq = load<u8>(s) as u32;
      sum = addHalves(sum, slide8(sq, occ) | slide8(64 | sq, occ));
    }
  }
  store<u64>(OUT, sum);
  return (sum ^ (sum >> 32)) as i32;
}
