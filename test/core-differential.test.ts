/**
 * Differential test against chess.js 1.4: seeded random playouts from the start position and
 * from positions of the perft suite, comparing at every ply the legal move set, check, mate,
 * stalemate, the draw rules, FEN and (on a subset) the SAN of every legal move.
 *
 * Like-with-like notes on chess.js semantics (read from its source):
 * - Threefold: chess.js counts every position since load() by a Zobrist key that includes the en
 *   passant square only when an enemy pawn stands beside the double-stepped pawn; ours keys the
 *   same way and counts since setup, so `repetitions() >= 2` ⇔ `isThreefoldRepetition()`. chess.js
 *   however keys a FEN's en-passant square as given, so start FENs are normalised through
 *   chess.js's fen(), which prints the square only when the capture is legal.
 * - Insufficient material: K v K, K+B or K+N v K, and any number of bishops all on one colour —
 *   the same set as ours. isDrawByFiftyMoves is `halfmove >= 100`, even when mated, so the raw
 *   predicates are compared and the reason of gameStatus is compared with chess.js's predicates
 *   taken in our priority order (mate, stalemate, material, fifty, repetition).
 * - FEN: chess.js prints the en-passant square only when an en-passant capture is legal; ours
 *   after every double step. Every other field must match exactly.
 */
import { test } from 'node:test';
import { rng, suiteFens } from './helpers.js';
import assert from 'node:assert/strict';
import { Chess, type Square } from 'chess.js';
import { Position } from '../src/core/position.js';
import { START_FEN } from '../src/core/fen.js';
import { legalMoveList, moveToSan, parseSan } from '../src/core/notation.js';
import { KIND_EN_PASSANT, moveToUci } from '../src/core/move.js';
import { gameStatus, isInsufficientMaterial, type GameEnd } from '../src/core/status.js';
import { PAWN } from '../src/core/types.js';

function chessReason(c: Chess): GameEnd | undefined {
  if (c.isCheckmate()) return 'checkmate';
  if (c.isStalemate()) return 'stalemate';
  if (c.isInsufficientMaterial()) return 'insufficient-material';
  if (c.isDrawByFiftyMoves()) return 'fifty-move';
  if (c.isThreefoldRepetition()) return 'repetition';
  return undefined;
}

interface Tally {
  positions: number;
  sanChecked: number;
  uciChecked: number;
  reasons: Map<string, number>;
  epDiffer: number;
}

/**
 * Compares everything comparable in the current position; `where` locates a failure. chess.js's
 * verbose move list (from/to/promotion) costs milliseconds, so every position compares the SAN
 * lists (which name each legal move uniquely, so equal lists mean equal move sets and equal SAN)
 * and every eighth position also the UCI move sets, parseSan(moveToSan(m)) === m and both FEN
 * round trips.
 */
function compare(pos: Position, chess: Chess, verbose: boolean, tally: Tally, where: () => string): void {
  const ours = legalMoveList(pos);
  const ourSan = ours.map((m) => moveToSan(pos, m)).sort();
  assert.deepEqual(ourSan, chess.moves().sort(), `legal moves or their SAN differ in ${where()}`);
  tally.sanChecked += ours.length;
  if (verbose) {
    const ourUci = ours.map(moveToUci).sort();
    const theirUci = chess
      .moves({ verbose: true })
      .map((m) => m.from + m.to + (m.promotion ?? ''))
      .sort();
    assert.deepEqual(ourUci, theirUci, `legal moves (UCI) differ in ${where()}`);
    for (const m of ours)
      assert.equal(parseSan(pos, moveToSan(pos, m)), m, `parseSan does not invert moveToSan for ${moveToUci(m)} in ${where()}`);
    tally.uciChecked++;
  }

  assert.equal(pos.inCheck(), chess.inCheck(), `check differs in ${where()}`);
  const status = gameStatus(pos);
  assert.equal(status.check, chess.inCheck(), `gameStatus.check differs in ${where()}`);
  assert.equal(status.legalMoves, ours.length, `gameStatus.legalMoves differs in ${where()}`);
  assert.equal(status.reason === 'checkmate', chess.isCheckmate(), `checkmate differs in ${where()}`);
  assert.equal(status.reason === 'stalemate', chess.isStalemate(), `stalemate differs in ${where()}`);
  assert.equal(isInsufficientMaterial(pos), chess.isInsufficientMaterial(), `insufficient material differs in ${where()}`);
  assert.equal(pos.halfmove >= 100, chess.isDrawByFiftyMoves(), `fifty-move differs in ${where()}`);
  assert.equal(pos.repetitions() >= 2, chess.isThreefoldRepetition(), `threefold repetition differs in ${where()}`);
  const reason = chessReason(chess);
  assert.equal(status.reason, reason, `game end reason differs in ${where()}`);
  assert.equal(status.over, reason !== undefined, `game over differs in ${where()}`);
  if (reason) tally.reasons.set(reason, (tally.reasons.get(reason) ?? 0) + 1);
  if (reason === 'checkmate') assert.equal(status.winner, chess.turn() === 'w' ? 'black' : 'white', `winner differs in ${where()}`);

  // FEN: all fields but en passant identical; en passant printed by chess.js only when legal.
  const ourFen = pos.toFen(),
    theirFen = chess.fen();
  const o = ourFen.split(' '),
    t = theirFen.split(' ');
  assert.deepEqual(
    [...o.slice(0, 3), ...o.slice(4)],
    [...t.slice(0, 3), ...t.slice(4)],
    `FEN differs: ours ${ourFen} chess.js ${theirFen}`,
  );
  const legalEp = ours.some((m) => ((m >> 15) & 3) === KIND_EN_PASSANT);
  if (legalEp || t[3] !== '-') assert.equal(o[3], t[3], `en-passant field differs: ours ${ourFen} chess.js ${theirFen}`);
  if (o[3] !== t[3]) tally.epDiffer++;
  if (verbose) {
    // Round trips: each library reads the other's FEN back to the same position.
    assert.equal(new Chess(ourFen).fen(), theirFen, `chess.js reads our FEN ${ourFen} differently`);
    const back = Position.fromFen(theirFen).toFen().split(' ');
    assert.deepEqual(
      [...back.slice(0, 3), ...back.slice(4)],
      [...t.slice(0, 3), ...t.slice(4)],
      `we read chess.js's FEN ${theirFen} differently`,
    );
  }
  tally.positions++;
}

/** A move after which the opponent has no legal move (mate or stalemate), if there is one. */
function gameEndingMove(pos: Position, moves: number[]): number | undefined {
  for (const m of moves) {
    pos.makeMove(m);
    const none = legalMoveList(pos).length === 0;
    pos.unmakeMove();
    if (none) return m;
  }
  return undefined;
}

/**
 * Plays one seeded random game on both boards. To reach repetitions often, a side replays the
 * reverse of its own previous move (when that was a quiet piece move) some of the time; to reach
 * mates and stalemates, it often plays a move that leaves the opponent without a legal move.
 */
function playout(startFen: string, plies: number, random: () => number, tally: Tally): void {
  const chess = new Chess(startFen);
  const fen = chess.fen(); // normalised en-passant square (see the header comment)
  const pos = Position.fromFen(fen);
  const played: string[] = [];
  const where = () => `${fen} after ${played.join(' ') || '(no moves)'}: ${pos.toFen()}`;
  for (let ply = 0; ; ply++) {
    compare(pos, chess, ply % 8 === 0, tally, where);
    const moves = legalMoveList(pos);
    if (ply >= plies || moves.length === 0) return;
    let move = moves[Math.floor(random() * moves.length)];
    const ending = random() < 0.5 ? gameEndingMove(pos, moves) : undefined;
    if (ending !== undefined) move = ending;
    else if (pos.ply >= 2 && random() < 0.45) {
      const prev = pos.moveAt(pos.ply - 2);
      const back = moves.find((m) => (m & 63) === ((prev >> 6) & 63) && ((m >> 6) & 63) === (prev & 63));
      if (back !== undefined && (pos.board[back & 63] & 7) !== PAWN) move = back;
    }
    const uci = moveToUci(move);
    played.push(uci);
    pos.makeMove(move);
    chess.move({ from: uci.slice(0, 2) as Square, to: uci.slice(2, 4) as Square, promotion: uci[4] });
  }
}

const ENDINGS = [
  'k7/8/2K5/8/8/8/1Q6/8 w - - 0 1', // Qb7# or Qb6 stalemate
  '7k/5K2/8/8/8/8/8/6R1 w - - 0 1', // Rh1#, or Rg7 stalemate
  '8/8/8/8/8/5k2/7p/7K b - - 0 1', // K+P v K: Kg3 stalemates
  '8/8/8/8/8/1q6/8/k1K5 b - - 0 1', // K+Q v K with black to move
];

test('random playouts agree with chess.js on moves, status, FEN and SAN', (t) => {
  const random = rng(0x5eed_c0de);
  const tally: Tally = { positions: 0, sanChecked: 0, uciChecked: 0, reasons: new Map(), epDiffer: 0 };
  const fens = suiteFens();
  // From the start position: long games that reach endgames and the draw rules.
  for (let g = 0; g < 10; g++) playout(START_FEN, 250, random, tally);
  // From a spread of suite positions, some with the halfmove clock near 100.
  for (let i = 0; i < fens.length; i += 4) {
    const fields = fens[i].split(' ');
    if (random() < 0.4) fields[4] = String(70 + Math.floor(random() * 30));
    playout(fields.join(' '), 50, random, tally);
  }
  // Bare endings where mates and stalemates are a move away, so those rules are always reached.
  for (const fen of ENDINGS) for (let g = 0; g < 3; g++) playout(fen, 30, random, tally);
  assert.ok(tally.positions >= 3000, `only ${tally.positions} positions compared`);
  assert.ok(tally.sanChecked >= 50_000, `only ${tally.sanChecked} SAN moves compared`);
  assert.ok(tally.uciChecked >= 300, `only ${tally.uciChecked} positions compared move by move in UCI`);
  // The draw and mate rules must actually have been exercised, or the comparison proves little.
  t.diagnostic(
    `compared ${tally.positions} positions, ${tally.sanChecked} SAN moves, ${tally.uciChecked} UCI move sets; ` +
      `en-passant field printed differently (legally) ${tally.epDiffer} times; game ends: ${[...tally.reasons].map(([r, n]) => `${r} ${n}`).join(', ')}`,
  );
  for (const r of ['checkmate', 'stalemate', 'insufficient-material', 'fifty-move', 'repetition']) {
    assert.ok((tally.reasons.get(r) ?? 0) > 0, `no '${r}' position was reached; reasons seen: ${[...tally.reasons].join(', ')}`);
  }
});
