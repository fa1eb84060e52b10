/**
 * The searcher: iterative deepening over a principal-variation alpha-beta search with
 * aspiration windows, a transposition table, null-move pruning, late-move reductions,
 * reverse futility / futility / late-move pruning, check and singular extensions, mate-distance
 * pruning, a static evaluation corrected by pawn-structure correction history, and a quiescence
 * search on captures and promotions. All per-node storage is preallocated.
 */
import { BISHOP, KNIGHT, QUEEN, ROOK } from '../core/types.js';
import type { Position } from '../core/position.js';
import { MAX_MOVES, defaultGenerator } from '../core/movegen.js';
import { evaluate, insufficientMaterial, scaleByPawns, scaleByPieceCount } from './evaluate.js';
import type { NnueEvaluator } from './nnue/evaluator.js';
import { SEE_VALUE, seeGe } from './see.js';
import { givesDirectCheck, givesQuietCheck } from './gives-check.js';
import { BOUND_EXACT, BOUND_LOWER, BOUND_NONE, BOUND_UPPER, TranspositionTable } from './tt.js';
import { MAX_PLY, MoveOrdering, pickNext } from './ordering.js';
import { computeTimeBudget } from './timeman.js';
import type { LegalMoveGenerator } from '../core/backend.js';
import type { EngineOptions, Score, SearchHooks, SearchInfo, SearchLimits, SearchResult } from './types.js';
import { KIND_CASTLE, KIND_EN_PASSANT, moveKind, movePromo, moveTo } from '../core/move.js';
import { HelperPool, SMP_NODE_UNITS, type HelperConfig, type SpawnHelper } from './smp.js';
import { SearchParams } from './search-params.js';
import { MATE, MATE_BOUND, scoreFromTt, scoreToTt, toUciScore } from './score.js';
import { CorrectionHistory, correctionIndex, nonPawnIndex } from './correction.js';

const INF = 32001;
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
 * Lazy SMP depth skipping (Stockfish 9's table): helper i skips the iterations where
 * ((depth + game ply + phase) / size) is odd, so the helpers spread over different depths.
 */
const SKIP_SIZE = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
function helperSkipsDepth(helperIndex: number, depth: number, gamePly: number): boolean {
  const i = (helperIndex - 1) % 20;
  return Math.floor((depth + gamePly + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 === 1;
}

/** The search root as its setup FEN and the moves since (0 = a null move), for a helper to rebuild. */
function rootOf(pos: Position): { fen: string; moves: number[] } {
  const setup = pos.clone(),
    moves: number[] = [];
  for (let i = 0; i < pos.ply; i++) moves.push(pos.moveAt(i));
  for (let i = pos.ply - 1; i >= 0; i--) {
    if (moves[i] === 0) setup.unmakeNullMove();
    else setup.unmakeMove();
  }
  return { fen: setup.toFen(), moves };
}

interface RootMove {
  move: number;
  score: number;
  prevScore: number;
  pv: number[];
}

export class Engine {
  private tt: TranspositionTable;
  private moveGenerator: LegalMoveGenerator;
  private moveOverheadMs: number;
  private multiPv: number;
  readonly params = new SearchParams();
  private readonly ordering = new MoveOrdering(this.params);
  private lmr = lmrTable(this.params);
  private readonly ownControl = new Int32Array(2);
  private control: Int32Array = this.ownControl;

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
  /** What searches found against the static evaluation, by pawn structure (and pieces). */
  private readonly correction = new CorrectionHistory();

  // Per-search state.
  private pos!: Position;
  private nodes = 0;
  private nextCheck = 0;
  private nodeLimit = Infinity;
  private seldepth = 0;
  private stopped = false;
  private startTime = 0;
  private timingStart = 0;
  private timed = false;
  private pondering = false;
  private softMs = Infinity;
  private hardMs = Infinity;
  private completedDepth = 0;
  /** The first move of the last principal variation sent to onInfo (0: none yet this search). */
  private reportedMove = 0;
  private rootMoves: RootMove[] = [];
  /** The learned evaluation, or null for the classical one. */
  private nnue: NnueEvaluator | null;

  // Lazy SMP (smp.ts): the main engine owns the helper threads; a helper engine has an index > 0.
  private threadCount = 1;
  private helpers: HelperPool | null = null;
  private helperIndex = 0;

  constructor(options: EngineOptions = {}) {
    this.tt = new TranspositionTable(options.hashMb ?? 16);
    this.moveGenerator = options.moveGenerator ?? defaultGenerator;
    this.moveOverheadMs = options.moveOverheadMs ?? 30;
    this.multiPv = Math.max(1, options.multiPv ?? 1);
    this.nnue = options.nnue ?? null;
    if (options.threads !== undefined && options.threads > 1) this.setThreads(options.threads, options.spawnHelper);
  }

  /**
   * Searches with `n` threads in all (Lazy SMP): n − 1 helper threads started now with `spawn`
   * (spawnNodeHelper from smp-node.ts on Node) share the transposition table, which moves to a
   * SharedArrayBuffer (and is cleared). Same n again: nothing happens; the helpers live until the
   * thread count changes or dispose(). Helpers generate moves with the bitboard core whatever
   * setMoveGenerator chose (every backend lists the same moves, so the tree is the same).
   */
  setThreads(n: number, spawn?: SpawnHelper, onError?: (message: string) => void): void {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`threads: expected a whole number of at least 1, got ${n}`);
    if (this.helperIndex > 0) throw new Error('threads: a helper engine cannot have helpers of its own');
    if (n > 1 && spawn === undefined) throw new Error(`threads: ${n} threads need a way to start helper threads (spawnHelper)`);
    if (n === this.threadCount) return;
    this.helpers?.terminate();
    this.helpers = null;
    this.threadCount = n;
    this.tt.setShared(n > 1);
    if (n > 1) {
      this.helpers = new HelperPool(n - 1, spawn!, onError);
      this.configureHelpers();
    }
  }
  /**
   * Blocks until every helper thread has started (or `timeoutMs` passed; then false). Optional:
   * a search never waits for helpers, they join when they are up. On Node only (a browser
   * worker starts its nested workers from its own event loop, which this would block).
   */
  waitForHelpers(timeoutMs = 10_000): boolean {
    return this.helpers === null || this.helpers.waitReady(timeoutMs);
  }
  get threads(): number {
    return this.threadCount;
  }
  /** Ends the helper threads (back to one thread); the engine stays usable. */
  dispose(): void {
    this.setThreads(1);
  }

  private configureHelpers(): void {
    const helpers = this.helpers;
    if (helpers === null) return;
    const nnue = this.nnue;
    const config: HelperConfig = {
      tt: this.tt.buffer as SharedArrayBuffer,
      nnue: nnue === null ? null : { network: nnue.network, kernel: nnue.kernel.name, source: nnue.source },
      params: { ...this.params } as unknown as Record<string, number | boolean>,
    };
    helpers.configure(config);
  }

  /** Helper side of Lazy SMP (smp-helper.ts): this engine becomes helper `index`, searching on the shared table `tt`. */
  joinAsHelper(index: number, tt: SharedArrayBuffer): void {
    if (this.helpers !== null) throw new Error('threads: an engine with helpers cannot become a helper');
    this.helperIndex = index;
    this.tt.attach(tt);
  }

  /** A helper's search of the main search's root: until `control` says stop (or `depth`, if > 0), no reports. */
  searchAsHelper(pos: Position, depth: number, ttAge: number, control: Int32Array): void {
    this.tt.setAge(ttAge);
    this.search(pos, depth > 0 ? { depth } : {}, { control });
  }

  /** Switches between the network and the classical evaluation; clears the hash (its static evaluations are the old one's). */
  setEvaluator(nnue: NnueEvaluator | null): void {
    this.nnue = nnue;
    // A helper leaves the shared table to the main engine, which clears it itself.
    if (this.helperIndex === 0) this.tt.clear();
    this.configureHelpers();
  }
  get evaluator(): NnueEvaluator | null {
    return this.nnue;
  }

  /** The evaluation the search uses, side to move's view. */
  private staticEvaluate(pos: Position): number {
    let v = this.nnue !== null ? this.nnue.evaluate(pos) : evaluate(pos);
    if (this.params.fewPawnsScale) v = scaleByPawns(pos, v);
    if (this.params.pieceCountScale) v = scaleByPieceCount(pos, v);
    return this.params.rule50Damping ? ((v * (200 - pos.halfmove)) / 200) | 0 : v;
  }

  /** Rebuilds tables derived from `params`. */
  paramsChanged(): void {
    this.lmr = lmrTable(this.params);
    this.configureHelpers();
  }
  setHashSize(mb: number): void {
    this.tt.resize(mb);
    this.configureHelpers();
  }
  clearHash(): void {
    this.tt.clear();
  }
  setMoveOverhead(ms: number): void {
    this.moveOverheadMs = Math.max(0, ms);
  }
  setMultiPv(n: number): void {
    this.multiPv = Math.max(1, Math.floor(n));
  }
  setMoveGenerator(gen: LegalMoveGenerator): void {
    this.moveGenerator = gen;
  }
  newGame(): void {
    if (this.helperIndex === 0) this.tt.clear();
    this.ordering.clear();
    this.correction.clear();
    this.helpers?.newGame();
  }
  stop(): void {
    Atomics.store(this.control, 0, 1);
  }
  /** Permille of the hash table used by the current search. */
  hashfull(): number {
    return this.tt.hashfull();
  }

  search(pos: Position, limits: SearchLimits, hooks: SearchHooks = {}): SearchResult {
    this.startTime = Date.now(); // before the helpers start: waiting for them is on the clock
    // Helpers take the main search's table age (searchAsHelper) instead of starting a new one.
    if (this.helperIndex === 0) this.tt.newSearch();
    const helpers = this.helpers;
    if (helpers === null) return this.iterate(pos, limits, hooks);
    const root = rootOf(pos);
    helpers.start(root.fen, root.moves, limits.depth ?? 0, this.tt.searchAge);
    let result: SearchResult;
    try {
      result = this.iterate(pos, limits, hooks);
    } finally {
      // Also when the search threw: helpers must never go on searching a stale root.
      helpers.stop();
    }
    result.helperNodes = helpers.helperNodes();
    result.nodes += result.helperNodes;
    return result;
  }

  private iterate(pos: Position, limits: SearchLimits, hooks: SearchHooks): SearchResult {
    this.pos = pos;
    this.control = hooks.control ?? this.ownControl;
    if (this.control === this.ownControl) {
      this.ownControl[0] = 0;
      this.ownControl[1] = 0;
    }
    const onInfo = hooks.onInfo;
    this.timingStart = this.startTime;
    this.nodes = 0;
    this.seldepth = 0;
    this.stopped = false;
    this.completedDepth = 0;
    this.reportedMove = 0;
    this.nodeLimit = limits.nodes !== undefined && limits.nodes > 0 ? limits.nodes : Infinity;
    this.nextCheck = Math.min(1024, this.nodeLimit);
    this.pondering = limits.ponder === true;
    const budget = computeTimeBudget(limits, pos.side, this.moveOverheadMs, this.params.timeHorizonMoves);
    this.timed = budget.timed && !limits.infinite;
    this.softMs = budget.softMs;
    this.hardMs = budget.hardMs;
    this.ordering.newSearch();
    const maxDepth = limits.depth !== undefined && limits.depth > 0 ? Math.min(limits.depth, MAX_PLY - 1) : MAX_PLY - 1;

    // Root moves, ordered by the usual heuristics for the first iteration.
    const rootPly = pos.ply;
    if (this.nnue !== null) this.nnue.reset(pos);
    const hashLo = pos.hashLo,
      hashHi = pos.hashHi;
    const n = this.moveGenerator.generate(pos, this.moves, 0);
    if (n === 0) {
      const score: Score = pos.inCheck() ? { mate: 0 } : { cp: 0 };
      return { bestMove: 0, ponderMove: 0, score, depth: 0, nodes: 0, timeMs: Date.now() - this.startTime, pv: [] };
    }
    const hit = this.tt.probe(hashLo, hashHi);
    this.ordering.scoreMoves(pos, this.moves, this.scores, 0, n, hit ? this.tt.move() : 0, 0, 0, -1);
    this.rootMoves = [];
    for (let i = 0; i < n; i++) {
      const m = pickNext(this.moves, this.scores, i, n);
      this.rootMoves.push({ move: m, score: -INF, prevScore: -INF, pv: [m] });
    }
    this.keyLo[0] = hashLo;
    this.keyHi[0] = hashHi;

    let lastBest = 0,
      stableIterations = 0,
      searchedDepth = 0;
    for (let depth = 1; depth <= maxDepth; depth++) {
      if (this.helperIndex > 0 && helperSkipsDepth(this.helperIndex, depth, rootPly)) continue;
      searchedDepth = depth;
      for (const rm of this.rootMoves) {
        rm.prevScore = rm.score;
        rm.score = -INF;
      }
      const lines = Math.min(this.multiPv, this.rootMoves.length);
      for (let pvIdx = 0; pvIdx < lines && !this.stopped; pvIdx++) {
        this.seldepth = 0;
        let delta = this.params.aspirationDelta;
        const prev = this.rootMoves[pvIdx].prevScore;
        let alpha = -INF,
          beta = INF;
        if (depth >= 5 && prev > -MATE_BOUND && prev < MATE_BOUND) {
          alpha = Math.max(prev - delta, -INF);
          beta = Math.min(prev + delta, INF);
        }
        for (;;) {
          const score = this.rootSearch(alpha, beta, depth, pvIdx);
          this.sortRootMoves(pvIdx);
          if (this.stopped) break;
          if (score <= alpha) {
            beta = (alpha + beta) >> 1;
            alpha = Math.max(score - delta, -INF);
            this.report(onInfo, depth, pvIdx, 'upper');
          } else if (score >= beta) {
            beta = Math.min(score + delta, INF);
            this.report(onInfo, depth, pvIdx, 'lower');
          } else break;
          delta += delta >> 1;
          if (delta > 600) {
            alpha = -INF;
            beta = INF;
          }
        }
        this.sortRootMoves(0, pvIdx + 1);
      }
      if (this.stopped) break;
      // All lines together once the iteration is complete, so they are consistent with each other.
      for (let k = 0; k < lines; k++) this.report(onInfo, depth, k, undefined);
      this.completedDepth = depth;
      const best = this.rootMoves[0].move;
      if (best !== lastBest) {
        stableIterations = 0;
        lastBest = best;
      } else stableIterations++;

      // Stopping early belongs to clock time controls: `go movetime N` searches N ms (less the
      // move overhead), as the protocol says, however stable the best move.
      if (this.timed && !this.pondering && limits.movetime === undefined) {
        const elapsed = Date.now() - this.timingStart;
        if (this.rootMoves.length === 1 && depth >= 4) break;
        // A best move that keeps changing earns more time; a stable one less.
        const factor = stableIterations >= 4 ? 0.6 : stableIterations >= 2 ? 0.8 : 1.2;
        if (elapsed * 100 >= this.softMs * factor * this.params.timeSoftPercent) break;
      }
      // A forced mate within the depth searched will not change with more depth.
      const s = this.rootMoves[0].score;
      if (
        !limits.infinite &&
        !this.pondering &&
        limits.depth === undefined &&
        limits.movetime === undefined &&
        Math.abs(s) >= MATE_BOUND &&
        MATE - Math.abs(s) <= depth
      )
        break;
    }

    // The helpers are no use once the main search is done: free their cores during the wait below.
    this.helpers?.stop();

    // A search stopped inside an iteration may have found a better root move than the last line
    // reported (it is searched and sorted first): report its line, so that the move played is
    // the first move of the last principal variation a GUI was shown, as Stockfish does.
    if (this.rootMoves[0].move !== this.reportedMove && this.rootMoves[0].score !== -INF)
      this.report(onInfo, Math.max(1, searchedDepth), 0, undefined);

    // infinite / ponder: UCI says do not answer before "stop" (or ponderhit), so wait for it when
    // someone can signal us (a SharedArrayBuffer control block).
    if ((limits.infinite || this.pondering) && !this.stopped && this.control.buffer instanceof SharedArrayBuffer) {
      while (Atomics.load(this.control, 0) === 0 && !(this.pondering && Atomics.load(this.control, 1) !== 0)) {
        Atomics.wait(this.control, 0, 0, 20);
      }
    }

    // Restore the position defensively (every make is paired with an unmake).
    while (pos.ply > rootPly) pos.unmakeMove();

    const best = this.rootMoves[0];
    const pv = best.pv.slice();
    let ponderMove = pv.length >= 2 ? pv[1] : 0;
    if (ponderMove === 0) ponderMove = this.ttPonderMove(pos, best.move);
    const scoreValue = best.score !== -INF ? best.score : best.prevScore;
    return {
      bestMove: best.move,
      ponderMove,
      score: toUciScore(scoreValue === -INF ? 0 : scoreValue),
      depth: this.completedDepth,
      nodes: this.nodes,
      timeMs: Date.now() - this.startTime,
      pv,
    };
  }

  /** A reply to `move` from the hash table, if it is legal. */
  private ttPonderMove(pos: Position, move: number): number {
    pos.makeMove(move);
    let reply = 0;
    const hit = this.tt.probe(pos.hashLo, pos.hashHi);
    if (hit) {
      const m = this.tt.move();
      const n = this.moveGenerator.generate(pos, this.moves, 0);
      for (let i = 0; i < n; i++)
        if (this.moves[i] === m) {
          reply = m;
          break;
        }
    }
    pos.unmakeMove();
    return reply;
  }

  /** Stable sort of rootMoves[from, to) by score, best first. */
  private sortRootMoves(from: number, to = this.rootMoves.length): void {
    const part = this.rootMoves.slice(from, to);
    part.sort((a, b) => b.score - a.score);
    for (let i = 0; i < part.length; i++) this.rootMoves[from + i] = part[i];
  }

  private report(
    onInfo: ((info: SearchInfo) => void) | undefined,
    depth: number,
    pvIdx: number,
    bound: 'lower' | 'upper' | undefined,
  ): void {
    if (onInfo === undefined) return;
    const ms = Date.now() - this.startTime;
    // Bound updates are noise early on; only send them for long searches.
    if (bound !== undefined && ms < 1000) return;
    const rm = this.rootMoves[pvIdx];
    const score = rm.score !== -INF ? rm.score : rm.prevScore;
    const helperNodes = this.helpers !== null ? this.helpers.helperNodes() : 0;
    const nodes = this.nodes + helperNodes;
    const info: SearchInfo = {
      depth,
      seldepth: Math.max(this.seldepth, depth),
      multipv: pvIdx + 1,
      score: toUciScore(score === -INF ? 0 : score),
      nodes,
      nps: Math.floor((nodes * 1000) / Math.max(1, ms)),
      timeMs: ms,
      hashfull: this.tt.hashfull(),
      pv: rm.pv.slice(),
    };
    if (bound !== undefined) info.bound = bound;
    if (this.helpers !== null) info.helperNodes = helperNodes;
    if (pvIdx === 0) this.reportedMove = rm.move;
    onInfo(info);
  }

  // ---- limits ----

  private checkLimits(): void {
    this.nextCheck = Math.min(this.nodes + 1024, this.nodeLimit);
    const c = this.control;
    // A helper is called here every SMP_NODE_UNIT (1024) nodes: count them where the main thread sees them.
    if (this.helperIndex > 0) Atomics.add(c, SMP_NODE_UNITS, 1);
    // `go nodes N` counts the nodes of all threads.
    if (this.nodes + (this.helpers !== null ? this.helpers.helperNodes() : 0) >= this.nodeLimit) {
      this.stopped = true;
      return;
    }
    if (Atomics.load(c, 0) !== 0) {
      this.stopped = true;
      return;
    }
    if (this.pondering && Atomics.load(c, 1) !== 0) {
      // ponderhit: from now on the clock is ours, measured from this moment.
      this.pondering = false;
      this.timingStart = Date.now();
    }
    // Depth 1 always completes so there is a real best move.
    if (this.timed && !this.pondering && this.completedDepth >= 1 && Date.now() - this.timingStart >= this.hardMs) this.stopped = true;
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

  private rootSearch(alpha: number, beta: number, depth: number, pvIdx: number): number {
    const pos = this.pos,
      rms = this.rootMoves;
    let best = -INF;
    const origAlpha = alpha;
    const inCheck = pos.inCheck();
    this.evalStack[0] = inCheck ? NO_EVAL : this.staticEvaluate(pos);
    for (let i = pvIdx; i < rms.length; i++) {
      const rm = rms[i],
        m = rm.move;
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
      corrIndex = -1,
      whiteIndex = -1,
      blackIndex = -1;
    if (!inCheck) {
      rawEval = hit ? tt.staticEval() : this.staticEvaluate(pos);
      staticEval = rawEval;
      if (P.correctionHistory) {
        corrIndex = correctionIndex(pos);
        if (P.nonPawnCorrection) {
          whiteIndex = nonPawnIndex(pos, 0);
          blackIndex = nonPawnIndex(pos, 1);
        }
        staticEval = this.correction.corrected(rawEval, corrIndex, whiteIndex, blackIndex);
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

      // ProbCut: when a capture that wins at least the margin by exchange (SEE) still beats
      // beta + margin in a search four plies shallower, the full-depth search would almost
      // surely fail high too. Skipped when the hash already says this node stays below that bound.
      const pcBeta = beta + P.probCutMargin;
      if (
        P.probCut &&
        depth >= P.probCutMinDepth &&
        excluded === 0 &&
        Math.abs(beta) < MATE_BOUND &&
        !(hit && ttDepth >= depth - 3 && ttScore < pcBeta)
      ) {
        const pcBase = ply * MAX_MOVES,
          moves = this.moves,
          scores = this.scores;
        const pcEnd = this.moveGenerator.generateNoisy(pos, moves, pcBase);
        this.ordering.scoreNoisy(pos, moves, scores, pcBase, pcEnd, ttMove);
        for (let i = pcBase; i < pcEnd; i++) {
          const m = pickNext(moves, scores, i, pcEnd);
          const promo = movePromo(m);
          if (promo !== 0 && promo !== QUEEN) continue;
          if (!seeGe(pos, m, pcBeta - staticEval)) continue;
          this.doMove(pos, m);
          this.keyLo[ply + 1] = pos.hashLo;
          this.keyHi[ply + 1] = pos.hashHi;
          let v = -this.qsearch(-pcBeta, -pcBeta + 1, ply + 1);
          if (v >= pcBeta && !this.stopped) v = -this.negamax(-pcBeta, -pcBeta + 1, depth - 4, ply + 1, !cutNode);
          pos.unmakeMove();
          if (this.stopped) return 0;
          if (v >= pcBeta) {
            tt.store(hashLo, hashHi, m, scoreToTt(v, ply), rawEval, depth - 3, BOUND_LOWER);
            return v;
          }
        }
        this.pvLen[ply] = ply;
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
    }
    this.ordering.scoreMoves(pos, moves, scores, base, end, ttMove, ply, counter, prevKey, prev2Key);

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
          // Futility: static eval plus a margin cannot reach alpha (checking moves excepted, below).
          if (!inCheck && lmrDepth <= 6 && staticEval + P.futilityBase + P.futilityMult * lmrDepth <= alpha) futile = true;
          if (lmrDepth <= 6 && !seeGe(pos, m, -P.seeQuietMult * lmrDepth * lmrDepth)) continue;
        } else if (depth <= 6 && scores[i] < 1 << 28 && !seeGe(pos, m, -P.seeCaptureMult * depth)) continue;
      }

      // Before the move is made: SEE reads the position as it stands. Bounded by twice the
      // iteration's depth in plies, so that perpetual checks cannot extend without end.
      const checkExt =
        P.checkExtension && m !== singularMove && ply < 2 * (this.completedDepth + 1) && givesDirectCheck(pos, m) && seeGe(pos, m, 0)
          ? 1
          : 0;
      // A futile quiet move is skipped unless it gives check, which is told without making it
      // (castling, whose rook may check, is made and tested).
      const castle = moveKind(m) === KIND_CASTLE;
      if (futile && !castle && !givesQuietCheck(pos, m)) continue;
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

      const newDepth = depth - 1 + (m === singularMove ? extension : checkExt);
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
          if (r < 0) r = 0;
          if (r > newDepth - 1) r = Math.max(0, newDepth - 1);
        } else if (P.lmrBadCaptures && depth >= 3 && !isQuiet && scores[i] < 0 && !givesCheck && moveCount > (pvNode ? 2 : 1)) {
          r = 1;
        }
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
            if (isQuiet) this.ordering.updateQuiet(pos, m, this.quiets, qBase, quietCount, depth, ply, prevKey, prev2Key);
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
      this.correction.update(corrIndex, whiteIndex, blackIndex, rawEval, best, depth);
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
      if (this.params.qsCorrection && this.params.correctionHistory) {
        const np = this.params.nonPawnCorrection;
        standPat = this.correction.corrected(rawEval, correctionIndex(pos), np ? nonPawnIndex(pos, 0) : -1, np ? nonPawnIndex(pos, 1) : -1);
      }
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
