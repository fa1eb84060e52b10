/** Terminal board rendering: orientation, glyphs, sidebar, and when colour is used. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { castlingText, formatEval, renderBoard, sidebar, useColor } from '../src/cmdline/board.js';
import { Position } from '../src/core/position.js';

test('plain board: White at the bottom, or Black when flipped; no escape codes', () => {
  const pos = Position.startpos();
  const lines = renderBoard(pos, { color: false, flipped: false }).split('\n');
  assert.equal(lines[0], ' 8  ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜');
  assert.equal(lines[7], ' 1  ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖');
  assert.equal(lines[8], '    a b c d e f g h');
  const flipped = renderBoard(pos, { color: false, flipped: true }).split('\n');
  assert.equal(flipped[0], ' 1  ♖ ♘ ♗ ♔ ♕ ♗ ♘ ♖');
  assert.equal(flipped[8], '    h g f e d c b a');
  assert.doesNotMatch(lines.join('\n'), /\x1b/);
});

test('colour board: escape codes, last move highlighted, sidebar beside the ranks', () => {
  const pos = Position.startpos();
  const side = sidebar(pos, false, 12);
  const text = renderBoard(pos, { color: true, flipped: false, lastFrom: 12, lastTo: 28, sidebar: side });
  assert.match(text, /\x1b\[48;5;\d+m/);
  const highlighted = text.split('\x1b[48;5;143m').length - 1;
  assert.equal(highlighted, 2);
  assert.ok(text.split('\n')[0].endsWith('Turn:        White'));
});

test('sidebar: side, move, fifty-move counter, check, en passant, castling, eval', () => {
  const pos = Position.fromFen('r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 37 60');
  const s = sidebar(pos, false, -235).join('\n');
  assert.match(s, /Turn: +White/);
  assert.match(s, /Move: +60/);
  assert.match(s, /Fifty-move: +37\/100/);
  assert.match(s, /Check: +no/);
  assert.match(s, /En passant: +d6/);
  assert.match(s, /Castling: +Kq/);
  assert.match(s, /Eval: +-2\.35/);
  assert.equal(castlingText(0), '-');
  assert.equal(formatEval(null), 'n/a');
  assert.equal(formatEval(0), '+0.00');
});

test('colour only on a terminal and never with NO_COLOR', () => {
  const tty = { isTTY: true } as NodeJS.WriteStream,
    pipe = { isTTY: false } as NodeJS.WriteStream;
  const saved = process.env.NO_COLOR;
  try {
    delete process.env.NO_COLOR;
    assert.equal(useColor(tty), true);
    assert.equal(useColor(pipe), false);
    process.env.NO_COLOR = '1';
    assert.equal(useColor(tty), false);
  } finally {
    if (saved === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = saved;
  }
});
