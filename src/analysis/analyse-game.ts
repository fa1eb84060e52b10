/**
 * Game analysis: every position of a game searched by the engine, each move judged against
 * the engine's choice (lichess's win-probability rules, src/analysis/win-probability.ts), and
 * the game written back as PGN with [%eval] comments, ?!/?/?? and the better move as a
 * variation. Deterministic for a node or depth limit: one engine, cleared at the start of each
 * game, searches the positions in order.
 */
import { moveToUci } from '../core/move.js';
import { moveToSan } from '../core/notation.js';
import { writePgnGame, type PgnResult } from '../core/pgn.js';
import { PgnError, readPgnGamesEach, type PgnRecord } from '../core/pgn-read.js';
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
  const first = readPgnGamesEach(pgn)[0];
  if (first === undefined) throw new PgnError('pgn: no game found');
  if (first instanceof PgnError) throw first;
  return analyseRecord(first, options);
}

/** A score of the side to move as white's; a side mated on the board is mate -0/+0 kept as its ceiling by `cpOf`. */
function whiteView(s: Score, whiteToMove: boolean): Score {
  if ('mate' in s) return { mate: whiteToMove ? s.mate : -s.mate };
  return { cp: whiteToMove ? s.cp : -s.cp || 0 };
}

export function analyseRecord(record: PgnRecord, options: AnalysisOptions = {}): GameAnalysis {
  const engine = options.engine ?? new Engine({ hashMb: options.hashMb ?? 16 });
  engine.newGame();
  const limits = analysisLimits(options);
  const pos = Position.fromFen(record.fen);
  const total = record.moves.length + 1;
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
    if (i < record.moves.length) {
      sans.push(moveToSan(pos, record.moves[i]));
      pos.makeMove(record.moves[i]);
    }
    options.onPosition?.(i + 1, total);
  }

  // Replay to write the engine's lines as SAN from each position.
  const replay = Position.fromFen(record.fen);
  const fields = record.fen.split(/\s+/);
  let moveNumber = Number(fields[5]) || 1;
  const moves: MoveAnalysis[] = [];
  const plies = options.variationPlies ?? 6;
  for (let i = 0; i < record.moves.length; i++) {
    const white = replay.side === 0;
    const line = lineSan(replay, lines[i].slice(0, plies));
    const sign = white ? 1 : -1;
    const before = sign * cps[i],
      after = sign * cps[i + 1];
    const winBefore = winPercent(before),
      winAfter = winPercent(after);
    const played = record.moves[i];
    // The engine's own move is never judged (as lichess: advice needs a better line).
    const judgement = lines[i][0] === played ? undefined : judgeMove(before, after);
    moves.push({
      moveNumber,
      color: white ? 'white' : 'black',
      san: sans[i],
      uci: moveToUci(played),
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
    replay.makeMove(played);
    if (!white) moveNumber++;
  }

  const acc = gameAccuracy(cps, Position.fromFen(record.fen).side === 0);
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
    tags: record.tags,
    fen: record.fen,
    result: record.result,
    moves,
    white: summary('white'),
    black: summary('black'),
    positions: total,
    nodes,
    pgn: '',
  };
  analysis.pgn = annotatedPgn(record, analysis, limits, evals);
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

const ROSTER = new Set(['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result', 'SetUp', 'FEN', 'PlyCount']);
const OURS = new Set(['Annotator', 'WhiteAccuracy', 'BlackAccuracy', 'WhiteACPL', 'BlackACPL']);
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

function annotatedPgn(record: PgnRecord, a: GameAnalysis, limits: SearchLimits, evals: Score[]): string {
  const t = record.tags;
  const extraTags: Array<[string, string]> = Object.entries(t).filter(([k]) => !ROSTER.has(k) && !OURS.has(k));
  extraTags.push(
    ['Annotator', `Matrix Chess (${limitText(limits)})`],
    ['WhiteAccuracy', figure(a.white.accuracy, 1)],
    ['BlackAccuracy', figure(a.black.accuracy, 1)],
    ['WhiteACPL', figure(a.white.acpl, 0)],
    ['BlackACPL', figure(a.black.acpl, 0)],
  );
  const comments = a.moves.map((m, i) => {
    // A side mated on the board needs no evaluation; earlier [%eval] comments are replaced.
    const mated = 'mate' in evals[i + 1] && (evals[i + 1] as { mate: number }).mate === 0;
    const parts = mated ? [] : [`[%eval ${formatEval(m.evalAfter)}]`];
    if (m.judgement) parts.push(`${JUDGEMENT_WORD[m.judgement]}. ${m.best} was best.`);
    const old = record.comments[i]?.replace(/\[%eval [^\]]*\]/g, '').trim();
    if (old) parts.push(old);
    return parts.length > 0 ? parts.join(' ') : undefined;
  });
  const result = (['1-0', '0-1', '1/2-1/2', '*'] as const).find((r) => r === record.result) ?? '*';
  return writePgnGame({
    event: t.Event ?? '?',
    site: t.Site ?? '?',
    date: t.Date ?? '????.??.??',
    round: t.Round ?? '?',
    white: t.White ?? '?',
    black: t.Black ?? '?',
    result: result as PgnResult,
    fen: record.fen,
    san: a.moves.map((m) => m.san),
    comments,
    nags: a.moves.map((m) => (m.judgement ? JUDGEMENT_NAG[m.judgement] : undefined)),
    variations: a.moves.map((m) => (m.judgement && m.line.length > 0 ? m.line : undefined)),
    extraTags,
  });
}
