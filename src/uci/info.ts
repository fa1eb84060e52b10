/**
 * Reading what a UCI engine says: `info` lines into typed fields and the `bestmove` line. Pure
 * (no I/O), the one reader of engine output: the match runner's client of other engines
 * (src/match/uci-engine.ts) and the library's asynchronous engine (src/client) both use it.
 */
import type { Score } from '../core/types.js';

/** The fields of one `info` line; a field the line does not carry is absent. */
export interface UciInfo {
  depth?: number;
  seldepth?: number;
  multipv?: number;
  score?: Score;
  /** The score is only a bound (an aspiration window failed): `lowerbound` or `upperbound`. */
  bound?: 'lower' | 'upper';
  nodes?: number;
  nps?: number;
  /** Milliseconds since the search started. */
  time?: number;
  hashfull?: number;
  tbhits?: number;
  currmove?: string;
  currmovenumber?: number;
  /** The principal variation, moves in UCI notation. */
  pv?: string[];
  /** `info string …`: the engine's free text (the rest of the line). */
  string?: string;
}

const NUMBER_FIELDS = new Set(['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'time', 'hashfull', 'tbhits', 'currmovenumber']);
/** Fields that take the rest of the line or a move list: a move list ends at the next of these. */
const KEYWORDS = new Set([...NUMBER_FIELDS, 'score', 'pv', 'string', 'currmove', 'refutation', 'currline', 'cpuload', 'wdl']);

/** One `info` line's fields, or null when `line` is not an info line. Unknown or malformed fields are skipped. */
export function parseInfoLine(line: string): UciInfo | null {
  const tokens = line.trim().split(/\s+/);
  if (tokens[0] !== 'info') return null;
  const info: UciInfo = {};
  for (let i = 1; i < tokens.length; i++) {
    const key = tokens[i];
    if (NUMBER_FIELDS.has(key)) {
      const n = Number(tokens[i + 1]);
      if (tokens[i + 1] !== undefined && /^-?\d+$/.test(tokens[i + 1])) {
        (info as Record<string, number>)[key] = n;
        i++;
      }
    } else if (key === 'score') {
      const kind = tokens[i + 1],
        value = tokens[i + 2];
      if ((kind === 'cp' || kind === 'mate') && value !== undefined && /^-?\d+$/.test(value)) {
        info.score = kind === 'cp' ? { cp: Number(value) } : { mate: Number(value) };
        i += 2;
        if (tokens[i + 1] === 'lowerbound' || tokens[i + 1] === 'upperbound') info.bound = tokens[++i] === 'lowerbound' ? 'lower' : 'upper';
      }
    } else if (key === 'string') {
      // The rest of the line, as written.
      info.string = line.trim().replace(/^info\s+(?:.*?\s)?string(?:\s+|$)/, '');
      break;
    } else if (key === 'currmove' && tokens[i + 1] !== undefined) {
      info.currmove = tokens[++i];
    } else if (key === 'pv') {
      const pv: string[] = [];
      while (i + 1 < tokens.length && !KEYWORDS.has(tokens[i + 1])) pv.push(tokens[++i]);
      info.pv = pv;
    }
  }
  return info;
}

/** `bestmove <move> [ponder <move>]`; `best` is null for UCI's null move `0000` (no legal move). Null when `line` is not a bestmove line. */
export function parseBestMove(line: string): { best: string | null; ponder: string | null } | null {
  const tokens = line.trim().split(/\s+/);
  if (tokens[0] !== 'bestmove') return null;
  const best = tokens[1] === undefined || tokens[1] === '0000' || tokens[1] === '(none)' ? null : tokens[1];
  const ponder = tokens[2] === 'ponder' && tokens[3] !== undefined ? tokens[3] : null;
  return { best, ponder };
}

/** An option as the engine lists it in its `uci` answer. */
export interface UciOption {
  name: string;
  type: 'check' | 'spin' | 'combo' | 'button' | 'string';
  /** As written; for a string option possibly `<empty>`. */
  default?: string;
  min?: number;
  max?: number;
  /** A combo's values. */
  vars?: string[];
}

const OPTION_TYPES = new Set(['check', 'spin', 'combo', 'button', 'string']);
const OPTION_KEYS = new Set(['default', 'min', 'max', 'var']);

/** `option name <name> type <type> [default <x>] [min <n>] [max <n>] [var <v>]…`, or null when `line` is not one. */
export function parseOptionLine(line: string): UciOption | null {
  const tokens = line.trim().split(/\s+/);
  if (tokens[0] !== 'option' || tokens[1] !== 'name') return null;
  const typeAt = tokens.indexOf('type', 2);
  if (typeAt < 3 || !OPTION_TYPES.has(tokens[typeAt + 1])) return null;
  const option: UciOption = { name: tokens.slice(2, typeAt).join(' '), type: tokens[typeAt + 1] as UciOption['type'] };
  for (let i = typeAt + 2; i < tokens.length;) {
    const key = tokens[i];
    let end = i + 1;
    while (end < tokens.length && !OPTION_KEYS.has(tokens[end])) end++;
    const value = tokens.slice(i + 1, end).join(' ');
    if (key === 'default') option.default = value;
    else if (key === 'min' && /^-?\d+$/.test(value)) option.min = Number(value);
    else if (key === 'max' && /^-?\d+$/.test(value)) option.max = Number(value);
    else if (key === 'var') (option.vars ??= []).push(value);
    i = end;
  }
  return option;
}
