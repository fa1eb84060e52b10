/**
 * Move ordering: scores for every generated move (TT move, good captures by MVV-LVA with SEE,
 * promotions, killers, counter-move, history) and the history/killer/counter tables that
 * learn from beta cutoffs. Moves are then picked best-first by selection (pickNext), which is
 * cheap because most nodes cut off after one or two moves.
 */
import { KING, PAWN, QUEEN } from '../core/types.js';
import type { Position } from '../core/position.js';
import { SEE_VALUE, seeGe } from './see.js';
import { KIND_EN_PASSANT, moveFrom, moveKind, movePromo, moveTo } from '../core/move.js';

export const MAX_PLY = 128;

const SCORE_TT = 1 << 30;
const SCORE_GOOD_CAPTURE = 1 << 28;
const SCORE_KILLER_1 = 1 << 27;
const SCORE_KILLER_2 = SCORE_KILLER_1 - 1;
const SCORE_COUNTER = SCORE_KILLER_1 - 2;
const SCORE_BAD_CAPTURE = -(1 << 24);
const SCORE_UNDERPROMOTION = -(1 << 26);
/** History values stay within +-HISTORY_MAX (gravity keeps them there). */
export const HISTORY_MAX = 16384;

/** Least-valuable-attacker tiebreak rank by type (-, P, B, N, R, Q, K). */
const LVA = Int32Array.of(0, 1, 3, 2, 4, 5, 6);

/** A capture's capture-history index: (moving piece, target square, victim type). */
function captureKey(board: Uint8Array, m: number): number {
  const to = moveTo(m),
    victim = moveKind(m) === KIND_EN_PASSANT ? PAWN : board[to] & 7;
  return (((board[moveFrom(m)] << 6) | to) << 3) | victim;
}

/** The search switches that move ordering reads (fields of SearchParams). */
export interface OrderingSwitches {
  readonly continuationHistory: boolean;
  readonly captureHistory: boolean;
}

export class MoveOrdering {
  /** [side * 4096 + from * 64 + to] */
  readonly history = new Int32Array(2 * 64 * 64);
  /** Two killers per ply. */
  readonly killers = new Int32Array(MAX_PLY * 2 + 4);
  /** Best reply to the previous move, [piece * 64 + to] of the previous move. */
  readonly counters = new Int32Array(16 * 64);
  /** Continuation history: how good a quiet move (piece, to) is right after the previous move (piece, to). */
  readonly contHistory = new Int32Array(1024 * 1024);
  /** Capture history: how often a capture (piece, to, victim type) refuted its node, [(piece * 64 + to) * 8 + victim]. */
  readonly captureHistory = new Int32Array(16 * 64 * 8);

  /** `switches` is the engine's SearchParams, read at each call: whether contHistory and captureHistory order moves. */
  constructor(private readonly switches: OrderingSwitches) {}

  clear(): void {
    this.history.fill(0);
    this.killers.fill(0);
    this.counters.fill(0);
    this.contHistory.fill(0);
    this.captureHistory.fill(0);
  }

  /** Between searches: old history fades, killers are position-specific so they go. */
  newSearch(): void {
    const h = this.history;
    for (let i = 0; i < h.length; i++) h[i] = h[i] >> 1;
    this.killers.fill(0);
  }

  /** Scores all moves of a main-search node. */
  scoreMoves(
    pos: Position,
    moves: Int32Array,
    scores: Int32Array,
    start: number,
    end: number,
    ttMove: number,
    ply: number,
    counter: number,
    prevKey: number,
    prev2Key = -1,
    prev4Key = -1,
  ): void {
    const board = pos.board,
      hist = this.history,
      hBase = pos.side << 12;
    const useCont = this.switches.continuationHistory;
    const cont = this.contHistory,
      cBase = prevKey >= 0 && useCont ? prevKey << 10 : -1,
      c2Base = prev2Key >= 0 && useCont ? prev2Key << 10 : -1,
      c4Base = prev4Key >= 0 && useCont ? prev4Key << 10 : -1,
      capHist = this.captureHistory,
      useCap = this.switches.captureHistory;
    const k1 = this.killers[ply * 2],
      k2 = this.killers[ply * 2 + 1];
    for (let i = start; i < end; i++) {
      const m = moves[i];
      if (m === ttMove) {
        scores[i] = SCORE_TT;
        continue;
      }
      const to = moveTo(m),
        promo = movePromo(m);
      const victim = moveKind(m) === KIND_EN_PASSANT ? PAWN : board[to] & 7;
      if (promo !== 0) {
        scores[i] = promo === QUEEN ? SCORE_GOOD_CAPTURE + SEE_VALUE[QUEEN] + SEE_VALUE[victim] * 16 : SCORE_UNDERPROMOTION + promo;
      } else if (victim !== 0) {
        const attacker = board[moveFrom(m)] & 7;
        const mvvLva = SEE_VALUE[victim] * 16 - LVA[attacker];
        // Only captures of a cheaper piece can lose material.
        const good = SEE_VALUE[victim] >= SEE_VALUE[attacker] || attacker === KING || seeGe(pos, m, 0);
        scores[i] = (good ? SCORE_GOOD_CAPTURE : SCORE_BAD_CAPTURE) + mvvLva + (useCap ? capHist[captureKey(board, m)] >> 5 : 0);
      } else if (m === k1) scores[i] = SCORE_KILLER_1;
      else if (m === k2) scores[i] = SCORE_KILLER_2;
      else if (m === counter) scores[i] = SCORE_COUNTER;
      else {
        const pk = (board[moveFrom(m)] << 6) | to;
        scores[i] =
          hist[hBase | (m & 0xfff)] +
          (cBase >= 0 ? cont[cBase | pk] : 0) +
          (c2Base >= 0 ? cont[c2Base | pk] : 0) +
          (c4Base >= 0 ? cont[c4Base | pk] : 0);
      }
    }
  }

  /** Scores captures and promotions for quiescence: MVV-LVA only (SEE is checked when searched). */
  scoreNoisy(pos: Position, moves: Int32Array, scores: Int32Array, start: number, end: number, ttMove: number): void {
    const board = pos.board;
    for (let i = start; i < end; i++) {
      const m = moves[i];
      if (m === ttMove) {
        scores[i] = SCORE_TT;
        continue;
      }
      const to = moveTo(m),
        promo = movePromo(m);
      const victim = moveKind(m) === KIND_EN_PASSANT ? PAWN : board[to] & 7;
      let s = SEE_VALUE[victim] * 16 - LVA[board[moveFrom(m)] & 7];
      if (promo === QUEEN) s += SEE_VALUE[QUEEN] * 16;
      else if (promo !== 0) s += SCORE_UNDERPROMOTION;
      scores[i] = s;
    }
  }

  /** After a quiet move caused a beta cutoff: reward it, punish the quiets tried before it. */
  updateQuiet(
    pos: Position,
    best: number,
    tried: Int32Array,
    triedStart: number,
    triedCount: number,
    depth: number,
    ply: number,
    prevKey: number,
    prev2Key = -1,
    prev4Key = -1,
  ): void {
    const bonus = Math.min(depth * depth + depth, 1600);
    const hist = this.history,
      base = pos.side << 12,
      board = pos.board,
      cont = this.contHistory;
    gravity(hist, base | (best & 0xfff), bonus);
    const bestKey = (board[moveFrom(best)] << 6) | moveTo(best);
    if (prevKey >= 0) gravity(cont, (prevKey << 10) | bestKey, bonus);
    if (prev2Key >= 0) gravity(cont, (prev2Key << 10) | bestKey, bonus);
    if (prev4Key >= 0) gravity(cont, (prev4Key << 10) | bestKey, bonus);
    for (let i = 0; i < triedCount; i++) {
      const m = tried[triedStart + i];
      if (m === best) continue;
      gravity(hist, base | (m & 0xfff), -bonus);
      const key = (board[moveFrom(m)] << 6) | moveTo(m);
      if (prevKey >= 0) gravity(cont, (prevKey << 10) | key, -bonus);
      if (prev2Key >= 0) gravity(cont, (prev2Key << 10) | key, -bonus);
      if (prev4Key >= 0) gravity(cont, (prev4Key << 10) | key, -bonus);
    }
    const k = ply * 2;
    if (this.killers[k] !== best) {
      this.killers[k + 1] = this.killers[k];
      this.killers[k] = best;
    }
    if (prevKey >= 0) this.counters[prevKey] = best;
  }

  /**
   * After a beta cutoff: the refuting capture (0 if the cutoff was quiet) gains, the captures
   * tried before it lose.
   */
  updateCaptures(pos: Position, best: number, tried: Int32Array, triedStart: number, triedCount: number, depth: number): void {
    const bonus = Math.min(depth * depth + depth, 1600),
      board = pos.board,
      h = this.captureHistory;
    for (let i = 0; i < triedCount; i++) {
      const m = tried[triedStart + i];
      gravity(h, captureKey(board, m), m === best ? bonus : -bonus);
    }
  }

  /** A capture's capture history (read before the capture is made: the board must still hold its victim). */
  captureHistoryOf(board: Uint8Array, m: number): number {
    return this.captureHistory[captureKey(board, m)];
  }

  historyOf(side: number, m: number): number {
    return this.history[(side << 12) | (m & 0xfff)];
  }
}

/** History gravity: h += bonus - h * |bonus| / MAX keeps |h| <= MAX and favours recent results. */
function gravity(hist: Int32Array, i: number, bonus: number): void {
  const h = hist[i];
  hist[i] = h + bonus - (((h * (bonus < 0 ? -bonus : bonus)) / HISTORY_MAX) | 0);
}

/** Swaps the highest-scored move of [i, end) to index i and returns it. */
export function pickNext(moves: Int32Array, scores: Int32Array, i: number, end: number): number {
  let best = i,
    bestScore = scores[i];
  for (let j = i + 1; j < end; j++)
    if (scores[j] > bestScore) {
      bestScore = scores[j];
      best = j;
    }
  if (best !== i) {
    const m = moves[best];
    moves[best] = moves[i];
    moves[i] = m;
    scores[best] = scores[i];
    scores[i] = bestScore;
  }
  return moves[i];
}
