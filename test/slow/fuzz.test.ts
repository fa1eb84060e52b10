/**
 * Seeded fuzzing (test/fuzz-inputs.ts): mutated FEN, SAN, UCI-move and PGN strings give either a
 * consistent result or the parser's typed one-line error, and junk UCI command lines never stop
 * the loop from answering. The long run is bench/fuzz.ts (a million inputs).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../../src/core/position.js';
import { START_FEN } from '../../src/core/fen.js';
import { parseSan, parseUciMove } from '../../src/core/notation.js';
import { PARSERS, fuzzParsers, fuzzUciLoop, uciFuzzLines } from '../fuzz-inputs.js';

test('parsers: 4000 mutated FEN, SAN, UCI-move and PGN strings give a result or a typed error, never anything else', () => {
  const report = fuzzParsers(4000, 20261201);
  assert.deepEqual(report.failures, [], 'every failure names its input');
  for (const parser of PARSERS) {
    const c = report.counts[parser];
    assert.equal(c.ok + c.typed, 1000, `${parser}: ${JSON.stringify(c)}`);
    // The mutations must reach both sides of every parser, or the test proves little.
    assert.ok(c.ok >= 20, `${parser}: only ${c.ok} inputs parsed`);
    assert.ok(c.typed >= 200, `${parser}: only ${c.typed} inputs were rejected`);
  }
});

test('UCI loop: 600 mutated command lines, then isready is still answered with readyok', async () => {
  const lines = uciFuzzLines(600, 7);
  const report = await fuzzUciLoop(lines, 50, 20_000);
  assert.equal(report.readyChecks, 12);
  assert.ok(report.bestmoves >= 10, `only ${report.bestmoves} searches answered`);
  assert.ok(report.infoStrings >= 300, `only ${report.infoStrings} lines refused with a reason`);
  assert.deepEqual(report.badOutput, []);
});

test('a move error quotes its input on one line, control characters escaped (found by the fuzzer)', () => {
  const pos = Position.fromFen(START_FEN);
  assert.throws(() => parseUciMove(pos, 'e2\ne4'), {
    name: 'MoveError',
    message: "malformed move 'e2\\u000ae4': expected UCI notation like e2e4 or e7e8q",
  });
  assert.throws(() => parseSan(pos, 'N\u0000f3\r\nx'), {
    name: 'MoveError',
    message: "illegal or unknown move 'N\\u0000f3\\u000d\\u000ax' in this position",
  });
});
