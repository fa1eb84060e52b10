/**
 * Chess960: the start positions by number, X-FEN and Shredder-FEN, the castling edge cases, the
 * published 960 perft list on all three backends (a CI-sized part of it), and a seeded
 * differential test against chessops (an independent Chess960 implementation) on random 960
 * games: legal moves, SAN and FEN at every ply.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Chess } from 'chessops/chess';
import { parseFen, makeFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';
import type { Role } from 'chessops';
import { rng } from './helpers.js';
import { Position } from '../src/core/position.js';
import { START_FEN } from '../src/core/fen.js';
import { CLASSICAL_CHESS960_INDEX, chess960BackRank, chess960StartFen } from '../src/core/chess960.js';
import { legalMoveList, moveToSan, moveToUciIn, parseSan, parseUciMove } from '../src/core/notation.js';
import { KIND_CASTLE, moveFrom, moveKind, movePromo, moveTo, moveToUci } from '../src/core/move.js';
import { perft } from '../src/core/perft.js';
import { chess960SuitePath, readPerftEpd } from '../scripts/perft-files.js';
import { getBackend } from '../src/backends-node.js';
import { TYPE_LETTERS } from '../src/core/types.js';

test('start positions: 518 is the classical start, 0 is BBQNNRKR, and all 960 are distinct legal 960 arrays', () => {
  assert.equal(chess960StartFen(CLASSICAL_CHESS960_INDEX), START_FEN);
  assert.equal(chess960BackRank(0), 'BBQNNRKR');
  assert.equal(chess960BackRank(959), 'RKRNNQBB');
  const seen = new Set<string>();
  for (let n = 0; n < 960; n++) {
    const rank = chess960BackRank(n);
    seen.add(rank);
    const b = [...rank].flatMap((p, f) => (p === 'B' ? [f % 2] : []));
    assert.deepEqual(b.sort(), [0, 1], `${n} ${rank}: bishops on both colours`);
    assert.match(rank, /^[^K]*R[^K]*K[^K]*R[^K]*$/, `${n} ${rank}: king between the rooks`);
    const pos = Position.fromFen(chess960StartFen(n));
    assert.equal(pos.toFen(), chess960StartFen(n), `${n}: X-FEN KQkq round trip`);
  }
  assert.equal(seen.size, 960);
  assert.throws(() => chess960BackRank(960), /0 to 959, got 960/);
});

test('X-FEN and Shredder-FEN: read both, write X-FEN (file letters only when the rook is not the outermost) or Shredder', () => {
  const fen = 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9';
  const pos = Position.fromFen(fen);
  assert.equal(pos.toFen(), 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9');
  assert.equal(pos.toFen(true), fen);
  assert.equal(Position.fromFen(pos.toFen()).toFen(true), fen);
  assert.equal(Position.startpos().toFen(true), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1');
  // Two rooks on the king's h-side: the inner one's right needs its file letter in X-FEN.
  const inner = Position.fromFen('4k3/8/8/8/8/8/8/1K3R1R w F - 0 1');
  assert.equal(inner.toFen(), '4k3/8/8/8/8/8/8/1K3R1R w F - 0 1');
  assert.equal(inner.castleRook[0], 5);
  const outer = Position.fromFen('4k3/8/8/8/8/8/8/1K3R1R w K - 0 1');
  assert.equal(outer.castleRook[0], 7);
  assert.equal(outer.toFen(true), '4k3/8/8/8/8/8/8/1K3R1R w H - 0 1');
});

/** Castle moves of a position as UCI_Chess960 text. */
const castles = (fen: string): string[] => {
  const pos = Position.fromFen(fen);
  return legalMoveList(pos)
    .filter((m) => moveKind(m) === KIND_CASTLE)
    .map((m) => moveToUciIn(pos, m, true))
    .sort();
};

test('castling edge cases: king or rook already on its target, the pieces swapping, the rook that shields the king', () => {
  // King on g1, rook on h1: O-O moves only the rook; FEN, SAN and unmake must survive it.
  const still = Position.fromFen('4k3/8/8/8/8/8/8/6KR w K - 0 1');
  const oo = parseUciMove(still, 'g1h1', true);
  assert.equal(moveToSan(still, oo), 'O-O');
  assert.equal(moveFrom(oo), moveTo(oo));
  still.makeMove(oo);
  assert.equal(still.toFen(), '4k3/8/8/8/8/8/8/5RK1 b - - 1 1');
  still.unmakeMove();
  assert.equal(still.toFen(), '4k3/8/8/8/8/8/8/6KR w K - 0 1');
  // King f1, rook g1: they swap squares.
  const swap = Position.fromFen('4k3/8/8/8/8/8/8/5KR1 w K - 0 1');
  swap.makeMove(parseSan(swap, 'O-O'));
  assert.equal(swap.toFen(), '4k3/8/8/8/8/8/8/5RK1 b - - 1 1');
  // Rook already on its target (d1, f1), the king passing over it to c1 / g1.
  assert.deepEqual(castles('4k3/8/8/8/8/8/8/3RK3 w Q - 0 1'), ['e1d1']);
  assert.deepEqual(castles('4k3/8/8/8/8/8/8/1K3R2 w K - 0 1'), ['b1f1']);
  const q = Position.fromFen('4k3/8/8/8/8/8/8/3RK3 w Q - 0 1');
  assert.equal(moveToSan(q, parseUciMove(q, 'e1d1', true)), 'O-O-O');
  // King b1 → c1 is O-O-O although the king moves towards the h-side.
  const b = Position.fromFen('4k3/8/8/8/8/8/8/RK6 w Q - 0 1');
  assert.equal(moveToSan(b, parseUciMove(b, 'b1a1', true)), 'O-O-O');
  b.makeMove(parseUciMove(b, 'b1a1', true));
  assert.equal(b.toFen(), '4k3/8/8/8/8/8/8/2KR4 b - - 1 1');
  // The castling rook on b1 shields c1 from the queen on a1: after O-O-O the king would be in check.
  assert.deepEqual(castles('4k3/8/8/8/8/8/8/qR2K3 w Q - 0 1'), []);
  assert.deepEqual(castles('4k3/8/8/8/8/8/8/1R2K3 w Q - 0 1'), ['e1b1']);
  // King already on c1, castling rook b1 shielding it: the rook's move would expose it.
  assert.deepEqual(castles('4k3/8/8/8/8/8/8/qRK5 w Q - 0 1'), []);
  assert.deepEqual(castles('4k3/8/8/8/8/8/8/1RK5 w Q - 0 1'), ['c1b1']);
  // O-O-O moves the rook b1 → d1 onto the king's square while the king goes d1 → c1: the castling
  // rook's own square may be attacked (the b8 rook hits b1), only the king's squares must not be.
  assert.deepEqual(castles('1r2k3/8/8/8/8/8/8/1R1K3R w KQ - 0 1'), ['d1b1', 'd1h1']);
  // A piece between the rook and its target blocks, even where the king does not pass.
  assert.deepEqual(castles('4k3/8/8/8/8/8/8/RNK5 w Q - 0 1'), []);
  // Standard notation: e1g1, and king-takes-rook is accepted too.
  const classical = Position.fromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  assert.equal(moveToUci(parseUciMove(classical, 'e1h1')), 'e1g1');
  assert.equal(moveToUciIn(classical, parseUciMove(classical, 'e1g1'), true), 'e1h1');
  assert.throws(() => parseUciMove(classical, 'e1g1', true), /illegal move 'e1g1'/);
});

test('the published Chess960 perft list (a CI-sized part): bitboard, matrix and BNN backends agree with it', async () => {
  const cases = readPerftEpd(chess960SuitePath());
  assert.equal(cases.length, 960);
  const runs: [string, number, number][] = [
    ['bitboard', 4, 3],
    ['matrix', 12, 3],
    ['bnn', 24, 2],
  ];
  for (const [name, every, depth] of runs) {
    const gen = await getBackend(name);
    let checked = 0;
    for (let i = 0; i < cases.length; i += every) {
      const c = cases[i];
      assert.equal(perft(Position.fromFen(c.fen), depth, gen), c.counts.get(depth), `${name} #${c.index} ${c.fen} depth ${depth}`);
      checked++;
    }
    assert.ok(checked >= 40, `${name}: ${checked} positions`);
  }
  // The list's first position to depth 4 on every backend.
  for (const name of ['bitboard', 'matrix', 'bnn']) {
    assert.equal(perft(Position.fromFen(cases[0].fen), 4, await getBackend(name)), 326672, name);
  }
});

const ROLES: Record<string, Role> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };
/** Everything but the en-passant field (chessops prints it only when a capture is legal, we after every double step). */
const noEp = (fen: string): string =>
  fen
    .split(' ')
    .filter((_, i) => i !== 3)
    .join(' ');

test('differential against chessops: random Chess960 games agree on legal moves, SAN and FEN', () => {
  const random = rng(960);
  let positions = 0,
    castlesSeen = 0;
  for (let game = 0; game < 60; game++) {
    const n = Math.floor(random() * 960);
    const pos = Position.fromFen(chess960StartFen(n));
    const theirs = Chess.fromSetup(parseFen(pos.toFen()).unwrap()).unwrap();
    for (let ply = 0; ply < 50; ply++) {
      const where = `start ${n}, ply ${ply}: ${pos.toFen()}`;
      positions++;
      assert.equal(noEp(makeFen(theirs.toSetup())), noEp(pos.toFen()), where);
      const back = Position.fromFen(makeFen(theirs.toSetup()));
      assert.equal(noEp(back.toFen(true)), noEp(pos.toFen(true)), `${where}: reading chessops' FEN`);
      const ours = legalMoveList(pos);
      const mine = ours.map((m) => moveToUciIn(pos, m, true)).sort();
      const theirMoves: string[] = [];
      for (const [from, dests] of theirs.allDests()) {
        for (const to of dests) {
          const text = 'abcdefgh'[from & 7] + ((from >> 3) + 1) + 'abcdefgh'[to & 7] + ((to >> 3) + 1);
          const promo = theirs.board.get(from)?.role === 'pawn' && (to >> 3 === 7 || to >> 3 === 0);
          if (promo) for (const p of 'qrbn') theirMoves.push(text + p);
          else theirMoves.push(text);
        }
      }
      assert.deepEqual(mine, theirMoves.sort(), `${where}: legal moves`);
      const toMove = (m: number) => ({
        from: moveFrom(m),
        to: moveKind(m) === KIND_CASTLE ? pos.castleRookFrom(m) : moveTo(m),
        promotion: movePromo(m) ? ROLES[TYPE_LETTERS[movePromo(m)]] : undefined,
      });
      for (const m of ours) assert.equal(moveToSan(pos, m), makeSan(theirs, toMove(m)), `${where}: SAN of ${moveToUciIn(pos, m, true)}`);
      if (ours.length === 0) break;
      const castleMoves = ours.filter((m) => moveKind(m) === KIND_CASTLE);
      const m = castleMoves.length > 0 && random() < 0.5 ? castleMoves[0] : ours[Math.floor(random() * ours.length)];
      if (moveKind(m) === KIND_CASTLE) castlesSeen++;
      theirs.play(toMove(m));
      pos.makeMove(m);
    }
  }
  assert.ok(positions >= 2000, `${positions} positions`);
  assert.ok(castlesSeen >= 50, `${castlesSeen} castles played`);
});
