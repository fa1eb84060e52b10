/**
 * The NNUE kernel seam: the accumulator stack and the integer arithmetic on it. Two
 * implementations give identical numbers (a test proves it): the TypeScript reference
 * (ts-kernel.ts) and the WebAssembly SIMD kernel (wasm-kernel.ts).
 */
export interface NnueKernel {
  readonly name: 'ts' | 'wasm';
  readonly hidden: number;
  /** Feature indices for update(): add White 0-1, sub White 2-3, add Black 4-5, sub Black 6-7. */
  readonly delta: Int32Array;
  /** Up to 32 feature indices for refresh(). */
  readonly list: Int32Array;
  /** Accumulator (slot, persp) = bias + columns of list[0..n). */
  refresh(slot: number, persp: number, n: number): void;
  /** Accumulators of slot dst = slot src + added − removed columns (nAdd 1-2, nSub 1-2). */
  update(dst: number, src: number, nAdd: number, nSub: number): void;
  copy(dst: number, src: number): void;
  /** Centipawns from the side to move's view. */
  evaluate(slot: number, stm: number, bucket: number): number;
  /** A copy of one accumulator (tests, the web panel). */
  accumulator(slot: number, persp: number): Int16Array;
}

/** Accumulator slots: one per ply of a search, plus room. */
export const NNUE_SLOTS = 260;
