/**
 * The engine a caller drives: its settings (hash, MultiPV, move overhead, evaluation, move
 * generator, search parameters), its threads (Lazy SMP helpers, smp.ts), a new game, and a
 * search of a position, which iterative-deepening.ts runs on this thread's Searcher (search.ts)
 * while the helpers search the same root.
 */
import type { Position } from '../core/position.js';
import { defaultGenerator } from '../core/movegen.js';
import type { LegalMoveGenerator } from '../core/backend.js';
import { describeNnue, type NnueEvaluator } from './nnue/evaluator.js';
import { TranspositionTable } from './tt.js';
import type { EngineOptions, SearchHooks, SearchLimits, SearchResult } from './types.js';
import { HelperPool, type HelperConfig, type SpawnHelper } from './smp.js';
import { SearchParams } from './search-params.js';
import { Searcher } from './search.js';
import { iterate, type SearchSetup } from './iterative-deepening.js';
import { Sfc32 } from '../core/rng.js';
import {
  checkElo,
  chooseLine,
  isLimited,
  levelLimits,
  strengthLevel,
  STRENGTH_TIME_MANAGER,
  STRENGTH_ELO_MAX,
  type StrengthLevel,
} from './strength.js';
import { toUciScore } from './score.js';
import { checkEngineOption, validateEngineOptions, validateSearchLimits } from './limits.js';

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

export class Engine {
  private readonly tt: TranspositionTable;
  readonly params = new SearchParams();
  private readonly searcher: Searcher;
  private moveOverheadMs: number;
  private multiPv: number;

  // Lazy SMP (smp.ts): the main engine owns the helper threads; a helper engine has an index > 0.
  private threadCount = 1;
  private helpers: HelperPool | null = null;
  private helperIndex = 0;

  // Limited strength (strength.ts): null at full strength.
  private level: StrengthLevel | null = null;
  private elo = STRENGTH_ELO_MAX;
  private limitStrength = false;
  private strengthRng: Sfc32;

  /**
   * Throws EngineOptionError for an unknown option or a bad value. The evaluation is `nnue` when
   * given, else the classical one: this constructor reads no file (it runs in browsers too), so
   * the network that the CLI, UCI and createEngine play by default comes from loadNnue()
   * (matrix-chess/node) or nnueFromBytes(bytes) (anywhere). `evaluation` says which one plays.
   */
  constructor(options: EngineOptions = {}) {
    validateEngineOptions(options);
    this.tt = new TranspositionTable(options.hashMb ?? 16);
    this.searcher = new Searcher(this.tt, this.params, options.moveGenerator ?? defaultGenerator, options.nnue ?? null);
    this.moveOverheadMs = options.moveOverheadMs ?? 30;
    this.multiPv = Math.max(1, options.multiPv ?? 1);
    if (options.threads !== undefined && options.threads > 1) this.setThreads(options.threads, options.spawnHelper);
    this.strengthRng = new Sfc32(options.strengthSeed ?? Date.now());
    this.setStrength(options.limitStrength ?? false, options.elo ?? STRENGTH_ELO_MAX);
  }

  /**
   * Plays at `elo` (800 to 2400; 2400 is full strength) when `limit` is on, at full strength
   * when it is off; throws StrengthError for an `elo` out of range, whatever `limit` is.
   */
  setStrength(limit: boolean, elo: number = this.elo): void {
    this.elo = checkElo(elo);
    this.limitStrength = limit;
    const level = strengthLevel(this.elo);
    this.level = limit && isLimited(level) ? level : null;
  }
  /** Whether limited strength is on (the level may still be full strength: elo 2400). */
  get limitsStrength(): boolean {
    return this.limitStrength;
  }
  /** The level played, or null at full strength. */
  get strength(): StrengthLevel | null {
    return this.level;
  }
  /** Restarts the weakened move choice's random stream. */
  seedStrength(seed: number): void {
    this.strengthRng = new Sfc32(seed);
  }

  /**
   * Searches with `n` threads in all (Lazy SMP): n − 1 helper threads started now with `spawn`
   * (spawnNodeHelper from smp-node.ts on Node) share the transposition table, which moves to a
   * SharedArrayBuffer (and is cleared). Same n again: nothing happens; the helpers live until the
   * thread count changes or dispose(). Helpers generate moves with the bitboard core whatever
   * setMoveGenerator chose (every backend lists the same moves, so the tree is the same).
   */
  setThreads(n: number, spawn?: SpawnHelper, onError?: (message: string) => void): void {
    checkEngineOption('threads', n);
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
    const nnue = this.searcher.nnue;
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
    this.run(pos, depth > 0 ? { depth } : {}, { control });
  }

  /** Switches between the network and the classical evaluation; clears the hash (its static evaluations are the old one's). */
  setEvaluator(nnue: NnueEvaluator | null): void {
    this.searcher.nnue = nnue;
    // A helper leaves the shared table to the main engine, which clears it itself.
    if (this.helperIndex === 0) this.tt.clear();
    this.configureHelpers();
  }
  get evaluator(): NnueEvaluator | null {
    return this.searcher.nnue;
  }
  /** The evaluation in one line: 'classical', or the network's description (describeNnue). */
  get evaluation(): string {
    const nnue = this.searcher.nnue;
    return nnue === null ? 'classical' : describeNnue(nnue);
  }

  /** Rebuilds tables derived from `params`. */
  paramsChanged(): void {
    this.searcher.paramsChanged();
    this.configureHelpers();
  }
  setHashSize(mb: number): void {
    checkEngineOption('hashMb', mb);
    this.tt.resize(mb);
    this.configureHelpers();
  }
  clearHash(): void {
    this.tt.clear();
  }
  setMoveOverhead(ms: number): void {
    checkEngineOption('moveOverheadMs', ms);
    this.moveOverheadMs = ms;
  }
  setMultiPv(n: number): void {
    checkEngineOption('multiPv', n);
    this.multiPv = n;
  }
  setMoveGenerator(gen: LegalMoveGenerator): void {
    checkEngineOption('moveGenerator', gen);
    this.searcher.moveGenerator = gen;
  }
  newGame(): void {
    if (this.helperIndex === 0) this.tt.clear();
    this.searcher.newGame();
    this.helpers?.newGame();
  }
  stop(): void {
    this.searcher.stopConditions.stop();
  }
  /** Permille of the hash table used by the current search. */
  hashfull(): number {
    return this.tt.hashfull();
  }

  /**
   * Searches `pos` on this thread until a limit is reached and returns the best move found.
   * Throws SearchLimitError, before searching, for a bad limit or one that would never end: a
   * search with no depth, nodes, movetime or clock for the side to move needs `infinite: true`
   * and something that can stop it while it runs (an onInfo hook that calls stop() or aborts
   * `limits.signal`, or a control block another thread writes). On another thread and with a
   * promise: createEngine.
   */
  search(pos: Position, limits: SearchLimits, hooks: SearchHooks = {}): SearchResult {
    validateSearchLimits(limits, { side: pos.side, canStop: hooks.control !== undefined || hooks.onInfo !== undefined });
    return this.run(pos, limits, hooks);
  }

  private run(pos: Position, limits: SearchLimits, hooks: SearchHooks): SearchResult {
    const startTime = Date.now(); // before the helpers start: waiting for them is on the clock
    // Helpers take the main search's table age (searchAsHelper) instead of starting a new one.
    if (this.helperIndex === 0) this.tt.newSearch();
    const helpers = this.helpers;
    const setup: SearchSetup = {
      startTime,
      moveOverheadMs: this.moveOverheadMs,
      multiPv: this.multiPv,
      helpers,
      helperIndex: this.helperIndex,
    };
    const level = this.helperIndex === 0 ? this.level : null;
    if (level !== null) return this.searchWeakened(pos, limits, hooks, setup, level);
    if (helpers === null) return iterate(this.searcher, pos, limits, hooks, setup);
    const root = rootOf(pos);
    helpers.start(root.fen, root.moves, limits.depth ?? 0, this.tt.searchAge);
    let result: SearchResult;
    try {
      result = iterate(this.searcher, pos, limits, hooks, setup);
    } finally {
      // Also when the search threw: helpers must never go on searching a stale root.
      helpers.stop();
    }
    result.helperNodes = helpers.helperNodes();
    result.nodes += result.helperNodes;
    return result;
  }

  /**
   * A search at a limited level: the level's nodes and depth on top of the caller's limits, half
   * the clock (levelLimits) under the time manager it was calibrated with, its MultiPV width,
   * then the move drawn among the lines (chooseLine).
   * On one thread: helpers would only add nodes the budget counts.
   */
  private searchWeakened(pos: Position, limits: SearchLimits, hooks: SearchHooks, setup: SearchSetup, level: StrengthLevel): SearchResult {
    const result = iterate(this.searcher, pos, levelLimits(limits, level), hooks, {
      ...setup,
      helpers: null,
      multiPv: Math.max(setup.multiPv, level.multiPv),
      timeManagement: STRENGTH_TIME_MANAGER,
    });
    const lines = result.lines ?? [];
    const pick = chooseLine(lines, level, this.strengthRng);
    if (pick < 0 || lines[pick].move === result.bestMove) return result;
    const line = lines[pick];
    return { ...result, bestMove: line.move, ponderMove: line.pv[1] ?? 0, score: toUciScore(line.score), pv: line.pv.slice() };
  }
}
