/**
 * Chess clocks for the page: a base time and an increment per side; the side to move's clock
 * runs, a move stops it and adds the increment. Time is read from a clock function (Date.now by
 * default) so nothing here depends on timers; the page ticks the display and checks for a flag.
 */
import type { Position } from '../src/core/position.js';
import { BISHOP, KING, KNIGHT } from '../src/core/types.js';

export interface ClockControl {
  /** Base time per side, ms. */
  baseMs: number;
  /** Added after each move, ms. */
  incMs: number;
}

/** `3+2` (minutes + seconds), or `s0.5+0` (seconds + seconds; for tests); null for anything else. */
export function parseControl(text: string): ClockControl | null {
  const m = /^(s?)(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/.exec(text.trim());
  if (!m) return null;
  const base = Number(m[2]) * (m[1] ? 1000 : 60_000),
    inc = Number(m[3]) * 1000;
  if (!(base > 0) || !(inc >= 0) || base > 24 * 3600_000 || inc > 3600_000) return null;
  return { baseMs: base, incMs: inc };
}

export class ChessClock {
  /** Remaining ms: [white, black] (while running, the running side's as of `since`). */
  readonly left: [number, number];
  /** The side whose clock runs (0 white, 1 black), or null. */
  running: 0 | 1 | null = null;
  private since = 0;

  constructor(
    readonly control: ClockControl,
    private readonly now: () => number = Date.now,
    left?: [number, number],
  ) {
    this.left = left ? [left[0], left[1]] : [control.baseMs, control.baseMs];
  }

  /** Remaining time of `side` now. */
  remaining(side: 0 | 1): number {
    const t = this.left[side] - (this.running === side ? this.now() - this.since : 0);
    return Math.max(0, t);
  }

  start(side: 0 | 1): void {
    this.pause();
    this.running = side;
    this.since = this.now();
  }

  /** Stops the running clock, keeping its time. */
  pause(): void {
    if (this.running === null) return;
    this.left[this.running] = this.remaining(this.running);
    this.running = null;
  }

  /** `side` moved: its clock stops, gains the increment, and the other side's starts. */
  press(side: 0 | 1): void {
    if (this.running === side) this.pause();
    this.left[side] += this.control.incMs;
    this.start(side === 0 ? 1 : 0);
  }

  /** The side whose time is up, if any. */
  flagged(): 0 | 1 | null {
    if (this.running !== null && this.remaining(this.running) <= 0) return this.running;
    return null;
  }
}

/** `m:ss`, or `s.t` under ten seconds. */
export function formatClock(ms: number): string {
  if (ms < 10_000) return (Math.max(0, ms) / 1000).toFixed(1);
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * Can `side` still mate in `pos` (by any series of legal moves)? After a flag fall the game is a
 * draw when the side with time cannot (FIDE's rule): a bare king; a king and one knight or bishop
 * against a bare king; or bishops only, on both sides, all on squares of one colour. (A lone
 * knight or bishop can otherwise mate with the other side's help, a piece of its own boxing its
 * king in, so those stay wins.)
 */
export function canMate(pos: Position, side: 0 | 1): boolean {
  const own: number[] = [],
    other: number[] = [];
  const bishopColours = new Set<number>();
  for (let sq = 0; sq < 64; sq++) {
    const p = pos.board[sq];
    if (p === 0) continue;
    const type = p & 7;
    if (type === KING) continue;
    if (type === BISHOP) bishopColours.add(((sq >> 3) + (sq & 7)) & 1);
    ((p & 8) === (side === 0 ? 0 : 8) ? own : other).push(type);
  }
  if (own.length === 0) return false;
  if (own.length === 1 && (own[0] === KNIGHT || own[0] === BISHOP) && other.length === 0) return false;
  if ([...own, ...other].every((t) => t === BISHOP) && bishopColours.size === 1) return false;
  return true;
}
