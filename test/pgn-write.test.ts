/**
 * The PGN writer (src/core/pgn/writer.ts): escaped tags, move numbers where the standard puts
 * them, NAGs, [%eval]/[%clk], variations, ';' for a comment holding '}', lines under 80
 * characters; and the round trip read → write → read giving the same game, on hand-written
 * games and on seeded random games with comments, NAGs, commands and nested variations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rng, suiteFens } from './helpers.js';
import {
  PgnError,
  makePgn,
  makePgnTag,
  newPgnGame,
  parsePgn,
  parsePgnGame,
  pgnLine,
  setPgnResult,
  setPgnStartFen,
  type PgnGame,
  type PgnMove,
} from '../src/core/pgn/index.js';
import { START_FEN } from '../src/core/fen.js';
import { legalMoveList, moveToSan } from '../src/core/notation.js';
import { Position } from '../src/core/position.js';

/** A game as plain data, for deepEqual (tags as pairs in order). */
const plain = (g: PgnGame): unknown => ({ ...g, tags: [...g.tags] });

test('tags are escaped as the standard says and read back unchanged', () => {
  const g = newPgnGame({ White: 'O"Brien', Black: 'back\\slash "quoted"', Event: '[brackets] {braces} ;semi' });
  const text = makePgn(g);
  assert.match(text, /^\[Event "\[brackets\] \{braces\} ;semi"\]\n\[Site "\?"\]\n\[Date "\?\?\?\?\.\?\?\.\?\?"\]/);
  assert.ok(text.includes('[White "O\\"Brien"]'), text);
  assert.ok(text.includes('[Black "back\\\\slash \\"quoted\\""]'), text);
  assert.deepEqual([...parsePgnGame(text).tags], [...g.tags]);
  assert.throws(() => makePgnTag('Bad Name', 'x'), {
    name: 'PgnError',
    message: "tag name 'Bad Name': expected letters, digits and _ only",
  });
  assert.throws(
    () => makePgnTag('Event', 'a\nb'),
    (e: unknown) => e instanceof PgnError && e.kind === 'write',
  );
});

test('movetext: numbers before White moves and after comments and variations, a Black start, glyphs and $N, commands, the game comment', () => {
  const g = newPgnGame({ Event: 'e' });
  setPgnStartFen(g, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 7');
  g.comments.push('start');
  g.moves = [
    { san: 'e5', nags: [5, 14], commentsAfter: ['ok'] },
    {
      san: 'Nf3',
      eval: { cp: -35, depth: 12 },
      clock: 61.5,
      variations: [
        [
          { san: 'Nc3', commentsBefore: ['or'] },
          { san: 'Nc6', nags: [146] },
        ],
      ],
    },
    { san: 'Nc6', eval: { mate: -2 }, commentsAfter: ['', 'x'] },
    { san: 'Bb5', commentsAfter: ['a } brace'] },
    { san: 'a6' },
  ];
  setPgnResult(g, '1-0');
  const text = makePgn(g);
  assert.equal(
    text.split('\n\n')[1],
    '{start} 7... e5!? $14 {ok} 8. Nf3 {[%eval -0.35,12] [%clk 0:01:01.5]} (8. {or}\n' +
      'Nc3 Nc6 $146) 8... Nc6 {[%eval #-2]} {} {x} 9. Bb5 ;a } brace\n9... a6 1-0',
  );
  assert.match(text, /\[Result "1-0"\]\n\[SetUp "1"\]\n\[FEN "[^"]+"\]\n\n/);
  assert.ok(text.endsWith('1-0\n\n'));
  assert.deepEqual(plain(parsePgnGame(text, { replay: false })), plain(g));
});

test('lines are shorter than 80 characters; maxWidth and newline options; no tags, no moves', () => {
  const pos = Position.startpos();
  const random = rng(7);
  const sans: string[] = [];
  for (let i = 0; i < 120; i++) {
    const moves = legalMoveList(pos);
    if (moves.length === 0) break;
    const m = moves[Math.floor(random() * moves.length)];
    sans.push(moveToSan(pos, m));
    pos.makeMove(m);
  }
  const g = newPgnGame();
  g.moves = pgnLine(
    sans,
    sans.map((_, i) => (i % 9 === 4 ? 'a comment of a few words' : undefined)),
  );
  const text = makePgn(g);
  const lines = text.split('\n');
  assert.ok(lines.length > 10);
  for (const line of lines) assert.ok(line.length < 80, `${line.length}: ${line}`);
  assert.ok(
    lines.some((l) => l.length > 70),
    'lines are filled',
  );
  const narrow = makePgn(g, { maxWidth: 30, newline: '\r\n' });
  for (const line of narrow.split('\r\n')) assert.ok(line.length <= 30, line);
  const oneLine = makePgn(g, { maxWidth: 0 });
  assert.equal(oneLine.split('\n').filter((l) => l !== '').length, 8);
  assert.deepEqual(plain(parsePgnGame(narrow)), plain(parsePgnGame(text)));
  assert.equal(makePgn({ tags: new Map(), comments: [], moves: [], result: '*' }), '*\n\n');
});

/** A seeded random game with everything the model holds: comments everywhere, NAGs, commands, nested variations, a FEN start. */
function randomGame(random: () => number, fen: string): PgnGame {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const words = ['good', 'bad', 'a } brace', 'line\nbreak', '  spaced  ', '', '[%csl Ga1]', 'with "quotes"', 'x;y', '%not an escape'];
  const comments = (p: number): string[] | undefined => {
    if (random() > p) return undefined;
    const n = 1 + Math.floor(random() * 2);
    return Array.from({ length: n }, () => pick(words));
  };
  const pos = Position.fromFen(fen);
  const line = (plies: number, depth: number): PgnMove[] => {
    const out: PgnMove[] = [];
    for (let i = 0; i < plies; i++) {
      const legal = legalMoveList(pos);
      if (legal.length === 0) break;
      const m = pick(legal);
      const node: PgnMove = { san: moveToSan(pos, m), move: m };
      const before = comments(0.05);
      if (before) node.commentsBefore = before;
      if (random() < 0.15) node.nags = Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick([1, 2, 3, 4, 5, 6, 10, 14, 146]));
      const after = comments(0.2);
      if (after) node.commentsAfter = after;
      if (random() < 0.1)
        node.eval =
          random() < 0.2
            ? { mate: pick([-3, 2, 7]) }
            : { cp: Math.round((random() - 0.5) * 800) || 0, ...(random() < 0.3 ? { depth: 20 } : {}) };
      if (random() < 0.1) node.clock = Math.floor(random() * 7200) + pick([0, 0.5]);
      if (depth < 3 && random() < 0.12) {
        // Built before the move is made: a variation replaces it. line() leaves the position as it found it.
        const vs: PgnMove[][] = [];
        for (let v = 0; v < 1 + Math.floor(random() * 2); v++) {
          const variation = line(1 + Math.floor(random() * 6), depth + 1);
          if (variation.length > 0) vs.push(variation);
        }
        if (vs.length > 0) node.variations = vs;
      }
      pos.makeMove(m);
      out.push(node);
    }
    for (let k = 0; k < out.length; k++) pos.unmakeMove();
    return out;
  };
  const g = newPgnGame({ Event: pick(['Test "quoted"', 'back\\slash', 'plain']), Round: String(Math.floor(random() * 99)) });
  setPgnStartFen(g, fen);
  const gc = comments(0.3);
  if (gc) g.comments = gc;
  g.moves = line(10 + Math.floor(random() * 60), 0);
  setPgnResult(g, pick(['1-0', '0-1', '1/2-1/2', '*'] as const));
  return g;
}

/** The model after a round trip: ';' comments come back one per line, so a comment with '}' and a line break is compared by its lines. */
function normalise(g: PgnGame): unknown {
  const fix = (cs: string[] | undefined): string[] | undefined => cs?.flatMap((c) => (c.includes('}') ? c.split('\n') : [c]));
  const walk = (line: PgnMove[]): unknown[] =>
    line.map((m) => {
      const out: PgnMove = { ...m };
      if (m.commentsBefore) out.commentsBefore = fix(m.commentsBefore);
      if (m.commentsAfter) out.commentsAfter = fix(m.commentsAfter);
      if (m.variations) out.variations = m.variations.map((v) => walk(v) as PgnMove[]);
      return out;
    });
  return { ...g, tags: [...g.tags], comments: fix(g.comments), moves: walk(g.moves) };
}

test('round trip: read → write → read gives the same game, and writing it again the same text (300 seeded random games)', () => {
  const random = rng(0x9a7e);
  const fens = [START_FEN, ...suiteFens().slice(0, 40)];
  let moves = 0,
    variations = 0;
  const games: PgnGame[] = [];
  for (let i = 0; i < 300; i++) games.push(randomGame(random, fens[i % fens.length]));
  const text = games.map((g) => makePgn(g)).join('');
  const back = parsePgn(text);
  assert.equal(back.length, games.length);
  back.forEach((g, i) => {
    assert.deepEqual(normalise(g), normalise(games[i]), `game ${i + 1}`);
    assert.equal(makePgn(g), makePgn(games[i]), `game ${i + 1} written again`);
    const count = (line: PgnMove[]): void => {
      for (const m of line) {
        moves++;
        for (const v of m.variations ?? []) {
          variations++;
          count(v);
        }
      }
    };
    count(g.moves);
  });
  assert.ok(moves > 10_000 && variations > 300, `${moves} moves, ${variations} variations`);
  for (const line of text.split('\n')) if (!line.startsWith('[') && !line.includes('{')) assert.ok(line.length < 80, line);
});

test('round trip of a lichess-style annotated game and of hand-written oddities', () => {
  const texts = [
    '[Event "Rated Blitz game"]\n[Site "https://lichess.org/abc"]\n[White "O\\"Brien"]\n[Black "x"]\n[Result "0-1"]\n\n' +
      '1. e4 { [%eval 0.18] [%clk 0:03:00] } 1... c5 { [%eval 0.25] [%clk 0:03:00] } 2. Nf3?! { (0.25 → -0.30) Inaccuracy. d4 was best. } { [%eval -0.3] [%clk 0:02:58] } (2. d4 cxd4 3. c3) 2... d6 $2 { [%clk 0:02:57] } 0-1\n\n',
    '{only a comment} *',
    '1. e4 (1. d4 (1. c4) (1. Nf3 {deep} d5 (1... Nf6)) d5) (1. b3) e5 2. {before} Nf3 ; to the end\n2... Nc6 $1 $2 $3 1/2-1/2',
    '[FEN "8/8/8/8/8/4k3/8/R3K3 b Q - 3 60"]\n\n60... Kd3 61. O-O-O+ Kc4 *',
  ];
  for (const t of texts) {
    const a = parsePgn(t);
    const b = parsePgn(a.map((g) => makePgn(g)).join(''));
    assert.deepEqual(b.map(plain), a.map(plain), t);
  }
  const lichess = parsePgnGame(texts[0]);
  assert.deepEqual(lichess.moves[2].commentsAfter, [' (0.25 → -0.30) Inaccuracy. d4 was best. ']);
  assert.deepEqual(lichess.moves[2].eval, { cp: -30 });
  assert.match(
    makePgn(lichess),
    /2\. Nf3\?!\s\{\[%eval -0\.30\] \[%clk 0:02:58\]\}\s\{ \(0\.25 → -0\.30\) Inaccuracy\. d4 was best\. \}\s\(2\. d4/,
  );
});
