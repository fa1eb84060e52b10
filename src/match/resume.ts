/**
 * Resuming a match from its PGN (`match --resume`): the games already in the file are read back
 * as finished games of the schedule (Round = game index + 1, opening and colours from the index),
 * checked against what this run would play, and only the missing games are played. A match is a
 * long job; a killed one should cost only the game that was in progress. The same reader, with
 * no schedule, gives `match --report` the games of finished or running matches to sum up.
 *
 * Everything the report needs is in our PGN: the result, the ending (replayed by our core, or
 * the Termination tag for losses by fault and adjudications), and per engine move the comment
 * "score/depth seconds" for the time and depth figures.
 */
import { PgnError, pgnStartFen, readPgn, type PgnGame } from '../core/pgn/index.js';
import { Position } from '../core/position.js';
import { parseUciMove } from '../core/notation.js';
import { ruleVerdict, type Verdict } from './adjudicate.js';
import { engineOfSide, newUsage, tcText, type EngineUsage, type GameOutcome, type TimeControl } from './match.js';
import type { Opening } from './openings.js';

export class MatchResumeError extends Error {
  override readonly name = 'MatchResumeError';
}

/** What a resumed game must agree with: the schedule and rules of the match being resumed. */
export interface ResumeSchedule {
  openings: Opening[];
  games: number;
  tc: TimeControl;
  maxPlies: number;
  chess960?: boolean;
}

/** A finished game read back from the PGN, with the names it was played under. */
export interface ResumedGame extends GameOutcome {
  white: string;
  black: string;
}

export interface ResumedPgn {
  games: ResumedGame[];
  /** The file's text up to the end of its last complete game (what the resumed PGN keeps). */
  keptText: string;
  /** Set when the file ended in an incomplete game (the run was killed while writing it). */
  droppedTail?: string;
}

/** A game of a match PGN as this module reads it: the main line's move codes and each move's comment. */
interface MatchRecord {
  tags: Record<string, string>;
  fen: string;
  moves: number[];
  comments: Array<string | undefined>;
  result: string;
}

function matchRecord(g: PgnGame): MatchRecord {
  return {
    tags: Object.fromEntries(g.tags),
    fen: pgnStartFen(g),
    moves: g.moves.map((m) => m.move!),
    comments: g.moves.map((m) => m.commentsAfter?.join(' ')),
    result: g.result,
  };
}

const RESULT_END = /(?:1-0|0-1|1\/2-1\/2|\*)\s*$/;
/** An engine move's comment as the runner writes it: "+0.35/14 0.52s", "-M3/20 0.10s", "0.00s". */
const MOVE_COMMENT = /^(?:[+-](?:\d+\.\d+|M\d+)(?:\/(\d+))? )?(\d+(?:\.\d+)?)s(?:, |$)/;

/**
 * Reads the games of a match PGN written by `match --pgn` and checks each against the schedule.
 * A last game without its result token is an interrupted write: it is left out (droppedTail says
 * which) and will be played again. Anything else that does not fit is a MatchResumeError naming
 * the file, the game and the field.
 */
export function readResumablePgn(text: string, source: string, schedule: ResumeSchedule): ResumedPgn {
  return readMatchGames(text, source, schedule);
}

/**
 * Reads the games of a match PGN written by `match --pgn` without a schedule to check them
 * against (`match --report`): each game's opening is what the runner marked "book", its
 * index its Round, and a Round may repeat (files of several runs joined). Otherwise the same
 * errors as readResumablePgn, naming `match --report`.
 */
export function readMatchPgn(text: string, source: string): ResumedPgn {
  return readMatchGames(text, source, null);
}

/** The command whose reading this is, for its messages: a schedule is `--resume`'s. */
const commandOf = (schedule: ResumeSchedule | null): string => (schedule ? 'match --resume' : 'match --report');

function readMatchGames(text: string, source: string, schedule: ResumeSchedule | null): ResumedPgn {
  const command = commandOf(schedule);
  // Games as the runner wrote them: each ends in a blank line, so each chunk plus "\n" is its text.
  const parts = text
    .replace(/\r\n?/g, '\n')
    .split(/\n(?=\[Event )/)
    .filter((c) => c.trim() !== '')
    .map((c) => c.replace(/\n*$/, '\n\n'));
  let droppedTail: string | undefined;
  if (parts.length > 0 && !RESULT_END.test(parts[parts.length - 1])) {
    const last = parts.pop()!;
    const round = /\[Round "([^"]*)"\]/.exec(last)?.[1];
    droppedTail = `the last game${round ? ` (Round ${round})` : ''} is incomplete`;
  }
  const keptText = parts.join('');
  const records = readPgn(keptText, { source });
  if (records.length !== parts.length) throw new Error(`${command}: PGN chunks and games disagree`); // a bug, not input
  const seen = new Set<number>();
  const games = records.map((rec, i) => {
    const where = `${source}: game ${i + 1}`;
    if (rec instanceof PgnError) throw new MatchResumeError(`${command}: ${rec.message}`);
    const g = resumedGame(matchRecord(rec), where, schedule, parts[i]);
    // A resumed match is one run; a report reads runs laid end to end in one file (reportFromPgns).
    if (schedule) {
      if (seen.has(g.index)) throw new MatchResumeError(`${command}: ${where}: Round ${g.index + 1} appears twice`);
      seen.add(g.index);
    }
    return g;
  });
  return { games, keptText, ...(droppedTail ? { droppedTail } : {}) };
}

function resumedGame(rec: MatchRecord, where: string, s: ResumeSchedule | null, pgn: string): ResumedGame {
  const fail = (field: string, msg: string): never => {
    throw new MatchResumeError(`${commandOf(s)}: ${where}: ${field}: ${msg}`);
  };
  const t = rec.tags;
  const round = Number(t.Round);
  if (!Number.isInteger(round) || round < 1) fail('Round', `expected a game number from 1, got '${t.Round ?? ''}'`);
  const index = round - 1;
  const pos = Position.fromFen(rec.fen);
  let openingIndex: number, bookPlies: number;
  if (s) {
    if (round > s.games) fail('Round', `${round} is beyond this match's ${s.games} games`);
    const tc = tcText(s.tc);
    if (t.TimeControl !== tc) fail('TimeControl', `the game was played at '${t.TimeControl ?? ''}', this match is ${tc}`);
    if ((t.Variant === 'Chess960') !== (s.chess960 === true))
      fail('Variant', s.chess960 ? 'this match is Chess960, the game is not' : 'the game is Chess960, this match is not');
    openingIndex = Math.floor(index / 2) % s.openings.length;
    const opening = s.openings[openingIndex];
    if (rec.fen !== opening.fen) fail('FEN', `the game starts from '${rec.fen}', its opening (${openingIndex + 1}) from '${opening.fen}'`);
    for (let i = 0; i < opening.moves.length; i++) {
      if (i >= rec.moves.length || parseUciMove(pos, opening.moves[i], s.chess960 === true) !== rec.moves[i])
        fail('moves', `the game does not follow its opening (${openingIndex + 1}: ${opening.moves.join(' ')})`);
      pos.makeMove(rec.moves[i]);
    }
    bookPlies = opening.moves.length;
  } else {
    // No schedule: the opening is the moves up to the one the runner marked "book".
    openingIndex = Math.floor(index / 2);
    bookPlies = 0;
    for (let i = 0; i < rec.moves.length; i++) if (/^book(?:, |$)/.test(rec.comments[i] ?? '')) bookPlies = i + 1;
    for (let i = 0; i < bookPlies; i++) pos.makeMove(rec.moves[i]);
  }
  const whiteEngine = (index % 2) as 0 | 1;
  const usage: [EngineUsage, EngineUsage] = [newUsage(), newUsage()];
  for (let i = bookPlies; i < rec.moves.length; i++) {
    const m = MOVE_COMMENT.exec(rec.comments[i] ?? '');
    if (!m) fail('moves', `ply ${i + 1} has no "score/depth seconds" comment, so this PGN was not written by match --pgn`);
    const u = usage[engineOfSide(whiteEngine, pos.side)];
    u.moves++;
    u.timeMs += Math.round(Number(m![2]) * 1000);
    if (m![1] !== undefined) {
      u.depthSum += Number(m![1]);
      u.depthCount++;
    }
    pos.makeMove(rec.moves[i]);
  }
  if (rec.result !== '1-0' && rec.result !== '0-1' && rec.result !== '1/2-1/2') fail('Result', `'${rec.result}' is not a finished game`);
  const { verdict, faultEngine } = endOf(rec, pos, s, whiteEngine, fail);
  if (verdict.result !== rec.result) fail('Result', `${rec.result}, but the game ends in ${verdict.reason} (${verdict.result})`);
  return {
    index,
    opening: openingIndex,
    whiteEngine,
    verdict,
    ...(faultEngine !== undefined ? { faultEngine } : {}),
    plies: rec.moves.length,
    pgn,
    usage,
    white: t.White ?? '',
    black: t.Black ?? '',
  };
}

/** The Termination tags faultVerdict writes, and their reasons. */
const FAULT_BY_TERMINATION = new Map<string, 'time' | 'illegal-move' | 'crash'>([
  ['time forfeit', 'time'],
  ['rules infraction', 'illegal-move'],
  ['abandoned', 'crash'],
]);

/** How the game ended: by the rules in its final position, else by the Termination tag. */
function endOf(
  rec: MatchRecord,
  pos: Position,
  s: ResumeSchedule | null,
  whiteEngine: 0 | 1,
  fail: (field: string, msg: string) => never,
): { verdict: Verdict; faultEngine?: 0 | 1 } {
  const ruled = ruleVerdict(pos);
  const term = rec.tags.Termination;
  // The runner's final comment follows the last move's own comment after ", ".
  const last = rec.moves.length > 0 ? (rec.comments[rec.moves.length - 1] ?? '') : '';
  const text = last.replace(MOVE_COMMENT, '').replace(/^book(?:, |$)/, '') || (term ?? '');
  const result = rec.result as Verdict['result'];
  if (ruled && term === 'normal') return { verdict: ruled };
  // A loss by fault: the engine to move at the end is the one that failed to move.
  const fault = FAULT_BY_TERMINATION.get(term ?? '');
  if (fault)
    return {
      verdict: { result, reason: fault, termination: term as Verdict['termination'], text },
      faultEngine: engineOfSide(whiteEngine, pos.side),
    };
  if (term === 'adjudication') {
    // Without a schedule, the runner's own text says which draw rule ended the game.
    const capped = s ? rec.moves.length >= s.maxPlies : /^Draw adjudicated: game reached \d+ plies$/.test(text);
    const reason = result !== '1/2-1/2' ? 'resign' : capped ? 'max-plies' : 'draw-adjudication';
    return { verdict: { result, reason, termination: term, text } };
  }
  return fail('Termination', `'${term ?? ''}' with no ending by the rules in the final position`);
}

/** Checks that the resumed games were played by the engines of this run, under the same names. */
export function checkResumedNames(games: readonly ResumedGame[], names: readonly [string, string], source: string): void {
  for (const g of games) {
    const white = names[g.whiteEngine],
      black = names[1 - g.whiteEngine];
    if (g.white !== white || g.black !== black)
      throw new MatchResumeError(
        `match --resume: ${source}: Round ${g.index + 1}: played by '${g.white}' (White) and '${g.black}' (Black), this run schedules '${white}' and '${black}'`,
      );
  }
}
