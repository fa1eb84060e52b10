/**
 * What the page keeps across a reload, in localStorage: the game tree with its variations and its
 * moves' annotations (a pasted PGN's NAGs and comments), the shown node, the side played, the
 * level, strength, clock settings and remaining times, and the mute switch. Stored data that
 * does not read back (another version, hand-edited, corrupt) is discarded with a console
 * warning; the page then starts fresh.
 */
import { isAnnotations, type StoredNode } from './game-tree.js';

export const STORAGE_KEY = 'matrix-chess.game';
const VERSION = 1;

export interface StoredState {
  startFen: string;
  chess960: boolean;
  headers: Record<string, string>;
  tree: StoredNode;
  /** The shown node as the child indexes from the root. */
  shown: number[];
  mode: string;
  orientation: 'white' | 'black';
  level: string;
  strength: string;
  clock: string;
  /** Remaining ms [white, black] and the side whose clock ran, when a clocked game was under way. */
  clockLeft: [number, number] | null;
  clockSide: 0 | 1 | null;
  /** The flag-fall result of the main line, if any. */
  adjudication: { result: '1-0' | '0-1' | '1/2-1/2'; text: string } | null;
  muted: boolean;
}

export function saveState(state: StoredState): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ v: VERSION, ...state }));
  } catch (e) {
    console.warn(`Matrix Chess: could not save the game (${e instanceof Error ? e.message : String(e)})`);
  }
}

export function clearState(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage unavailable: nothing was kept either.
  }
}

const isStr = (v: unknown): v is string => typeof v === 'string';

function isTree(v: unknown, depth = 0): v is StoredNode {
  if (depth > 2000 || typeof v !== 'object' || v === null) return false;
  const n = v as { u?: unknown; c?: unknown; a?: unknown };
  return isStr(n.u) && (n.a === undefined || isAnnotations(n.a)) && Array.isArray(n.c) && n.c.every((c) => isTree(c, depth + 1));
}

/**
 * The stored state, or null when there is none or it does not read back (warned on the console).
 * The moves are checked later, when the game is replayed from them (the caller discards a game
 * that does not replay).
 */
export function loadState(): StoredState | null {
  let text: string | null;
  try {
    text = localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
  if (text === null) return null;
  const bad = (why: string): null => {
    console.warn(`Matrix Chess: the saved game was discarded (${why})`);
    clearState();
    return null;
  };
  let s: Record<string, unknown>;
  try {
    s = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return bad('not JSON');
  }
  if (typeof s !== 'object' || s === null || s.v !== VERSION) return bad('unknown version');
  if (!isStr(s.startFen) || typeof s.chess960 !== 'boolean') return bad('startFen/chess960');
  if (typeof s.headers !== 'object' || s.headers === null || !Object.values(s.headers).every(isStr)) return bad('headers');
  if (!isTree(s.tree)) return bad('tree: expected {u, c, a?} nodes');
  if (!Array.isArray(s.shown) || !s.shown.every((i) => Number.isInteger(i) && i >= 0)) return bad('shown: expected child indexes');
  if (!isStr(s.mode) || !isStr(s.level) || !isStr(s.strength) || !isStr(s.clock)) return bad('settings');
  if (s.orientation !== 'white' && s.orientation !== 'black') return bad('orientation');
  const left = s.clockLeft;
  if (left !== null && !(Array.isArray(left) && left.length === 2 && left.every((x) => typeof x === 'number' && x >= 0)))
    return bad('clockLeft');
  if (s.clockSide !== null && s.clockSide !== 0 && s.clockSide !== 1) return bad('clockSide');
  const adj = s.adjudication as { result?: unknown; text?: unknown } | null;
  if (adj !== null && !(typeof adj === 'object' && ['1-0', '0-1', '1/2-1/2'].includes(adj.result as string) && isStr(adj.text)))
    return bad('adjudication');
  if (typeof s.muted !== 'boolean') return bad('muted');
  return s as unknown as StoredState;
}
