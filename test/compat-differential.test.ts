/**
 * matrix-chess/compat against chess.js 1.4 (test/compat-compare.ts does the comparing): seeded
 * random games from the start and from the perft suite compared method by method at every ply,
 * random board edits, good and corrupted FENs through validateFen and load, every legal move
 * written every way through move(), and comments and headers. Any difference that is not one of
 * docs/coming-from-chess-js.md's documented ones fails; the documented ones met are counted and
 * each is checked to be what the document says. bench/compat-bench.ts runs the same on 10,000+
 * games.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rng, suiteFens } from './helpers.js';
import {
  compareFen,
  compareMoveInputs,
  corruptFen,
  differentialAnnotations,
  differentialEdits,
  differentialGame,
  differentialPgn,
  newTally,
  type Tally,
} from './compat-compare.js';
import { Chess } from '../src/compat/index.js';
import { START_FEN } from '../src/core/fen.js';

function report(t: { diagnostic(message: string): void }, tally: Tally, cpu0: NodeJS.CpuUsage): void {
  const list = (m: Map<string, number>) => [...m].map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  const cpu = process.cpuUsage(cpu0);
  t.diagnostic(
    `${tally.games} games, ${tally.plies} positions, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s of CPU; compared: ${list(tally.calls)}; ` +
      `game ends agreed: ${list(tally.ends)}; documented differences met: ${list(tally.documented)}`,
  );
}

/** Bare endings a move from mate or stalemate, so those rules are always reached. */
const ENDINGS = [
  'k7/8/2K5/8/8/8/1Q6/8 w - - 0 1',
  '7k/5K2/8/8/8/8/8/6R1 w - - 0 1',
  '8/8/8/8/8/5k2/7p/7K b - - 0 1',
  '8/8/8/8/8/1q6/8/k1K5 b - - 0 1',
];

/** Positions where move text is most varied: promotions with and without capture, both castles, en passant, three queens, knights on one file, a b-pawn capture. */
const MOVE_INPUT_FENS = [
  'r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1',
  'r3k2r/1P4P1/8/8/3pP3/8/1p4p1/R3K2R b KQkq e3 0 1',
  '7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1',
  '3N4/6K1/3N4/8/8/8/k7/8 w - - 1 20',
  '7k/8/8/p7/1P6/8/8/7K w - - 0 1',
];

/** FENs met along a few random games, to edit and corrupt. */
function sampleFens(random: () => number, games: number): string[] {
  const fens: string[] = [];
  for (let g = 0; g < games; g++) {
    const c = new Chess(suiteFens()[Math.floor(random() * 60)]);
    for (let ply = 0; ply < 40; ply++) {
      const moves = c.moves();
      if (moves.length === 0) break;
      c.move(moves[Math.floor(random() * moves.length)]);
      if (random() < 0.3) fens.push(c.fen());
    }
  }
  return fens;
}

test('random games: every method agrees with chess.js at every ply', (t) => {
  const cpu0 = process.cpuUsage();
  const random = rng(0xc0_ffee);
  const tally = newTally();
  const schedule = { status: 3, detail: 8, squares: 16, history: 10, verboseHistory: 30 };
  // A quarter of the games pass the turn now and then (setTurn, move(null)): after that chess.js's
  // repetition counts go wrong (documented), so the other games keep threefold compared throughout.
  for (let g = 0; g < 200; g++) differentialGame(START_FEN, random, { maxPlies: 50, schedule, passTurns: g % 4 === 0 }, tally);
  const fens = suiteFens();
  for (let i = 0; i < fens.length; i += 2) {
    const fields = fens[i].split(' ');
    if (random() < 0.3) fields[4] = String(80 + Math.floor(random() * 20)); // near the fifty-move rule
    differentialGame(fields.join(' '), random, { maxPlies: 30, schedule, passTurns: false }, tally);
  }
  for (const fen of ENDINGS) for (let g = 0; g < 4; g++) differentialGame(fen, random, { maxPlies: 30, schedule, passTurns: false }, tally);
  report(t, tally, cpu0);
  assert.ok(tally.games >= 250 && tally.plies >= 10_000, `only ${tally.games} games, ${tally.plies} positions`);
  for (const end of ['checkmate', 'stalemate', 'insufficient material', 'fifty moves', 'threefold repetition'])
    assert.ok((tally.ends.get(end) ?? 0) > 0, `no position with ${end} was compared`);
});

test('board edits: put, remove, clear, setTurn, setCastlingRights, load agree with chess.js', (t) => {
  const cpu0 = process.cpuUsage();
  const random = rng(0xed17);
  const tally = newTally();
  for (const fen of [START_FEN, ...sampleFens(random, 12)]) differentialEdits(fen, random, 30, tally);
  report(t, tally, cpu0);
  assert.ok((tally.calls.get('edit') ?? 0) >= 1000);
});

test('validateFen and load agree with chess.js on good and corrupted FENs', (t) => {
  const cpu0 = process.cpuUsage();
  const random = rng(0xfe7);
  const tally = newTally();
  const fens = [START_FEN, ...suiteFens(), ...sampleFens(random, 20)];
  for (const fen of fens) {
    compareFen(fen, tally);
    for (let k = 0; k < 12; k++) compareFen(corruptFen(fen, random), tally);
  }
  report(t, tally, cpu0);
  assert.ok((tally.calls.get('validateFen, load') ?? 0) >= 1500);
});

test('move(): every legal move written every way, permissive and strict, as chess.js reads it', (t) => {
  const cpu0 = process.cpuUsage();
  const tally = newTally();
  const fens = suiteFens();
  for (let i = 0; i < fens.length; i += 32) compareMoveInputs(fens[i], tally);
  for (const fen of MOVE_INPUT_FENS) compareMoveInputs(fen, tally);
  report(t, tally, cpu0);
  assert.ok((tally.calls.get('move(input)') ?? 0) >= 8000);
});

test('comments and headers agree with chess.js', (t) => {
  const cpu0 = process.cpuUsage();
  const tally = newTally();
  differentialAnnotations(rng(0xc033), 3000, tally);
  report(t, tally, cpu0);
});

test("pgn() and loadPgn() agree with chess.js both ways: our text and chess.js's, plain, wrapped, strict, with an illegal move, with variations", (t) => {
  const cpu0 = process.cpuUsage();
  const tally = newTally();
  differentialPgn(rng(0x9e4), 200, suiteFens(), tally);
  report(t, tally, cpu0);
  assert.ok((tally.calls.get('pgn') ?? 0) >= 200 && (tally.calls.get('loadPgn') ?? 0) >= 500);
  for (const d of ['pgn: Black move number after a comment', 'pgn: 1... at a Black start', 'pgn: escaped tag value'])
    assert.ok((tally.documented.get(d) ?? 0) > 0, `${d} never met`);
});
