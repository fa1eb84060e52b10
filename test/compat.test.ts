/**
 * matrix-chess/compat, method by method: chess.js's documented examples give chess.js's answers,
 * each difference of docs/coming-from-chess-js.md is shown with both libraries' behaviour, and
 * the extensions (Chess960, the live Position, king-takes-own-rook castling) work.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Chess as ChessJs, validateFen as chessJsValidateFen } from 'chess.js';
import {
  BISHOP,
  BLACK,
  Chess,
  DEFAULT_POSITION,
  KING,
  Move,
  PAWN,
  QUEEN,
  SEVEN_TAG_ROSTER,
  SQUARES,
  WHITE,
  validateFen,
} from '../src/compat/index.js';
import { FenError, START_FEN } from '../src/core/fen.js';
import { MoveError } from '../src/core/notation.js';
import { moveToUci } from '../src/core/move.js';
import { Engine } from '../src/engine/index.js';

const thrown = (f: () => unknown): Error => {
  try {
    f();
  } catch (err) {
    return err as Error;
  }
  assert.fail('expected an error');
};

test("chess.js's README examples give its answers", () => {
  const chess = new Chess();
  assert.deepEqual(chess.moves(), [
    'a3',
    'a4',
    'b3',
    'b4',
    'c3',
    'c4',
    'd3',
    'd4',
    'e3',
    'e4',
    'f3',
    'f4',
    'g3',
    'g4',
    'h3',
    'h4',
    'Na3',
    'Nc3',
    'Nf3',
    'Nh3',
  ]);
  assert.deepEqual(chess.moves({ square: 'e2' }), ['e3', 'e4']);
  assert.deepEqual(chess.moves({ piece: 'n' }), ['Na3', 'Nc3', 'Nf3', 'Nh3']);
  assert.deepEqual(chess.attackers('f3'), ['e2', 'g2', 'g1']);
  assert.deepEqual(chess.attackers('e2'), ['d1', 'e1', 'f1', 'g1']);
  assert.deepEqual(chess.attackers('f6'), []);
  assert.equal(chess.isAttacked('f3', WHITE), true);
  assert.equal(chess.isAttacked('f6', BLACK), true);
  assert.deepEqual(chess.findPiece({ type: KING, color: BLACK }), ['e8']);
  assert.deepEqual(chess.findPiece({ type: BISHOP, color: WHITE }), ['c1', 'f1']);
  assert.equal(chess.squareColor('h1'), 'light');
  assert.equal(chess.squareColor('a7'), 'dark');
  assert.equal(chess.squareColor('bogus' as 'a1'), null);
  chess.move('e4');
  assert.deepEqual(chess.attackers('f6'), ['g8', 'e7', 'g7']);
  assert.deepEqual(chess.attackers('f3', WHITE), ['g2', 'd1', 'g1']);
  chess.move('e5');
  chess.move('f4');
  assert.equal(
    chess.ascii(),
    [
      '   +------------------------+',
      ' 8 | r  n  b  q  k  b  n  r |',
      ' 7 | p  p  p  p  .  p  p  p |',
      ' 6 | .  .  .  .  .  .  .  . |',
      ' 5 | .  .  .  .  p  .  .  . |',
      ' 4 | .  .  .  .  P  P  .  . |',
      ' 3 | .  .  .  .  .  .  .  . |',
      ' 2 | P  P  P  P  .  .  P  P |',
      ' 1 | R  N  B  Q  K  B  N  R |',
      '   +------------------------+',
      '     a  b  c  d  e  f  g  h',
    ].join('\n'),
  );
  chess.move('exf4');
  assert.deepEqual(chess.history(), ['e4', 'e5', 'f4', 'exf4']);
  const last = chess.history({ verbose: true })[3];
  assert.ok(last instanceof Move);
  assert.deepEqual(
    { ...last },
    {
      color: 'b',
      from: 'e5',
      to: 'f4',
      piece: 'p',
      captured: 'p',
      promotion: undefined,
      flags: 'c',
      san: 'exf4',
      lan: 'e5f4',
      before: 'rnbqkbnr/pppp1ppp/8/4p3/4PP2/8/PPPP2PP/RNBQKBNR b KQkq f3 0 2',
      after: 'rnbqkbnr/pppp1ppp/8/8/4Pp2/8/PPPP2PP/RNBQKBNR w KQkq - 0 3',
    },
  );
  assert.equal(last.isCapture(), true);
  assert.equal(last.isEnPassant(), false);
  const pinned = new Chess('4k3/4n3/8/8/8/8/4R3/4K3 w - - 0 1');
  assert.deepEqual(pinned.attackers('c6', BLACK), ['e7']);
  assert.equal(new Chess('k7/8/n7/8/8/8/8/7K b - - 0 1').isInsufficientMaterial(), true);
  const stale = new Chess('4k3/4P3/4K3/8/8/8/8/8 b - - 0 78');
  assert.equal(stale.isStalemate(), true);
  assert.equal(stale.isDraw(), true);
  assert.equal(new Chess('rnb1kbnr/pppp1ppp/8/4p3/5PPq/8/PPPPP2P/RNBQKBNR w KQkq - 1 3').isCheckmate(), true);
  assert.equal(new Chess('4r1k1/p1prnpb1/Pp1pq1pp/3Np2P/2P1P3/R4N2/1PP2PP1/3QR1K1 w - - 2 20').moveNumber(), 20);
  assert.equal(SQUARES.length, 64);
  assert.equal(SQUARES[0], 'a8');
  assert.equal(DEFAULT_POSITION, START_FEN);
  assert.deepEqual(SEVEN_TAG_ROSTER, new ChessJs().getHeaders());
});

test('the permissive parser reads what chess.js documents; strict reads SAN only', () => {
  const chess = new Chess();
  for (const text of ['e2e4', 'e7-e5', 'Pf2-f4', 'ef4', 'Ng1-f3', 'd7xd6', 'd4']) chess.move(text);
  assert.deepEqual(chess.history(), ['e4', 'e5', 'f4', 'exf4', 'Nf3', 'd6', 'd4']);
  chess.load('r2qkbnr/ppp2ppp/2n5/1B2pQ2/4P3/8/PPP2PPP/RNB1K2R b KQkq - 3 7');
  assert.equal(chess.move('Nge7').san, 'Ne7'); // the c6 knight is pinned
  chess.undo();
  assert.equal(thrown(() => chess.move('Nge7', { strict: true })).message, 'Invalid move: Nge7');
  const err = thrown(() => new Chess().move('nf6'));
  assert.ok(err instanceof MoveError);
  assert.equal(err.message, 'Invalid move: nf6');
  assert.equal(thrown(() => new Chess().move({ from: 'e2', to: 'e5' })).message, 'Invalid move: {"from":"e2","to":"e5"}');
  assert.equal(new Chess().move({ from: 'g2', to: 'g3' }).san, 'g3');
  assert.equal(new Chess('7k/1P6/8/8/8/8/8/K7 w - - 0 1').move({ from: 'b7', to: 'b8', promotion: 'q' }).san, 'b8=Q+');
  // UCI is long algebraic: e7e8q.
  assert.equal(new Chess('7k/1P6/8/8/8/8/8/K7 w - - 0 1').move('b7b8r').san, 'b8=R+');
});

test('null moves: move(null), move("--") and setTurn pass the turn as chess.js records it', () => {
  for (const pass of [(c: Chess | ChessJs) => c.move(null), (c: Chess | ChessJs) => c.setTurn('b')]) {
    const ours = new Chess(),
      theirs = new ChessJs();
    pass(ours);
    pass(theirs);
    assert.equal(ours.fen(), theirs.fen());
    assert.deepEqual(ours.history(), ['--']);
    assert.deepEqual({ ...ours.undo() }, { ...theirs.undo() });
    assert.equal(ours.fen(), START_FEN);
  }
  const mated = new Chess('rnb1kbnr/pppp1ppp/8/4p3/5PPq/8/PPPPP2P/RNBQKBNR w KQkq - 1 3');
  assert.equal(thrown(() => mated.move(null)).message, 'Null move not allowed when in check');
  assert.equal(thrown(() => mated.setTurn('b')).message, 'Null move not allowed when in check');
  assert.equal(new Chess().setTurn('w'), false);
});

test('headers and comments behave as chess.js', () => {
  const ours = new Chess('4k3/8/8/8/8/8/8/4K3 w - - 0 1');
  assert.deepEqual(ours.getHeaders(), { ...SEVEN_TAG_ROSTER, SetUp: '1', FEN: '4k3/8/8/8/8/8/8/4K3 w - - 0 1' });
  ours.setHeader('White', 'Morphy');
  assert.equal(ours.removeHeader('Event'), true); // back to '?'
  assert.equal(ours.removeHeader('NoSuchTag'), false);
  assert.equal(ours.header().ECO, null);
  ours.load(START_FEN, { preserveHeaders: true });
  assert.deepEqual(ours.getHeaders(), { ...SEVEN_TAG_ROSTER, White: 'Morphy' });
  ours.move('e4');
  ours.setComment("king's pawn opening");
  assert.equal(ours.getComment(), "king's pawn opening");
  ours.move('e5');
  assert.equal(ours.getComment(), undefined);
  assert.deepEqual(ours.getComments(), [
    { fen: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1', comment: "king's pawn opening" },
  ]);
  assert.equal(ours.deleteComments().length, 1);
  assert.deepEqual(ours.getComments(), []);
});

test('difference: the en-passant square is written after every double step (PGN standard), chess.js only when capturable', () => {
  const ours = new Chess(),
    theirs = new ChessJs();
  assert.equal(ours.move('e4').after, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1');
  assert.equal(theirs.move('e4').after, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
  assert.equal(ours.fen({ forceEnpassantSquare: false }), ours.fen()); // accepted, changes nothing
});

test('difference: threefold repetition counts en passant as FIDE does (only a legal capture makes positions differ)', () => {
  // After ...c7-c5 the b5 pawn stands beside it, but bxc6 would expose the king on a5 to the rook.
  const fen = '4k1n1/2p5/8/KP5r/8/8/8/6N1 b - - 0 1';
  const ours = new Chess(fen),
    theirs = new ChessJs(fen);
  for (const san of ['c5', 'Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8']) {
    ours.move(san);
    theirs.move(san);
  }
  assert.equal(ours.isThreefoldRepetition(), true);
  assert.equal(theirs.isThreefoldRepetition(), false);
});

test("difference: chess.js's repetition counts go wrong once a turn was passed and history() replayed it", () => {
  const ours = new Chess(),
    theirs = new ChessJs();
  for (const c of [ours, theirs]) {
    c.move(null);
    c.move('Nf6');
    c.history();
    c.undo();
    c.undo();
    for (const san of ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8']) c.move(san);
  }
  assert.equal(ours.isThreefoldRepetition(), true);
  assert.equal(theirs.isThreefoldRepetition(), false);
});

test('difference: a checkmate on the fiftieth move stands (FIDE 9.3); chess.js also calls it a draw', () => {
  const fen = 'k7/8/1K6/8/8/8/8/7R w - - 99 80';
  const ours = new Chess(fen),
    theirs = new ChessJs(fen);
  ours.move('Rh8#');
  theirs.move('Rh8#');
  assert.deepEqual([ours.isCheckmate(), ours.isDrawByFiftyMoves(), ours.isDraw(), ours.isGameOver()], [true, false, false, true]);
  assert.deepEqual([theirs.isCheckmate(), theirs.isDrawByFiftyMoves(), theirs.isDraw(), theirs.isGameOver()], [true, true, true, true]);
});

test('difference: FEN validation follows the rules and names the field', () => {
  const cases: Array<[string, string, boolean]> = [
    // [fen, the field our error names (or '' when we accept), chess.js's ok]
    ['4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1', 'position', true], // the side not to move is in check
    ['4k3/8/8/8/8/8/8/4K2R w Q - 0 1', 'castling', true], // no rook on a1
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1', 'en-passant square', true], // no pawn on e5
    ['r3k2r/8/8/8/8/8/8/R3K2R w KQkqq - 0 1', 'castling', true],
    ['r3k2r/8/8/8/8/8/8/R3K2R w K- - 0 1', 'castling', true],
    ['r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1e2 1', 'halfmove clock', true],
    ['r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 +1', 'fullmove number', true],
    ['r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1', 'castling', false], // Shredder-FEN: Chess960 only
    ['r3k2r/8/8/44/8/8/8/R3K2R w KQkq - 0 1', '', false], // 4+4 empty squares
    [' r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', '', false], // space around
    ['r3k2r/8/8/8/8/8/8/R3K2R w KQkq -', 'FEN', false], // six fields, as chess.js asks (load takes fewer)
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1', 'piece placement', false],
  ];
  for (const [fen, field, theirsOk] of cases) {
    const ours = validateFen(fen);
    assert.equal(ours.ok, field === '', `${fen}: ${JSON.stringify(ours)}`);
    if (field === 'FEN') assert.match(ours.error!, /^Invalid FEN: expected 6 space-separated fields/);
    else if (field) assert.ok(ours.error!.startsWith(`Invalid FEN: ${field}: `), `${fen}: ${ours.error}`);
    assert.equal(chessJsValidateFen(fen).ok, theirsOk, `chess.js on ${fen}`);
  }
  const err = thrown(() => new Chess('4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1'));
  assert.ok(err instanceof FenError);
  assert.equal(err.field, 'position');
  assert.equal(err.message, 'Invalid FEN: position: the side not to move (black) is in check');
  assert.equal(new Chess('r3k2r/8/8/8/8/8/8/R3K2R w KQkq -').fen(), 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  assert.equal(new Chess('r3k2r/8/8/8/8/8/8/R3K2R b').fen(), 'r3k2r/8/8/8/8/8/8/R3K2R b - - 0 1');
});

test('difference: skipValidation skips the rules, not the syntax; a board that is not a legal position has no moves', () => {
  assert.ok(thrown(() => new Chess('bad', { skipValidation: true })) instanceof FenError);
  assert.throws(() => new Chess('r3k2r/8/8/8/8/8/8/R3K2X w KQkq - 0 1', { skipValidation: true }), /piece placement: bad piece letter 'X'/);
  // Castling rights without their rooks are dropped (chess.js keeps them and generates O-O-O with no rook).
  const rights = new Chess('4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1', { skipValidation: true });
  assert.equal(rights.fen(), '4k3/8/8/8/8/8/8/4K2R w K - 0 1');
  assert.ok(new ChessJs('4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1', { skipValidation: true }).moves().includes('O-O-O'));
  // The side not to move in check: chess.js lets the king be taken (Qxe8); we hold the board with no moves.
  const fen = '4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1';
  const ours = new Chess(fen, { skipValidation: true });
  assert.equal(ours.fen(), fen);
  assert.deepEqual(ours.moves(), []);
  assert.equal(ours.isGameOver(), true);
  assert.deepEqual(ours.attackers('e8'), ['e7']);
  assert.ok(new ChessJs(fen, { skipValidation: true }).moves().includes('Qxe8'));
  assert.ok(thrown(() => ours.position) instanceof FenError);
  // An empty board, then kings put on it: a legal position again, with moves.
  ours.clear();
  assert.equal(ours.fen(), '8/8/8/8/8/8/8/8 w - - 0 1');
  assert.equal(ours.put({ type: KING, color: WHITE }, 'e1'), true);
  assert.equal(ours.put({ type: KING, color: WHITE }, 'e2'), false);
  assert.deepEqual(ours.moves(), []);
  assert.equal(ours.put({ type: KING, color: BLACK }, 'e8'), true);
  assert.deepEqual(ours.moves(), ['Kd2', 'Ke2', 'Kf2', 'Kf1', 'Kd1']);
  assert.equal(ours.position.toFen(), '4k3/8/8/8/8/8/8/4K3 w - - 0 1');
});

test('difference: put refuses a pawn on the first or last rank (chess.js puts it, then cannot generate moves)', () => {
  const ours = new Chess(),
    theirs = new ChessJs();
  assert.equal(ours.put({ type: PAWN, color: WHITE }, 'e8'), false);
  assert.equal(theirs.put({ type: PAWN, color: WHITE }, 'e8'), true);
  assert.throws(() => theirs.moves());
  assert.equal(ours.fen(), START_FEN);
});

test('difference: a board edit after moves starts a new game from the edited board; setCastlingRights sets the FEN tag', () => {
  const ours = new Chess(),
    theirs = new ChessJs();
  for (const c of [ours, theirs]) {
    c.move('e4');
    c.put({ type: QUEEN, color: WHITE }, 'e5');
  }
  assert.equal(ours.fen(), 'rnbqkbnr/pppppppp/8/4Q3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1');
  assert.equal(theirs.fen(), 'rnbqkbnr/pppppppp/8/4Q3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
  assert.deepEqual(ours.history(), []);
  assert.deepEqual(theirs.history(), ['e4']);
  assert.equal(ours.undo(), null);
  assert.equal(ours.getHeaders().FEN, ours.fen());
  const castle = new Chess();
  assert.equal(castle.setCastlingRights(WHITE, { k: false }), true);
  assert.equal(castle.getHeaders().FEN, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qkq - 0 1');
  const theirCastle = new ChessJs();
  theirCastle.setCastlingRights(WHITE, { k: false });
  assert.equal(theirCastle.getHeaders().FEN, undefined);
  assert.equal(castle.setCastlingRights(BLACK, { q: true }), true);
  assert.equal(castle.setCastlingRights(WHITE, { k: true }), true); // the rook is on h1
  assert.equal(new Chess('4k3/8/8/8/8/8/8/4K3 w - - 0 1').setCastlingRights(WHITE, { q: true }), false);
});

test('difference: move text that names no single move is refused, and SAN is always SAN', () => {
  // Knights on d8 and d6 both reach f7: chess.js plays one of them for 'Ndf7'.
  const fen = '3N4/6K1/3N4/8/8/8/k7/8 w - - 1 20';
  assert.throws(() => new Chess(fen).move('Ndf7'), /Invalid move: Ndf7/);
  assert.equal(new ChessJs(fen).move('Ndf7').san, 'N8f7');
  // Long algebraic promotion without its piece: chess.js promotes to a knight.
  assert.throws(() => new Chess('7k/1P6/8/8/8/8/8/K7 w - - 0 1').move('b7b8'), /Invalid move: b7b8/);
  assert.equal(new ChessJs('7k/1P6/8/8/8/8/8/K7 w - - 0 1').move('b7b8').san, 'b8=N');
  // A b-pawn's capture without its x: chess.js reads the b as a bishop.
  assert.equal(new Chess('7k/8/8/p7/1P6/8/8/7K w - - 0 1').move('ba5').san, 'bxa5');
  assert.throws(() => new ChessJs('7k/8/8/p7/1P6/8/8/7K w - - 0 1').move('ba5'));
  // moves({ square }): chess.js tells rooks apart only among the moves asked for.
  const rooks = '1r4r1/8/8/8/8/8/8/K1k5 b - - 0 1';
  assert.deepEqual(new Chess(rooks).moves({ square: 'b8' }).slice(0, 2), ['Rbc8', 'Rbd8']);
  assert.deepEqual(new ChessJs(rooks).moves({ square: 'b8' }).slice(0, 2), ['Rc8', 'Rd8']);
});

test('difference: perft counts leaves (1 at depth 0) and refuses a depth that is not a whole number', () => {
  assert.equal(new Chess().perft(0), 1);
  assert.equal(new ChessJs().perft(0), 20);
  assert.throws(() => new Chess().perft(-1), RangeError);
  assert.throws(() => new Chess().perft(1.5), RangeError);
  assert.equal(new Chess().perft(3), 8902);
});

test('pgn() and loadPgn(): the same text as chess.js for a plain game, headers, comments, FEN start, strict, an illegal move', () => {
  const ours = new Chess(),
    theirs = new ChessJs();
  for (const c of [ours, theirs]) {
    c.setHeader('White', 'Morphy');
    c.setComment('the start');
    for (const san of ['e4', 'e5']) c.move(san);
    c.setComment('symmetry');
    c.move('Nf3');
    c.move('d6');
  }
  assert.equal(ours.pgn(), theirs.pgn());
  assert.equal(ours.pgn({ newline: '<br />' }), theirs.pgn({ newline: '<br />' }));
  const text = ours.pgn();
  for (const [c, C] of [
    [new Chess(), 'ours'],
    [new ChessJs(), 'theirs'],
  ] as const) {
    c.loadPgn(text);
    assert.deepEqual(c.history(), ['e4', 'e5', 'Nf3', 'd6'], C);
    assert.equal(c.getHeaders().White, 'Morphy', C);
    assert.deepEqual(
      c.getComments().map((x) => x.comment),
      ['the start', 'symmetry'],
      C,
    );
    assert.throws(() => c.loadPgn('1. e4 e5 2. Ke3 *'), { message: 'Invalid move in PGN: Ke3' });
  }
  // strict: the FEN tag counts only with SetUp "1".
  const black = '[FEN "4k3/8/8/8/8/8/8/4K2R b K - 0 1"]\n\n1... Kd7 *';
  assert.throws(() => new Chess().loadPgn(black, { strict: true }), { message: 'Invalid move in PGN: Kd7' });
  const loaded = new Chess();
  loaded.loadPgn(black);
  assert.equal(loaded.fen(), '8/3k4/8/8/8/8/8/4K2R w K - 1 2');
  assert.throws(() => new Chess().loadPgn('[SetUp "1"]\n\n*', { strict: true }), {
    message: 'Invalid PGN: FEN tag must be supplied with SetUp tag',
  });
});

test("difference: pgn() writes the standard's export form (escaped tag values, 1... after a comment and at a Black start, a blank line after the tags)", () => {
  const ours = new Chess('4k3/8/8/8/8/8/8/4K2R b K - 0 1'),
    theirs = new ChessJs('4k3/8/8/8/8/8/8/4K2R b K - 0 1');
  for (const c of [ours, theirs]) {
    c.setHeader('White', 'O"Brien');
    c.move('Kd7');
    c.move('O-O');
    c.setComment('castles');
    c.move('Kc6');
  }
  assert.match(ours.pgn(), /\[White "O\\"Brien"\]\n[^]*\n\n1\.\.\. Kd7 2\. O-O \{castles\} 2\.\.\. Kc6 \*$/);
  assert.match(theirs.pgn(), /\[White "O"Brien"\]\n[^]*\n\n1\. \.\.\. Kd7 2\. O-O \{castles\} Kc6 \*$/);
  // chess.js cannot read its own tag back; ours reads both.
  assert.throws(() => new ChessJs().loadPgn(theirs.pgn()));
  const back = new Chess();
  back.loadPgn(ours.pgn());
  assert.equal(back.getHeaders().White, 'O"Brien');
  assert.deepEqual(back.history(), ['Kd7', 'O-O', 'Kc6']);
  // No moves: chess.js writes ' *' right after the tags, ours a blank line first.
  assert.ok(new Chess().pgn().endsWith('[Result "*"]\n\n*'));
  assert.ok(new ChessJs().pgn().endsWith('[Result "*"]\n *'));
  // setComment keeps braces (chess.js turns the first of each into brackets); pgn() writes a ';' comment.
  const braces = new Chess(),
    bracesJs = new ChessJs();
  for (const c of [braces, bracesJs]) {
    c.move('e4');
    c.setComment('a {b} c');
    c.setHeader('Result', 'unknown');
  }
  assert.deepEqual([braces.getComment(), bracesJs.getComment()], ['a {b} c', 'a [b] c']);
  assert.ok(braces.pgn().endsWith('\n\n1. e4 ;a {b} c\n*'), braces.pgn());
  assert.ok(bracesJs.pgn().endsWith('\n\n1. e4 {a [b] c} unknown'), bracesJs.pgn());
  // maxWidth: ours breaks between moves, a number kept with its move.
  const long = new Chess();
  for (const san of ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6']) long.move(san);
  assert.deepEqual(long.pgn({ maxWidth: 12 }).split('\n\n')[1].split('\n'), ['1. e4 e5', '2. Nf3 Nc6', '3. Bb5 a6', '4. Ba4 Nf6 *']);
});

test('difference: loadPgn() reads the whole standard (escapes, several comments, comments before a move or after a variation, % lines) and fails without changing the game', () => {
  const text =
    '[Event "a\\\\b"]\n%escape line\n\n{first} {second} 1. e4 (1. d4) {after the variation} 1... e5 2. {before} Nf3 $1 {c} ; to the end\n*';
  assert.throws(() => new ChessJs().loadPgn(text));
  const ours = new Chess();
  ours.loadPgn(text);
  assert.equal(ours.getHeaders().Event, 'a\\b');
  assert.deepEqual(
    ours.getComments().map((c) => c.comment),
    ['first second', 'after the variation', 'before', 'c  to the end'],
  );
  // A ';' comment keeps the text after the ';' as it is (chess.js trims it).
  const semi = new Chess(),
    semiJs = new ChessJs();
  semi.loadPgn('1. e4 ; note\n*');
  semiJs.loadPgn('1. e4 ; note\n*');
  assert.deepEqual([semi.getComment(), semiJs.getComment()], [' note', 'note']);
  // A comment after the termination marker joins the last one (chess.js replaces it).
  const after = new Chess(),
    afterJs = new ChessJs();
  after.loadPgn('1. e4 {x} 1-0 {after}');
  afterJs.loadPgn('1. e4 {x} 1-0 {after}');
  assert.deepEqual([after.getComment(), afterJs.getComment()], ['x after', 'after']);
  // A failed load leaves the game as it was (chess.js keeps the moves before the bad one, and loses the rest).
  const kept = new Chess(),
    keptJs = new ChessJs();
  for (const c of [kept, keptJs]) {
    c.move('d4');
    c.setHeader('White', 'me');
    assert.throws(() => c.loadPgn('1. e4 e5 2. Ke3 *'));
  }
  assert.deepEqual([kept.history(), kept.getHeaders().White], [['d4'], 'me']);
  assert.deepEqual([keptJs.history(), keptJs.getHeaders().White], [['e4', 'e5'], '?']);
  // More than one game is refused; errors name the line and column.
  assert.throws(() => new Chess().loadPgn('1. e4 * 1. d4 *'), { name: 'PgnError', message: 'Invalid PGN: expected one game, found 2' });
  assert.throws(() => new Chess().loadPgn('1. e4 {open'), { name: 'PgnError', message: /^game 1, line 1, column 7: unclosed comment/ });
});

test('hash: the core Zobrist key, 16 hex digits, equal for a transposition', () => {
  const a = new Chess(),
    b = new Chess();
  for (const san of ['Nf3', 'Nf6', 'd4']) a.move(san);
  for (const san of ['d4', 'Nf6', 'Nf3']) b.move(san);
  assert.match(a.hash(), /^[0-9a-f]{16}$/);
  assert.equal(a.hash(), b.hash());
  assert.notEqual(a.hash(), new Chess().hash());
  const pos = a.position;
  assert.equal(a.hash(), (pos.hashHi >>> 0).toString(16).padStart(8, '0') + (pos.hashLo >>> 0).toString(16).padStart(8, '0'));
});

test('extension: Chess960 castles king-takes-own-rook in UCI, O-O in SAN, X-FEN castling, the Variant tag', () => {
  assert.equal(Chess.chess960(0).fen(), 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1');
  assert.equal(Chess.chess960(518).chess960, true);
  // King on g1 beside its rook: O-O leaves the king where it is and puts the rook on f1.
  const game = new Chess('4k3/8/8/8/8/8/8/6KR w K - 0 1', { chess960: true });
  assert.equal(game.getHeaders().Variant, 'Chess960');
  assert.equal(game.getHeaders().FEN, '4k3/8/8/8/8/8/8/6KR w K - 0 1');
  assert.ok(game.moves({ verbose: true }).some((m) => m.lan === 'g1h1' && m.san === 'O-O'));
  const castle = game.move('g1h1');
  assert.deepEqual([castle.san, castle.lan, castle.from, castle.to, castle.flags], ['O-O', 'g1h1', 'g1', 'g1', 'k']);
  assert.equal(game.fen(), '4k3/8/8/8/8/8/8/5RK1 b - - 1 1');
  assert.deepEqual(
    game.history({ verbose: true }).map((m) => m.lan),
    ['g1h1'],
  );
  assert.equal(game.undo()?.lan, 'g1h1');
  assert.equal(game.move('O-O').lan, 'g1h1');
  game.undo();
  assert.equal(game.move({ from: 'g1', to: 'h1' }).san, 'O-O');
  // X-FEN and Shredder-FEN rook letters load in Chess960 only.
  const shredder = 'rk4r1/8/8/8/8/8/8/RK4R1 w GAga - 0 1';
  assert.equal(new Chess(shredder, { chess960: true }).fen(), 'rk4r1/8/8/8/8/8/8/RK4R1 w KQkq - 0 1');
  assert.equal(validateFen(shredder, { chess960: true }).ok, true);
  assert.match(validateFen(shredder).error!, /^Invalid FEN: castling: /);
  // Without the option a castle is the king's move, and king-takes-own-rook is read too (chess.js refuses it).
  const standard = new Chess('4k3/8/8/8/8/8/8/4K2R w K - 0 1');
  const played = standard.move('e1h1');
  assert.deepEqual([played.san, played.lan], ['O-O', 'e1g1']);
  assert.throws(() => new ChessJs('4k3/8/8/8/8/8/8/4K2R w K - 0 1').move('e1h1'));
});

test('extension: the live Position, for the engine', () => {
  const chess = new Chess();
  chess.move('e4');
  chess.move('e5');
  const result = new Engine({ hashMb: 1 }).search(chess.position, { depth: 3 });
  assert.ok(
    chess.moves({ verbose: true }).some((m) => m.lan === moveToUci(result.bestMove)),
    moveToUci(result.bestMove),
  );
  assert.equal(chess.fen(), 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2');
  assert.equal(chess.position.ply, 2);
});
