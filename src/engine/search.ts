/**
 * The tree search below the iterative deepening (iterative-deepening.ts): a principal-variation
 * alpha-beta search of the root moves with a transposition table, null-move pruning, late-move
 * reductions, reverse futility / futility / late-move pruning, check and singular extensions,
 * mate-distance pruning, a static evaluation corrected by the correction history, and a
 * quiescence search on captures and promotions. A Searcher is one thread's: all per-node
 * storage is preallocated, and the stop conditions (stop flag, ponderhit, node limit, the clock's
 * hard limit) are polled here every 1024 nodes.
 */
import { BISHOP, KNIGHT, QUEEN, ROOK } from '../core/types.js';
import type { Position } from '../core/position.js';
import { MAX_MOVES } from '../core/movegen.js';
import { evaluate } from './evaluate.js';
import { insufficientMaterial } from './endgame.js';
import type { NnueEvaluator } from './nnue/evaluator.js';
import { SEE_VALUE, seeGe } from './see.js';
import { givesDirectCheck, givesQuietCheck } from './gives-check.js';
import { BOUND_EXACT, BOUND_LOWER, BOUND_NONE, BOUND_UPPER, type TranspositionTable } from './tt.js';
import { MAX_PLY, MoveOrdering, pickNext } from './ordering.js';
import type { LegalMoveGenerator } from '../core/backend.js';
import { KIND_CASTLE, KIND_EN_PASSANT, moveFrom, moveKind, movePromo, moveTo } from '../core/move.js';
import { StopConditions } from './stop-conditions.js';
import type { SearchParams } from './search-params.js';
import { INF, MATE, MATE_BOUND, scoreFromTt, scoreToTt } from './score.js';
import { CorrectionHistory, correctionIndex } from './correction.js';

const NO_EVAL = -32002;

/** Late-move reduction by [depth * 64 + moveCount]: grows with log(depth) * log(moves). */
function lmrTable(p: SearchParams): Int8Array {
  const t = new Int8Array(64 * 64);
  for (let d = 1; d < 64; d++)
    for (let m = 1; m < 64; m++)
      t[d * 64 + m] = Math.floor(p.lmrBaseHundredths / 100 + (Math.log(d) * Math.log(m)) / (p.lmrDivisorHundredths / 100));
  return t;
}

/**
 * A root move with its score in this iteration and the last (-INF: not searched, or failed low),
 * its line, and the nodes searched under it this iteration (every aspiration pass; the time
 * manager's share of effort on the best move).
 */
export interface RootMove {
  move: number;
  score: number;
  prevScore: number;
  pv: number[];
  nodes: number;
}

export class Searcher {
  /** The learned evaluation, or null for the classical one. */
  nnue: NnueEvaluator | null;
  moveGenerator: LegalMoveGenerator;
  readonly tt: TranspositionTable;
  readonly params: SearchParams;
  private readonly ordering: MoveOrdering;
  private lmr: Int8Array;
  /** What searches found against the static evaluation, by pawn structure (and pieces). */
  private readonly correction = new CorrectionHistory();
  /** Stop flag, ponderhit, node limit and clock (started by the iterative deepening), polled every 1024 nodes. */
  readonly stopConditions = new StopConditions();

  // Per-ply scratch, preallocated.
  private readonly moves = new Int32Array((MAX_PLY + 2) * MAX_MOVES);
  private readonly scores = new Int32Array((MAX_PLY + 2) * MAX_MOVES);
  private readonly quiets = new Int32Array((MAX_PLY + 2) * 64);
  private readonly captures = new Int32Array((MAX_PLY + 2) * 32);
  private readonly pvTable = new Int32Array((MAX_PLY + 2) * (MAX_PLY + 2));
  private readonly pvLen = new Int32Array(MAX_PLY + 2);
  private readonly evalStack = new Int32Array(MAX_PLY + 2);
  private readonly keyLo = new Int32Array(MAX_PLY + 2);
  private readonly keyHi = new Int32Array(MAX_PLY + 2);
  /** The move a singular-extension search leaves out at each ply (0: none). */
  private readonly excluded = new Int32Array(MAX_PLY + 2);

  // Per-search state, set by begin(); the iterative deepening reads the public part.
  private pos!: Position;
  nodes = 0;
  private nextCheck = 0;
  seldepth = 0;
  stopped = false;
  /** The deepest iteration completed, set by the iterative deepening. */
  completedDepth = 0;

  constructor(tt: TranspositionTable, params: SearchParams, moveGenerator: LegalMoveGenerator, nnue: NnueEvaluator | null) {
    this.tt = tt;
    this.params = params;
    this.moveGenerator = moveGenerator;
    this.nnue = nnue;
    this.ordering = new MoveOrdering(params);
    this.lmr = lmrTable(params);
  }

  /** Rebuilds tables derived from `params`. */
  paramsChanged(): void {
    this.lmr = lmrTable(this.params);
  }
  /** Forgets what earlier searches learned: move ordering and correction history. */
  newGame(): void {
    this.ordering.clear();
    this.correction.clear();
  }

  /**
   * Sets up a search of `pos` (its stop conditions started): fresh counters, the network's
   * accumulators at the root. Returns the legal root moves, ordered by the usual heuristics for
   * the first iteration.
   */
  begin(pos: Position): number[] {
    this.pos = pos;
    this.nodes = 0;
    this.seldepth = 0;
    this.stopped = false;
    this.completedDepth = 0;
    this.nextCheck = Math.min(1024, this.stopConditions.nodeLimit);
    this.ordering.newSearch();

    if (this.nnue !== null) this.nnue.reset(pos);
    const hashLo = pos.hashLo,
      hashHi = pos.hashHi;
    this.keyLo[0] = hashLo;
    this.keyHi[0] = hashHi;
    const n = this.moveGenerator.generate(pos, this.moves, 0);
    const rootMoves: number[] = [];
    if (n === 0) return rootMoves;
    const hit = this.tt.probe(hashLo, hashHi);
    this.ordering.scoreMoves(pos, this.moves, this.scores, 0, n, hit ? this.tt.move() : 0, 0, 0, -1);
    for (let i = 0; i < n; i++) rootMoves.push(pickNext(this.moves, this.scores, i, n));
    return rootMoves;
  }

  /** The evaluation the search uses, side to move's view. */
  private staticEvaluate(pos: Position): number {
    return this.nnue !== null ? this.nnue.evaluate(pos) : evaluate(pos);
  }

  // ---- limits ----

  private checkLimits(): void {
    this.nextCheck = Math.min(this.nodes + 1024, this.stopConditions.nodeLimit);
    if (this.stopConditions.reached(this.nodes, this.completedDepth)) this.stopped = true;
  }

  /**
   * Makes `m` at a search node, the one place the search does: the network's accumulators first
   * (the update reads the board before the move), then the board; then counts the node, polling
   * the limits every 1024. The unmake is the position's alone: the accumulators of the ply below
   * are still there.
   */
  private doMove(pos: Position, m: number): void {
    if (this.nnue !== null) this.nnue.make(pos, m);
    pos.makeMove(m);
    if (++this.nodes >= this.nextCheck) this.checkLimits();
  }

  // ---- root ----

  /**
   * One pass over the root moves from rms[pvIdx] on (the earlier ones are the lines MultiPV has
   * already searched): each gets its score in the window, or -INF when it failed low, and its
   * line; the best goes to the hash table (first line only).
   */
  rootSearch(rms: RootMove[], alpha: number, beta: number, depth: number, pvIdx: number): number {
    const pos = this.pos;
    let best = -INF;
    const origAlpha = alpha;
    const inCheck = pos.inCheck();
    this.evalStack[0] = inCheck ? NO_EVAL : this.staticEvaluate(pos);
    for (let i = pvIdx; i < rms.length; i++) {
      const rm = rms[i],
        m = rm.move,
        nodesBefore = this.nodes;
      this.doMove(pos, m);
      this.keyLo[1] = pos.hashLo;
      this.keyHi[1] = pos.hashHi;
      let score: number;
      if (i === pvIdx) {
        score = -this.negamax(-beta, -alpha, depth - 1, 1, false);
      } else {
        // Late root moves get a light reduction when quiet.
        const quiet = pos.lastCaptured() === 0 && movePromo(m) === 0;
        let r =
          depth >= 3 && quiet && i - pvIdx >= 4 && !inCheck ? this.lmr[Math.min(depth, 63) * 64 + Math.min(i - pvIdx + 1, 63)] - 1 : 0;
        if (r < 0) r = 0;
        score = -this.negamax(-alpha - 1, -alpha, depth - 1 - r, 1, true);
        if (score > alpha && r > 0) score = -this.negamax(-alpha - 1, -alpha, depth - 1, 1, true);
        if (score > alpha && score < beta) score = -this.negamax(-beta, -alpha, depth - 1, 1, false);
      }
      pos.unmakeMove();
      rm.nodes += this.nodes - nodesBefore;
      if (this.stopped) break;
      if (i === pvIdx || score > alpha) {
        rm.score = score;
        const pv = [m];
        for (let k = 1; k < this.pvLen[1]; k++) pv.push(this.pvTable[1 * (MAX_PLY + 2) + k]);
        rm.pv = pv;
      } else rm.score = -INF;
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          if (score >= beta) break;
        }
      }
    }
    if (!this.stopped && pvIdx === 0 && best > -INF) {
      let bestIdx = 0;
      for (let i = 1; i < rms.length; i++) if (rms[i].score > rms[bestIdx].score) bestIdx = i;
      const bound = best >= beta ? BOUND_LOWER : best > origAlpha ? BOUND_EXACT : BOUND_UPPER;
      this.tt.store(
        pos.hashLo,
        pos.hashHi,
        rms[bestIdx].move,
        scoreToTt(best, 0),
        this.evalStack[0] === NO_EVAL ? 0 : this.evalStack[0],
        depth,
        bound,
      );
    }
    return best;
  }

  // ---- main search ----

  private isRepetition(ply: number): boolean {
    const pos = this.pos,
      lo = pos.hashLo,
      hi = pos.hashHi;
    const limit = ply - pos.halfmove;
    for (let p = ply - 4; p >= 0 && p >= limit; p -= 2) {
      if (this.keyLo[p] === lo && this.keyHi[p] === hi) return true;
    }
    // Not repeated inside the search tree: a draw only if the game history holds it twice
    // (and only positions before the root can be there: the window must reach past the root).
    return pos.halfmove > ply && pos.repetitions() >= 2;
  }

  private negamax(alpha: number, beta: number, depth: number, ply: number, cutNode: boolean, nullAllowed = true): number {
    const pos = this.pos;
    const pvNode = beta - alpha > 1;
    this.pvLen[ply] = ply;
    if (this.stopped) return 0;
    if (ply > this.seldepth) this.seldepth = ply;
    const P = this.params,
      LMR = this.lmr;

    // Draws and mate distance.
    if (pos.halfmove >= 100 || insufficientMaterial(pos) || (pos.halfmove >= 4 && this.isRepetition(ply))) return 0;
    if (ply >= MAX_PLY - 1) return pos.inCheck() ? 0 : this.staticEvaluate(pos);
    const mAlpha = Math.max(alpha, -MATE + ply),
      mBeta = Math.min(beta, MATE - ply - 1);
    if (mAlpha >= mBeta) return mAlpha;

    const inCheck = pos.inCheck();
    if (inCheck) depth++;
    if (depth <= 0) return this.qsearch(alpha, beta, ply);
    // A singular-extension search of this node without its hash move: the hash entry is not its answer.
    const excluded = this.excluded[ply];

    // Transposition table.
    const hashLo = pos.hashLo,
      hashHi = pos.hashHi,
      tt = this.tt;
    const hit = tt.probe(hashLo, hashHi);
    let ttMove = 0,
      ttScore = 0,
      ttBound = BOUND_NONE,
      ttDepth = -100;
    if (hit) {
      ttMove = tt.move();
      ttScore = scoreFromTt(tt.score(), ply);
      ttBound = tt.bound();
      ttDepth = tt.depth();
      if (
        !pvNode &&
        excluded === 0 &&
        ttDepth >= depth &&
        (ttBound === BOUND_EXACT || (ttBound === BOUND_LOWER && ttScore >= beta) || (ttBound === BOUND_UPPER && ttScore <= alpha))
      ) {
        return ttScore;
      }
    }

    // Static evaluation (refined by the TT score when its bound allows).
    let staticEval = NO_EVAL,
      evalScore = NO_EVAL,
      rawEval = 0,
      corrIndex = -1;
    if (!inCheck) {
      rawEval = hit ? tt.staticEval() : this.staticEvaluate(pos);
      staticEval = rawEval;
      if (P.correctionHistory) {
        corrIndex = correctionIndex(pos);
        staticEval = this.correction.corrected(rawEval, corrIndex);
      }
      evalScore = staticEval;
      // Not in a singular verification search: the entry's score is the excluded move's.
      if (
        hit &&
        excluded === 0 &&
        Math.abs(ttScore) < MATE_BOUND &&
        (ttBound === BOUND_EXACT || (ttBound === BOUND_LOWER && ttScore > staticEval) || (ttBound === BOUND_UPPER && ttScore < staticEval))
      ) {
        evalScore = ttScore;
      }
    }
    this.evalStack[ply] = staticEval;
    const improving = !inCheck && ply >= 2 && this.evalStack[ply - 2] !== NO_EVAL && staticEval > this.evalStack[ply - 2];
    this.ordering.killers[(ply + 1) * 2] = 0;
    this.ordering.killers[(ply + 1) * 2 + 1] = 0;

    const us = pos.side,
      o = us << 3,
      pl = pos.pieceLo,
      ph = pos.pieceHi;
    const hasPieces =
      (pl[o | KNIGHT] | ph[o | KNIGHT] | pl[o | BISHOP] | ph[o | BISHOP] | pl[o | ROOK] | ph[o | ROOK] | pl[o | QUEEN] | ph[o | QUEEN]) !==
      0;

    if (!pvNode && !inCheck) {
      // Reverse futility: far above beta with little depth left, the opponent will not catch up.
      if (depth <= P.rfpDepth && evalScore - P.rfpMargin * (depth - (improving ? 1 : 0)) >= beta && evalScore < MATE_BOUND)
        return evalScore;

      // Null move: if passing still fails high, a real move will too (not in zugzwang-prone
      // pawn endings: the side to move must have a piece).
      if (
        nullAllowed &&
        excluded === 0 &&
        depth >= P.nullMinDepth &&
        evalScore >= beta &&
        staticEval >= beta - 20 &&
        hasPieces &&
        beta > -MATE_BOUND
      ) {
        const r = 3 + (depth >> 2) + Math.min(3, ((evalScore - beta) / 200) | 0);
        if (this.nnue !== null) this.nnue.makeNull(pos);
        pos.makeNullMove();
        this.keyLo[ply + 1] = pos.hashLo;
        this.keyHi[ply + 1] = pos.hashHi;
        this.evalStack[ply + 1] = NO_EVAL;
        let score = -this.negamax(-beta, -beta + 1, depth - r, ply + 1, !cutNode, false);
        pos.unmakeNullMove();
        if (this.stopped) return 0;
        if (score >= beta) {
          if (score >= MATE_BOUND) score = beta;
          if (depth < P.nullVerifyDepth) return score;
          // Deep nodes: verify with a reduced search without null moves (zugzwang safety).
          const v = this.negamax(beta - 1, beta, depth - r, ply, false, false);
          if (this.stopped) return 0;
          if (v >= beta) return score;
        }
      }

      // Razoring: hopeless at low depth, check whether captures can rescue it.
      if (depth <= 2 && evalScore + P.razorMargin * depth < alpha) {
        const q = this.qsearch(alpha, alpha + 1, ply);
        if (q <= alpha) return q;
      }
    }

    // Internal iterative reduction: without a hash move this node is probably not critical.
    if (ttMove === 0 && depth >= P.iirDepth && (pvNode || cutNode)) depth--;

    // Singular extension: when every other move falls well short of the hash move's lower bound,
    // the hash move is searched deeper; when even without it the node fails high, cut (multi-cut).
    // Done before this node's moves are generated: the verification search reuses this ply's buffers.
    let singularMove = 0,
      extension = 0;
    if (
      P.singularExtension &&
      ply > 0 &&
      excluded === 0 &&
      ttMove !== 0 &&
      depth >= P.singularMinDepth &&
      ttDepth >= depth - 3 &&
      (ttBound === BOUND_LOWER || ttBound === BOUND_EXACT) &&
      Math.abs(ttScore) < MATE_BOUND
    ) {
      const sBeta = ttScore - 2 * depth;
      this.excluded[ply] = ttMove;
      const v = this.negamax(sBeta - 1, sBeta, (depth - 1) >> 1, ply, cutNode, false);
      this.excluded[ply] = 0;
      if (this.stopped) return 0;
      this.pvLen[ply] = ply;
      if (v < sBeta) {
        singularMove = ttMove;
        extension = !pvNode && v < sBeta - 24 && ply < 2 * depth ? 2 : 1;
      } else if (sBeta >= beta) return sBeta;
      else if (ttScore >= beta) {
        singularMove = ttMove;
        extension = -1;
      }
    }

    // Generate and order.
    const base = ply * MAX_MOVES;
    const moves = this.moves,
      scores = this.scores;
    const end = this.moveGenerator.generate(pos, moves, base);
    if (end === base) return inCheck ? -MATE + ply : 0;
    let prevKey = -1,
      prev2Key = -1,
      prev4Key = -1,
      counter = 0;
    if (pos.ply > 0) {
      const prev = pos.moveAt(pos.ply - 1);
      if (prev !== 0) {
        const pto = moveTo(prev);
        prevKey = (pos.board[pto] << 6) | pto;
        counter = this.ordering.counters[prevKey];
      }
      // Our own previous move, while its piece still stands where it went (not just captured).
      if (P.followupHistory && pos.ply > 1) {
        const prev2 = pos.moveAt(pos.ply - 2);
        if (prev2 !== 0 && (prev === 0 || moveTo(prev) !== moveTo(prev2))) {
          const p2to = moveTo(prev2);
          prev2Key = (pos.board[p2to] << 6) | p2to;
        }
      }
      // Our move before that, while its piece still stands where it went: not captured since
      // (by either of the opponent's moves) nor moved on by our last move.
      if (P.contHistory4 && pos.ply > 3) {
        const prev4 = pos.moveAt(pos.ply - 4);
        if (prev4 !== 0) {
          const p4to = moveTo(prev4),
            prev2 = pos.moveAt(pos.ply - 2),
            prev3 = pos.moveAt(pos.ply - 3);
          if (
            pos.board[p4to] !== 0 &&
            (prev === 0 || moveTo(prev) !== p4to) &&
            (prev3 === 0 || moveTo(prev3) !== p4to) &&
            (prev2 === 0 || moveFrom(prev2) !== p4to)
          )
            prev4Key = (pos.board[p4to] << 6) | p4to;
        }
      }
    }
    this.ordering.scoreMoves(pos, moves, scores, base, end, ttMove, ply, counter, prevKey, prev2Key, prev4Key);

    const qBase = ply * 64,
      cBase = ply * 32;
    let quietCount = 0,
      captureCount = 0,
      moveCount = 0;
    let best = -INF,
      bestMove = 0;
    const origAlpha = alpha;
    let skipQuiets = false;
    const lmpLimit = improving ? P.lmpBase + depth * depth : (P.lmpBase + depth * depth) >> 1;
    const board = pos.board;

    for (let i = base; i < end; i++) {
      const m = pickNext(moves, scores, i, end);
      if (m === excluded) continue;
      const isCapture = board[moveTo(m)] !== 0 || moveKind(m) === KIND_EN_PASSANT;
      const isQuiet = !isCapture && movePromo(m) === 0;
      if (isQuiet && skipQuiets && !(P.lmpKeepsChecks && givesDirectCheck(pos, m))) continue;

      let futile = false;
      if (best > -MATE_BOUND && hasPieces) {
        const lmrDepth = Math.max(0, depth - 1 - LMR[Math.min(depth, 63) * 64 + Math.min(moveCount + 1, 63)]);
        if (isQuiet) {
          // Late-move pruning: after enough quiet moves at low depth, the rest rarely matter.
          // Checks are kept: they are how short mates are found.
          if (!pvNode && depth <= P.lmpDepth && quietCount >= lmpLimit && !skipQuiets) {
            skipQuiets = true;
            if (!(P.lmpKeepsChecks && givesDirectCheck(pos, m))) continue;
          }
          // History pruning: a quiet move that has failed low here and after these moves (its
          // score is its main plus continuation history; killers and the counter-move score far
          // above) is not tried at low depth, unless it checks.
          if (
            P.historyPruning &&
            !pvNode &&
            !inCheck &&
            lmrDepth <= P.historyPruneDepth &&
            scores[i] < -P.historyPruneMargin * depth &&
            !givesDirectCheck(pos, m)
          )
            continue;
          // Futility: static eval plus a margin cannot reach alpha (checking moves excepted, below).
          if (!inCheck && lmrDepth <= 6 && staticEval + P.futilityBase + P.futilityMult * lmrDepth <= alpha) futile = true;
          if (lmrDepth <= 6 && !seeGe(pos, m, -P.seeQuietMult * lmrDepth * lmrDepth)) continue;
        } else if (depth <= 6 && scores[i] < 1 << 28 && !seeGe(pos, m, -P.seeCaptureMult * depth)) continue;
      }

      // A futile quiet move is skipped unless it gives check, which is told without making it
      // (castling, whose rook may check, is made and tested).
      const castle = moveKind(m) === KIND_CASTLE;
      if (futile && !castle && !givesQuietCheck(pos, m)) continue;
      // Read before the move is made: the key needs the victim on the board.
      const capHist = P.captureReductions && isCapture ? this.ordering.captureHistoryOf(board, m) : 0;
      this.doMove(pos, m);
      const givesCheck = pos.inCheck();
      if (futile && castle && !givesCheck) {
        pos.unmakeMove();
        if (this.stopped) return 0;
        continue;
      }
      this.keyLo[ply + 1] = pos.hashLo;
      this.keyHi[ply + 1] = pos.hashHi;
      moveCount++;
      if (isQuiet && quietCount < 64) this.quiets[qBase + quietCount++] = m;
      else if (isCapture && movePromo(m) === 0 && captureCount < 32) this.captures[cBase + captureCount++] = m;

      const newDepth = depth - 1 + (m === singularMove ? extension : 0);
      let score: number;
      if (moveCount === 1) {
        score = -this.negamax(-beta, -alpha, newDepth, ply + 1, !pvNode && !cutNode);
      } else {
        let r = 0;
        if (depth >= 3 && isQuiet && moveCount > (pvNode ? 2 : 1)) {
          r = LMR[Math.min(depth, 63) * 64 + Math.min(moveCount, 63)];
          if (!pvNode) r++;
          if (cutNode) r++;
          if (!improving) r++;
          if (givesCheck) r--;
          if (scores[i] >= (1 << 27) - 2)
            r -= 2; // killers and counter-move
          else r -= (scores[i] / P.lmrHistoryDiv) | 0; // history
        } else if (
          P.captureReductions &&
          depth >= 3 &&
          isCapture &&
          movePromo(m) === 0 &&
          m !== ttMove &&
          !givesCheck &&
          moveCount > (pvNode ? 2 : 1)
        ) {
          // Late captures: a ply less than the table's, another for a capture that does not lose
          // material (SEE ≥ 0), and the capture history's say.
          r = LMR[Math.min(depth, 63) * 64 + Math.min(moveCount, 63)] - 1 - ((capHist / P.captureLmrHistoryDiv) | 0);
          if (scores[i] >= 1 << 28) r--;
        }
        // Either reduction stays within [0, newDepth − 1]: the reduced search is at least a ply.
        if (r < 0) r = 0;
        if (r > newDepth - 1) r = Math.max(0, newDepth - 1);
        score = -this.negamax(-alpha - 1, -alpha, newDepth - r, ply + 1, true);
        if (score > alpha && r > 0) score = -this.negamax(-alpha - 1, -alpha, newDepth, ply + 1, !cutNode);
        if (pvNode && score > alpha && score < beta) score = -this.negamax(-beta, -alpha, newDepth, ply + 1, false);
      }
      pos.unmakeMove();
      if (this.stopped) return 0;

      if (score > best) {
        best = score;
        if (score > alpha) {
          bestMove = m;
          alpha = score;
          if (pvNode) this.updatePv(ply, m);
          if (score >= beta) {
            if (isQuiet) this.ordering.updateQuiet(pos, m, this.quiets, qBase, quietCount, depth, ply, prevKey, prev2Key, prev4Key);
            if (P.captureHistory) this.ordering.updateCaptures(pos, isQuiet ? 0 : m, this.captures, cBase, captureCount, depth);
            break;
          }
        }
      }
    }
    if (moveCount === 0) {
      // Only the excluded move, or every move pruned (possible only after the best score was
      // already a mate bound); be safe.
      if (best === -INF) return inCheck && excluded === 0 ? -MATE + ply : alpha;
    }
    if (excluded !== 0) return best;

    const bound = best >= beta ? BOUND_LOWER : pvNode && best > origAlpha ? BOUND_EXACT : BOUND_UPPER;
    tt.store(hashLo, hashHi, bestMove, scoreToTt(best, ply), staticEval === NO_EVAL ? 0 : rawEval, depth, bound);
    // Correction history learns how far search fell from the static evaluation, when the bound
    // says which way (a quiet best move or none: captures say more about tactics than structure).
    if (
      corrIndex >= 0 &&
      (bestMove === 0 || (board[moveTo(bestMove)] === 0 && movePromo(bestMove) === 0 && moveKind(bestMove) !== KIND_EN_PASSANT)) &&
      Math.abs(best) < MATE_BOUND &&
      !(bound === BOUND_LOWER && best <= staticEval) &&
      !(bound === BOUND_UPPER && best >= staticEval)
    )
      this.correction.update(corrIndex, rawEval, best, depth);
    return best;
  }

  private updatePv(ply: number, m: number): void {
    const row = ply * (MAX_PLY + 2),
      next = (ply + 1) * (MAX_PLY + 2);
    const pvTable = this.pvTable;
    pvTable[row + ply] = m;
    const len = this.pvLen[ply + 1];
    for (let k = ply + 1; k < len; k++) pvTable[row + k] = pvTable[next + k];
    this.pvLen[ply] = Math.max(len, ply + 1);
  }

  // ---- quiescence ----

  private qsearch(alpha: number, beta: number, ply: number): number {
    const pos = this.pos;
    this.pvLen[ply] = ply;
    if (this.stopped) return 0;
    if (ply > this.seldepth) this.seldepth = ply;
    if (pos.halfmove >= 100 || insufficientMaterial(pos)) return 0;
    const inCheck = pos.inCheck();
    if (ply >= MAX_PLY - 1) return inCheck ? 0 : this.staticEvaluate(pos);
    const pvNode = beta - alpha > 1;

    const hashLo = pos.hashLo,
      hashHi = pos.hashHi,
      tt = this.tt;
    const hit = tt.probe(hashLo, hashHi);
    let ttMove = 0;
    if (hit) {
      ttMove = tt.move();
      const s = scoreFromTt(tt.score(), ply),
        b = tt.bound();
      if (!pvNode && (b === BOUND_EXACT || (b === BOUND_LOWER && s >= beta) || (b === BOUND_UPPER && s <= alpha))) return s;
    }

    let best = -INF,
      standPat = 0,
      rawEval = 0;
    const base = ply * MAX_MOVES,
      moves = this.moves,
      scores = this.scores;
    let end: number;
    if (inCheck) {
      end = this.moveGenerator.generate(pos, moves, base);
      if (end === base) return -MATE + ply;
    } else {
      rawEval = hit ? tt.staticEval() : this.staticEvaluate(pos);
      standPat = rawEval;
      if (standPat >= beta) {
        if (!hit) tt.store(hashLo, hashHi, 0, scoreToTt(standPat, ply), rawEval, -1, BOUND_LOWER);
        return standPat;
      }
      if (standPat > alpha) alpha = standPat;
      best = standPat;
      end = this.moveGenerator.generateNoisy(pos, moves, base);
    }
    this.ordering.scoreNoisy(pos, moves, scores, base, end, ttMove);

    const origAlpha = alpha;
    let bestMove = 0;
    const board = pos.board;
    for (let i = base; i < end; i++) {
      const m = pickNext(moves, scores, i, end);
      if (!inCheck) {
        const promo = movePromo(m);
        if (promo !== 0 && promo !== QUEEN) continue; // underpromotions are for the main search
        if (promo === 0) {
          const victim = moveKind(m) === KIND_EN_PASSANT ? 1 : board[moveTo(m)] & 7;
          // Delta pruning: even winning this piece cannot lift the score to alpha.
          if (standPat + SEE_VALUE[victim] + this.params.qsDeltaMargin <= alpha) continue;
          if (!seeGe(pos, m, 0)) continue;
        }
      }
      this.doMove(pos, m);
      const score = -this.qsearch(-beta, -alpha, ply + 1);
      pos.unmakeMove();
      if (this.stopped) return 0;
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          bestMove = m;
          if (pvNode) this.updatePv(ply, m);
          if (score >= beta) break;
        }
      }
    }
    const bound = best >= beta ? BOUND_LOWER : pvNode && best > origAlpha ? BOUND_EXACT : BOUND_UPPER;
    tt.store(hashLo, hashHi, bestMove, scoreToTt(best, ply), inCheck ? 0 : rawEval, inCheck ? 0 : -1, bound);
    return best;
  }
}
