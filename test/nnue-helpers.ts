/**
 * Shared helpers of the network's tests: random networks (and squared-activation ones at the edge
 * of the loader's bounds), seeded random games and search-like trees that check the incremental
 * evaluation against a full one, and the exact reference of the kernels' integer formula (BigInt,
 * tests only).
 */
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { START_FEN } from '../src/core/fen.js';
import { MAX_MOVES, defaultGenerator } from '../src/core/movegen.js';
import { moveKind, movePromo, KIND_CASTLE, KIND_EN_PASSANT } from '../src/core/move.js';
import { chess960StartFen } from '../src/core/chess960.js';
import {
  arithmeticProblem,
  decodeNetwork,
  encodeNetwork,
  type NnueActivation,
  type NnueKind,
  type NnueNetwork,
} from '../src/engine/nnue/network.js';
import type { NnueEvaluator } from '../src/engine/nnue/evaluator.js';
import { nnueFromNetwork } from '../src/engine/nnue/load-node.js';
import { endgameKnowledge } from '../src/engine/endgame.js';
import { evaluate as classicalEvaluate } from '../src/engine/evaluate.js';
import { featureIndex, featureInputs, kingTransform, outputBucket, type NnueFeatures } from '../src/engine/nnue/features.js';
import { NNUE_SLOTS } from '../src/engine/nnue/kernel.js';
import { rng, suiteFens } from './helpers.js';

/** A random network with weights in the ranges a trained one uses. */
export function randomNetwork(
  hidden: number,
  buckets: number,
  seed: number,
  kind: NnueKind = 'evaluation',
  activation: NnueActivation = 'crelu',
  features: NnueFeatures = 'plain',
): NnueNetwork {
  const r = rng(seed),
    int = (lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1)),
    inputs = featureInputs(features);
  const w1 = new Int16Array(inputs * hidden).map(() => int(-60, 60));
  const b1 = new Int16Array(hidden).map(() => int(-40, 200));
  const w2 = new Int16Array(buckets * 2 * hidden).map(() => int(-127, 127));
  const b2 = new Int32Array(buckets).map(() => int(-20000, 20000));
  const psqt = new Int32Array(inputs * buckets).map(() => int(-40000, 40000));
  return {
    kind,
    activation,
    features,
    hidden,
    buckets,
    qa: 255,
    qb: 64,
    scale: 400,
    positions: 0,
    seed,
    epochs: 0,
    description: 'random test network',
    w1,
    b1,
    w2,
    b2,
    psqt,
  };
}

/**
 * Plays seeded random games (with null moves) and checks incremental == full after every move, and
 * the evaluators' accumulators and evaluations equal to each other; `check` sees every position
 * with the first evaluator's incremental evaluation.
 */
export function checkGames(
  evaluators: NnueEvaluator[],
  fens: string[],
  seed: number,
  plies: number,
  observe?: (pos: Position, m: number) => void,
  check?: (pos: Position, value: number) => void,
): Record<string, number> {
  const r = rng(seed),
    moves = new Int32Array(MAX_MOVES);
  const seen = { castle: 0, enPassant: 0, promotion: 0, capture: 0, nullMove: 0, kingCrossing: 0, positions: 0 };
  for (const fen of fens) {
    const pos = Position.fromFen(fen);
    for (const e of evaluators) e.reset(pos);
    for (let i = 0; i < plies; i++) {
      if (i % 100 === 99) for (const e of evaluators) e.reset(pos); // as a search does at its root
      const n = defaultGenerator.generate(pos, moves, 0);
      if (n === 0 || pos.halfmove >= 100) break;
      if (!pos.inCheck() && r() < 0.08) {
        for (const e of evaluators) e.makeNull(pos);
        pos.makeNullMove();
        seen.nullMove++;
      } else {
        // Random play rarely castles or captures en passant: take such a move when there is one, half the time.
        let m = moves[Math.floor(r() * n)];
        for (let k = 0; k < n; k++) if (moveKind(moves[k]) !== 0 && r() < 0.5) m = moves[k];
        if (moveKind(m) === KIND_CASTLE) seen.castle++;
        if (moveKind(m) === KIND_EN_PASSANT) seen.enPassant++;
        if (movePromo(m) !== 0) seen.promotion++;
        if (pos.board[(m >> 6) & 63] !== 0) seen.capture++;
        if ((pos.board[m & 63] & 7) === 6 && ((m ^ (m >> 6)) & 4) !== 0) seen.kingCrossing++;
        observe?.(pos, m);
        for (const e of evaluators) e.make(pos, m);
        pos.makeMove(m);
      }
      seen.positions++;
      const values = evaluators.map((e) => e.evaluate(pos));
      check?.(pos, values[0]);
      for (const [k, e] of evaluators.entries()) {
        assert.equal(values[k], e.evaluateFresh(pos), `${e.kernel.name}: incremental != full after ${i + 1} plies from ${fen}`);
        for (let persp = 0; persp < 2; persp++) {
          // The fresh refresh used the spare slot; the search's slot must hold the same numbers.
          const inc = e.accumulator(pos, persp);
          assert.deepEqual(inc, e.kernel.accumulator(NNUE_SLOTS - 1, persp), `${e.kernel.name}: accumulator ${persp} after ${i + 1} plies`);
        }
      }
      for (let k = 1; k < values.length; k++) {
        assert.equal(values[k], values[0], 'TypeScript and WebAssembly kernels disagree');
        for (let persp = 0; persp < 2; persp++)
          assert.deepEqual(evaluators[k].accumulator(pos, persp), evaluators[0].accumulator(pos, persp), `kernels' accumulator ${persp}`);
      }
    }
  }
  return seen;
}

export const GAME_FENS = [
  START_FEN,
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'r3k2r/1P4P1/8/2pP4/8/8/1p4p1/R3K2R w KQkq c6 0 1',
  '4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 1',
  ...suiteFens().filter((_, i) => i % 16 === 0),
];

/** Chess960 castles across the buckets: the king from b1, d1, f1 or g1 to c1 or g1 (from === to, onto the rook's square). */
export const CHESS960_CASTLE_FENS = [
  'rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1',
  'r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w HAha - 0 1',
  'r4kr1/pppppppp/8/8/8/8/PPPPPPPP/R4KR1 b GAga - 0 1',
  'r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w HAha - 0 1',
  chess960StartFen(0),
  chess960StartFen(959),
  chess960StartFen(321),
];

/**
 * Walks random trees as a search does (make, unmake, null moves, most nodes never evaluated), so
 * the lazy update runs chains of pending moves of every length; every evaluated node is compared
 * with a recomputation from the board. Returns how many nodes were evaluated after a chain of
 * at least three unevaluated plies.
 */
export function checkTrees(
  evaluators: NnueEvaluator[],
  fens: string[],
  seed: number,
  check?: (pos: Position, value: number) => void,
): number {
  const r = rng(seed),
    buf = new Int32Array(MAX_MOVES * 12);
  let longChains = 0;
  const walk = (pos: Position, depth: number, unevaluated: number): void => {
    let since = unevaluated + 1;
    if (r() < 0.25) {
      const values = evaluators.map((e) => e.evaluate(pos));
      check?.(pos, values[0]);
      for (const [k, e] of evaluators.entries())
        assert.equal(values[k], e.evaluateFresh(pos), `${e.kernel.name}: lazy != full at ${pos.toFen()}`);
      if (unevaluated >= 3) longChains++;
      since = 0;
    }
    if (depth === 0) return;
    const base = depth * MAX_MOVES,
      n = defaultGenerator.generate(pos, buf, base) - base;
    if (n === 0) return;
    if (!pos.inCheck() && r() < 0.1) {
      for (const e of evaluators) e.makeNull(pos);
      pos.makeNullMove();
      walk(pos, depth - 1, since);
      pos.unmakeNullMove();
    }
    for (let c = 0; c < 3; c++) {
      let m = buf[base + Math.floor(r() * n)];
      for (let k = 0; k < n; k++) if (moveKind(buf[base + k]) !== 0 && r() < 0.3) m = buf[base + k];
      for (const e of evaluators) e.make(pos, m);
      pos.makeMove(m);
      walk(pos, depth - 1, since);
      pos.unmakeMove();
    }
  };
  for (const fen of fens) {
    const pos = Position.fromFen(fen);
    for (const e of evaluators) e.reset(pos);
    walk(pos, 6, 0);
  }
  return longChains;
}

/** The pieces on the board. */
export function pieceCount(pos: Position): number {
  let n = 0;
  for (let sq = 0; sq < 64; sq++) if (pos.board[sq] !== 0) n++;
  return n;
}

/**
 * The network's own output for `pos` by the file's integer formula (docs/nnue.md), written out
 * independently of the kernels: each accumulator b1 + Σ W1 columns wrapped to int16 (the kernels'
 * lanes), the piece-square sums, then in BigInt, so nothing can round or wrap,
 *   hidden = Σ act(a_stm)·W2[b][i] + Σ act(a_other)·W2[b][H+i]     (act: clamp, or clamp² and the
 *            sum divided by QA with truncation)
 *   total  = hidden + b2[b] + trunc((s_stm[b] − s_other[b]) / 2)
 *   output = trunc(total · SCALE / (QA·QB)).
 * `total` is also returned: the loader's bounds promise it fits an int32 (the kernels' lanes).
 */
export function exactOutput(net: NnueNetwork, pos: Position): { output: number; total: bigint } {
  const H = net.hidden,
    B = net.buckets,
    bucket = outputBucket(pieceCount(pos), B);
  const accumulator = (persp: number): { acc: number[]; psq: bigint } => {
    const sums = Array.from(net.b1),
      king = kingTransform(net.features, persp, pos.kingSq[persp]);
    let psq = 0n;
    for (let sq = 0; sq < 64; sq++) {
      const p = pos.board[sq];
      if (p === 0) continue;
      const f = featureIndex(persp, p, sq, king);
      for (let i = 0; i < H; i++) sums[i] += net.w1[f * H + i];
      psq += BigInt(net.psqt[f * B + bucket]);
    }
    return { acc: sums.map((x) => Number(BigInt.asIntN(16, BigInt(x)))), psq };
  };
  const us = accumulator(pos.side),
    them = accumulator(pos.side ^ 1),
    qa = BigInt(net.qa),
    w = bucket * 2 * H;
  const act = (x: number): bigint => {
    const c = BigInt(x < 0 ? 0 : x > net.qa ? net.qa : x);
    return net.activation === 'screlu' ? c * c : c;
  };
  let hidden = 0n;
  for (let i = 0; i < H; i++) hidden += act(us.acc[i]) * BigInt(net.w2[w + i]) + act(them.acc[i]) * BigInt(net.w2[w + H + i]);
  if (net.activation === 'screlu') hidden /= qa;
  const total = hidden + BigInt(net.b2[bucket]) + (us.psq - them.psq) / 2n;
  return { output: Number((total * BigInt(net.scale)) / (qa * BigInt(net.qb))), total };
}

export interface ExtremeOptions {
  hidden: number;
  buckets: number;
  seed: number;
  qa?: number;
  features?: NnueFeatures;
  kind?: NnueNetwork['kind'];
}

/**
 * A squared-activation network at the edges of what the loader accepts: output weights up to
 * QA·|w| ≤ 32767 (±128 at QA 255; the trainer writes ±127), 80% of them at the bound with one sign
 * per bucket, so the squared sums do not cancel; half the neurons saturated at QA (their
 * accumulators near the int16 top, some wrapping past it), a quarter spread over [0, QA] by the
 * position, a quarter with the trainer's largest weights (|W1| 506, |b1| 15300); the bias and the
 * piece-square term as large as the 32-bit output sum allows.
 */
export function extremeNetwork(o: ExtremeOptions): NnueNetwork {
  const r = rng(o.seed),
    int = (lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1)),
    H = o.hidden,
    B = o.buckets,
    qa = o.qa ?? 255,
    features = o.features ?? 'plain',
    inputs = featureInputs(features),
    wMax = Math.floor(32767 / qa);
  const style = Array.from({ length: H }, () => (r() < 0.5 ? 0 : int(1, 2)));
  const b1 = Int16Array.from(style, (s) => (s === 0 ? int(32767 - 2000, 32767) : s === 1 ? int(0, qa) : int(-15300, 15300)));
  const w1 = new Int16Array(inputs * H);
  for (let f = 0; f < inputs; f++)
    for (let i = 0; i < H; i++) w1[f * H + i] = style[i] === 0 ? int(-150, 150) : style[i] === 1 ? int(-qa >> 2, qa >> 2) : int(-506, 506);
  const w2 = new Int16Array(B * 2 * H);
  for (let b = 0; b < B; b++) {
    const sign = b % 2 === 0 ? 1 : -1;
    for (let i = 0; i < 2 * H; i++) w2[b * 2 * H + i] = r() < 0.8 ? sign * wMax : int(-wMax, wMax);
  }
  const net: NnueNetwork = {
    kind: o.kind ?? 'evaluation',
    activation: 'screlu',
    features,
    hidden: H,
    buckets: B,
    qa,
    qb: 64,
    scale: 400,
    positions: 0,
    seed: o.seed,
    epochs: 0,
    description: 'extreme squared test network',
    w1,
    b1,
    w2,
    b2: Int32Array.from({ length: B }, () => int(-(2 ** 30), 2 ** 30)),
    psqt: Int32Array.from({ length: inputs * B }, () => int(-(2 ** 22), 2 ** 22)),
  };
  assert.equal(arithmeticProblem(net), undefined, 'the loader accepts the extreme network');
  return net;
}

/**
 * Runs random games and search-like trees on both kernels and checks every evaluation (incremental
 * and lazy, and each kernel's fresh output) against exactOutput; returns how many positions were
 * checked and in how many the squared sum exceeded 2^31 in magnitude (where one int32 sum wraps).
 */
export function checkExact(net: NnueNetwork, fens: string[], seed: number, plies: number): { positions: number; beyond32: number } {
  // The file round trip: what the loader accepts is what is tested.
  const file = decodeNetwork(encodeNetwork(net), 'extreme.bin');
  const evaluators = [nnueFromNetwork(file, 'ts'), nnueFromNetwork(file, 'wasm')];
  let positions = 0,
    beyond32 = 0;
  const combine = (pos: Position, output: number): number =>
    net.kind === 'residual' ? classicalEvaluate(pos) + output : endgameKnowledge(pos, output);
  const check = (pos: Position, value: number): void => {
    const exact = exactOutput(net, pos);
    assert.ok(exact.total >= -(2n ** 31n) && exact.total < 2n ** 31n, `the output sum ${exact.total} fits 32 bits`);
    assert.equal(value, combine(pos, exact.output), `incremental evaluation != exact at ${pos.toFen()}`);
    for (const e of evaluators) assert.equal(e.networkOutputFresh(pos), exact.output, `${e.kernel.name}: != exact at ${pos.toFen()}`);
    if (squaredSumMagnitude(net, evaluators[0], pos) >= 2 ** 31) beyond32++;
    positions++;
  };
  checkGames(evaluators, fens, seed, plies, undefined, check);
  checkTrees(evaluators, fens.slice(0, 3), seed + 1, check);
  return { positions, beyond32 };
}

/** |Σ clamp²·w| of `pos` before the division by QA, from the reference kernel's accumulators (exact in doubles). */
function squaredSumMagnitude(net: NnueNetwork, e: NnueEvaluator, pos: Position): number {
  e.networkOutputFresh(pos);
  const H = net.hidden,
    slot = NNUE_SLOTS - 1,
    us = e.kernel.accumulator(slot, pos.side),
    them = e.kernel.accumulator(slot, pos.side ^ 1);
  let best = 0;
  // The largest over the buckets: the exactness must hold for whichever the position uses.
  for (let b = 0; b < net.buckets; b++) {
    let sum = 0;
    for (let i = 0; i < H; i++) {
      const a = Math.min(net.qa, Math.max(0, us[i])),
        c = Math.min(net.qa, Math.max(0, them[i]));
      sum += a * a * net.w2[b * 2 * H + i] + c * c * net.w2[b * 2 * H + H + i];
    }
    best = Math.max(best, Math.abs(sum));
  }
  return best;
}
