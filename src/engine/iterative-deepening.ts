/**
 * A search from start to result: iterative deepening over the tree search (search.ts), each
 * iteration in aspiration windows around the last score and for each MultiPV line; when to stop
 * early on a clock (the soft limit scaled by the time manager after each iteration, a forced mate
 * found); the reports a GUI sees; the result with its ponder move. Lazy SMP helpers run the
 * same loop with depths skipped and no reports.
 */
import type { Position } from '../core/position.js';
import { MAX_MOVES } from '../core/movegen.js';
import type { Score, SearchHooks, SearchInfo, SearchLimits, SearchResult } from './types.js';
import { MAX_PLY } from './ordering.js';
import { computeClockBudget, softLimitScale } from './timeman.js';
import { helperSkipsDepth, type HelperPool } from './smp.js';
import { INF, MATE, MATE_BOUND, toUciScore } from './score.js';
import type { RootMove, Searcher } from './search.js';

/** What one search takes from the Engine besides the position, its limits and hooks. */
export interface SearchSetup {
  /** When the search was asked for (Date.now()): the clock runs from here. */
  startTime: number;
  moveOverheadMs: number;
  multiPv: number;
  /** The Lazy SMP helper threads of a main search with more than one thread, else null. */
  helpers: HelperPool | null;
  /** 0 on the main thread; i > 0 on helper i. */
  helperIndex: number;
  /** The time manager, if not SearchParams.timeManagement's (a limited level keeps the one it was calibrated with). */
  timeManagement?: number;
}

/** Stable sort of rootMoves[from, to) by score, best first. */
function sortRootMoves(rootMoves: RootMove[], from: number, to = rootMoves.length): void {
  const part = rootMoves.slice(from, to);
  part.sort((a, b) => b.score - a.score);
  for (let i = 0; i < part.length; i++) rootMoves[from + i] = part[i];
}

/** A reply to `move` from the hash table, if it is legal. */
function ttPonderMove(s: Searcher, pos: Position, move: number): number {
  pos.makeMove(move);
  let reply = 0;
  const hit = s.tt.probe(pos.hashLo, pos.hashHi);
  if (hit) {
    const m = s.tt.move();
    const moves = new Int32Array(MAX_MOVES);
    const n = s.moveGenerator.generate(pos, moves, 0);
    for (let i = 0; i < n; i++)
      if (moves[i] === m) {
        reply = m;
        break;
      }
  }
  pos.unmakeMove();
  return reply;
}

/** Searches `pos` with `searcher` within `limits`, reporting to `hooks.onInfo`. */
export function iterate(searcher: Searcher, pos: Position, limits: SearchLimits, hooks: SearchHooks, setup: SearchSetup): SearchResult {
  const s = searcher,
    stop = s.stopConditions,
    onInfo = hooks.onInfo,
    { startTime, helpers, helperIndex } = setup;
  const maxDepth = limits.depth !== undefined && limits.depth > 0 ? Math.min(limits.depth, MAX_PLY - 1) : MAX_PLY - 1;
  const rootPly = pos.ply;
  const timeManagement = setup.timeManagement ?? s.params.timeManagement;
  const clockParams = timeManagement === s.params.timeManagement ? s.params : { ...s.params, timeManagement };
  const budget = computeClockBudget(limits, pos.side, setup.moveOverheadMs, clockParams, pos.fullmove);
  stop.start(limits, budget, startTime, hooks.control, helpers, helperIndex);
  const moves = s.begin(pos);
  if (moves.length === 0) {
    const score: Score = pos.inCheck() ? { mate: 0 } : { cp: 0 };
    return { bestMove: 0, ponderMove: 0, score, depth: 0, nodes: 0, timeMs: Date.now() - startTime, pv: [] };
  }
  const rootMoves: RootMove[] = moves.map((m) => ({ move: m, score: -INF, prevScore: -INF, pv: [m], nodes: 0 }));
  /** The first move of the last principal variation sent to onInfo (0: none yet this search). */
  let reportedMove = 0;

  const report = (depth: number, pvIdx: number, bound: 'lower' | 'upper' | undefined): void => {
    if (onInfo === undefined) return;
    const ms = Date.now() - startTime;
    // Bound updates are noise early on; only send them for long searches.
    if (bound !== undefined && ms < 1000) return;
    const rm = rootMoves[pvIdx];
    const score = rm.score !== -INF ? rm.score : rm.prevScore;
    const helperNodes = helpers !== null ? helpers.helperNodes() : 0;
    const nodes = s.nodes + helperNodes;
    const info: SearchInfo = {
      depth,
      seldepth: Math.max(s.seldepth, depth),
      multipv: pvIdx + 1,
      score: toUciScore(score === -INF ? 0 : score),
      nodes,
      nps: Math.floor((nodes * 1000) / Math.max(1, ms)),
      timeMs: ms,
      hashfull: s.tt.hashfull(),
      pv: rm.pv.slice(),
    };
    if (bound !== undefined) info.bound = bound;
    if (helpers !== null) info.helperNodes = helperNodes;
    if (pvIdx === 0) reportedMove = rm.move;
    onInfo(info);
  };

  let lastBest = 0,
    stableIterations = 0,
    searchedDepth = 0;
  /** For the time manager: recent changes of best move (halved each iteration) and the last four iterations' best scores. */
  let bestMoveChanges = 0;
  const bestScores: number[] = [];
  for (let depth = 1; depth <= maxDepth; depth++) {
    if (helperIndex > 0 && helperSkipsDepth(helperIndex, depth, rootPly)) continue;
    searchedDepth = depth;
    for (const rm of rootMoves) {
      rm.prevScore = rm.score;
      rm.score = -INF;
      rm.nodes = 0;
    }
    const lines = Math.min(setup.multiPv, rootMoves.length);
    for (let pvIdx = 0; pvIdx < lines && !s.stopped; pvIdx++) {
      s.seldepth = 0;
      let delta = s.params.aspirationDelta;
      const prev = rootMoves[pvIdx].prevScore;
      let alpha = -INF,
        beta = INF;
      if (depth >= 5 && prev > -MATE_BOUND && prev < MATE_BOUND) {
        alpha = Math.max(prev - delta, -INF);
        beta = Math.min(prev + delta, INF);
      }
      for (;;) {
        const score = s.rootSearch(rootMoves, alpha, beta, depth, pvIdx);
        sortRootMoves(rootMoves, pvIdx);
        if (s.stopped) break;
        if (score <= alpha) {
          beta = (alpha + beta) >> 1;
          alpha = Math.max(score - delta, -INF);
          report(depth, pvIdx, 'upper');
        } else if (score >= beta) {
          beta = Math.min(score + delta, INF);
          report(depth, pvIdx, 'lower');
        } else break;
        delta += delta >> 1;
        if (delta > 600) {
          alpha = -INF;
          beta = INF;
        }
      }
      sortRootMoves(rootMoves, 0, pvIdx + 1);
    }
    if (s.stopped) break;
    // All lines together once the iteration is complete, so they are consistent with each other.
    for (let k = 0; k < lines; k++) report(depth, k, undefined);
    s.completedDepth = depth;
    const best = rootMoves[0].move;
    bestMoveChanges /= 2;
    if (best !== lastBest) {
      stableIterations = 0;
      lastBest = best;
      bestMoveChanges += 1;
    } else stableIterations++;
    // Mate scores would swamp the average: the time manager sees at most ±10 pawns.
    const bestScore = Math.max(-1000, Math.min(1000, rootMoves[0].score));

    // Stopping early belongs to clock time controls: `go movetime N` searches N ms (less the
    // move overhead), as the protocol says, however stable the best move.
    if (stop.timed && !stop.pondering && limits.movetime === undefined) {
      const elapsed = Date.now() - stop.timingStart;
      if (rootMoves.length === 1 && depth >= 4) break;
      let limit: number;
      if (timeManagement === 0) {
        // A best move that keeps changing earns more time; a stable one less.
        limit = stop.softMs * (stableIterations >= 4 ? 0.6 : stableIterations >= 2 ? 0.8 : 1.2);
      } else {
        // Node effort, a falling score and the best move's stability scale it, never past the hard limit.
        let iterationNodes = 0;
        for (const rm of rootMoves) iterationNodes += rm.nodes;
        let earlier = 0;
        for (const v of bestScores) earlier += v;
        const scale = softLimitScale(
          {
            bestMoveNodeShare: iterationNodes > 0 ? rootMoves[0].nodes / iterationNodes : 1,
            scoreDropCp: bestScores.length > 0 ? earlier / bestScores.length - bestScore : 0,
            bestMoveChanges,
          },
          s.params,
        );
        limit = Math.min(stop.softMs * scale, stop.hardMs);
      }
      if (elapsed * 100 >= limit * s.params.timeSoftPercent) break;
    }
    bestScores.push(bestScore);
    if (bestScores.length > 4) bestScores.shift();
    // A forced mate within the depth searched will not change with more depth.
    const score = rootMoves[0].score;
    if (
      !limits.infinite &&
      !stop.pondering &&
      limits.depth === undefined &&
      limits.movetime === undefined &&
      Math.abs(score) >= MATE_BOUND &&
      MATE - Math.abs(score) <= depth
    )
      break;
  }

  // The helpers are no use once the main search is done: free their cores during the wait below.
  helpers?.stop();

  // A search stopped inside an iteration may have found a better root move than the last line
  // reported (it is searched and sorted first): report its line, so that the move played is
  // the first move of the last principal variation a GUI was shown, as Stockfish does.
  if (rootMoves[0].move !== reportedMove && rootMoves[0].score !== -INF) report(Math.max(1, searchedDepth), 0, undefined);

  if ((limits.infinite || stop.pondering) && !s.stopped) stop.waitForStop();

  // Restore the position defensively (every make is paired with an unmake).
  while (pos.ply > rootPly) pos.unmakeMove();

  const best = rootMoves[0];
  const pv = best.pv.slice();
  let ponderMove = pv.length >= 2 ? pv[1] : 0;
  if (ponderMove === 0) ponderMove = ttPonderMove(s, pos, best.move);
  const scoreValue = best.score !== -INF ? best.score : best.prevScore;
  const result: SearchResult = {
    bestMove: best.move,
    ponderMove,
    score: toUciScore(scoreValue === -INF ? 0 : scoreValue),
    depth: s.completedDepth,
    nodes: s.nodes,
    timeMs: Date.now() - startTime,
    pv,
  };
  if (setup.multiPv > 1) {
    result.lines = [];
    for (const rm of rootMoves.slice(0, Math.min(setup.multiPv, rootMoves.length))) {
      const score = rm.score !== -INF ? rm.score : rm.prevScore;
      if (score !== -INF) result.lines.push({ move: rm.move, score, pv: rm.pv.slice() });
    }
  }
  return result;
}
