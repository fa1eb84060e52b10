import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runMatrixDemo } from '../src/matrix/demo.js';

test('the demo tells the seed’s story and returns 0', () => {
  const chunks: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((s: string | Uint8Array) => {
    chunks.push(String(s));
    return true;
  }) as typeof process.stdout.write;
  let code: number;
  try {
    code = runMatrixDemo({ color: false });
  } finally {
    process.stdout.write = write;
  }
  const text = chunks.join('');
  assert.equal(code, 0);
  assert.match(text, /e_7ᵀ · M · e_1 = 3/);
  assert.match(text, /Moves: a3 c3/);
  assert.match(text, /after removing its own pieces: \(none\)/);
  assert.match(text, /The rook now reaches: a3 a2/);
  assert.match(text, /single step: S_−1 · E\(4,0\) = a5/);
  assert.match(text, /Knight moves: b5 d5 e4 a2 b1/);
  assert.doesNotMatch(text, /\x1b\[/);
});
