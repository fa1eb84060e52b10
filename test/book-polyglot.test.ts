import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseOpenings } from '../src/match/openings.js';
import { Position } from '../src/core/position.js';
import { moveToUci } from '../src/core/move.js';
import { legalMoveList, parseUciMove } from '../src/core/notation.js';
import { rng } from './helpers.js';
import { Book, BookError, bookEntry, decodeBookMove, encodeBook, encodeBookMove, keyToHex, polyglotKey } from '../src/book/polyglot.js';
import { openBook, writeBook } from '../src/book/polyglot-node.js';

function after(moves: string): Position {
  const pos = Position.startpos();
  for (const m of moves.split(' ').filter(Boolean)) pos.makeMove(parseUciMove(pos, m));
  return pos;
}

// The test positions published with the Polyglot book format specification.
const PUBLISHED: Array<[string, string]> = [
  ['', '463b96181691fc9c'],
  ['e2e4', '823c9b50fd114196'],
  ['e2e4 d7d5', '0756b94461c50fb0'],
  ['e2e4 d7d5 e4e5', '662fafb965db29d4'],
  ['e2e4 d7d5 e4e5 f7f5', '22a48b5a8e47ff78'],
  ['e2e4 d7d5 e4e5 f7f5 e1e2', '652a607ca3f242c1'],
  ['e2e4 d7d5 e4e5 f7f5 e1e2 e8f7', '00fdd303c946bdd9'],
  ['a2a4 b7b5 h2h4 b5b4 c2c4', '3c8123ea7b067637'],
  ['a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3', '5c3f9b829b279560'],
];

test('Polyglot keys of the published test positions', () => {
  for (const [moves, key] of PUBLISHED) assert.equal(keyToHex(polyglotKey(after(moves))), key, `after '${moves}'`);
  // The same position from a FEN gives the same key (no dependence on history).
  const fen = after('e2e4 d7d5 e4e5 f7f5').toFen();
  assert.equal(keyToHex(polyglotKey(Position.fromFen(fen))), '22a48b5a8e47ff78');
});

test('move encoding: castling is king-takes-rook, promotions use 1..4, and decode inverts encode', () => {
  const pos = Position.fromFen('r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1');
  const oo = parseUciMove(pos, 'e1g1'),
    ooo = parseUciMove(pos, 'e1c1');
  assert.equal(encodeBookMove(pos, oo), 7 | (4 << 6)); // e1h1
  assert.equal(encodeBookMove(pos, ooo), 0 | (4 << 6)); // e1a1
  assert.equal(encodeBookMove(pos, parseUciMove(pos, 'b7a8n')), 56 | (49 << 6) | (1 << 12));
  assert.equal(encodeBookMove(pos, parseUciMove(pos, 'b7b8q')), 57 | (49 << 6) | (4 << 12));
  for (const m of legalMoveList(pos)) assert.equal(decodeBookMove(pos, encodeBookMove(pos, m)), m, moveToUci(m));
  assert.equal(decodeBookMove(pos, 63 | (63 << 6)), 0, 'not a legal move');
});

test('move encoding in Chess960: castling is the king taking its rook wherever the rook stands', () => {
  // King on b1, rooks on a1 and g1 (Shredder-FEN rights): O-O is b1 to g1, O-O-O b1 to c1.
  const pos = Position.fromFen('7k/8/8/8/8/8/8/RK4R1 w GA - 0 1');
  const oo = parseUciMove(pos, 'b1g1', true),
    ooo = parseUciMove(pos, 'b1a1', true);
  assert.equal(encodeBookMove(pos, oo), 6 | (1 << 6)); // b1g1: the rook's square, here also the king's target
  assert.equal(encodeBookMove(pos, ooo), 0 | (1 << 6)); // b1a1, not b1 minus four
  for (const m of legalMoveList(pos)) assert.equal(decodeBookMove(pos, encodeBookMove(pos, m)), m, moveToUci(m));
});

test('book write/read round trip: lookup by position, weights, learn, sorted output, weighted pick', () => {
  const dir = mkdtempSync(join(tmpdir(), 'book-'));
  try {
    const start = Position.startpos();
    const e4 = parseUciMove(start, 'e2e4'),
      d4 = parseUciMove(start, 'd2d4'),
      nf3 = parseUciMove(start, 'g1f3');
    const afterE4 = after('e2e4');
    const c5 = parseUciMove(afterE4, 'c7c5');
    const castlePos = after('e2e4 e7e5 g1f3 b8c6 f1c4 g8f6');
    const oo = parseUciMove(castlePos, 'e1g1');
    const entries = [
      bookEntry(afterE4, c5, 10),
      bookEntry(start, nf3, 0),
      bookEntry(start, e4, 30, 7),
      bookEntry(start, d4, 10),
      bookEntry(castlePos, oo, 5),
    ];
    const path = join(dir, 'test.bin');
    writeBook(entries, path);
    const bytes = readFileSync(path);
    assert.equal(bytes.length, 16 * entries.length);
    const book = openBook(path);
    assert.equal(book.size, 5);
    assert.deepEqual(book.lookup(start), [
      { move: e4, weight: 30, learn: 7 },
      { move: d4, weight: 10, learn: 0 },
      { move: nf3, weight: 0, learn: 0 },
    ]);
    assert.deepEqual(
      book.lookup(afterE4).map((m) => m.move),
      [c5],
    );
    assert.deepEqual(
      book.lookup(castlePos).map((m) => moveToUci(m.move)),
      ['e1g1'],
    );
    assert.deepEqual(book.lookup(after('d2d4')), []);
    // Weighted pick: rng 0 → first (e4), rng just under 1 → last with weight (d4), never the weight-0 Nf3.
    assert.equal(
      book.pick(start, () => 0),
      e4,
    );
    assert.equal(
      book.pick(start, () => 0.999),
      d4,
    );
    const counts = new Map<number, number>();
    const random = rng(1);
    for (let i = 0; i < 2000; i++) {
      const m = book.pick(start, random)!;
      counts.set(m, (counts.get(m) ?? 0) + 1);
    }
    assert.equal(counts.get(nf3), undefined);
    const share = counts.get(e4)! / 2000;
    assert.ok(share > 0.68 && share < 0.82, `e4 share ${share}, expected about 0.75`);
    assert.equal(book.pick(after('d2d4')), null);
    // A book made in memory agrees with the file.
    assert.deepEqual(new Book(encodeBook(entries)).lookup(afterE4), book.lookup(afterE4));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('BookError on truncated, unsorted or missing files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'book-'));
  try {
    const start = Position.startpos();
    const good = encodeBook([
      bookEntry(start, parseUciMove(start, 'e2e4'), 1),
      bookEntry(after('e2e4'), parseUciMove(after('e2e4'), 'e7e5'), 1),
    ]);
    const truncated = join(dir, 'trunc.bin');
    writeFileSync(truncated, good.subarray(0, 24));
    assert.throws(
      () => openBook(truncated),
      (e: unknown) => e instanceof BookError && /24 bytes is not a multiple of 16/.test(e.message) && e.path === truncated,
    );
    const swapped = new Uint8Array(32);
    swapped.set(good.subarray(16, 32), 0);
    swapped.set(good.subarray(0, 16), 16);
    const unsorted = join(dir, 'unsorted.bin');
    writeFileSync(unsorted, swapped);
    // encodeBook sorted the two (distinct) keys, so the swapped order is out of order.
    assert.notEqual(keyToHex(polyglotKey(start)), keyToHex(polyglotKey(after('e2e4'))));
    assert.throws(
      () => openBook(unsorted),
      (e: unknown) => e instanceof BookError && /not sorted/.test(e.message),
    );
    assert.throws(
      () => openBook(join(dir, 'missing.bin')),
      (e: unknown) => e instanceof BookError && /cannot read book .*ENOENT/.test(e.message),
    );
    assert.equal(new Book(new Uint8Array(0)).size, 0, 'an empty book is valid');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the committed book (books/matrix-chess.bin) is valid and holds every balanced opening line', () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const book = openBook(join(root, 'books', 'matrix-chess.bin'));
  assert.ok(book.size > 0);
  const lines = parseOpenings(readFileSync(join(root, 'data', 'openings', 'balanced.txt'), 'utf8'), 'balanced.txt');
  assert.ok(lines.length >= 100);
  for (const o of lines) {
    const pos = Position.fromFen(o.fen);
    for (const text of o.moves) {
      const m = parseUciMove(pos, text);
      assert.ok(
        book.lookup(pos).some((e) => e.move === m && e.weight > 0),
        `${text} after '${o.moves.join(' ')}'`,
      );
      pos.makeMove(m);
    }
  }
});
