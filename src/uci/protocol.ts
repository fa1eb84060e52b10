/**
 * UCI text in and out: parsing `position`, `go` and `setoption`, and printing `info` lines. Pure
 * functions (no I/O, no engine, no Node), so the loop and the search worker share them, in the
 * terminal and in a browser, and tests can check them directly. What depends on where the
 * engine runs (the Threads maximum, the default book and network) comes in as UciHostDefaults.
 * Parsers never throw: they return what they understood plus the problems.
 */
import { moveToUci } from '../core/move.js';
import { MoveError, movesToUciIn, playUciMoves } from '../core/notation.js';
import { Position } from '../core/position.js';
import { FenError, START_FEN, parseFen, type FenSetup } from '../core/fen.js';
import { BACKEND_NAMES } from '../backends.js';
import { NNUE_BY_DEFAULT } from '../engine/nnue/network.js';
import { STRENGTH_ELO_MAX, STRENGTH_ELO_MIN } from '../engine/strength.js';
import { SEARCH_PARAM_RANGES, SearchParams } from '../engine/index.js';
import type { NumericSearchParam, SearchInfo, SearchLimits, SearchParamName, Score } from '../engine/index.js';

// ---- position ----

/**
 * A validated position command: the base FEN and the moves played from it, as sent and as
 * parsed, so that the loop and the search thread build the position (positionOf) without
 * reading the text again. Plain data: it is posted to the search thread as it is.
 */
export interface PositionSpec {
  fen: string;
  moves: string[];
  /** The FEN, parsed. */
  setup: FenSetup;
  /** The moves as moves of ours, played in turn from `setup`. */
  played: number[];
  /** UCI_Chess960 was on when the position came: castles are king-takes-own-rook, in the moves and in the answers. */
  chess960?: boolean;
}

/** The position a spec stands for, with the moves' history (so repetitions count in the search). */
export function positionOf(spec: PositionSpec): Position {
  const pos = Position.fromSetup(spec.setup);
  for (const m of spec.played) pos.makeMove(m);
  return pos;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** `position startpos|fen <FEN> [moves m1 m2 …]`; tokens exclude the word `position`; `chess960`: UCI_Chess960 is on. */
export function parsePosition(tokens: string[], chess960 = false): Parsed<PositionSpec> {
  let fen: string;
  let i: number;
  if (tokens[0] === 'startpos') {
    fen = START_FEN;
    i = 1;
  } else if (tokens[0] === 'fen') {
    const movesAt = tokens.indexOf('moves');
    const end = movesAt < 0 ? tokens.length : movesAt;
    fen = tokens.slice(1, end).join(' ');
    if (fen === '') return { ok: false, error: 'position fen: the FEN is missing' };
    i = end;
  } else {
    return { ok: false, error: `position: expected 'startpos' or 'fen', got '${tokens[0] ?? ''}'` };
  }
  if (i < tokens.length && tokens[i] !== 'moves') return { ok: false, error: `position: expected 'moves', got '${tokens[i]}'` };
  const moves = tokens.slice(i + 1);
  let setup: FenSetup, played: number[];
  try {
    setup = parseFen(fen);
    played = playUciMoves(Position.fromSetup(setup), moves, chess960);
  } catch (err) {
    if (err instanceof FenError || err instanceof MoveError) return { ok: false, error: err.message };
    throw err;
  }
  return { ok: true, value: chess960 ? { fen, moves, setup, played, chess960 } : { fen, moves, setup, played } };
}

// ---- go ----

export interface GoCommand {
  limits: SearchLimits;
  /** `go perft N` */
  perft?: number;
  /** Messages about parameters that are unsupported (ignored) or malformed. */
  problems: string[];
  /**
   * A malformed value (go depth x): the command is refused rather than run without that limit,
   * which could turn a typo into a search that never ends.
   */
  rejected: boolean;
}

const GO_NUMBER_KEYS = ['depth', 'nodes', 'movetime', 'wtime', 'btime', 'winc', 'binc', 'movestogo'] as const;
const GO_KEYWORDS = new Set<string>([...GO_NUMBER_KEYS, 'infinite', 'ponder', 'perft', 'searchmoves', 'mate']);

export function parseGo(tokens: string[]): GoCommand {
  const limits: SearchLimits = {};
  const problems: string[] = [];
  let perft: number | undefined;
  let rejected = false;
  for (let i = 0; i < tokens.length; i++) {
    const key = tokens[i];
    if (key === 'infinite') {
      limits.infinite = true;
      continue;
    }
    if (key === 'ponder') {
      limits.ponder = true;
      continue;
    }
    if (key === 'searchmoves') {
      // Not supported: skip the move list that follows.
      while (i + 1 < tokens.length && !GO_KEYWORDS.has(tokens[i + 1])) i++;
      problems.push('go searchmoves is not supported; searching all moves');
      continue;
    }
    if ((GO_NUMBER_KEYS as readonly string[]).includes(key) || key === 'perft' || key === 'mate') {
      const text = tokens[i + 1];
      if (text === undefined || !/^-?\d+$/.test(text)) {
        problems.push(`go ${key}: expected a whole number, got '${text ?? ''}'`);
        rejected = true;
        if (text !== undefined && !GO_KEYWORDS.has(text)) i++;
        continue;
      }
      i++;
      const n = Number(text);
      if (key === 'perft') {
        if (n < 1 || n > 20) {
          problems.push(`go perft: depth ${n} is out of range (expected 1 to 20)`);
          rejected = true;
        } else perft = n;
      } else if (key === 'mate') {
        problems.push('go mate is not supported; searching normally');
      } else if ((key === 'depth' || key === 'movestogo' || key === 'nodes' || key === 'movetime') && n < 1) {
        problems.push(`go ${key}: expected at least 1, got ${n}`);
        rejected = true;
      } else {
        // Clocks can be negative when a GUI's clock has run out; treat that as no time left.
        limits[key as (typeof GO_NUMBER_KEYS)[number]] = Math.max(0, n);
      }
      continue;
    }
    problems.push(`go: unknown parameter '${key}'`);
    rejected = true;
  }
  // A go without any limit searches until stop, as go infinite (the engine refuses a search
  // that nothing bounds unless it is asked to be infinite).
  const bounded = (['depth', 'nodes', 'movetime', 'wtime', 'btime'] as const).some((k) => limits[k] !== undefined);
  if (!bounded && !rejected && perft === undefined && limits.ponder !== true) limits.infinite = true;
  return perft === undefined ? { limits, problems, rejected } : { limits, perft, problems, rejected };
}

// ---- setoption ----

export type OptionChange =
  | { name: 'Hash'; value: number }
  | { name: 'Clear Hash' }
  | { name: 'Move Overhead'; value: number }
  | { name: 'MultiPV'; value: number }
  | { name: 'Threads'; value: number }
  | { name: 'Backend'; value: string }
  | { name: 'Ponder'; value: boolean }
  | { name: 'OwnBook'; value: boolean }
  | { name: 'BookFile'; value: string }
  | { name: 'UseNNUE'; value: boolean }
  | { name: 'EvalFile'; value: string }
  | { name: 'UCI_Chess960'; value: boolean }
  | { name: 'UCI_LimitStrength'; value: boolean }
  | { name: 'UCI_Elo'; value: number }
  | { name: 'SearchParam'; param: SearchParamName; value: number | boolean };

/** The key under which the latest value of an option is kept (each search parameter is its own option). */
export function optionKey(change: OptionChange): string {
  return change.name === 'SearchParam' ? `SearchParam ${change.param}` : change.name;
}

/** The search's margins and switches, by name, with their defaults: options for tuning and A/B tests at real time controls. */
const SEARCH_PARAM_DEFAULTS = new SearchParams();
const SEARCH_PARAM_NAMES = Object.keys(SEARCH_PARAM_DEFAULTS) as SearchParamName[];

/**
 * What the options depend on where the engine runs, given by the host: src/uci/loop-node.ts on
 * Node (the package's files, one thread per core), web/uci-worker.ts in a browser.
 */
export interface UciHostDefaults {
  /** The Threads option's maximum: the machine's cores. */
  maxThreads: number;
  /** BookFile's default. */
  bookFile: string;
  /** EvalFile's default: the network played when EvalFile is not set. */
  evalFile: string;
}

interface SpinOption {
  name: 'Hash' | 'Threads' | 'Move Overhead' | 'MultiPV' | 'UCI_Elo';
  default: number;
  min: number;
  max: number;
}
function spinOptions(defaults: UciHostDefaults): SpinOption[] {
  return [
    { name: 'Hash', default: 16, min: 1, max: 1024 },
    // Lazy SMP search threads: at most one per core.
    { name: 'Threads', default: 1, min: 1, max: defaults.maxThreads },
    { name: 'Move Overhead', default: 30, min: 0, max: 5000 },
    { name: 'MultiPV', default: 1, min: 1, max: 64 },
    // The top is full strength (src/engine/strength.ts).
    { name: 'UCI_Elo', default: STRENGTH_ELO_MAX, min: STRENGTH_ELO_MIN, max: STRENGTH_ELO_MAX },
  ];
}
export const DEFAULT_HASH_MB = 16;
export const DEFAULT_MOVE_OVERHEAD_MS = 30;

/**
 * The `option` lines of the `uci` answer, with the host's `defaults`; `tunables` (`matrix-chess uci
 * --tunables`) adds the search parameters, which `setoption` accepts either way.
 */
export function optionLines(defaults: UciHostDefaults, tunables = false): string[] {
  const spins = spinOptions(defaults);
  return [
    ...spins.slice(0, 1).map(spinLine),
    'option name Clear Hash type button',
    ...spins.slice(1, 4).map(spinLine),
    `option name Backend type combo default bitboard ${BACKEND_NAMES.map((b) => `var ${b}`).join(' ')}`,
    'option name Ponder type check default false',
    'option name OwnBook type check default false',
    `option name BookFile type string default ${defaults.bookFile}`,
    `option name UseNNUE type check default ${NNUE_BY_DEFAULT}`,
    `option name EvalFile type string default ${defaults.evalFile}`,
    'option name UCI_Chess960 type check default false',
    'option name UCI_LimitStrength type check default false',
    ...spins.slice(4).map(spinLine),
    ...(tunables ? SEARCH_PARAM_NAMES.map(searchParamLine) : []),
  ];
}

function searchParamLine(name: SearchParamName): string {
  const v = SEARCH_PARAM_DEFAULTS[name];
  if (typeof v === 'boolean') return `option name ${name} type check default ${v}`;
  const [min, max] = SEARCH_PARAM_RANGES[name as NumericSearchParam];
  return `option name ${name} type spin default ${v} min ${min} max ${max}`;
}

function spinLine(o: SpinOption): string {
  return `option name ${o.name} type spin default ${o.default} min ${o.min} max ${o.max}`;
}

/** `setoption name <id> [value <x>]`; tokens exclude the word `setoption`; `defaults`: the options where the engine runs. */
export function parseSetOption(tokens: string[], defaults: UciHostDefaults): Parsed<OptionChange> {
  if (tokens[0] !== 'name') return { ok: false, error: "setoption: expected 'name <option> [value <x>]'" };
  const valueAt = tokens.indexOf('value');
  const name = tokens.slice(1, valueAt < 0 ? tokens.length : valueAt).join(' ');
  const value = valueAt < 0 ? undefined : tokens.slice(valueAt + 1).join(' ');
  const key = name.toLowerCase();
  const spin = spinOptions(defaults).find((o) => o.name.toLowerCase() === key);
  if (spin) {
    if (value === undefined || !/^\d+$/.test(value))
      return { ok: false, error: `setoption ${spin.name}: expected a whole number from ${spin.min} to ${spin.max}, got '${value ?? ''}'` };
    const n = Number(value);
    if (n < spin.min || n > spin.max)
      return { ok: false, error: `setoption ${spin.name}: ${n} is out of range (${spin.min} to ${spin.max})` };
    return { ok: true, value: { name: spin.name, value: n } };
  }
  if (key === 'clear hash') return { ok: true, value: { name: 'Clear Hash' } };
  if (key === 'backend') {
    const v = (value ?? '').toLowerCase();
    if (!(BACKEND_NAMES as readonly string[]).includes(v))
      return { ok: false, error: `setoption Backend: expected one of ${BACKEND_NAMES.join(', ')}, got '${value ?? ''}'` };
    return { ok: true, value: { name: 'Backend', value: v } };
  }
  const checks = {
    ponder: 'Ponder',
    ownbook: 'OwnBook',
    usennue: 'UseNNUE',
    uci_chess960: 'UCI_Chess960',
    uci_limitstrength: 'UCI_LimitStrength',
  } as const;
  if (Object.hasOwn(checks, key)) {
    const label = checks[key as keyof typeof checks];
    const v = (value ?? '').toLowerCase();
    if (v !== 'true' && v !== 'false') return { ok: false, error: `setoption ${label}: expected true or false, got '${value ?? ''}'` };
    return { ok: true, value: { name: label, value: v === 'true' } };
  }
  if (key === 'bookfile') {
    if (value === undefined || value.trim() === '')
      return { ok: false, error: 'setoption BookFile: expected the path of a Polyglot .bin file' };
    return { ok: true, value: { name: 'BookFile', value: value.trim() } };
  }
  if (key === 'evalfile') {
    if (value === undefined || value.trim() === '')
      return { ok: false, error: 'setoption EvalFile: expected the path of a network file (weights/nnue.bin)' };
    return { ok: true, value: { name: 'EvalFile', value: value.trim() } };
  }
  const param = SEARCH_PARAM_NAMES.find((p) => p.toLowerCase() === key);
  if (param !== undefined) {
    const v = (value ?? '').toLowerCase();
    if (typeof SEARCH_PARAM_DEFAULTS[param] === 'boolean') {
      if (v !== 'true' && v !== 'false') return { ok: false, error: `setoption ${param}: expected true or false, got '${value ?? ''}'` };
      return { ok: true, value: { name: 'SearchParam', param, value: v === 'true' } };
    }
    const [min, max] = SEARCH_PARAM_RANGES[param as NumericSearchParam];
    if (!/^\d+$/.test(v))
      return { ok: false, error: `setoption ${param}: expected a whole number from ${min} to ${max}, got '${value ?? ''}'` };
    const n = Number(v);
    if (n < min || n > max) return { ok: false, error: `setoption ${param}: ${n} is out of range (${min} to ${max})` };
    return { ok: true, value: { name: 'SearchParam', param, value: n } };
  }
  if (name === '') return { ok: false, error: 'setoption: the option name is missing' };
  return { ok: false, error: `setoption: unknown option '${name}'` };
}

// ---- output ----

export function formatScore(score: Score): string {
  return 'mate' in score ? `mate ${score.mate}` : `cp ${score.cp}`;
}

/** `root` and `chess960`: the searched position, to write castles in the PV king-takes-own-rook (UCI_Chess960). */
export function formatInfo(info: SearchInfo, root?: Position, chess960 = false): string {
  let s = `info depth ${info.depth} seldepth ${info.seldepth} multipv ${info.multipv} score ${formatScore(info.score)}`;
  if (info.bound === 'lower') s += ' lowerbound';
  else if (info.bound === 'upper') s += ' upperbound';
  s += ` nodes ${info.nodes} nps ${Math.round(info.nps)} time ${Math.round(info.timeMs)} hashfull ${info.hashfull}`;
  if (info.pv.length > 0) s += ` pv ${(root && chess960 ? movesToUciIn(root, info.pv, true) : info.pv.map(moveToUci)).join(' ')}`;
  return s;
}

/** Splits a command line into words (UCI separates tokens by any whitespace). */
export function tokenize(line: string): string[] {
  return line
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '');
}
