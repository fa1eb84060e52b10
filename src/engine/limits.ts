/**
 * What a caller may ask of the engine, checked before anything runs: a search's limits and the
 * engine's options. A bad value is a typed error naming the field and what was expected, never a
 * search that ignores it (`depth: -1`, `nodes: NaN` and a typo such as `depht` once meant a
 * search without end on the caller's thread). Pure: no engine, no I/O, so the asynchronous
 * client checks the same way before it sends anything.
 */
import type { SearchLimits } from './types.js';
import { STRENGTH_ELO_MAX, STRENGTH_ELO_MIN } from './strength.js';

/** A search limit that is not a limit: `field` names it ('depth', 'signal', 'limits' for the whole object). */
export class SearchLimitError extends RangeError {
  override readonly name = 'SearchLimitError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`search limit ${field}: ${message}`);
  }
}

/** An engine option that cannot be applied: `field` names it ('hashMb', 'MultiPV', …). */
export class EngineOptionError extends RangeError {
  override readonly name = 'EngineOptionError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`engine option ${field}: ${message}`);
  }
}

/** The deepest search there is (iterations past it would be cut to it anyway). */
export const MAX_SEARCH_DEPTH = 127;

/** How a value is described in a message: its type for non-numbers, the value for numbers and short strings. */
export function describeValue(v: unknown): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v.length <= 20 ? `'${v}'` : `a string of ${v.length} characters`;
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a value of type ${typeof v}`;
}

type Check = (v: unknown) => string | null;

const wholeAtLeast =
  (min: number, max = Number.MAX_SAFE_INTEGER): Check =>
  (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? null : `expected a whole number from ${min} to ${max}`;
const positive: Check = (v) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? null : 'expected a number of milliseconds above 0');
const nonNegative: Check = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? null : 'expected a number of milliseconds, 0 or more';
const boolean: Check = (v) => (typeof v === 'boolean' ? null : 'expected true or false');
const abortSignal: Check = (v) => (isAbortSignal(v) ? null : 'expected an AbortSignal (AbortController.signal)');

/** Duck-typed, so a signal from another realm (a polyfill, another window) passes too. */
function isAbortSignal(v: unknown): v is AbortSignal {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as AbortSignal).aborted === 'boolean' &&
    typeof (v as AbortSignal).addEventListener === 'function'
  );
}

const LIMIT_CHECKS: Record<keyof SearchLimits, Check> = {
  depth: wholeAtLeast(1, MAX_SEARCH_DEPTH),
  nodes: wholeAtLeast(1),
  movetime: positive,
  wtime: nonNegative,
  btime: nonNegative,
  winc: nonNegative,
  binc: nonNegative,
  movestogo: wholeAtLeast(1),
  infinite: boolean,
  ponder: boolean,
  signal: abortSignal,
};

/** Where a search stands when it is asked: the side to move (for the clock that applies) and whether anyone can stop it. */
export interface LimitContext {
  /**
   * 0 white, 1 black: only the mover's clock limits a search. Unknown: either clock counts.
   */
  side?: number;
  /**
   * Whether a stop can reach the search while it runs. A synchronous search holds its thread,
   * so no timer or event can abort its signal then: only a hook (onInfo calling stop() or
   * aborting the signal) or a control block written by another thread can. The asynchronous
   * client can always stop (its stop(), or the signal).
   */
  canStop?: boolean;
}

/**
 * Checks `limits` and returns them; throws SearchLimitError for an unknown key, a value of the
 * wrong type or out of range, and for a search that nothing would end: one with no depth, nodes,
 * movetime or clock for the side to move must say `infinite: true` (or `ponder: true`) and be
 * stoppable (`context.canStop`). Keys whose value is undefined count as absent.
 */
export function validateSearchLimits(limits: unknown, context: LimitContext = {}): SearchLimits {
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits))
    throw new SearchLimitError('limits', `expected an object such as { depth: 10 }, got ${describeValue(limits)}`);
  const l = limits as Record<string, unknown>;
  for (const key of Object.keys(l)) {
    const value = l[key];
    if (value === undefined) continue;
    if (!Object.hasOwn(LIMIT_CHECKS, key))
      throw new SearchLimitError(key, `unknown limit (expected one of ${Object.keys(LIMIT_CHECKS).join(', ')})`);
    const problem = LIMIT_CHECKS[key as keyof SearchLimits](value);
    if (problem !== null) throw new SearchLimitError(key, `${problem}, got ${describeValue(value)}`);
  }
  const s = limits as SearchLimits;
  const clock = context.side === 0 ? s.wtime : context.side === 1 ? s.btime : (s.wtime ?? s.btime);
  const bounded = s.depth !== undefined || s.nodes !== undefined || s.movetime !== undefined || clock !== undefined;
  const stoppable = context.canStop === true;
  if (s.ponder === true && !stoppable)
    throw new SearchLimitError('ponder', 'a pondering search waits for ponderhit or stop: it needs a control block (hooks.control)');
  if (!bounded) {
    const otherClock = context.side === 0 ? 'btime' : 'wtime';
    const why =
      s[otherClock] !== undefined
        ? `only ${otherClock} was given and ${context.side === 0 ? 'white' : 'black'} is to move`
        : 'no depth, nodes, movetime or clock was given';
    if (s.infinite !== true && s.ponder !== true)
      throw new SearchLimitError('limits', `${why}; a search without end needs infinite: true and a way to stop it`);
    if (!stoppable)
      throw new SearchLimitError(
        'infinite',
        "nothing could stop this search: on the caller's thread give an onInfo hook that calls engine.stop() or aborts the signal " +
          '(no timer runs during a synchronous search), or use createEngine, whose analyse() stops with its signal',
      );
  }
  return s;
}

/** The transposition table's largest size (tt.ts). */
export const MAX_HASH_MB = 2048;

const OPTION_CHECKS: Record<string, Check> = {
  hashMb: wholeAtLeast(1, MAX_HASH_MB),
  moveOverheadMs: (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? null : 'expected a number of milliseconds, 0 or more'),
  multiPv: wholeAtLeast(1, 256),
  threads: wholeAtLeast(1, 1024),
  moveGenerator: (v) =>
    typeof v === 'object' && v !== null && typeof (v as { generate?: unknown }).generate === 'function'
      ? null
      : 'expected a move generator (loadBackend or getBackend)',
  nnue: (v) =>
    v === null || (typeof v === 'object' && typeof (v as { network?: unknown }).network === 'object' && 'kernel' in v)
      ? null
      : 'expected an NnueEvaluator (loadNnue on Node, nnueFromBytes anywhere) or null',
  spawnHelper: (v) => (typeof v === 'function' ? null : 'expected a function that starts a helper thread (spawnNodeHelper on Node)'),
  limitStrength: boolean,
  elo: wholeAtLeast(STRENGTH_ELO_MIN, STRENGTH_ELO_MAX),
  strengthSeed: (v) => (typeof v === 'number' && Number.isSafeInteger(v) ? null : 'expected a whole number'),
};

/** Checks one engine option's value; throws EngineOptionError naming it. */
export function checkEngineOption(field: string, value: unknown): void {
  const check = OPTION_CHECKS[field];
  if (check === undefined || !Object.hasOwn(OPTION_CHECKS, field))
    throw new EngineOptionError(field, `unknown option (expected one of ${Object.keys(OPTION_CHECKS).join(', ')})`);
  const problem = check(value);
  if (problem !== null) throw new EngineOptionError(field, `${problem}, got ${describeValue(value)}`);
}

/** Checks `new Engine(options)`'s argument: an object of known options with valid values (undefined: the default). */
export function validateEngineOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new EngineOptionError('options', `expected an object such as { hashMb: 32 }, got ${describeValue(options)}`);
  for (const [key, value] of Object.entries(options)) if (value !== undefined) checkEngineOption(key, value);
  const o = options as { threads?: number; spawnHelper?: unknown };
  if (o.threads !== undefined && o.threads > 1 && o.spawnHelper === undefined)
    throw new EngineOptionError('threads', `${o.threads} threads need spawnHelper (spawnNodeHelper from matrix-chess/node)`);
}
