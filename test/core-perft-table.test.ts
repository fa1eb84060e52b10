/**
 * Hashed perft: with a PerftTable every backend gives the same counts as without one (and as the
 * published ones), on standard and Chess960 positions; the table keeps apart what the core's
 * Zobrist key merges on purpose (Chess960 castling rooks, an en-passant square nobody can use).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { perft } from '../src/core/perft.js';
import { PerftTable } from '../src/core/perft-table.js';
import { chess960SuitePath, readPerftEpd, standardSuitePath } from '../scripts/perft-files.js';
import { BACKEND_NAMES } from '../src/backends.js';
import { getBackend } from '../src/backends-node.js';

const STANDARD = readPerftEpd(standardSuitePath());
const CHESS960 = readPerftEpd(chess960SuitePath());

/** [FEN, depth, published count]: suite positions at a depth CI can afford on the slowest backend. */
const CASES: Array<[string, number, number]> = [
  ...[1, 2, 3, 4, 5].map((n): [string, number, number] => {
    const c = STANDARD[n - 1];
    const depth = Math.max(...[...c.counts].filter(([, count]) => count <= 200_000).map(([d]) => d));
    return [c.fen, depth, c.counts.get(depth) as number];
  }),
  ...[1, 250, 518, 700, 960].map((n): [string, number, number] => [CHESS960[n - 1].fen, 4, CHESS960[n - 1].counts.get(4) as number]),
];

test('hashed perft equals unhashed perft and the published counts on every backend, one small table shared by all positions', async () => {
  for (const name of BACKEND_NAMES) {
    const gen = await getBackend(name);
    // 1 MB: replacement happens, and the entries of earlier roots are still there to be (wrongly) hit.
    const table = new PerftTable(1);
    for (const [fen, depth, expected] of CASES) {
      const plain = perft(Position.fromFen(fen), depth, gen);
      const pos = Position.fromFen(fen);
      const hashed = perft(pos, depth, gen, table);
      assert.equal(plain, expected, `${name} unhashed ${fen} depth ${depth}`);
      assert.equal(hashed, expected, `${name} hashed ${fen} depth ${depth}`);
      assert.equal(pos.toFen(), Position.fromFen(fen).toFen(), `${name}: position restored`);
    }
    assert.ok(table.hits > 0 && table.hits < table.probes, `${name}: the table was used (${table.hits} hits of ${table.probes} probes)`);
  }
});

test('a repeated root is answered from the table; a count above 2^32 survives a store and probe', () => {
  const table = new PerftTable(1);
  const pos = Position.startpos();
  assert.equal(perft(pos, 4, undefined, table), 197281);
  const probes = table.probes;
  assert.equal(perft(pos, 4, undefined, table), 197281);
  assert.equal(table.probes, probes + 1, 'one probe: the root itself');
  table.setRoot();
  const big = 2 ** 40 + 12345;
  table.store(pos, 9, big);
  assert.equal(table.probe(pos, 9), big);
  assert.equal(table.probe(pos, 8), -1, 'the depth is part of the key');
});

test('Chess960 trees with the same board but other castling rooks share one table; unusable en-passant squares do not merge in it', () => {
  // The same board and the same right bit, castling with the f1 rook in one and the h1 rook in the other.
  const withF = Position.fromFen('4k3/8/8/8/8/8/8/1K3R1R w F - 0 1');
  const withH = Position.fromFen('4k3/8/8/8/8/8/8/1K3R1R w H - 0 1');
  assert.notEqual(perft(withF, 3), perft(withH, 3), 'their trees differ (only the f1 rook can castle)');
  const table = new PerftTable(1);
  for (let round = 0; round < 2; round++) {
    assert.equal(perft(withF, 3, undefined, table), perft(withF, 3), `F, round ${round}`);
    assert.equal(perft(withH, 3, undefined, table), perft(withH, 3), `H, round ${round}`);
  }
  table.setRoot();
  table.store(withF, 2, 1);
  assert.equal(table.probe(withH, 2), -1, 'another castling rook is another key');

  // d6 is set but no white pawn can take there: the core leaves it out of the key (FIDE 9.2.3).
  const ep = Position.fromFen('rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2');
  const noEp = Position.fromFen('rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2');
  assert.deepEqual([ep.hashLo, ep.hashHi], [noEp.hashLo, noEp.hashHi]);
  table.setRoot();
  table.store(noEp, 2, 1);
  assert.equal(table.probe(noEp, 2), 1);
  assert.equal(table.probe(ep, 2), -1, 'the en-passant square as set is part of the key');
});

test('a table size out of range is a RangeError naming the limits', () => {
  assert.throws(() => new PerftTable(0), /perft table size 0 MB is not a whole number from 1 to 4096/);
  assert.throws(() => new PerftTable(1.5), RangeError);
  assert.equal(new PerftTable(3).bytes, 2 * 1024 * 1024, 'rounded down to a power of two');
});
