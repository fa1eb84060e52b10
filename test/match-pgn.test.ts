import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Chess } from 'chess.js';
import { Position } from '../src/core/position.js';
import { START_FEN } from '../src/core/fen.js';
import { moveToSan, parseUciMove } from '../src/core/notation.js';
import { makePgn, newPgnGame, parsePgn, pgnLine, pgnStartFen, setPgnResult, setPgnStartFen, PgnError } from '../src/core/pgn/index.js';
import { ScoreAdjudicator, faultVerdict, ruleVerdict } from '../src/match/adjudicate.js';
import { parseOpeningLine, parseOpenings, OpeningError } from '../src/match/openings.js';
import { moveToUci } from '../src/core/move.js';

function play(fen: string, uci: string[]): { pos: Position; san: string[] } {
  const pos = Position.fromFen(fen);
  const san: string[] = [];
  for (const u of uci) {
    const m = parseUciMove(pos, u);
    san.push(moveToSan(pos, m));
    pos.makeMove(m);
  }
  return { pos, san };
}

test('PGN of a scripted game parses back with chess.js to the same final position', () => {
  const uci = 'e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 d2d4 c5d4 f3d4 c6d4 f2f4 d7d6 f4e5 d6e5 c1g5 e8g8'.split(' ');
  const { pos, san } = play(START_FEN, uci);
  const comments = san.map((_, i) => (i % 3 === 0 ? `+0.${i}/5 0.10s` : undefined));
  const g = newPgnGame({ Event: 'Test {event}', Site: 'here', Date: '2026.01.02', Round: '7', White: 'A "quoted"', Black: 'B' });
  g.tags.set('TimeControl', '10+0.1');
  g.tags.set('Termination', 'unterminated');
  g.moves = pgnLine(san, comments);
  g.moves[san.length - 1].commentsAfter = ['stopped {here}'];
  const text = makePgn(g);
  assert.ok(!text.includes('[FEN'), 'no FEN tag from the start position');
  for (const line of text.split('\n')) assert.ok(line.length < 80 || line.startsWith('['), line);
  // chess.js cannot read an escaped quote in a tag value (docs/coming-from-chess-js.md): it gets the game without that tag.
  const chess = new Chess();
  chess.loadPgn(text.replace(/\[White .*\n/, ''));
  assert.equal(chess.fen(), pos.toFen());
  assert.deepEqual(chess.history(), san);
  assert.equal(parsePgn(text)[0].tags.get('White'), 'A "quoted"');
  // A comment holding '}' is a ';' comment to the end of the line.
  assert.match(text, /;stopped \{here\}\n\*\n\n$/);
  assert.equal(chess.getComment(), 'stopped {here}');
  assert.equal(chess.getHeaders()['Termination'], 'unterminated');
});

test('PGN from a FEN with Black to move has SetUp/FEN tags and a 1... start', () => {
  const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3';
  const { pos, san } = play(fen, ['g8f6', 'b1c3', 'f8b4']);
  const g = newPgnGame({ Event: 'e', Site: 's', Date: '2026.01.02', Round: '1', White: 'w', Black: 'b' });
  setPgnResult(g, '1/2-1/2');
  setPgnStartFen(g, fen);
  g.moves = pgnLine(san);
  const text = makePgn(g);
  assert.match(text, /\[SetUp "1"\]/);
  assert.match(text, /\[FEN "r1bqkbnr/);
  assert.match(text, /^3\.\.\. Nf6 4\. Nc3 Bb4 1\/2-1\/2$/m);
  const chess = new Chess();
  chess.loadPgn(text);
  assert.equal(chess.fen(), pos.toFen());
});

test('rule adjudication: mate, stalemate, insufficient material, fifty moves, repetition', () => {
  assert.deepEqual(ruleVerdict(play(START_FEN, ['f2f3', 'e7e5', 'g2g4', 'd8h4']).pos)?.result, '0-1');
  assert.equal(ruleVerdict(play(START_FEN, ['f2f3', 'e7e5', 'g2g4', 'd8h4']).pos)?.reason, 'checkmate');
  assert.equal(ruleVerdict(Position.fromFen('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'))?.reason, 'stalemate');
  assert.equal(ruleVerdict(Position.fromFen('8/8/4k3/8/8/3NK3/8/8 w - - 0 1'))?.reason, 'insufficient-material');
  assert.equal(ruleVerdict(Position.fromFen('8/8/4k3/8/8/3RK3/8/8 w - - 100 80'))?.reason, 'fifty-move');
  assert.equal(ruleVerdict(Position.fromFen('8/8/4k3/8/8/3RK3/8/8 w - - 99 80')), null);
  const rep = play(START_FEN, ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1']);
  assert.equal(ruleVerdict(rep.pos), null, 'twice is not yet a draw');
  rep.pos.makeMove(parseUciMove(rep.pos, 'f6g8'));
  const v = ruleVerdict(rep.pos);
  assert.equal(v?.reason, 'repetition');
  assert.equal(v?.result, '1/2-1/2');
  assert.equal(ruleVerdict(Position.startpos()), null);
});

test('fault verdicts name the loser and the PGN termination', () => {
  const t = faultVerdict(0, 'time', '1.2s over');
  assert.equal(t.result, '0-1');
  assert.equal(t.termination, 'time forfeit');
  const i = faultVerdict(1, 'illegal-move', "illegal move 'a1a1'");
  assert.equal(i.result, '1-0');
  assert.equal(i.termination, 'rules infraction');
  assert.equal(faultVerdict(1, 'crash', 'exited').termination, 'abandoned');
});

test('score adjudication: resign needs both engines to agree for N moves; draw needs the move number', () => {
  const resign = new ScoreAdjudicator({ score: 500, moves: 2 });
  resign.record(0, { cp: 600 });
  resign.record(1, { cp: -700 });
  resign.record(0, { cp: 650 });
  assert.equal(resign.check(3), null, 'only three of four plies so far');
  resign.record(1, { mate: -3 });
  assert.equal(resign.check(3)?.result, '1-0');
  const disagree = new ScoreAdjudicator({ score: 500, moves: 1 });
  disagree.record(0, { cp: 600 });
  disagree.record(1, { cp: 20 });
  assert.equal(disagree.check(2), null);
  const draw = new ScoreAdjudicator(undefined, { moveNumber: 40, score: 10, moves: 2 });
  for (let i = 0; i < 4; i++) draw.record(i & 1, { cp: i & 1 ? -5 : 5 });
  assert.equal(draw.check(39), null, 'too early');
  assert.equal(draw.check(40)?.result, '1/2-1/2');
  const off = new ScoreAdjudicator();
  for (let i = 0; i < 20; i++) off.record(i & 1, { cp: 5000 });
  assert.equal(off.check(100), null, 'off by default');
});

test('openings: UCI lines, FEN and EPD lines, comments; bad lines report file:line', () => {
  const set = parseOpenings(
    '# comment\n\ne2e4 e7e5   # +10 cp\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 moves c7c5\n8/8/4k3/8/8/3RK3/8/8 w - - bm Rd1; id "x";\n',
    'set.txt',
  );
  assert.equal(set.length, 3);
  assert.deepEqual(set[0], { fen: START_FEN, moves: ['e2e4', 'e7e5'] });
  assert.deepEqual(set[1].moves, ['c7c5']);
  assert.equal(set[2].fen, '8/8/4k3/8/8/3RK3/8/8 w - - 0 1');
  assert.throws(
    () => parseOpenings('e2e4\ne2e4 e2e4\n', 'bad.txt'),
    (e: unknown) => e instanceof OpeningError && /^bad\.txt:2: illegal move 'e2e4'/.test(e.message),
  );
  assert.throws(
    () => parseOpeningLine('rnbqkbnr/ppp w KQkq -', 'x'),
    (e: unknown) => e instanceof OpeningError && /bad FEN/.test(e.message),
  );
  assert.throws(() => parseOpenings('# only comments\n', 'empty.txt'), OpeningError);
});

test('PGN reader: reads our PGN back (FEN start, comments, several games) and names bad moves', () => {
  const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3';
  const a = play(fen, ['g8f6', 'b1c3', 'f8b4']);
  const b = play(START_FEN, ['e2e4', 'c7c5', 'g1f3']);
  const one = newPgnGame({ Event: 'e', Site: 's', Date: '2026.01.02', Round: '1', White: 'w', Black: 'b' });
  setPgnResult(one, '0-1');
  setPgnStartFen(one, fen);
  one.moves = pgnLine(a.san, [undefined, '+0.1/3 0.2s', 'White resigns']);
  const two = newPgnGame({ Event: 'e', Site: 's', Date: '2026.01.02', Round: '2', White: 'w', Black: 'b' });
  setPgnResult(two, '1/2-1/2');
  two.moves = pgnLine(b.san);
  const games = parsePgn(makePgn(one) + makePgn(two), { source: 'x.pgn' });
  assert.equal(games.length, 2);
  assert.equal(pgnStartFen(games[0]), fen);
  assert.equal(games[0].result, '0-1');
  assert.deepEqual(
    games[0].moves.map((m) => moveToUci(m.move!)),
    ['g8f6', 'b1c3', 'f8b4'],
  );
  assert.deepEqual(games[0].moves[1].commentsAfter, ['+0.1/3 0.2s']);
  assert.deepEqual(
    games[1].moves.map((m) => moveToUci(m.move!)),
    ['e2e4', 'c7c5', 'g1f3'],
  );
  assert.equal(games[1].tags.get('Round'), '2');
  assert.throws(
    () => parsePgn('[Event "e"]\n\n1. e4 e5 2. Ke3 *\n', { source: 'bad.pgn' }),
    (e: unknown) =>
      e instanceof PgnError &&
      /^bad\.pgn: game 1, line 3, column 13: move 2\. Ke3: illegal move 'Ke3': no white king can move to e3$/.test(e.message),
  );
});
