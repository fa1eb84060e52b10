/**
 * Training positions for the learned evaluation, replayed from game records (binary shards of
 * `tune datagen`, or PGN with the engine's scores as move comments). A position is kept when it
 * is quiet enough for a static evaluation to be judged against the search: not in check, the
 * move played from it is no capture or promotion, and the score is no mate.
 *
 * The score label can be blended with the classical evaluation of the same position
 * (`classicalWeight` w: w·classical + (1 − w)·search score): the network first has to learn what
 * the hand-written evaluation already knows, and a few million search scores alone teach it less
 * of that than the evaluation itself does (notebook/nnue-generations.md, generation 2).
 *
 * Positions are packed in typed arrays: the White-perspective feature of each piece (Black's is
 * mirrorFeature of it), the side to move, the output bucket, the search score and the game result
 * from the side to move's view. Every `holdOutEvery`-th game goes to the validation set.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Position } from '../../core/position.js';
import { fenPlacement } from '../../core/fen.js';
import { NO_SQUARE, WHITE, squareName } from '../../core/types.js';
import { moveKind, movePromo, moveTo, KIND_EN_PASSANT } from '../../core/move.js';
import { parsePgn, pgnStartFen } from '../../core/pgn/index.js';
import { featureIndex, outputBucket } from '../../engine/nnue/features.js';
import { evaluate } from '../../engine/evaluate.js';
import { decodeShard, isMateScore, encodeScore, shardName, type GameRecord, type GameResult } from '../game-records.js';
import { readPgnText } from '../../pgn-file-node.js';

export interface NnueSet {
  count: number;
  /** 32 White-perspective features per position, `nFeat` of them used. */
  feat: Uint16Array;
  nFeat: Uint8Array;
  stm: Uint8Array;
  bucket: Uint8Array;
  /** Search score, side to move's view, centipawns. */
  score: Int16Array;
  /** Game result, side to move's view: 1, 0.5, 0. */
  result: Float32Array;
  /** The classical evaluation, side to move's view: the baseline to beat, and the base of a residual network. */
  classical?: Int16Array;
}

/** Scores fit the sets' Int16Array; labels stay below the 3000 cp cut anyway. */
function clampScore(cp: number): number {
  return Math.max(-30000, Math.min(30000, cp));
}

class SetBuilder {
  private cap = 1 << 16;
  count = 0;
  feat = new Uint16Array(this.cap * 32);
  nFeat = new Uint8Array(this.cap);
  stm = new Uint8Array(this.cap);
  bucket = new Uint8Array(this.cap);
  score = new Int16Array(this.cap);
  result = new Float32Array(this.cap);
  classical = new Int16Array(this.cap);

  private grow(): void {
    this.cap *= 2;
    const g = <T extends Uint16Array | Uint8Array | Int16Array | Float32Array>(a: T, n: number): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.feat = g(this.feat, this.cap * 32);
    this.nFeat = g(this.nFeat, this.cap);
    this.stm = g(this.stm, this.cap);
    this.bucket = g(this.bucket, this.cap);
    this.score = g(this.score, this.cap);
    this.result = g(this.result, this.cap);
    this.classical = g(this.classical, this.cap);
  }

  add(pos: Position, score: number, classical: number, whiteResult: number, buckets: number): void {
    if (this.count === this.cap) this.grow();
    const i = this.count++;
    let n = 0;
    for (let sq = 0; sq < 64; sq++) {
      const p = pos.board[sq];
      if (p !== 0) this.feat[i * 32 + n++] = featureIndex(0, p, sq);
    }
    this.nFeat[i] = n;
    this.stm[i] = pos.side;
    this.bucket[i] = outputBucket(n, buckets);
    this.score[i] = score;
    this.result[i] = pos.side === 0 ? whiteResult : 1 - whiteResult;
    this.classical[i] = classical;
  }

  build(): NnueSet {
    const n = this.count;
    return {
      count: n,
      feat: this.feat.slice(0, n * 32),
      nFeat: this.nFeat.slice(0, n),
      stm: this.stm.slice(0, n),
      bucket: this.bucket.slice(0, n),
      score: this.score.slice(0, n),
      result: this.result.slice(0, n),
      classical: this.classical.slice(0, n),
    };
  }
}

export interface NnueDataStats {
  files: number;
  games: number;
  positions: number;
  kept: number;
}

/** mirrorFiles' scratch: the reflected board. */
const mirroredBoard = new Uint8Array(64);

/**
 * `pos` reflected a-file to h-file, without castling rights (which the network does not see and
 * the reflection would break); the side to move, en passant square and clocks carry over. Written
 * into `out` when given (the data loader reuses one position: building a Position costs more
 * than reflecting it).
 */
export function mirrorFiles(pos: Position, out?: Position): Position {
  for (let sq = 0; sq < 64; sq++) mirroredBoard[sq] = pos.board[sq ^ 7];
  const ep = pos.ep;
  const fen = `${fenPlacement(mirroredBoard)} ${pos.side === WHITE ? 'w' : 'b'} - ${ep === NO_SQUARE ? '-' : squareName(ep ^ 7)} ${pos.halfmove} ${pos.fullmove}`;
  if (out === undefined) return Position.fromFen(fen);
  out.setFen(fen);
  return out;
}

/** A --data path that does not exist, or a shard range with a shard missing. */
export class NnueDataError extends Error {
  override readonly name = 'NnueDataError';
}

/**
 * Every input path: a shard, a PGN file, a folder of shards, or `FOLDER@A-B`, the folder's shards
 * A to B (inclusive, every one of them must be there): a training run can name exactly the data
 * it read while `tune datagen` goes on adding shards to the same folder.
 */
export function expandInputs(paths: string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    const range = /^(.+)@(\d+)-(\d+)$/.exec(p);
    const path = range === null ? p : range[1];
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      throw new NnueDataError(`--data: '${path}' does not exist`);
    }
    if (range !== null) {
      const from = Number(range[2]),
        to = Number(range[3]);
      if (!isDir) throw new NnueDataError(`--data: '${p}': a shard range needs a folder of shards`);
      if (from > to) throw new NnueDataError(`--data: '${p}': the range ${from}-${to} is empty`);
      for (let k = from; k <= to; k++) {
        const f = join(path, shardName(k));
        if (!existsSync(f)) throw new NnueDataError(`--data: '${p}': shard ${k} is missing (${f})`);
        out.push(f);
      }
    } else if (isDir) {
      for (const f of readdirSync(path).sort()) if (f.endsWith('.mcgr.gz')) out.push(join(path, f));
    } else out.push(path);
  }
  return out;
}

/** PGN games with the engine's scores as comments ("+0.35/9", "-M3/12"), as game records. */
export function recordsFromPgn(path: string): GameRecord[] {
  const out: GameRecord[] = [];
  for (const g of parsePgn(readPgnText(path), { source: path })) {
    const result: GameResult | undefined = g.result === '1-0' ? 2 : g.result === '0-1' ? 0 : g.result === '1/2-1/2' ? 1 : undefined;
    if (result === undefined) continue;
    const scores = g.moves.map((move) => {
      const c = move.commentsAfter?.[0];
      const m = c === undefined ? null : /^([+-])(M?)(\d+(?:\.\d+)?)\//.exec(c);
      if (!m) return NaN;
      const sign = m[1] === '-' ? -1 : 1;
      return m[2] === 'M' ? encodeScore({ mate: sign * Number(m[3]) }) : encodeScore({ cp: sign * Math.round(Number(m[3]) * 100) });
    });
    out.push({ fen: pgnStartFen(g), result, termination: 0, moves: g.moves.map((m) => m.move!), scores });
  }
  return out;
}

/** A file's games: a binary shard of `tune datagen`, or PGN with the engine's scores as comments. */
export function gamesOfFile(file: string): GameRecord[] {
  return /\.pgn(\.gz)?$/.test(file) ? recordsFromPgn(file) : decodeShard(readFileSync(file), file);
}

/**
 * Whether the trainer learns from `pos`, where `move` was played with the search score `score`:
 * quiet (no capture, en passant or promotion played from it, not in check) and a finite,
 * non-mate score under 3000 cp.
 */
export function isTrainingPosition(pos: Position, move: number, score: number): boolean {
  const noisy = movePromo(move) !== 0 || moveKind(move) === KIND_EN_PASSANT || pos.board[moveTo(move)] !== 0;
  return !noisy && !Number.isNaN(score) && !isMateScore(score) && Math.abs(score) < 3000 && !pos.inCheck();
}

/** Calls `visit` with each position the trainer keeps, in file and game order. The position is reused: copy what you keep. */
export function forEachTrainingPosition(files: readonly string[], visit: (pos: Position, score: number) => void): void {
  for (const file of files)
    for (const g of gamesOfFile(file)) {
      const pos = Position.fromFen(g.fen);
      for (let i = 0; i < g.moves.length; i++) {
        if (isTrainingPosition(pos, g.moves[i], g.scores[i])) visit(pos, g.scores[i]);
        pos.makeMove(g.moves[i]);
      }
    }
}

export interface NnueDataOptions {
  buckets: number;
  /** Every holdOutEvery-th game goes to the validation set (0: none). */
  holdOutEvery: number;
  maxPositions?: number;
  /** Add each training position reflected a-file to h-file. */
  mirror?: boolean;
  /** Weight of the classical evaluation in the score label, 0 (search score only) to 1. */
  classicalWeight?: number;
  onFile?: (file: string, done: number, total: number) => void;
}

export function loadNnueData(
  paths: string[],
  { buckets, holdOutEvery, maxPositions = Infinity, mirror = false, classicalWeight = 0, onFile }: NnueDataOptions,
): { train: NnueSet; validation: NnueSet; stats: NnueDataStats } {
  const train = new SetBuilder(),
    validation = new SetBuilder();
  const files = expandInputs(paths);
  const mirrorScratch = new Position();
  const stats: NnueDataStats = { files: files.length, games: 0, positions: 0, kept: 0 };
  // The score label: the search score, or its blend with the classical evaluation c.
  const blend = (c: number, search: number): number =>
    classicalWeight === 0 ? search : Math.round(classicalWeight * c + (1 - classicalWeight) * search);
  files.forEach((file, fi) => {
    if (stats.kept >= maxPositions) return;
    for (const g of gamesOfFile(file)) {
      const into = holdOutEvery > 0 && stats.games % holdOutEvery === holdOutEvery - 1 ? validation : train;
      stats.games++;
      const whiteResult = g.result / 2;
      const pos = Position.fromFen(g.fen);
      for (let i = 0; i < g.moves.length; i++) {
        const m = g.moves[i],
          s = g.scores[i];
        stats.positions++;
        if (isTrainingPosition(pos, m, s)) {
          const classical = clampScore(evaluate(pos));
          into.add(pos, blend(classical, s), classical, whiteResult, buckets);
          // Reflected copies double the training set; the held-out set stays as played. The
          // classical evaluation is not symmetric (its tuned tables are not), so it is recomputed.
          if (mirror && into === train) {
            const m = mirrorFiles(pos, mirrorScratch),
              mc = clampScore(evaluate(m));
            into.add(m, blend(mc, s), mc, whiteResult, buckets);
          }
          stats.kept++;
        }
        pos.makeMove(m);
      }
    }
    onFile?.(file, fi + 1, files.length);
  });
  return { train: train.build(), validation: validation.build(), stats };
}
