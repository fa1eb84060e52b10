/**
 * The position's own invariants: incremental Zobrist key equals the recomputed one, make/unmake
 * (and null moves) restore the exact state, FEN round trips, every class of FEN and UCI-move
 * error is reported with its field and a specific message, and the game-status rules.
 */
import { test } from 'node:test';
import { rng, suiteFens } from './helpers.js';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { FenError, START_FEN, type FenField } from '../src/core/fen.js';
import { MoveError, legalMoveList, parseSan, parseUciMove } from '../src/core/notation.js';
import { moveToUci } from '../src/core/move.js';
import { gameStatus, type GameEnd } from '../src/core/status.js';
import { NO_SQUARE, PAWN, WHITE, makePiece } from '../src/core/types.js';
import { CHESS960_POSITIONS, chess960StartFen } from '../src/core/chess960.js';

/** Everything make/unmake must restore, copied. */
function snapshot(pos: Position) {
  return {
    fen: pos.toFen(),
    board: Array.from(pos.board),
    pieceLo: Array.from(pos.pieceLo),
    pieceHi: Array.from(pos.pieceHi),
    colorLo: Array.from(pos.colorLo),
    colorHi: Array.from(pos.colorHi),
    kingSq: Array.from(pos.kingSq),
    side: pos.side,
    castling: pos.castling,
    ep: pos.ep,
    halfmove: pos.halfmove,
    fullmove: pos.fullmove,
    hashLo: pos.hashLo,
    hashHi: pos.hashHi,
    ply: pos.ply,
    repetitions: pos.repetitions(),
  };
}

function assertHashConsistent(pos: Position, where: string): void {
  const [lo, hi] = pos.computeHash();
  assert.deepEqual([pos.hashLo, pos.hashHi], [lo, hi], `incremental key differs from computeHash() ${where}`);
}

test('make/unmake and null moves keep the key incremental and restore the exact state', () => {
  const random = rng(20261129);
  const starts = [START_FEN, ...suiteFens().filter((_, i) => i % 6 === 0)];
  let checkedMoves = 0,
    nullMoves = 0;
  for (const fen of starts) {
    const pos = Position.fromFen(fen);
    const history: Array<{ snap: ReturnType<typeof snapshot>; isNull: boolean }> = [];
    for (let ply = 0; ply < 120; ply++) {
      const here = `at ply ${ply} from ${fen} (${pos.toFen()})`;
      assertHashConsistent(pos, here);
      const before = snapshot(pos);
      const moves = legalMoveList(pos);
      // Every legal move: make, verify the key, unmake, verify nothing changed.
      for (const m of moves) {
        pos.makeMove(m);
        assertHashConsistent(pos, `after ${moveToUci(m)} ${here}`);
        pos.unmakeMove();
        assert.deepEqual(snapshot(pos), before, `unmaking ${moveToUci(m)} did not restore the state ${here}`);
        checkedMoves++;
      }
      if (moves.length === 0) break;
      // Null moves, and often right after a double step, where the en-passant key must go.
      const isNull = !pos.inCheck() && random() < (pos.ep !== NO_SQUARE ? 0.5 : 0.1);
      history.push({ snap: before, isNull });
      if (isNull) {
        pos.makeNullMove();
        assertHashConsistent(pos, `after a null move ${here}`);
        assert.equal(pos.side, before.side ^ 1);
        nullMoves++;
      } else {
        pos.makeMove(moves[Math.floor(random() * moves.length)]);
      }
    }
    // Unwind the whole game, checking each earlier state on the way back.
    while (history.length > 0) {
      const { snap, isNull } = history.pop()!;
      if (isNull) pos.unmakeNullMove();
      else pos.unmakeMove();
      assert.deepEqual(snapshot(pos), snap, `unwinding to ply ${history.length} from ${fen}`);
    }
    assert.equal(pos.toFen(), Position.fromFen(fen).toFen());
  }
  assert.ok(checkedMoves > 20_000, `only ${checkedMoves} moves were made and unmade`);
  assert.ok(nullMoves > 50, `only ${nullMoves} null moves`);
});

test('Chess960: the key tells castling rooks apart, and the incremental key equals a fresh parse of the same position', () => {
  // The same board and the same right bit, castling with the f1 rook in one and the h1 rook in the other.
  const withF = Position.fromFen('4k3/8/8/8/8/8/8/1K3R1R w F - 0 1');
  const withH = Position.fromFen('4k3/8/8/8/8/8/8/1K3R1R w H - 0 1');
  assert.notDeepEqual([withF.hashLo, withF.hashHi], [withH.hashLo, withH.hashHi]);
  // Rooks in their corners keep the standard keys.
  assert.deepEqual(
    [Position.fromFen('r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1').hashLo],
    [Position.fromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1').hashLo],
  );
  const random = rng(960);
  let checked = 0;
  for (let n = 0; n < CHESS960_POSITIONS; n += 37) {
    const pos = Position.fromFen(chess960StartFen(n));
    for (let ply = 0; ply < 60; ply++) {
      const moves = legalMoveList(pos);
      if (moves.length === 0) break;
      pos.makeMove(moves[Math.floor(random() * moves.length)]);
      assertHashConsistent(pos, `at ply ${ply} of Chess960 position ${n}`);
      // X-FEN names each castling rook, so a fresh parse must reach the same key.
      const fresh = Position.fromFen(pos.toFen());
      assert.deepEqual([fresh.hashLo, fresh.hashHi], [pos.hashLo, pos.hashHi], `re-parsed ${pos.toFen()} (position ${n})`);
      checked++;
    }
  }
  assert.ok(checked > 1000, `only ${checked} positions`);
});

test('a null move after a double step drops the en-passant square from the key and restores it', () => {
  const fen = 'rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1';
  const pos = Position.fromFen(fen);
  const before = snapshot(pos);
  pos.makeNullMove();
  assert.equal(pos.ep, NO_SQUARE);
  assertHashConsistent(pos, 'after the null move');
  assert.equal(pos.toFen(), 'rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 1');
  pos.makeNullMove();
  assertHashConsistent(pos, 'after two null moves');
  assert.notDeepEqual([pos.hashLo, pos.hashHi], [before.hashLo, before.hashHi], 'the en-passant right is gone');
  pos.unmakeNullMove();
  pos.unmakeNullMove();
  assert.deepEqual(snapshot(pos), before);
});

test('a transposition reaches the same key as the direct route', () => {
  const a = Position.startpos(),
    b = Position.startpos();
  for (const s of ['Nf3', 'Nf6', 'Nc3', 'Nc6']) a.makeMove(parseSan(a, s));
  for (const s of ['Nc3', 'Nc6', 'Nf3', 'Nf6']) b.makeMove(parseSan(b, s));
  assert.deepEqual([a.hashLo, a.hashHi], [b.hashLo, b.hashHi]);
  // …and a different side to move, castling right or en-passant capture changes it.
  const keyOf = (fen: string) => {
    const p = Position.fromFen(fen);
    return `${p.hashLo},${p.hashHi}`;
  };
  const keys = new Set(
    [
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1',
      'rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1',
      'rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
    ].map(keyOf),
  );
  assert.equal(keys.size, 5);
  // An en-passant square no pawn can use is not part of the key (the positions repeat).
  assert.equal(
    keyOf('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1'),
    keyOf('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'),
  );
});

test('FEN round trips for the start position and every suite position', () => {
  for (const fen of [START_FEN, ...suiteFens()]) {
    assert.equal(Position.fromFen(fen).toFen(), fen);
    assert.equal(Position.fromFen(`  ${fen.replace(/ /g, '   ')} `).toFen(), fen, 'extra whitespace is accepted');
  }
  // The clocks may be omitted; they default to 0 and 1.
  assert.equal(Position.fromFen('4k3/8/8/8/8/8/8/4K3 b - -').toFen(), '4k3/8/8/8/8/8/8/4K3 b - - 0 1');
  assert.equal(Position.fromFen('4k3/8/8/8/8/8/8/4K3 w - - 7').toFen(), '4k3/8/8/8/8/8/8/4K3 w - - 7 1');
});

const FEN_ERRORS: Array<[string, string, FenField, RegExp]> = [
  ['too few fields', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq', 'fen', /expected 6 space-separated fields.*got 3/],
  ['too many fields', `${START_FEN} 7`, 'fen', /expected 6 space-separated fields.*got 7/],
  ['empty text', '   ', 'fen', /got 0/],
  ['seven ranks', 'rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'placement', /expected 8 ranks.*got 7/],
  ['bad piece letter', 'rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'placement', /bad piece letter 'x' in rank 7/],
  ['digit 9', 'rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'placement', /bad piece letter '9' in rank 6/],
  ['rank too long (pieces)', 'rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'placement', /rank 8 .* too long/],
  ['rank too long (digits)', 'rnbqkbnr/pppppppp/8/44p/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'placement', /rank 5 .* too long/],
  ['rank too long (digit overflow)', 'rnbqkbnr/pppppppp/8/8/8/54/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'placement', /rank 3 .* too long/],
  ['rank too short', 'rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'placement', /rank 7 .* too short: 7 squares/],
  ['empty rank', 'rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'placement', /rank 6 .* too short: 0 squares/],
  ['bad side', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', 'side', /expected 'w' or 'b', got 'x'/],
  ['castling letters', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1', 'castling', /subset of 'KQkq', got 'KQkx'/],
  ['castling repeated', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKq - 0 1', 'castling', /got 'KKq'/],
  [
    'castling without rook',
    'rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    'castling',
    /right 'k' needs a black rook on the h-side of the king on e8/,
  ],
  [
    'castling with king off its first rank',
    'rnbqkbnr/pppppppp/8/8/8/5K2/PPPPPPPP/RNBQ1BNR w KQkq - 0 1',
    'castling',
    /right 'K' needs the white king on rank 1/,
  ],
  [
    'castling file without a rook',
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Gkq - 0 1',
    'castling',
    /right 'G' needs a white rook on g1 beside the king on e1/,
  ],
  [
    'castling wing given twice',
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KHkq - 0 1',
    'castling',
    /right 'H' repeats white's king-side right, got 'KHkq'/,
  ],
  [
    'en passant not a square',
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1',
    'enPassant',
    /expected '-' or a square like e3, got 'e9'/,
  ],
  [
    'en passant on the wrong rank',
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1',
    'enPassant',
    /e6 is impossible with black to move \(must be on rank 3\)/,
  ],
  [
    'en passant without the pawn',
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1',
    'enPassant',
    /no pawn that just moved two squares on e4/,
  ],
  [
    'en passant with the origin occupied',
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPPBPPP/RNBQK1NR b KQkq e3 0 1',
    'enPassant',
    /e3 and e2 must be empty/,
  ],
  ['no black king', 'rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1', 'position', /black has no king/],
  ['no white king', '4k3/8/8/8/8/8/8/8 w - - 0 1', 'position', /white has no king/],
  ['two white kings', '4k3/8/8/8/8/8/8/3KK3 w - - 0 1', 'position', /white has 2 kings/],
  ['two black kings', '3kk3/8/8/8/8/8/8/4K3 w - - 0 1', 'position', /black has 2 kings/],
  ['side not to move in check', '4k3/8/8/8/8/8/8/4R1K1 w - - 0 1', 'position', /side not to move \(black\) is in check/],
  ['white in check with black to move', '4k3/8/8/8/8/3n4/8/4K3 b - - 0 1', 'position', /side not to move \(white\) is in check/],
  ['pawn on the last rank', '4k2P/8/8/8/8/8/8/4K3 w - - 0 1', 'position', /pawn on rank 8 \(h8\)/],
  ['pawn on the first rank', '4k3/8/8/8/8/8/8/p3K3 w - - 0 1', 'position', /pawn on rank 1 \(a1\)/],
  ['negative halfmove', '4k3/8/8/8/8/8/8/4K3 w - - -1 1', 'halfmove', /whole number from 0 to 1000000, got '-1'/],
  ['halfmove not a number', '4k3/8/8/8/8/8/8/4K3 w - - x 1', 'halfmove', /got 'x'/],
  ['fullmove zero', '4k3/8/8/8/8/8/8/4K3 w - - 0 0', 'fullmove', /whole number from 1 to 1000000, got '0'/],
  ['fullmove fraction', '4k3/8/8/8/8/8/8/4K3 w - - 0 1.5', 'fullmove', /got '1.5'/],
];

test('every class of FEN error names its field with a specific one-line message', async (t) => {
  for (const [what, fen, field, message] of FEN_ERRORS) {
    await t.test(what, () => {
      assert.throws(
        () => Position.fromFen(fen),
        (e: unknown) => {
          assert.ok(e instanceof FenError, `expected a FenError, got ${String(e)}`);
          assert.equal(e.name, 'FenError');
          assert.equal(e.field, field, `field for ${fen}: ${e.message}`);
          assert.match(e.message, message);
          assert.match(e.message, new RegExp(`^invalid FEN \\(${field}\\): `));
          assert.ok(!e.message.includes('\n'), 'one line');
          return true;
        },
      );
    });
  }
  // Not a string at all (callers from plain JavaScript).
  assert.throws(
    () => Position.fromFen(42 as unknown as string),
    (e: unknown) => e instanceof FenError && e.field === 'fen',
  );
});

test('a rejected FEN leaves the position unchanged', () => {
  const pos = Position.startpos();
  pos.makeMove(parseUciMove(pos, 'e2e4'));
  const before = snapshot(pos);
  for (const [, fen] of FEN_ERRORS) {
    assert.throws(() => pos.setFen(fen), FenError);
    assert.deepEqual(snapshot(pos), before, `setFen('${fen}') changed the position`);
  }
});

test('parseUciMove accepts legal moves and explains every kind of bad one', () => {
  const start = Position.startpos();
  assert.equal(moveToUci(parseUciMove(start, 'e2e4')), 'e2e4');
  assert.equal(moveToUci(parseUciMove(start, ' g1f3 ')), 'g1f3');
  const castle = Position.fromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  assert.equal(moveToUci(parseUciMove(castle, 'e1c1')), 'e1c1');
  const promo = Position.fromFen('8/P3k3/8/8/8/8/8/4K3 w - - 0 1');
  assert.equal(moveToUci(parseUciMove(promo, 'a7a8n')), 'a7a8n');

  const cases: Array<[Position, string, RegExp]> = [
    [start, 'e2e9', /malformed move 'e2e9': expected UCI notation like e2e4 or e7e8q/],
    [start, 'hello', /malformed move 'hello'/],
    [start, '', /malformed move ''/],
    [start, 'E2E4', /malformed move 'E2E4'/],
    [start, 'e2e4k', /malformed move 'e2e4k'/],
    [start, 'e3e4', /illegal move 'e3e4': no piece on e3/],
    [start, 'e7e5', /illegal move 'e7e5': the piece on e7 is not white's/],
    [start, 'e2e5', /illegal move 'e2e5' in this position$/],
    [start, 'e1g1', /illegal move 'e1g1' in this position$/],
    [promo, 'a7a8', /illegal move 'a7a8': a promotion needs a piece letter, e.g. a7a8q/],
    [Position.fromFen('4k3/8/8/8/8/8/4r3/4K3 w - - 0 1'), 'e1d2', /illegal move 'e1d2' in this position \(the king is in check\)/],
    [Position.fromFen('4k3/8/8/8/8/8/4r3/4K3 w - - 0 1'), 'e1e2q', /illegal move 'e1e2q'/],
  ];
  for (const [pos, text, message] of cases) {
    const fen = pos.toFen();
    assert.throws(
      () => parseUciMove(pos, text),
      (e: unknown) => {
        assert.ok(e instanceof MoveError, `expected a MoveError for '${text}', got ${String(e)}`);
        assert.equal(e.name, 'MoveError');
        assert.equal(e.move, text.trim());
        assert.match(e.message, message);
        return true;
      },
    );
    assert.equal(pos.toFen(), fen, 'a rejected move leaves the position unchanged');
  }
});

function play(fen: string, moves: string[]): Position {
  const pos = Position.fromFen(fen);
  for (const s of moves) pos.makeMove(parseSan(pos, s));
  return pos;
}

function assertStatus(pos: Position, reason: GameEnd | undefined, extra: { winner?: 'white' | 'black'; check?: boolean } = {}): void {
  const s = gameStatus(pos);
  assert.equal(s.reason, reason, `status of ${pos.toFen()}`);
  assert.equal(s.over, reason !== undefined, `over for ${pos.toFen()}`);
  assert.equal(s.legalMoves, legalMoveList(pos).length);
  if (extra.winner !== undefined || reason === 'checkmate') assert.equal(s.winner, extra.winner);
  else assert.equal(s.winner, undefined);
  if (extra.check !== undefined) assert.equal(s.check, extra.check);
}

test('game status: checkmate, stalemate and check', () => {
  assertStatus(Position.startpos(), undefined, { check: false });
  assertStatus(play(START_FEN, ['f3', 'e5', 'g4', 'Qh4']), 'checkmate', { winner: 'black', check: true });
  assertStatus(play(START_FEN, ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'Qxf7']), 'checkmate', { winner: 'white', check: true });
  assertStatus(Position.fromFen('k7/8/1Q6/8/8/8/8/7K b - - 0 1'), 'stalemate', { check: false });
  assertStatus(Position.fromFen('k7/8/1Q6/8/8/8/8/7K w - - 0 1'), undefined, { check: false });
  assertStatus(Position.fromFen('k7/1Q6/8/8/8/8/8/7K b - - 0 1'), undefined, { check: true }); // Kxb7
  assertStatus(play(START_FEN, ['e4', 'f5', 'Qh5']), undefined, { check: true });
});

test('game status: the fifty-move rule at halfmove 100, after mate takes precedence', () => {
  const quiet = '4k3/8/8/8/8/8/8/R3K3 w - - 99 80';
  assertStatus(Position.fromFen(quiet), undefined);
  assertStatus(play(quiet, ['Ra2']), 'fifty-move');
  assertStatus(Position.fromFen('4k3/8/8/8/8/8/8/R3K3 b - - 100 80'), 'fifty-move');
  assertStatus(play(quiet, ['Ra2', 'Kd7', 'Rd2']), 'fifty-move');
  // A capture or a pawn move resets the clock.
  assertStatus(play('4k3/8/8/8/8/8/4p3/R3K3 w - - 99 80', ['Kxe2']), undefined);
  assertStatus(play('4k3/4p3/8/8/8/8/8/R3K3 b - - 99 80', ['e5']), undefined);
  // Mate delivered on the hundredth half-move is mate (FIDE 9.3).
  assertStatus(play('k7/8/1K6/8/8/8/8/7R w - - 99 80', ['Rh8']), 'checkmate', { winner: 'white' });
});

test('game status: threefold repetition counts positions since setup with the same side to move', () => {
  const dance = ['Nf3', 'Nf6', 'Ng1', 'Ng8'];
  const pos = Position.startpos();
  const seen: Array<GameEnd | undefined> = [];
  for (const s of [...dance, ...dance]) {
    pos.makeMove(parseSan(pos, s));
    seen.push(gameStatus(pos).reason);
  }
  // The start position occurs for the third time after the eighth ply, and not before.
  assert.deepEqual(seen, [undefined, undefined, undefined, undefined, undefined, undefined, undefined, 'repetition']);
  assert.equal(pos.repetitions(), 2);
  pos.unmakeMove();
  assertStatus(pos, undefined);
  // Same placement but different castling rights is a different position.
  const rights = play('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', ['Ke2', 'Ke7', 'Ke1', 'Ke8', 'Ke2', 'Ke7', 'Ke1', 'Ke8']);
  assertStatus(rights, undefined);
  const after = play('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', [
    'Ke2',
    'Ke7',
    'Ke1',
    'Ke8',
    'Ke2',
    'Ke7',
    'Ke1',
    'Ke8',
    'Ke2',
    'Ke7',
    'Ke1',
    'Ke8',
  ]);
  assertStatus(after, 'repetition');
});

test('game status: insufficient material', () => {
  const draw = [
    '4k3/8/8/8/8/8/8/4K3 w - - 0 1', // K v K
    '4k3/8/8/8/8/8/8/2B1K3 w - - 0 1', // KB v K
    '4k3/8/8/8/8/8/8/1N2K3 b - - 0 1', // KN v K
    '4kn2/8/8/8/8/8/8/4K3 w - - 0 1', // K v KN
    '4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1', // KB v KB, both bishops on dark squares (c1, f8)
    '4k3/8/8/8/8/8/3B4/2B1K3 w - - 0 1', // two white bishops on dark squares only (c1, d2)
  ];
  const play_on = [
    '2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1', // KB v KB, opposite colours (c1 dark, c8 light)
    '4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1', // KNN v K (mate possible with help)
    '4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1', // KBN v K
    '4kn2/8/8/8/8/8/8/2B1K3 w - - 0 1', // KB v KN
    '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1', // KP v K
    '4k3/8/8/8/8/8/8/R3K3 w - - 0 1', // KR v K
    '4k3/8/8/8/8/8/8/3QK3 w - - 0 1', // KQ v K
  ];
  for (const fen of draw) assertStatus(Position.fromFen(fen), 'insufficient-material');
  for (const fen of play_on) assertStatus(Position.fromFen(fen), undefined);
});

// The key includes the en-passant square only when the capture is legal: here dxe6 would expose
// the king on a5 to the rook on h5, so by FIDE 9.2.3 the position after e5 is the same as the
// later ones and this is a threefold repetition. (chess.js keys the square whenever a pawn
// attacks it, so it misses this repetition.)
test('threefold repetition ignores an en-passant square whose capture is illegal (FIDE 9.2.3)', () => {
  const pos = play('4k3/4p3/8/K2P3r/8/8/8/8 b - - 0 1', ['e5', 'Ka4', 'Kd8', 'Ka5', 'Ke8', 'Ka4', 'Kd8', 'Ka5', 'Ke8']);
  assertStatus(pos, 'repetition');
});

test('clone copies the whole state and the history, and is independent of the original', () => {
  const pos = Position.startpos();
  // Ng1-f3-g1 and back twice for both sides: the clone must see the repetitions too.
  for (const u of ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1', 'f6g8']) pos.makeMove(parseUciMove(pos, u));
  const copy = pos.clone();
  assert.equal(copy.toFen(), pos.toFen());
  assert.deepEqual([copy.hashLo, copy.hashHi, copy.ply], [pos.hashLo, pos.hashHi, pos.ply]);
  assert.equal(copy.repetitions(), 2);
  assert.equal(gameStatus(copy).reason, 'repetition');
  copy.makeMove(parseUciMove(copy, 'e2e4'));
  assert.equal(pos.board[12], makePiece(WHITE, PAWN), 'the original is untouched');
  copy.unmakeMove();
  for (let i = 0; i < 8; i++) copy.unmakeMove();
  assert.equal(copy.toFen(), START_FEN);
  assert.equal(pos.ply, 8);
});
