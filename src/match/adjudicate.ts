/**
 * Adjudication. By rule, from our own core (never from the engines' say-so): checkmate,
 * stalemate, threefold repetition, fifty moves, insufficient material. Optionally by engine
 * scores: resign when both engines agree one side is lost, draw when both agree it is level
 * late in the game. Score adjudication is off unless configured.
 */
import { GAME_END_TEXT, gameStatus, type GameEnd } from '../core/status.js';
import type { Position } from '../core/position.js';
import type { PgnResult } from '../core/pgn/index.js';
import type { Score } from '../core/types.js';

export interface Verdict {
  result: Exclude<PgnResult, '*'>;
  /** Machine-readable reason. */
  reason: GameEnd | 'time' | 'illegal-move' | 'crash' | 'resign' | 'draw-adjudication' | 'max-plies';
  /** PGN Termination tag value. */
  termination: 'normal' | 'time forfeit' | 'rules infraction' | 'adjudication' | 'abandoned';
  /** Human text for the PGN's final comment and the log. */
  text: string;
}

const COLOR_NAME = ['White', 'Black'] as const;

/** The game's end by the rules of chess in `pos`, or null while it goes on. */
export function ruleVerdict(pos: Position): Verdict | null {
  const st = gameStatus(pos);
  if (!st.over || !st.reason) return null;
  if (st.reason === 'checkmate') {
    const winner = st.winner === 'white' ? 0 : 1;
    return { result: winner === 0 ? '1-0' : '0-1', reason: 'checkmate', termination: 'normal', text: `${COLOR_NAME[winner]} mates` };
  }
  return {
    result: '1/2-1/2',
    reason: st.reason,
    termination: 'normal',
    text: GAME_END_TEXT[st.reason].replace(/^./, (c) => c.toUpperCase()),
  };
}

/** A loss for `side` (0 white, 1 black) because its engine misbehaved. */
export function faultVerdict(side: number, reason: 'time' | 'illegal-move' | 'crash', detail: string): Verdict {
  const result = side === 0 ? '0-1' : '1-0';
  const who = COLOR_NAME[side];
  switch (reason) {
    case 'time':
      return { result, reason, termination: 'time forfeit', text: `${who} loses on time${detail ? ` (${detail})` : ''}` };
    case 'illegal-move':
      return { result, reason, termination: 'rules infraction', text: `${who} makes an illegal move: ${detail}` };
    case 'crash':
      return { result, reason, termination: 'abandoned', text: `${who}'s engine ${detail || 'stopped responding'}` };
  }
}

export interface ResignRule {
  /** Centipawns: a side is lost when both engines see it at least this far behind. */
  score: number;
  /** For this many consecutive moves of each engine. */
  moves: number;
}

export interface DrawRule {
  /** Not before this full-move number. */
  moveNumber: number;
  /** Both engines' |score| at most this many centipawns… */
  score: number;
  /** …for this many consecutive moves of each engine. */
  moves: number;
}

const MATE_CP = 100_000;

function scoreCp(s: Score): number {
  if ('cp' in s) return s.cp;
  return s.mate > 0 ? MATE_CP - s.mate : -MATE_CP - s.mate;
}

/** Tracks engine scores (converted to White's view) and applies the resign and draw rules. */
export class ScoreAdjudicator {
  private readonly white: Array<number | undefined> = [];

  constructor(
    private readonly resign?: ResignRule,
    private readonly draw?: DrawRule,
  ) {}

  /** Records the score the engine to move reported (its own view) before its move. */
  record(side: number, score: Score | undefined): void {
    this.white.push(score === undefined ? undefined : side === 0 ? scoreCp(score) : -scoreCp(score));
  }

  /** A verdict after the latest move, given the full-move number of the position now. */
  check(fullmove: number): Verdict | null {
    const h = this.white;
    if (this.resign) {
      const tail = lastN(h, 2 * this.resign.moves);
      if (tail && tail.every((s) => s >= this.resign!.score)) {
        return {
          result: '1-0',
          reason: 'resign',
          termination: 'adjudication',
          text: `Black resigns (both engines at least ${this.resign.score} cp for White)`,
        };
      }
      if (tail && tail.every((s) => s <= -this.resign!.score)) {
        return {
          result: '0-1',
          reason: 'resign',
          termination: 'adjudication',
          text: `White resigns (both engines at least ${this.resign.score} cp for Black)`,
        };
      }
    }
    if (this.draw && fullmove >= this.draw.moveNumber) {
      const tail = lastN(h, 2 * this.draw.moves);
      if (tail && tail.every((s) => Math.abs(s) <= this.draw!.score)) {
        return {
          result: '1/2-1/2',
          reason: 'draw-adjudication',
          termination: 'adjudication',
          text: `Draw adjudicated (both engines within ${this.draw.score} cp)`,
        };
      }
    }
    return null;
  }
}

/** The last n entries when all are known, else null. */
function lastN(h: Array<number | undefined>, n: number): number[] | null {
  if (n <= 0 || h.length < n) return null;
  const tail = h.slice(h.length - n);
  return tail.every((s) => s !== undefined) ? (tail as number[]) : null;
}
