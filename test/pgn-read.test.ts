/**
 * The PGN reader (src/core/pgn): games split by structure (no tags, no Event tag, ';' and '%'
 * lines between games), tag escapes, the game comment, comments before and after moves, nested
 * variations, NAGs in both forms, [%eval] and [%clk], streaming in chunks of any size, and errors
 * that name the game, line and column: unclosed comment, unbalanced parenthesis, illegal move.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readTextChunks } from '../src/node/text-file.js';
import { PgnError, newPgnGame, parsePgn, parsePgnGame, readPgn, replayPgnGame, streamPgn, type PgnGame } from '../src/core/pgn/index.js';
import { moveToUci } from '../src/core/move.js';
import { MoveError, parseSan } from '../src/core/notation.js';
import { Position } from '../src/core/position.js';

const sans = (g: PgnGame): string[] => g.moves.map((m) => m.san);

function only(items: Array<PgnGame | PgnError>): PgnGame[] {
  for (const g of items) if (g instanceof PgnError) assert.fail(`unexpected error: ${g.message}`);
  return items as PgnGame[];
}

test('games are split by structure: no tags at all, no Event tag, a ; line and a % line between games', () => {
  const text = [
    '1. e4 e5 2. Nf3 Nc6 1-0',
    '; a comment line between two games',
    '1. d4 d5 0-1',
    '',
    '[White "a"]',
    '[Black "b"]',
    '',
    '1. c4 c5 1/2-1/2',
    '%escaped line: 1. h4 *',
    '[Site "s"]',
    '1. Nf3 *',
    '1. g3 g6',
  ].join('\n');
  const games = only(readPgn(text));
  assert.deepEqual(games.map(sans), [['e4', 'e5', 'Nf3', 'Nc6'], ['d4', 'd5'], ['c4', 'c5'], ['Nf3'], ['g3', 'g6']]);
  assert.deepEqual(
    games.map((g) => g.result),
    ['1-0', '0-1', '1/2-1/2', '*', '*'],
  );
  // The ; comment between games opens the game after it; a % line is not read at all.
  assert.deepEqual(games[1].comments, [' a comment line between two games']);
  assert.deepEqual(
    [...games[2].tags],
    [
      ['White', 'a'],
      ['Black', 'b'],
    ],
  );
  assert.equal(games[2].tags.has('Event'), false);
  assert.deepEqual([...games[3].tags], [['Site', 's']]);
});

test('a tag pair after movetext starts the next game even without a termination marker; its Result tag is the result', () => {
  const games = only(readPgn('[Result "1-0"]\n1. e4 e5\n[Result "0-1"]\n1. d4 d5\n'));
  assert.deepEqual(games.map(sans), [
    ['e4', 'e5'],
    ['d4', 'd5'],
  ]);
  assert.deepEqual(
    games.map((g) => g.result),
    ['1-0', '0-1'],
  );
  // The same tag twice before any movetext: two games with tags only.
  assert.equal(only(readPgn('[Event "a"]\n[Event "b"]\n1. e4 *')).length, 2);
});

test('tag values: \\" and \\\\ are escapes; other text, spacing and order are kept', () => {
  const g = parsePgnGame('[ Event  "O\\"Brien \\\\ co"][Site "a\\nb"]\n[Round "1"]\n\n*');
  assert.deepEqual(
    [...g.tags],
    [
      ['Event', 'O"Brien \\ co'],
      ['Site', 'a\\nb'],
      ['Round', '1'],
    ],
  );
});

test('comments: the game comment, before a move, after a move (several), after a variation, multi-line, ; to the end of the line', () => {
  const g = parsePgnGame(
    '{opening words} 1. e4 {after e4} {and more} 1... {before e5} e5 (1... c5) {after the variation}\n2. Nf3 {two\nlines} ; rest of line\n2... Nc6 *',
  );
  assert.deepEqual(g.comments, ['opening words']);
  assert.deepEqual(g.moves[0].commentsAfter, ['after e4', 'and more']);
  assert.deepEqual(g.moves[1].commentsBefore, ['before e5']);
  assert.deepEqual(g.moves[2].commentsBefore, ['after the variation']);
  assert.deepEqual(g.moves[2].commentsAfter, ['two\nlines', ' rest of line']);
  assert.equal(g.moves[3].commentsBefore, undefined);
  // Comments waiting for a move that never comes (found by the fuzzer): after the last move, or the game's.
  assert.deepEqual(parsePgnGame('2; waiting').comments, [' waiting']);
  assert.deepEqual(parsePgnGame('1. e4 2. {waiting} *').moves[0].commentsAfter, ['waiting']);
  // A comment after the termination marker, with nothing after it, is the game's last word.
  assert.deepEqual(parsePgnGame('1. e4 e5 1-0 {after}').moves[1].commentsAfter, ['after']);
});

test('nested variations: each replaces its move, from the position before it, and is replayed', () => {
  const g = parsePgnGame('1. e4 e5 (1... c5 2. Nf3 (2. c3 d5 (2... Nf6 3. e5)) 2... d6) (1... e6) 2. Nf3 *');
  assert.deepEqual(sans(g), ['e4', 'e5', 'Nf3']);
  const [sicilian, french] = g.moves[1].variations!;
  assert.deepEqual(
    sicilian.map((m) => m.san),
    ['c5', 'Nf3', 'd6'],
  );
  assert.deepEqual(
    french.map((m) => m.san),
    ['e6'],
  );
  const alapin = sicilian[1].variations![0];
  assert.deepEqual(
    alapin.map((m) => m.san),
    ['c3', 'd5'],
  );
  assert.deepEqual(
    alapin[1].variations![0].map((m) => m.san),
    ['Nf6', 'e5'],
  );
  // Every move was replayed from the right position: the move codes are the legal ones.
  assert.equal(moveToUci(alapin[1].variations![0][1].move!), 'e4e5');
  assert.equal(moveToUci(g.moves[2].move!), 'g1f3');
});

test('NAGs: $N and the glyphs ! ? !! ?? !? ?! (glued or apart), several per move, in order', () => {
  const g = parsePgnGame('1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 $1 $14 Nf6 !? $36 *');
  assert.deepEqual(
    g.moves.map((m) => m.nags),
    [[1], [2], [3], [4], [5], [6], [1, 14], [5, 36]],
  );
  assert.deepEqual(sans(g), ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6']);
});

test('[%eval] and [%clk] become fields; what else the comment says stays; unreadable commands stay in the text', () => {
  const g = parsePgnGame(
    '1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 {[%eval #-3,22] [%clk 1:02:03.5] book move} 2. Nf3 {[%eval 1.255] [%csl Gf3]} 2... Nc6 {[%eval huge]} *',
  );
  const [e4, e5, nf3, nc6] = g.moves;
  assert.deepEqual(e4.eval, { cp: 17 });
  assert.equal(e4.clock, 180);
  assert.equal(e4.commentsAfter, undefined, 'a comment of commands only is not kept as text');
  assert.deepEqual(e5.eval, { mate: -3, depth: 22 });
  assert.equal(e5.clock, 3723.5);
  assert.deepEqual(e5.commentsAfter, ['book move']);
  assert.deepEqual(nf3.eval, { cp: 125.5 });
  assert.deepEqual(nf3.commentsAfter, ['[%csl Gf3]']);
  assert.equal(nc6.eval, undefined);
  assert.deepEqual(nc6.commentsAfter, ['[%eval huge]']);
  // commands: false keeps them as text.
  assert.deepEqual(parsePgnGame('1. e4 {[%eval 0.17]} *', { commands: false }).moves[0].commentsAfter, ['[%eval 0.17]']);
});

test('tokens: move numbers with or without periods and spaces, 0-0 castling, a null move --, CRLF and lone CR line breaks', () => {
  const g = parsePgnGame('1.e4 e5 2 .Nf3 Nc6 3.Bc4 ...Bc5 4. 0-0 -- 5. d3 *');
  assert.deepEqual(sans(g), ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5', '0-0', '--', 'd3']);
  assert.equal(g.moves[7].move, 0, 'a null move has move code 0');
  const crlf = only(readPgn('[Event "a"]\r\n\r\n1. e4 ; c\r\n1... e5 *\r\n[Event "b"]\r1. d4 *\r'));
  assert.deepEqual(crlf.map(sans), [['e4', 'e5'], ['d4']]);
  assert.deepEqual(crlf[0].moves[0].commentsAfter, [' c']);
});

test('a FEN tag sets the start; Chess960 castling from an X-FEN; replay returns the final position', () => {
  const g = parsePgnGame('[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 30"]\n\n30. O-O Kd7 31. Rd1+ *');
  assert.equal(replayPgnGame(g).toFen(), '8/3k4/8/8/8/8/8/3R2K1 b - - 3 31');
  const c960 = parsePgnGame('[Variant "Chess960"]\n[FEN "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"]\n\n1. O-O *');
  assert.equal(moveToUci(c960.moves[0].move!), 'f1g1');
});

test('replay: false reads the text alone (no move codes, no legality)', () => {
  const g = parsePgnGame('1. e4 Ke7?? 2. Qh5 *', { replay: false });
  assert.deepEqual(sans(g), ['e4', 'Ke7', 'Qh5']);
  assert.equal(g.moves[0].move, undefined);
  assert.throws(() => replayPgnGame(g), { name: 'PgnError', message: "move 1... Ke7: illegal move 'Ke7': e7 holds a black pawn" });
});

test('errors name the game, line and column: unclosed comment, unbalanced parenthesis, illegal move; the other games are read', () => {
  const text = [
    '[Event "one"]', // 1
    '',
    '1. e4 e5 *', // 3
    '',
    '[Event "two: an unclosed comment"]', // 5
    '',
    '1. e4 {never closed', // 7
    '2. Nf3 *',
    '',
    '[Event "three"]', // 10
    '',
    '1. d4 (1. c4 e5 2. Nc3 *', // 12
    '',
    '[Event "four"]', // 14
    '',
    '1. d4 d5 2. c4 e6 3. Nc3 Bb4 4. Qc2 Bxf2+ *', // 16
    '1. e4 e5 2. Nf3 Nc6 1-0', // 17: five, no tags
    '1. e4 e5 2. Nf3 Nc6 3. Bb5 (3. Bc4 Bc5)) 1-0', // 18
    '1. e4 {oops', // 19
  ].join('\n');
  const items = readPgn(text, { source: 'games.pgn' });
  assert.equal(items.length, 7);
  const [one, two, three, four, five, six, seven] = items;
  assert.ok(!(one instanceof PgnError) && !(five instanceof PgnError));
  assert.deepEqual(sans(five as PgnGame), ['e4', 'e5', 'Nf3', 'Nc6']);
  const expect = (e: PgnGame | PgnError, game: number, line: number, column: number, kind: string, reason: RegExp): void => {
    assert.ok(e instanceof PgnError, `game ${game} should fail`);
    assert.deepEqual([e.game, e.line, e.column, e.kind], [game, line, column, kind], e.message);
    assert.match(e.reason, reason);
    assert.ok(e.message.startsWith(`games.pgn: game ${game}, line ${line}, column ${column}: `), e.message);
  };
  expect(two, 2, 7, 7, 'comment', /^unclosed comment: the '\{' here has no '\}' before the tag pair on line 10$/);
  expect(three, 3, 12, 7, 'variation', /^unbalanced parenthesis: the '\(' here is never closed$/);
  expect(four, 4, 16, 37, 'move', /^move 4\.\.\. Bxf2\+: illegal move 'Bxf2': no black bishop can move to f2$/);
  expect(six, 6, 18, 40, 'variation', /^'\)' without a '\(' to close$/);
  expect(seven, 7, 19, 7, 'comment', /^unclosed comment: .* before the end of the text$/);
  assert.throws(
    () => parsePgn(text),
    (e: unknown) => e instanceof PgnError && e.game === 2,
  );
});

test('errors: tags, stray tokens, a NAG or variation before any move, a bad FEN tag', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['[Event x]\n1. e4 *', 'tag', /tag Event: expected its value in double quotes/],
    ['[Event "x"\n1. e4 *', 'tag', /tag Event: expected '\]' after its value/],
    ['[Event "x]\n1. e4 *', 'tag', /unterminated string/],
    ['[1+ "x"]\n1. e4 *', 'tag', /a tag pair needs a name/],
    ['1. e4 & e5 *', 'syntax', /unexpected character '&'/],
    ['1. e4 "x" *', 'syntax', /a quoted string outside a tag pair/],
    ['$1 1. e4 *', 'syntax', /a NAG \(\$1\) before any move/],
    ['(1. d4) 1. e4 *', 'variation', /a variation '\(' before any move/],
    ['1. e4 !!! *', 'syntax', /unknown annotation '!!!'/],
    ['[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n1. e4 *', 'fen', /FEN tag: invalid FEN/],
    ['1. e4 e5 2. Ke2 Ke7 3. Kf3 Kf6 4. -- *', 'move', /./],
  ];
  for (const [text, kind, reason] of cases) {
    const [e] = readPgn(text);
    if (kind === 'move') {
      assert.ok(!(e instanceof PgnError), 'a null move is read');
      continue;
    }
    assert.ok(e instanceof PgnError, text);
    assert.equal(e.kind, kind, `${text}: ${e.message}`);
    assert.match(e.reason, reason, text);
    assert.equal(e.game, 1);
  }
  // A null move while in check is not.
  const [check] = readPgn('1. e4 f5 2. Qh5+ -- *');
  assert.ok(check instanceof PgnError && /a null move while in check/.test(check.message));
  assert.throws(() => parsePgnGame('1. e4 * 1. d4 *'), { name: 'PgnError', message: 'expected one game, found 2' });
  assert.throws(() => parsePgnGame('  \n'), { name: 'PgnError', message: 'no game found' });
});

test('streaming: the text in chunks of any size (split anywhere, CRLF split too) gives the same games, one at a time', async () => {
  const text =
    '[Event "a"]\r\n[White "x\\"y"]\r\n\r\n{c1} 1. e4 {[%eval 0.3]} (1. d4 {long\r\ncomment} d5) 1... e5 ; rest\r\n2. Nf3 $1 1-0\r\n' +
    '%skip\r\n1. d4 {x} (1. c4) 1... d5 *\r\n[Event "bad"]\r\n1. e4 {open\r\n';
  const whole = readPgn(text);
  const summary = (items: Array<PgnGame | PgnError>): string =>
    JSON.stringify(items.map((g) => (g instanceof PgnError ? g.message : { ...g, tags: [...g.tags] })));
  for (const size of [1, 2, 3, 7, 64]) {
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
    const got: Array<PgnGame | PgnError> = [];
    for await (const g of streamPgn(chunks)) got.push(g);
    assert.equal(summary(got), summary(whole), `chunks of ${size}`);
  }
  assert.equal(whole.length, 3);
  assert.ok(whole[2] instanceof PgnError && whole[2].line === 10);
});

test('a file streamed from disk (gzipped, chunks of 64 KB, characters split between chunks) reads as the whole text does', async () => {
  const game = (i: number): string =>
    `[Event "Ünïcödé ${i} ♞"]\n[Round "${i}"]\n\n1. e4 {café, naïve, 😀 ${i}} 1... e5 (1... c5 {déjà vu}) 2. Nf3 ${i % 3 === 0 ? '1-0' : '*'}\n\n`;
  const text = Array.from({ length: 3000 }, (_, i) => game(i)).join('');
  const dir = mkdtempSync(join(tmpdir(), 'pgn-stream-'));
  const plain = join(dir, 'games.pgn'),
    packed = join(dir, 'games.pgn.gz');
  writeFileSync(plain, text);
  writeFileSync(packed, gzipSync(Buffer.from(text)));
  const want = readPgn(text);
  assert.equal(want.length, 3000);
  for (const path of [plain, packed]) {
    let n = 0,
      chunks = 0;
    const counted = async function* (): AsyncGenerator<string> {
      for await (const c of readTextChunks(path)) {
        chunks++;
        yield c;
      }
    };
    for await (const g of streamPgn(counted(), { source: path })) {
      assert.ok(!(g instanceof PgnError), String(g));
      const w = want[n++] as PgnGame;
      assert.deepEqual([...g.tags], [...w.tags]);
      assert.deepEqual(g.moves, w.moves);
    }
    assert.equal(n, 3000);
    assert.ok(chunks > 3, `${chunks} chunks`);
  }
  // A missing file is the stream's error, not a PgnError.
  await assert.rejects(async () => {
    for await (const _ of streamPgn(readTextChunks(join(dir, 'none.pgn')))) void _;
  }, /ENOENT/);
});

test('parseSan says why a move is not legal', () => {
  // White's king is in check from the knight on d3.
  const pos = Position.fromFen('4k3/8/8/8/8/3n4/3P4/R3K2R w KQ - 0 1');
  const why = (san: string): string => {
    try {
      parseSan(pos, san);
    } catch (e) {
      assert.ok(e instanceof MoveError);
      return e.message;
    }
    return 'legal';
  };
  assert.equal(why('Nf3'), "illegal move 'Nf3': no white knight can move to f3 (white is in check)");
  assert.equal(why('Rd1'), "illegal move 'Rd1': the white rook on a1 would leave its king in check");
  assert.equal(why('O-O'), "illegal move 'O-O': white cannot castle out of check");
  assert.equal(why('Kxd2'), "illegal move 'Kxd2': d2 holds a white pawn");
  assert.equal(why('Kf1'), 'legal');
  assert.equal(why('N\u0000f3'), "illegal or unknown move 'N\\u0000f3' in this position");
  const two = Position.fromFen('4k3/8/8/8/8/8/4K3/R6R w - - 0 1');
  assert.throws(() => parseSan(two, 'Rd1'), { message: "ambiguous move 'Rd1': the rooks on a1 and h1 can all move to d1" });
  assert.throws(() => parseSan(Position.fromFen('4k3/8/8/8/8/8/8/4K2R w - - 0 1'), 'O-O'), {
    message: "illegal move 'O-O': white has no kingside castling right",
  });
  const promo = Position.fromFen('4k3/P7/8/8/8/8/8/4K3 w - - 0 1');
  assert.throws(() => parseSan(promo, 'a8'), { message: "illegal move 'a8': a promotion needs a piece, e.g. a8=Q" });
  assert.equal(moveToUci(parseSan(promo, 'a8N')), 'a7a8n');
  assert.equal(moveToUci(parseSan(Position.startpos(), 'Ngf3')), 'g1f3');
  assert.equal(moveToUci(parseSan(Position.startpos(), 'g1f3')), 'g1f3');
  assert.deepEqual(newPgnGame().moves, []);
});
