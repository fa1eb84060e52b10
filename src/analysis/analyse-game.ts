/**
 * Game analysis: every position of a game searched by the engine, each move judged against
 * the engine's choice (lichess's win-probability rules, src/analysis/win-probability.ts), and
 * the game written back as PGN with [%eval] comments, ?!/?/?? and the better move as a
 * variation, on top of everything the game already held (its tags, comments, NAGs and
 * variations). Deterministic for a node or depth limit: one engine, cleared at the start of each
 * game, searches the positions in order.
 */
import { moveToUci } from '../core/move.js';
import { moveToSan } from '../core/notation.js';
import {
  NAG_OF_GLYPH,
  PgnError,
  makePgn,
  pgnStartFen,
  pgnStartPosition,
  readPgn,
  replayPgnGame,
  type PgnGame,
  type PgnMove,
} from '../core/pgn/index.js';
import { Position } from '../core/position.js';
import type { Score } from '../core/types.js';
import { Engine } from '../engine/engine.js';
import type { SearchLimits } from '../engine/types.js';
import { gameAccuracy, JUDGEMENT_NAG, judgeMove, moveAccuracy, scoreToCp, winPercent, type Judgement } from './win-probability.js';

export interface AnalysisOptions {
  /** One of depth, nodes or movetime (ms) per position; default nodes 100000. */
  depth?: number;
  nodes?: number;
  movetime?: number;
  /** Transposition table size; part of the result's identity for a node limit. Default 16. */
  hashMb?: number;
  /** Plies of the engine's line shown as the better move. Default 6. */
  variationPlies?: number;
  /** An engine to reuse (cleared at the start of the game); a new one otherwise. */
  engine?: Engine;
  /** Called after each position searched. */
  onPosition?: (searched: number, total: number) => void;
}

export interface MoveAnalysis {
  /** 1-based move number and who moved. */
  moveNumber: number;
  color: 'white' | 'black';
  san: string;
  uci: string;
  /** The engine's move and line in the position before (SAN). */
  best: string;
  line: string[];
  /** Evaluations from white's point of view, before and after the move. */
  evalBefore: Score;
  evalAfter: Score;
  /** The mover's win% before and after, centipawn loss (ceiled at 10 pawns) and lichess move accuracy. */
  winBefore: number;
  winAfter: number;
  cpLoss: number;
  accuracy: number;
  judgement?: Judgement;
}

export interface SideSummary {
  accuracy: number;
  acpl: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
}

export interface GameAnalysis {
  tags: Record<string, string>;
  fen: string;
  result: string;
  moves: MoveAnalysis[];
  white: SideSummary;
  black: SideSummary;
  /** Positions searched and nodes in all. */
  positions: number;
  nodes: number;
  /** The annotated game as PGN. */
  pgn: string;
}

/** The limits of one search as the options say (a node budget unless told otherwise). */
export function analysisLimits(options: AnalysisOptions): SearchLimits {
  if (options.depth !== undefined) return { depth: options.depth };
  if (options.movetime !== undefined) return { movetime: options.movetime };
  return { nodes: options.nodes ?? 100_000 };
}

/** `[%eval …]` as lichess writes it: pawns for white, or #N / #-N for a mate. */
export function formatEval(s: Score): string {
  if ('mate' in s) return `#${s.mate}`;
  return (s.cp / 100).toFixed(2);
}

/** Analyses the first game of a PGN text; a bad game throws its PgnError. */
export function analyseGame(pgn: string, options: AnalysisOptions = {}): GameAnalysis {
  const first = readPgn(pgn)[0];
  if (first === undefined) throw new PgnError('count', 'no game found');
  if (first instanceof PgnError) throw first;
  return analysePgnGame(first, options);
}

/** A score of the side to move as white's; a side mated on the board is mate -0/+0 kept as its ceiling by `cpOf`. */
function whiteView(s: Score, whiteToMove: boolean): Score {
  if ('mate' in s) return { mate: whiteToMove ? s.mate : -s.mate };
  return { cp: whiteToMove ? s.cp : -s.cp || 0 };
}

/**
 * Analyses a game model's main line (replayed here, so any model will do; a null move cannot be
 * analysed). The annotated PGN is the same game with the analysis added.
 */
export function analysePgnGame(game: PgnGame, options: AnalysisOptions = {}): GameAnalysis {
  replayPgnGame(game);
  const played = game.moves.map((m) => m.move!);
  const nullMove = played.indexOf(0);
  if (nullMove >= 0) throw new PgnError('move', `move ${nullMove + 1} of the main line is a null move '--', which cannot be analysed`);
  const fen = pgnStartFen(game);
  const engine = options.engine ?? new Engine({ hashMb: options.hashMb ?? 16 });
  engine.newGame();
  const limits = analysisLimits(options);
  const pos = pgnStartPosition(game);
  const total = played.length + 1;
  // Per position: the white-view score, white-view ceiled centipawns, best move and line.
  const evals: Score[] = [];
  const cps: number[] = [];
  const lines: number[][] = [];
  const sans: string[] = [];
  let nodes = 0;
  for (let i = 0; i < total; i++) {
    const whiteToMove = pos.side === 0;
    const r = engine.search(pos, limits);
    nodes += r.nodes;
    const view = whiteView(r.score, whiteToMove);
    evals.push(view);
    // Mated on the board (mate 0): the side to move has lost.
    cps.push('mate' in r.score && r.score.mate === 0 ? (whiteToMove ? -1000 : 1000) : scoreToCp(view));
    lines.push(r.pv.length > 0 ? r.pv : r.bestMove !== 0 ? [r.bestMove] : []);
    if (i < played.length) {
      sans.push(moveToSan(pos, played[i]));
      pos.makeMove(played[i]);
    }
    options.onPosition?.(i + 1, total);
  }

  // Replay to write the engine's lines as SAN from each position.
  const replay = Position.fromFen(fen);
  const fields = fen.split(/\s+/);
  let moveNumber = Number(fields[5]) || 1;
  const moves: MoveAnalysis[] = [];
  const plies = options.variationPlies ?? 6;
  for (let i = 0; i < played.length; i++) {
    const white = replay.side === 0;
    const line = lineSan(replay, lines[i].slice(0, plies));
    const sign = white ? 1 : -1;
    const before = sign * cps[i],
      after = sign * cps[i + 1];
    const winBefore = winPercent(before),
      winAfter = winPercent(after);
    // The engine's own move is never judged (as lichess: advice needs a better line).
    const judgement = lines[i][0] === played[i] ? undefined : judgeMove(before, after);
    moves.push({
      moveNumber,
      color: white ? 'white' : 'black',
      san: sans[i],
      uci: moveToUci(played[i]),
      best: line[0] ?? '',
      line,
      evalBefore: evals[i],
      evalAfter: evals[i + 1],
      winBefore,
      winAfter,
      cpLoss: Math.max(0, before - after),
      accuracy: moveAccuracy(winBefore, winAfter),
      judgement,
    });
    replay.makeMove(played[i]);
    if (!white) moveNumber++;
  }

  const acc = gameAccuracy(cps, Position.fromFen(fen).side === 0);
  const summary = (color: 'white' | 'black'): SideSummary => {
    const mine = moves.filter((m) => m.color === color);
    return {
      accuracy: acc[color].accuracy,
      acpl: acc[color].acpl,
      inaccuracies: mine.filter((m) => m.judgement === 'inaccuracy').length,
      mistakes: mine.filter((m) => m.judgement === 'mistake').length,
      blunders: mine.filter((m) => m.judgement === 'blunder').length,
    };
  };
  const analysis: GameAnalysis = {
    tags: Object.fromEntries(game.tags),
    fen,
    result: game.result,
    moves,
    white: summary('white'),
    black: summary('black'),
    positions: total,
    nodes,
    pgn: '',
  };
  analysis.pgn = makePgn(annotatedGame(game, analysis, limits, evals));
  return analysis;
}

function lineSan(pos: Position, line: number[]): string[] {
  const out: string[] = [];
  for (const m of line) {
    out.push(moveToSan(pos, m));
    pos.makeMove(m);
  }
  for (let k = 0; k < line.length; k++) pos.unmakeMove();
  return out;
}

const JUDGEMENT_WORD: Record<Judgement, string> = { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder' };

function limitText(limits: SearchLimits): string {
  if (limits.depth !== undefined) return `depth ${limits.depth}`;
  if (limits.movetime !== undefined) return `movetime ${limits.movetime} ms`;
  return `nodes ${limits.nodes}`;
}

/** Tag value of an accuracy or ACPL: one decimal, '-' for a side that made no move. */
function figure(x: number, decimals: number): string {
  return Number.isFinite(x) ? x.toFixed(decimals) : '-';
}

/**
 * The game with the analysis added: the accuracy tags, and per main-line move the evaluation
 * after it (replacing any [%eval] it had), the judgement as its NAG (replacing a move-quality
 * glyph of the game's own; other NAGs stay) and a comment before the game's own, and the
 * engine's better line as a last variation. Everything else of the game is kept.
 */
function annotatedGame(game: PgnGame, a: GameAnalysis, limits: SearchLimits, evals: Score[]): PgnGame {
  const tags = new Map(game.tags);
  tags.set('Annotator', `Matrix Chess (${limitText(limits)})`);
  tags.set('WhiteAccuracy', figure(a.white.accuracy, 1));
  tags.set('BlackAccuracy', figure(a.black.accuracy, 1));
  tags.set('WhiteACPL', figure(a.white.acpl, 0));
  tags.set('BlackACPL', figure(a.black.acpl, 0));
  const moves = game.moves.map((node, i): PgnMove => {
    const m = a.moves[i];
    const out: PgnMove = { ...node };
    // A side mated on the board needs no evaluation.
    const mated = 'mate' in evals[i + 1] && (evals[i + 1] as { mate: number }).mate === 0;
    if (mated) delete out.eval;
    else out.eval = m.evalAfter;
    if (m.judgement) {
      out.nags = [NAG_OF_GLYPH[JUDGEMENT_NAG[m.judgement]], ...(node.nags ?? []).filter((n) => n > 6)];
      out.commentsAfter = [`${JUDGEMENT_WORD[m.judgement]}. ${m.best} was best.`, ...(node.commentsAfter ?? [])];
      if (m.line.length > 0) out.variations = [...(node.variations ?? []), m.line.map((san) => ({ san }))];
    }
    return out;
  });
  return { tags, comments: game.comments, moves, result: game.result };
}
