/**
 * The terminal game driven through a pipe, as a script would: moves, commands, bad input, game
 * end and end of input. Output to a pipe must be plain text (no colour escapes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { START_FEN } from '../src/core/fen.js';

const BIN = fileURLToPath(new URL('../../bin/matrix-chess', import.meta.url));

function play(args: string[], input: string) {
  const r = spawnSync(process.execPath, [BIN, 'play', ...args], {
    input,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, CI: 'true' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('a few moves against the bot, bad input answered, end of input exits 0', () => {
  const r = play(['--mode', 'white', '--depth', '1'], 'e2e4\ne2e5\nhello\nNf3\nfen\n');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.match(r.stdout, /White plays e2e4 \(e4\)/);
  assert.match(r.stdout, /illegal move 'e2e5': no piece on e2/);
  assert.match(r.stdout, /unknown command or move 'hello'/);
  assert.match(r.stdout, /White plays g1f3 \(Nf3\)/);
  const replies =
    r.stdout.match(/Black \(bot\) plays [a-h][1-8][a-h][1-8]\S* \(\S+\)  depth \d+  eval \S+  nodes \d+  time \d+\.\d+s/g) ?? [];
  assert.equal(replies.length, 2, r.stdout);
  // After two full moves the FEN says white to move on move 3.
  assert.match(r.stdout, /^\S+ w \S+ \S+ \d+ 3$/m);
  assert.doesNotMatch(r.stdout, /\x1b\[/, 'no colour escapes in a pipe');
  for (const label of ['Turn:', 'Move:', 'Fifty-move:', 'Check:', 'En passant:', 'Castling:', 'Eval:'])
    assert.match(r.stdout, new RegExp(label));
});

test('undo takes back the move pair; moves, setfen, legal, reset and --ascii work; exit quits with 0', () => {
  const input =
    [
      'e2e4',
      'moves',
      'undo',
      'fen',
      'setfen not a fen',
      'setfen 4k3/8/8/8/8/8/8/4K2R w K - 0 1',
      'legal',
      'reset',
      'fen',
      'exit',
      'e2e4',
    ].join('\n') + '\n';
  const r = play(['--mode', 'white', '--depth', '1', '--ascii'], input);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^ 1  R N B Q K B N R/m);
  assert.match(r.stdout, /^1\. e4 [a-h]?[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8]$/m);
  assert.match(r.stdout, /Took back 2 moves\./);
  const fens = r.stdout.split('\n').filter((l) => /^\S+\/\S+ [wb] /.test(l));
  assert.deepEqual(fens, [START_FEN, START_FEN]);
  assert.match(r.stdout, /invalid FEN \(fen\)/);
  // K+R v K: 5 king moves + 9 rook moves + O-O.
  assert.match(r.stdout, /15 legal moves: .*e1g1 \(O-O\)/);
  assert.doesNotMatch(r.stdout, /White plays e2e4 \(e4\)[\s\S]*White plays e2e4 \(e4\)/, 'input after exit is ignored');
});

test('prompts choose the side and depth; as Black the bot opens', () => {
  const r = play([], 'x\n2\n0\n1\n');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /'x' is not a choice/);
  assert.match(r.stdout, /'0' is not a depth/);
  assert.match(r.stdout, /you play Black, search depth 1/);
  assert.match(r.stdout, /White \(bot\) plays /);
});

test('the game ends with the reason: mate by the player, and mate in bot-vs-bot', () => {
  const mine = play(['--mode', 'white', '--depth', '1', '--fen', '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1'], 'a1a8\ne2e4\n');
  assert.equal(mine.code, 0, mine.stderr);
  assert.match(mine.stdout, /White plays a1a8 \(Ra8#\)/);
  assert.match(mine.stdout, /Checkmate: White wins\./);
  assert.match(mine.stdout, /the game is over \(checkmate\)/);

  const bots = play(['--mode', 'self', '--depth', '2', '--fen', 'k7/8/1K6/8/8/8/7Q/8 w - - 0 1'], '');
  assert.equal(bots.code, 0, bots.stderr);
  assert.match(bots.stdout, /White \(bot\) plays \S+ \(\S+#\)/);
  assert.match(bots.stdout, /Checkmate: White wins\./);

  const drawn = play(['--mode', 'white', '--fen', '8/8/8/8/8/5k2/8/4K3 w - - 0 1', '--depth', '1'], '');
  assert.match(drawn.stdout, /Game over: draw by insufficient material\./);
  const stalemate = play(['--mode', 'black', '--fen', '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', '--depth', '1'], '');
  assert.match(stalemate.stdout, /Game over: stalemate\./);
});

test('play --chess960: a numbered start (--start N) or a random one; bad numbers are usage errors', () => {
  const r = play(['--chess960', '--start', '0', '--mode', 'white', '--depth', '1'], 'fen\nreset\nfen\n');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.match(/^bbqnnrkr\/pppppppp\/8\/8\/8\/8\/PPPPPPPP\/BBQNNRKR w KQkq - 0 1$/gm)?.length, 2, r.stdout);
  assert.match(r.stdout, /Board reset\./);
  const random = play(['--chess960', '--mode', 'white', '--depth', '1'], 'fen\n');
  assert.equal(random.code, 0, random.stderr);
  assert.match(random.stdout, /^([bnrqk]{8})\/pppppppp\/8\/8\/8\/8\/PPPPPPPP\/([BNRQK]{8}) w KQkq - 0 1$/m);
  for (const [args, message] of [
    [['--chess960', '--start', '960'], /--start: 960 is out of range \(expected 0 to 959\)/],
    [['--start', '5'], /a start position number needs --chess960/],
  ] as const) {
    const bad = play([...args, '--mode', 'white', '--depth', '1'], '');
    assert.equal(bad.code, 2, bad.stdout);
    assert.match(bad.stderr, message);
  }
});
