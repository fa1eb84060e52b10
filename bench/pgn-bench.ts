/**
 * Reading PGN: our reader (src/core/pgn) against chess.js 1.4's loadPgn and chessops 0.15's
 * parsePgn, each reading and replaying the same file of --games games (default 10,000).
 *
 * The file is our own self-play games (the network's training data, data/nnue/FOLDER/shard-*.mcgr.gz,
 * read by src/tune/game-records.ts), written by our writer with the engine's score of every move
 * as [%eval], and, from a seeded generator, a comment on one move in ten, a NAG on one in twenty,
 * and a variation of one to four legal plies on one in twenty-five (one in five of those moves
 * with a variation of its own): the file of an annotated collection.
 *
 * - ours: readPgn(text): the file split into games by structure, every game parsed into the model
 *   ([%eval] read into fields) and every move of every line replayed on the core's Position;
 * - chessops: parsePgn(text), then every line of every game replayed with chessops's own walk
 *   (parseSan and play on a cloned position at each branch);
 * - chess.js: loadPgn on each game's text (chess.js reads one game; the file is handed to it
 *   already cut into games, which it cannot do itself), main line only (it skips variations);
 * - and both streaming parsers, ours (PgnReader) and chessops's (PgnParser), each game replayed
 *   as it is read and then dropped: constant memory, and no cost of keeping every game tree.
 *
 * One thread, CPU time (the machine is shared), contenders interleaved, the median of --runs runs.
 * Every contender's count of games and replayed moves is checked against the file's.
 *
 *   node dist/bench/pgn-bench.js [--games 10000] [--runs 5] [--data data/nnue/selfplay-5000n-s1] [--out FILE]
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Chess as ChessJs } from 'chess.js';
import {
  PgnParser as ChessopsParser,
  parsePgn as chessopsParsePgn,
  startingPosition,
  walk,
  type Game,
  type PgnNodeData,
} from 'chessops/pgn';
import { parseSan as chessopsParseSan } from 'chessops/san';
import {
  PgnError,
  PgnReader,
  makePgn,
  newPgnGame,
  readPgn,
  setPgnResult,
  setPgnStartFen,
  type PgnGame,
  type PgnMove,
} from '../src/core/pgn/index.js';
import { legalMoveList, moveToSan } from '../src/core/notation.js';
import { Position } from '../src/core/position.js';
import { Sfc32 } from '../src/core/rng.js';
import { MATE_BASE, decodeShard, isMateScore, type GameRecord } from '../src/tune/game-records.js';
import { parseCommandArgs, parseIntIn } from '../src/cmdline/args.js';
import { runScript } from '../src/cmdline/errors.js';
import { median } from './median.js';

const WORDS = ['the only move', 'a plan: the minority attack', 'White is better', 'time trouble', 'a known endgame', 'unclear'];
const RESULTS = ['0-1', '1/2-1/2', '1-0'] as const;

interface Corpus {
  text: string;
  /** Each game's text, for chess.js (which reads one game at a time). */
  games: string[];
  /** Moves of all lines, and of the main lines. */
  moves: number;
  mainMoves: number;
}

interface Count {
  games: number;
  moves: number;
}

/** A line of `plies` random legal moves from `pos` (left as found), some with a variation of their own. */
function randomLine(pos: Position, plies: number, random: () => number, depth: number): PgnMove[] {
  const out: PgnMove[] = [];
  for (let i = 0; i < plies; i++) {
    const legal = legalMoveList(pos);
    if (legal.length === 0) break;
    const m = legal[Math.floor(random() * legal.length)];
    const node: PgnMove = { san: moveToSan(pos, m) };
    if (depth < 2 && random() < 0.2) {
      const v = randomLine(pos, 1 + Math.floor(random() * 3), random, depth + 1);
      if (v.length > 0) node.variations = [v];
    }
    pos.makeMove(m);
    out.push(node);
  }
  for (let i = 0; i < out.length; i++) pos.unmakeMove();
  return out;
}

/** A self-play game record as an annotated PGN game. */
function annotated(rec: GameRecord, index: number, random: () => number): PgnGame {
  const g = newPgnGame({
    Event: 'Matrix Chess self-play',
    Site: 'matrix-chess tune datagen',
    Round: String(index + 1),
    White: 'Matrix Chess',
    Black: 'Matrix Chess',
  });
  setPgnResult(g, RESULTS[rec.result]);
  setPgnStartFen(g, rec.fen);
  const pos = Position.fromFen(rec.fen);
  rec.moves.forEach((m, i) => {
    const node: PgnMove = { san: moveToSan(pos, m) };
    // The mover's score (the shard's i16) as White's, as [%eval] says it.
    const s = rec.scores[i],
      white = pos.side === 0 ? 1 : -1;
    node.eval = isMateScore(s) ? { mate: white * (s > 0 ? MATE_BASE - s : -MATE_BASE - s) } : { cp: white * s || 0 };
    if (random() < 0.1) node.commentsAfter = [WORDS[Math.floor(random() * WORDS.length)]];
    if (random() < 0.05) node.nags = [1 + Math.floor(random() * 6)];
    if (random() < 0.04) {
      const line = randomLine(pos, 1 + Math.floor(random() * 4), random, 0);
      if (line.length > 0) node.variations = [line];
    }
    pos.makeMove(m);
    g.moves.push(node);
  });
  return g;
}

function countMoves(line: readonly PgnMove[]): number {
  let n = 0;
  for (const m of line) {
    n++;
    for (const v of m.variations ?? []) n += countMoves(v);
  }
  return n;
}

function buildCorpus(dataDir: string, wanted: number, seed: number): Corpus {
  const s = new Sfc32(seed);
  const random = (): number => s.nextFloat();
  const shards = readdirSync(dataDir)
    .filter((f) => /^shard-\d+\.mcgr\.gz$/.test(f))
    .sort();
  const games: string[] = [];
  let moves = 0,
    mainMoves = 0;
  for (const shard of shards) {
    for (const rec of decodeShard(readFileSync(join(dataDir, shard)), shard)) {
      if (games.length >= wanted) break;
      const g = annotated(rec, games.length, random);
      moves += countMoves(g.moves);
      mainMoves += g.moves.length;
      games.push(makePgn(g));
    }
    if (games.length >= wanted) break;
  }
  if (games.length < wanted) throw new Error(`${dataDir} holds only ${games.length} games, ${wanted} wanted`);
  return { text: games.join(''), games, moves, mainMoves };
}

function ours(c: Corpus): Count {
  let games = 0,
    moves = 0;
  for (const g of readPgn(c.text)) {
    if (g instanceof PgnError) throw g;
    games++;
    moves += countMoves(g.moves);
  }
  return { games, moves };
}

function oursStreamed(c: Corpus): Count {
  let games = 0,
    moves = 0;
  const reader = new PgnReader((g) => {
    if (g instanceof PgnError) throw g;
    games++;
    moves += countMoves(g.moves);
  });
  reader.push(c.text);
  reader.end();
  return { games, moves };
}

/** Every line of a chessops game replayed with chessops's walk; returns the moves played. */
function chessopsReplay(game: Game<PgnNodeData>, index: number): number {
  let moves = 0;
  walk(game.moves, startingPosition(game.headers).unwrap(), (pos, node) => {
    const move = chessopsParseSan(pos, node.san);
    if (!move) throw new Error(`chessops: game ${index + 1}: cannot play ${node.san}`);
    pos.play(move);
    moves++;
  });
  return moves;
}

function chessops(c: Corpus): Count {
  let games = 0,
    moves = 0;
  for (const game of chessopsParsePgn(c.text)) moves += chessopsReplay(game, games++);
  return { games, moves };
}

function chessopsStreamed(c: Corpus): Count {
  let games = 0,
    moves = 0;
  const parser = new ChessopsParser((game, err) => {
    if (err) throw err;
    moves += chessopsReplay(game, games++);
  });
  parser.parse(c.text);
  return { games, moves };
}

function chessJs(c: Corpus): Count {
  const chess = new ChessJs();
  let games = 0,
    moves = 0;
  for (const text of c.games) {
    chess.loadPgn(text);
    moves += chess.history().length;
    games++;
  }
  return { games, moves };
}

function main(): number {
  const { values } = parseCommandArgs(
    'pgn-bench',
    process.argv.slice(2),
    { games: { type: 'string' }, runs: { type: 'string' }, data: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' } },
    0,
  );
  const wanted = parseIntIn('--games', (values.games as string | undefined) ?? '10000', 1, 10_000_000);
  const runs = parseIntIn('--runs', (values.runs as string | undefined) ?? '5', 1, 100);
  const seed = parseIntIn('--seed', (values.seed as string | undefined) ?? '1', 0, 0x7fffffff);
  const dataDir = (values.data as string | undefined) ?? 'data/nnue/selfplay-5000n-s1';
  const out = (values.out as string | undefined) ?? join(tmpdir(), `pgn-bench-${wanted}.pgn`);

  const t0 = performance.now();
  const corpus = buildCorpus(dataDir, wanted, seed);
  writeFileSync(out, corpus.text);
  const mb = Buffer.byteLength(corpus.text) / 1e6;
  console.log(
    `${corpus.games.length} games from ${dataDir} (our self-play), ${corpus.mainMoves} main-line moves, ${corpus.moves} moves with variations, ` +
      `${mb.toFixed(1)} MB, written to ${out} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const all = { games: corpus.games.length, moves: corpus.moves };
  const contenders: Array<{ name: string; run: (c: Corpus) => Count; expect: Count; base: number; ms: number[] }> = [
    { name: 'ours: readPgn + replay (all lines)', run: ours, expect: all, base: 0, ms: [] },
    { name: 'chessops 0.15: parsePgn + walk (all lines)', run: chessops, expect: all, base: 0, ms: [] },
    {
      name: 'chess.js 1.4: loadPgn per game (main line)',
      run: chessJs,
      expect: { games: corpus.games.length, moves: corpus.mainMoves },
      base: 0,
      ms: [],
    },
    { name: 'ours, streamed: PgnReader + replay, game by game', run: oursStreamed, expect: all, base: 3, ms: [] },
    { name: 'chessops, streamed: PgnParser + walk, game by game', run: chessopsStreamed, expect: all, base: 3, ms: [] },
  ];
  for (let r = 0; r < runs; r++) {
    for (const c of contenders) {
      const c0 = process.cpuUsage();
      const count = c.run(corpus);
      const cpu = process.cpuUsage(c0);
      if (count.games !== c.expect.games || count.moves !== c.expect.moves) {
        console.log(`${c.name}: read ${count.games} games and ${count.moves} moves, expected ${c.expect.games} and ${c.expect.moves}`);
        return 1;
      }
      c.ms.push((cpu.user + cpu.system) / 1000);
    }
    console.log(`run ${r + 1}: ${contenders.map((c) => `${c.name.split(':')[0]} ${(c.ms[r] / 1000).toFixed(2)} s`).join(', ')}`);
  }
  console.log(`\nCPU time, median of ${runs} runs (${corpus.games.length} games, ${mb.toFixed(1)} MB):`);
  console.log('| reader | CPU s | games/s | moves/s | ours is |');
  console.log('| --- | --: | --: | --: | --: |');
  contenders.forEach((c, i) => {
    const ms = median(c.ms);
    // The whole-text readers are compared with ours whole, the streamed one with ours streamed.
    const speed = i === c.base ? '—' : `${(ms / median(contenders[c.base].ms)).toFixed(1)}× faster`;
    const games = Math.round((c.expect.games * 1000) / ms).toLocaleString('en-US');
    const moves = Math.round((c.expect.moves * 1000) / ms).toLocaleString('en-US');
    console.log(`| ${c.name} | ${(ms / 1000).toFixed(2)} | ${games} | ${moves} | ${speed} |`);
  });
  return 0;
}

void runScript('pgn-bench', main);
