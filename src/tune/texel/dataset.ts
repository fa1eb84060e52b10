/**
 * Texel-tuning data: positions from the project's own games, each labelled with its game's result
 * (1 White won, 0.5 draw, 0 Black won), reduced to the evaluation's features.
 *
 * The evaluation is linear in its weights once the phase and the endgame scale are fixed:
 *   white = (mg * phase + eg * (24 - phase)) / 24 * scale / 64 + mopUp,
 *   mg = sum_s x_s * P[2s],  eg = sum_s x_s * P[2s + 1],
 * over "slots" s: the evaluation terms (x = White's count minus Black's), the piece counts
 * (material) and one slot per (piece type, square) (x = +1 for a white piece there, -1 for a
 * black piece on the mirrored square). A position is stored as its non-zero (slot, x) pairs,
 * the two taper factors and the mop-up constant.
 */
import { Position } from '../../core/position.js';
import { MAX_MOVES, defaultGenerator } from '../../core/movegen.js';
import { evaluateFeatures, TERM_COUNT } from '../../engine/evaluate.js';
import { PHASE_MAX } from '../../engine/pst.js';
import { seeGe } from '../../engine/see.js';
import { parsePgn, pgnStartFen } from '../../core/pgn/index.js';
import { readPgnText } from '../../pgn-file-node.js';
import { movePromo } from '../../core/move.js';

/** Slot layout: terms, then material for P B N R Q, then piece-square for types 1..6 x 64 squares. */
export const MATERIAL_SLOT = TERM_COUNT;
export const PST_SLOT = TERM_COUNT + 5;
export const SLOT_COUNT = PST_SLOT + 6 * 64;
export const PARAM_COUNT = 2 * SLOT_COUNT;

export interface TuningSet {
  count: number;
  /** Entries of position i: [offsets[i], offsets[i + 1]). */
  offsets: Uint32Array;
  slots: Uint16Array;
  coefs: Int16Array;
  /** d white / d mg-sum and d white / d eg-sum: phase / 24 * scale / 64 and (24 - phase) / 24 * scale / 64. */
  mgFactor: Float32Array;
  egFactor: Float32Array;
  mopUp: Int16Array;
  /** The label the fit aims at, White's view, 0..1: the game result unless blended (setLabels). */
  result: Float32Array;
  /** The game result from White's view: 1, 0.5, 0. */
  gameResult: Float32Array;
  /** The engine's search score of the position in self-play (White's view, cp), NaN when the PGN had none. */
  score: Float32Array;
  /** Integer data the exact (truncating) evaluation needs: phase and scale. */
  phase: Uint8Array;
  scale: Uint8Array;
}

export interface ExtractOptions {
  /** Positions in the first `skipPlies` plies of each game (from its PGN start) are left out. */
  skipPlies: number;
}

export interface ExtractStats {
  games: number;
  skippedGames: number;
  positions: number;
  kept: number;
  notQuiet: number;
  inCheck: number;
}

const featureBuf = new Int32Array(TERM_COUNT);
const dense = new Int32Array(SLOT_COUNT);
const moveBuf = new Int32Array(MAX_MOVES);

/**
 * Quiet enough to be judged by the static evaluation: not in check, and no capture or promotion
 * that wins material by exchange (SEE > 0). Positions in the middle of an exchange are left out,
 * because their game result says nothing about the static features.
 */
export function isQuiet(pos: Position): boolean {
  if (pos.inCheck()) return false;
  const n = defaultGenerator.generateNoisy(pos, moveBuf, 0);
  for (let i = 0; i < n; i++) {
    const m = moveBuf[i];
    if (movePromo(m) !== 0) return false; // a promotion
    if (seeGe(pos, m, 1)) return false;
  }
  return true;
}

/** Growable builder for a TuningSet. */
export class TuningSetBuilder {
  private count = 0;
  private offsets: number[] = [0];
  private slots: number[] = [];
  private coefs: number[] = [];
  private mgF: number[] = [];
  private egF: number[] = [];
  private mop: number[] = [];
  private res: number[] = [];
  private ph: number[] = [];
  private sc: number[] = [];

  private scores: number[] = [];

  /** Adds `pos` with its game's result and, if known, the search score (both White's view). */
  add(pos: Position, result: number, score = NaN): void {
    this.scores.push(score);
    const info = evaluateFeatures(pos, featureBuf);
    dense.fill(0);
    for (let i = 0; i < TERM_COUNT; i++) dense[i] = featureBuf[i];
    const board = pos.board;
    for (let sq = 0; sq < 64; sq++) {
      const code = board[sq];
      if (code === 0) continue;
      const type = code & 7,
        white = code >> 3 === 0;
      const sign = white ? 1 : -1;
      if (type !== 6) dense[MATERIAL_SLOT + type - 1] += sign;
      dense[PST_SLOT + (type - 1) * 64 + (white ? sq : sq ^ 56)] += sign;
    }
    for (let s = 0; s < SLOT_COUNT; s++) {
      if (dense[s] !== 0) {
        this.slots.push(s);
        this.coefs.push(dense[s]);
      }
    }
    this.offsets.push(this.slots.length);
    const k = info.scale / 64 / PHASE_MAX;
    this.mgF.push(info.phase * k);
    this.egF.push((PHASE_MAX - info.phase) * k);
    this.mop.push(info.mopUp);
    this.res.push(result);
    this.ph.push(info.phase);
    this.sc.push(info.scale);
    this.count++;
  }

  build(): TuningSet {
    return {
      count: this.count,
      offsets: Uint32Array.from(this.offsets),
      slots: Uint16Array.from(this.slots),
      coefs: Int16Array.from(this.coefs),
      mgFactor: Float32Array.from(this.mgF),
      egFactor: Float32Array.from(this.egF),
      mopUp: Int16Array.from(this.mop),
      result: Float32Array.from(this.res),
      gameResult: Float32Array.from(this.res),
      score: Float32Array.from(this.scores),
      phase: Uint8Array.from(this.ph),
      scale: Uint8Array.from(this.sc),
    };
  }
}

/**
 * The score in a PGN move comment ("+0.35/9 0.20s", "-M3/12": the mover's view, pawns or mate
 * distance), as centipawns from White's view; NaN when the comment has none. Mates count 2000.
 */
export function whiteScore(comment: string | undefined, side: number): number {
  if (comment === undefined) return NaN;
  const m = /^([+-])(M?)(\d+(?:\.\d+)?)\//.exec(comment);
  if (!m) return NaN;
  const mover = (m[1] === '-' ? -1 : 1) * (m[2] === 'M' ? 2000 : Math.round(Number(m[3]) * 100));
  return side === 0 ? mover : -mover;
}

/**
 * Sets the labels: resultWeight * game result + (1 - resultWeight) * sigma(K * score / 400) where
 * a search score is known, the game result elsewhere. 1 = pure Texel (results only).
 */
export function setLabels(set: TuningSet, resultWeight: number, k: number): void {
  for (let i = 0; i < set.count; i++) {
    const sc = set.score[i];
    set.result[i] =
      Number.isNaN(sc) || resultWeight >= 1
        ? set.gameResult[i]
        : resultWeight * set.gameResult[i] + (1 - resultWeight) / (1 + Math.pow(10, (-k * sc) / 400));
  }
}

const RESULT_VALUE: Record<string, number> = { '1-0': 1, '0-1': 0, '1/2-1/2': 0.5 };

/**
 * Reads PGN files and adds every quiet position of every finished game to `train`, or, for every
 * `holdOutEvery`-th game, to `validation` (whole games, so the two sets share no game).
 */
export function extractFromPgn(
  paths: string[],
  opts: ExtractOptions,
  train: TuningSetBuilder,
  validation?: TuningSetBuilder,
  holdOutEvery = 10,
): ExtractStats {
  const stats: ExtractStats = { games: 0, skippedGames: 0, positions: 0, kept: 0, notQuiet: 0, inCheck: 0 };
  for (const path of paths) {
    for (const g of parsePgn(readPgnText(path), { source: path })) {
      const result = RESULT_VALUE[g.result];
      if (result === undefined) {
        stats.skippedGames++;
        continue;
      }
      const builder = validation && stats.games % holdOutEvery === holdOutEvery - 1 ? validation : train;
      stats.games++;
      const pos = Position.fromFen(pgnStartFen(g));
      for (let ply = 0; ply < g.moves.length; ply++) {
        if (ply >= opts.skipPlies) {
          stats.positions++;
          if (pos.inCheck()) stats.inCheck++;
          else if (!isQuiet(pos)) stats.notQuiet++;
          else {
            builder.add(pos, result, whiteScore(g.moves[ply].commentsAfter?.[0], pos.side));
            stats.kept++;
          }
        }
        pos.makeMove(g.moves[ply].move!);
      }
    }
  }
  return stats;
}
