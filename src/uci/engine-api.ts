/**
 * The playing engine as the interfaces see it, and how it is loaded. The engine (src/engine) is
 * imported at run time: if it is missing from a build, the CLI and the UCI loop still work with
 * a stand-in that plays the first legal move and says so, rather than not starting at all.
 */
import type { Position } from '../core/position.js';
import type { MoveSource } from '../backends.js';
import { MAX_MOVES, defaultGenerator } from '../core/movegen.js';

// The vocabulary is the engine's own (type-only: nothing is loaded at run time by this).
import type { Score, SearchHooks, SearchInfo, SearchLimits, SearchResult } from '../engine/types.js';
import type { Engine as RealEngine } from '../engine/index.js';
export type { Score, SearchHooks, SearchInfo, SearchLimits, SearchResult };

export interface EngineLike {
  setHashSize(mb: number): void;
  clearHash(): void;
  setMoveOverhead(ms: number): void;
  setMultiPv(n: number): void;
  setMoveSource(src: MoveSource): void;
  newGame(): void;
  stop(): void;
  search(pos: Position, limits: SearchLimits, hooks?: SearchHooks): SearchResult;
}

// Compile-time proof that the real engine offers everything the CLI and UCI call.
const engineConforms: RealEngine extends EngineLike ? true : never = true;
void engineConforms;

export interface EngineModule {
  /** False when the real engine could not be loaded and the stand-in is used. */
  readonly available: boolean;
  /** Why the real engine is not available (empty when it is). */
  readonly problem: string;
  createEngine(options?: { hashMb?: number; moveOverheadMs?: number; multiPv?: number; moveSource?: MoveSource }): EngineLike;
  /** Static evaluation in centipawns from the side to move's view; null without an engine. */
  evaluate(pos: Position): number | null;
}

// A variable specifier keeps the build independent of the engine's progress.
const ENGINE_MODULE = '../engine/index.js';

let cached: Promise<EngineModule> | undefined;

export function loadEngine(): Promise<EngineModule> {
  cached ??= importEngine();
  return cached;
}

async function importEngine(): Promise<EngineModule> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(ENGINE_MODULE)) as Record<string, unknown>;
  } catch (err) {
    const code = (err as { code?: string }).code;
    return standIn(code === 'ERR_MODULE_NOT_FOUND' ? 'the engine is not part of this build' : `the engine failed to load: ${(err as Error).message}`);
  }
  const EngineClass = mod.Engine as (new (options?: object) => EngineLike) | undefined;
  if (typeof EngineClass !== 'function') return standIn('the engine module does not export Engine');
  const evaluate = typeof mod.evaluate === 'function' ? (mod.evaluate as (pos: Position) => number) : null;
  return {
    available: true,
    problem: '',
    createEngine: (options) => new EngineClass(options),
    evaluate: (pos) => (evaluate ? evaluate(pos) : null),
  };
}

function standIn(problem: string): EngineModule {
  return { available: false, problem, createEngine: () => new FirstMoveEngine(), evaluate: () => null };
}

/**
 * Plays the first legal move. It honours infinite and ponder searches by waiting for stop or
 * ponderhit, so the protocol behaves correctly even without the real engine.
 */
class FirstMoveEngine implements EngineLike {
  private source: MoveSource = defaultGenerator;
  private readonly moves = new Int32Array(MAX_MOVES);
  setHashSize(): void {}
  clearHash(): void {}
  setMoveOverhead(): void {}
  setMultiPv(): void {}
  setMoveSource(src: MoveSource): void { this.source = src; }
  newGame(): void {}
  stop(): void {}
  search(pos: Position, limits: SearchLimits, hooks?: SearchHooks): SearchResult {
    const t0 = Date.now();
    const n = this.source.generate(pos, this.moves, 0);
    const best = n > 0 ? this.moves[0] : 0;
    const control = hooks?.control;
    if (control && (limits.infinite || limits.ponder)) {
      while (control[0] === 0 && (limits.infinite || control[1] === 0)) Atomics.wait(control, 0, 0, 20);
    }
    return { bestMove: best, ponderMove: 0, score: { cp: 0 }, depth: 0, nodes: 0, timeMs: Date.now() - t0, pv: best ? [best] : [] };
  }
}
