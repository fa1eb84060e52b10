/**
 * The fuzzer shared by test/slow/fuzz.test.ts (a few thousand inputs in CI) and bench/fuzz.ts (a
 * million): seeded mutations of valid FEN, SAN, UCI-move and PGN strings fed to the core's
 * parsers, and seeded command lines fed to the UCI loop. Bad input may only end in the parser's
 * typed one-line error; anything else (another exception, a wrong success, a slow parse) is a
 * failure, reported with the input that caused it.
 */
import { Position } from '../src/core/position.js';
import { FenError, START_FEN } from '../src/core/fen.js';
import { MoveError, legalMoveList, moveToSan, parseSan, parseUciMove } from '../src/core/notation.js';
import { moveToUci } from '../src/core/move.js';
import { PgnError, makePgn, newPgnGame, parsePgn, pgnLine, pgnStartFen, setPgnResult, setPgnStartFen } from '../src/core/pgn/index.js';
import { nodeUciSession } from '../src/uci/loop-node.js';
import { rng, suiteFens } from './helpers.js';

export const PARSERS = ['fen', 'san', 'uci', 'pgn'] as const;
export type Parser = (typeof PARSERS)[number];
/** ok: parsed and consistent; typed: the parser's own error; the rest are failures. */
export const OUTCOMES = ['ok', 'typed', 'crash', 'wrong', 'slow'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface Failure {
  parser: Parser;
  outcome: Outcome;
  input: string;
  detail: string;
}

export interface FuzzReport {
  counts: Record<Parser, Record<Outcome, number>>;
  /** The first failures (at most 20), each with the input that reproduces it. */
  failures: Failure[];
  /** The most CPU time one input took, in milliseconds. */
  slowestMs: number;
}

/**
 * One parse using more CPU time than this is a failure: every input here is at most a few
 * kilobytes, so this catches runaway work, not a busy machine (CPU time, not wall time).
 */
export const SLOW_MS = 500;

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Rand, n: number): number => Math.floor(r() * n);

const ALPHABETS: Record<Parser, string> = {
  fen: 'pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh09',
  san: 'NBRQKPabcdefgh12345678x=+#O-0 ',
  uci: 'abcdefgh12345678qrbnk0 ',
  pgn: '[]"{}();$.*/-= \nNBRQKabcdefgh12345678xO+#01',
};

/** A random character: mostly from the parser's alphabet, sometimes any code unit up to U+00FF or an astral one. */
function randomChar(r: Rand, alphabet: string): string {
  const k = r();
  if (k < 0.8) return alphabet[int(r, alphabet.length)];
  if (k < 0.98) return String.fromCharCode(int(r, 256));
  return '\u{1F600}';
}

/** One to three edits of a valid string: byte flips, deletions, insertions, splices, duplication, truncation, or plain junk. */
export function mutate(r: Rand, text: string, others: readonly string[], alphabet: string): string {
  let s = text;
  const edits = 1 + int(r, 3);
  for (let e = 0; e < edits; e++) {
    const at = int(r, s.length + 1);
    switch (int(r, 8)) {
      case 0: // flip one bit of a character
        if (s.length > 0) {
          const i = Math.min(at, s.length - 1);
          s = s.slice(0, i) + String.fromCharCode(s.charCodeAt(i) ^ (1 << int(r, 8))) + s.slice(i + 1);
        }
        break;
      case 1: // replace a character
        if (s.length > 0) {
          const i = Math.min(at, s.length - 1);
          s = s.slice(0, i) + randomChar(r, alphabet) + s.slice(i + 1);
        }
        break;
      case 2: // delete a span
        s = s.slice(0, at) + s.slice(at + 1 + int(r, 4));
        break;
      case 3: {
        // insert a few characters
        let ins = '';
        for (let k = 1 + int(r, 4); k > 0; k--) ins += randomChar(r, alphabet);
        s = s.slice(0, at) + ins + s.slice(at);
        break;
      }
      case 4: {
        // splice: this string's head onto another valid string's tail
        const other = pick(r, others);
        s = s.slice(0, at) + other.slice(int(r, other.length + 1));
        break;
      }
      case 5: {
        // duplicate a span
        const len = 1 + int(r, 8);
        s = s.slice(0, at + len) + s.slice(at, at + len) + s.slice(at + len);
        break;
      }
      case 6: // truncate
        s = s.slice(0, at);
        break;
      default: {
        // junk
        let junk = '';
        for (let k = int(r, 40); k > 0; k--) junk += randomChar(r, alphabet);
        s = junk;
      }
    }
  }
  return s;
}

/** Positions to parse moves in: suite positions after 0–40 random plies (some end in mate or stalemate). */
function positionPool(r: Rand, count: number): Position[] {
  const fens = suiteFens();
  const pool: Position[] = [];
  while (pool.length < count) {
    const pos = Position.fromFen(pick(r, fens));
    for (let ply = int(r, 40); ply > 0; ply--) {
      const legal = legalMoveList(pos);
      if (legal.length === 0) break;
      pos.makeMove(pick(r, legal));
    }
    pool.push(Position.fromFen(pos.toFen()));
  }
  return pool;
}

/** Short games from the pool's starting FENs, written by the project's PGN writer. */
function pgnPool(r: Rand, count: number): string[] {
  const fens = suiteFens();
  const games: string[] = [];
  for (let g = 0; g < count; g++) {
    const fen = g % 2 === 0 ? START_FEN : pick(r, fens);
    const pos = Position.fromFen(fen);
    const san: string[] = [];
    const comments: Array<string | undefined> = [];
    for (let ply = 1 + int(r, 30); ply > 0; ply--) {
      const legal = legalMoveList(pos);
      if (legal.length === 0) break;
      const m = pick(r, legal);
      san.push(moveToSan(pos, m));
      comments.push(r() < 0.2 ? `+0.${int(r, 99)}/${int(r, 20)}` : undefined);
      pos.makeMove(m);
    }
    const result = pick(r, ['1-0', '0-1', '1/2-1/2', '*'] as const);
    const game = newPgnGame({ Event: 'fuzz', Date: '2026.01.01', Round: String(g + 1), White: 'a', Black: 'b' });
    setPgnResult(game, result);
    setPgnStartFen(game, fen);
    game.moves = pgnLine(san, comments);
    games.push(makePgn(game));
  }
  return games;
}

class Fuzzer {
  private readonly r: Rand;
  private readonly positions: Position[];
  private readonly fens: string[];
  private readonly pgns: string[];
  readonly report: FuzzReport;

  constructor(seed: number) {
    this.r = rng(seed);
    this.positions = positionPool(this.r, 200);
    this.fens = [...suiteFens(), ...this.positions.map((p) => p.toFen())];
    this.pgns = pgnPool(this.r, 60);
    const counts = {} as FuzzReport['counts'];
    for (const p of PARSERS) counts[p] = { ok: 0, typed: 0, crash: 0, wrong: 0, slow: 0 };
    this.report = { counts, failures: [], slowestMs: 0 };
  }

  /** Feeds one mutated input to one parser and records the outcome. */
  run(parser: Parser): void {
    const r = this.r;
    let input: string;
    let check: () => string | undefined; // returns a reason when a successful parse is wrong
    let typed: (e: unknown) => boolean;
    switch (parser) {
      case 'fen':
        input = mutate(r, pick(r, this.fens), this.fens, ALPHABETS.fen);
        typed = (e) => e instanceof FenError;
        check = () => {
          const fen = Position.fromFen(input).toFen();
          const again = Position.fromFen(fen).toFen();
          return again === fen ? undefined : `FEN does not round-trip: ${fen} -> ${again}`;
        };
        break;
      case 'san':
      case 'uci': {
        const pos = pick(r, this.positions);
        const legal = legalMoveList(pos);
        // Seeds: this position's moves, plus now and then another position's (well-formed but illegal here).
        const other = pick(r, this.positions);
        const seedPos = legal.length === 0 || r() < 0.1 ? other : pos;
        const seedMoves = legalMoveList(seedPos);
        const write = (m: number): string => (parser === 'san' ? moveToSan(seedPos, m) : moveToUci(m));
        const seeds = seedMoves.length > 0 ? seedMoves.map(write) : ['e4', 'e2e4'];
        input = mutate(r, pick(r, seeds), seeds, ALPHABETS[parser]);
        typed = (e) => e instanceof MoveError;
        check = () => {
          const fenBefore = pos.toFen();
          const m = parser === 'san' ? parseSan(pos, input) : parseUciMove(pos, input);
          if (pos.toFen() !== fenBefore) return 'parsing changed the position';
          if (!legal.includes(m)) return `returned a move that is not legal: ${moveToUci(m)}`;
          if (parser === 'uci' && moveToUci(m) !== input.trim()) return `'${input}' parsed as ${moveToUci(m)}`;
          if (parser === 'san' && parseSan(pos, moveToSan(pos, m)) !== m) return `SAN of ${moveToUci(m)} does not parse back`;
          return undefined;
        };
        break;
      }
      case 'pgn': {
        const a = pick(r, this.pgns);
        input = r() < 0.2 ? a + '\n' + pick(r, this.pgns) : a;
        input = mutate(r, input, this.pgns, ALPHABETS.pgn);
        typed = (e) => e instanceof PgnError;
        check = () => {
          for (const game of parsePgn(input, { source: 'fuzz' })) {
            const pos = Position.fromFen(pgnStartFen(game));
            for (const { move: m } of game.moves) {
              if (m === 0) {
                if (pos.inCheck()) return `a null move in check at ${pos.toFen()}`;
                pos.makeNullMove();
                continue;
              }
              if (!legalMoveList(pos).includes(m!)) return `game replays an illegal move ${moveToUci(m!)} at ${pos.toFen()}`;
              pos.makeMove(m!);
            }
            // What was read is written back and read again to the same game.
            const again = parsePgn(makePgn(game));
            if (again.length !== 1 || makePgn(again[0]) !== makePgn(game)) return `game does not survive write and read: ${makePgn(game)}`;
          }
          return undefined;
        };
        break;
      }
    }
    const cpu0 = process.cpuUsage();
    let outcome: Outcome;
    let detail = '';
    try {
      const reason = check();
      outcome = reason === undefined ? 'ok' : 'wrong';
      detail = reason ?? '';
    } catch (e) {
      if (!typed(e)) {
        outcome = 'crash';
        detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      } else if ((e as Error).message.includes('\n') || (e as Error).message.trim() === '') {
        outcome = 'wrong';
        detail = `typed error is not one line: ${JSON.stringify((e as Error).message)}`;
      } else {
        outcome = 'typed';
      }
    }
    const cpu = process.cpuUsage(cpu0);
    const ms = (cpu.user + cpu.system) / 1000;
    this.report.slowestMs = Math.max(this.report.slowestMs, ms);
    if (outcome !== 'crash' && outcome !== 'wrong' && ms > SLOW_MS) {
      outcome = 'slow';
      detail = `${ms.toFixed(0)} ms of CPU`;
    }
    this.report.counts[parser][outcome]++;
    if (outcome !== 'ok' && outcome !== 'typed' && this.report.failures.length < 20) {
      this.report.failures.push({ parser, outcome, input, detail });
    }
  }
}

/** Runs `inputs` mutated inputs, spread evenly over the four parsers, from one seed. */
export function fuzzParsers(inputs: number, seed: number): FuzzReport {
  const fuzzer = new Fuzzer(seed);
  for (let i = 0; i < inputs; i++) fuzzer.run(PARSERS[i % PARSERS.length]);
  return fuzzer.report;
}

// ---- the UCI loop ----

/**
 * UCI command lines: mutations of valid commands (position, go, setoption, the one-word ones)
 * and junk. Two kinds of valid command are kept out because they are slow, not wrong: perft
 * deeper than 3 (perft cannot be stopped) and hash tables over 64 MB.
 */
export function uciFuzzLines(count: number, seed: number): string[] {
  const r = rng(seed);
  const moves = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'g8f6', 'e1g1', 'e7e8q', 'a7a8n', '0000'];
  const seeds = [
    'uci',
    'isready',
    'ucinewgame',
    'stop',
    'ponderhit',
    'd',
    'debug on',
    'register later',
    'position startpos',
    'position startpos moves e2e4 e7e5 g1f3',
    'position fen 8/8/8/8/8/8/4k3/4K3 w - - 0 1',
    'position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1',
    'go depth 2',
    'go nodes 500',
    'go movetime 5',
    'go wtime 100 btime 100 winc 0 binc 0 movestogo 5',
    'go infinite',
    'go ponder movetime 5',
    'go perft 2',
    'go searchmoves e2e4 depth 1',
    'go mate 2',
    'setoption name Hash value 8',
    'setoption name Clear Hash',
    'setoption name MultiPV value 2',
    'setoption name Move Overhead value 10',
    'setoption name Backend value matrix',
    'setoption name Backend value bitboard',
    'setoption name Ponder value true',
    'setoption name OwnBook value false',
    'setoption name BookFile value /nonexistent/book.bin',
  ];
  const alphabet = 'abcdefgh12345678 -/KQkqwb0' + 'positonstarfemvgdhulr';
  const lines: string[] = [];
  while (lines.length < count) {
    let line = r() < 0.15 ? pick(r, seeds) : mutate(r, pick(r, seeds), seeds, alphabet);
    if (r() < 0.2 && line.startsWith('position')) line += ' moves ' + moves.slice(0, 1 + int(r, moves.length)).join(' ');
    line = line.replace(/[\r\n]/g, ' '); // a line reader never hands a line break to the loop
    const words = line.trim().split(/\s+/);
    if (words[0] === 'go' && words.includes('perft') && Number(words[words.indexOf('perft') + 1]) > 3) continue;
    if (words[0] === 'setoption' && /hash/i.test(line) && Number(words[words.length - 1]) > 64) continue;
    if (words[0] === 'quit') continue;
    lines.push(line);
  }
  return lines;
}

export interface UciFuzzReport {
  lines: number;
  /** isready checks answered with readyok. */
  readyChecks: number;
  /** Searches answered (bestmove lines) and inputs refused with a reason (info string lines). */
  bestmoves: number;
  infoStrings: number;
  /** Output lines that must never appear: stack traces, crashed threads. */
  badOutput: string[];
}

/**
 * Feeds the lines to an in-process UCI session. After every line a `stop` ends any search it
 * started (so a mutated `go infinite` does not stall the run), and every `checkEvery` lines the
 * loop must answer `isready` with `readyok` within `timeoutMs` once it is idle.
 */
export async function fuzzUciLoop(lines: readonly string[], checkEvery: number, timeoutMs: number): Promise<UciFuzzReport> {
  const output: string[] = [];
  let readyWaiter: (() => void) | undefined;
  const session = nodeUciSession((text) => {
    for (const l of text.split('\n')) {
      output.push(l);
      if (l === 'readyok') readyWaiter?.();
    }
  });
  const withTimeout = <T>(p: Promise<T>, what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`UCI loop did not answer ${what} within ${timeoutMs} ms`)), timeoutMs);
      p.then(
        (v) => {
          clearTimeout(t);
          resolve(v);
        },
        (e: unknown) => {
          clearTimeout(t);
          reject(e instanceof Error ? e : new Error(String(e)));
        },
      );
    });
  let readyChecks = 0;
  const checkReady = async (after: string): Promise<void> => {
    session.stop();
    await withTimeout(session.idle(), `(idle after '${after}')`);
    const answered = new Promise<void>((resolve) => (readyWaiter = resolve));
    session.handle('isready');
    await withTimeout(answered, `isready after '${after}'`);
    readyWaiter = undefined;
    readyChecks++;
  };
  try {
    for (let i = 0; i < lines.length; i++) {
      session.handle(lines[i]);
      session.handle('stop');
      if ((i + 1) % checkEvery === 0 || i === lines.length - 1) await checkReady(lines[i]);
    }
  } finally {
    session.close();
  }
  const badOutput = output.filter((l) => /crashed|^\s+at |Error:/.test(l) && !/^info string .*(FenError|MoveError)/.test(l));
  const count = (re: RegExp): number => output.filter((l) => re.test(l)).length;
  return { lines: lines.length, readyChecks, bestmoves: count(/^bestmove /), infoStrings: count(/^info string /), badOutput };
}
