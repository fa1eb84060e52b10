/**
 * The opening names the web app ships (web/openings/openings.tsv) and the script that writes them
 * (scripts/openings.ts): the list's format is checked, lines are replayed by our core, a
 * transposition keeps the first name, and the committed file is well-formed and names the
 * positions the page looks up.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpeningTable, lineEndKey, openingKey, parseOpeningTsv } from '../scripts/openings.js';
import { repoRoot } from '../scripts/build-web.js';
import { Position } from '../src/core/position.js';
import { UsageError } from '../src/cmdline/errors.js';

test('a line of the list is keyed by the position at its end (placement, side, castling)', () => {
  assert.equal(lineEndKey('1. e4 c5'), 'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq');
  assert.equal(openingKey('rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2'), lineEndKey('1. e4 c5'));
  assert.throws(() => lineEndKey('1. e4 e5 2. Ke3'), /Ke3/);
});

test('the list is read with its header; a transposition keeps the first name', () => {
  const rows = parseOpeningTsv(
    'eco\tname\tpgn\nB20\tSicilian Defense\t1. e4 c5\nA00\tFirst\t1. Nf3 Nf6 2. Nc3\nA00\tSecond\t1. Nc3 Nf6 2. Nf3\n',
    'x.tsv',
  );
  assert.equal(rows.length, 3);
  const table = buildOpeningTable(rows);
  assert.equal(table.positions, 2);
  assert.equal(table.duplicates, 1);
  assert.match(table.text, /\tA00\tFirst\n/);
  assert.doesNotMatch(table.text, /Second/);
  assert.throws(
    () => parseOpeningTsv('eco\tpgn\n', 'x.tsv'),
    (e: unknown) => e instanceof UsageError && /x\.tsv: expected the header/.test(e.message),
  );
  assert.throws(() => parseOpeningTsv('eco\tname\tpgn\nZ99\tBad\t1. e4\n', 'y.tsv'), /y\.tsv:2: expected eco, name and pgn/);
});

test('the committed openings.tsv: well-formed lines, legal positions, one per key, the Sicilian at B20', () => {
  const text = readFileSync(join(repoRoot(), 'web', 'openings', 'openings.tsv'), 'utf8');
  const lines = text.trimEnd().split('\n');
  assert.ok(lines.length > 3000, `${lines.length} positions`);
  const keys = new Set<string>();
  for (const line of lines) {
    const [key, eco, name, extra] = line.split('\t');
    assert.equal(extra, undefined, line);
    assert.match(eco, /^[A-E]\d\d$/, line);
    assert.ok(name.length > 0, line);
    assert.equal(key.split(' ').length, 3, line);
    Position.fromFen(`${key} - 0 1`); // throws on a bad position
    assert.ok(!keys.has(key), `duplicate key ${key}`);
    keys.add(key);
  }
  const byKey = new Map(lines.map((l) => [l.split('\t')[0], l.split('\t').slice(1).join(' ')]));
  assert.equal(byKey.get(lineEndKey('1. e4 c5')), 'B20 Sicilian Defense');
  assert.equal(byKey.get(lineEndKey('1. e4')), "B00 King's Pawn Game");
});
