// Every file in examples/ runs as a user would run it (node examples/X.mjs, importing the package by its
// name through package.json's exports) and prints what its README promises.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const EXAMPLES = join(ROOT, 'examples');

/** What each example must print (whole lines); an example without an entry fails the last test. */
const EXPECTED: Record<string, string[]> = {
  'chess-js-switch.mjs': [
    'q d8-h4 Qh4# capture: false',
    'checkmate: true game over: true',
    'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3',
  ],
  'perft.mjs': ['legal moves: 48', 'perft(1) = 48', 'perft(2) = 2039', 'perft(3) = 97862'],
  'best-move.mjs': ['bestmove d1d8', 'score mate 1'],
  'analyse-async.mjs': ['bestmove d1d8', 'lines: 2', 'line 1: mate 1 d1d8', 'stopped: true at depth 8 or more'],
};

const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.mjs'));

for (const file of files) {
  test(`examples/${file} runs and prints what it promises`, () => {
    const out = execFileSync(process.execPath, [join(EXAMPLES, file)], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    const lines = out.split('\n');
    for (const want of EXPECTED[file] ?? []) assert.ok(lines.includes(want), `${file}: expected the line '${want}' in:\n${out}`);
  });
}

test('every example has its expected output listed', () => {
  assert.deepEqual(
    files.filter((f) => !(f in EXPECTED)),
    [],
  );
  assert.ok(files.length >= 3);
});
