/**
 * The differential comparison of matrix-chess/compat against chess.js 1.4, shared by
 * test/compat-differential.test.ts (a few hundred games in CI) and bench/compat-bench.ts (ten
 * thousand and more). Both libraries play the same seeded random games, edit the same boards and
 * read the same good and corrupted FENs; every method's answer is compared and any difference
 * that is not one of docs/coming-from-chess-js.md's documented ones fails with an assertion
 * naming the position. Documented differences met on the way are counted, not skipped: each is
 * checked to be the documented one (the test asserts the condition that explains it).
 */
import assert from 'node:assert/strict';
import { Chess as ChessJs, validateFen as chessJsValidateFen, type Move as ChessJsMove, type Square as ChessJsSquare } from 'chess.js';
import { Chess, Move, SQUARES, validateFen, type Color, type PieceSymbol } from '../src/compat/index.js';
import { Position } from '../src/core/position.js';
import { FenError, START_FEN, type FenField } from '../src/core/fen.js';
import { legalMoveList } from '../src/core/notation.js';
import { KIND_EN_PASSANT, moveKind, moveToUci } from '../src/core/move.js';
import { makePgn, parsePgnGame } from '../src/core/pgn/index.js';

export interface Tally {
  games: number;
  plies: number;
  /** Method calls compared, by method. */
  calls: Map<string, number>;
  /** Documented differences met, by name (docs/coming-from-chess-js.md). */
  documented: Map<string, number>;
  /** Positions compared where a game-end rule held in both, by rule: proof the rules were reached. */
  ends: Map<string, number>;
}

export function newTally(): Tally {
  return { games: 0, plies: 0, calls: new Map(), documented: new Map(), ends: new Map() };
}

function count(map: Map<string, number>, key: string, n = 1): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

const scratch = new Position();
const chessJsFenCache = new Map<string, string>();

/**
 * Our FEN as chess.js writes it: chess.js prints the en-passant square only when an en-passant
 * capture is legal, we after every double step (documented difference 1).
 */
export function asChessJsFen(fen: string): string {
  const fields = fen.split(' ');
  if (fields.length !== 6 || fields[3] === '-') return fen;
  let out = chessJsFenCache.get(fen);
  if (out === undefined) {
    let legal = false;
    try {
      scratch.setFen(fen);
      legal = legalMoveList(scratch).some((m) => moveKind(m) === KIND_EN_PASSANT);
    } catch {
      legal = false; // a board being set up (no king, …): no legal moves at all
    }
    out = legal ? fen : [...fields.slice(0, 3), '-', ...fields.slice(4)].join(' ');
    if (chessJsFenCache.size > 100_000) chessJsFenCache.clear();
    chessJsFenCache.set(fen, out);
  }
  return out;
}

type MoveLike = Move | ChessJsMove;

/** A move as plain data: every field (FENs in chess.js's form), the own keys in order, the helpers' answers. */
function moveRecord(m: MoveLike, ours: boolean): Record<string, unknown> {
  const fen = (f: string) => (ours ? asChessJsFen(f) : f);
  return {
    keys: Object.keys(m).join(','),
    color: m.color,
    from: m.from,
    to: m.to,
    piece: m.piece,
    captured: m.captured,
    promotion: m.promotion,
    flags: m.flags,
    san: m.san,
    lan: m.lan,
    before: fen(m.before),
    after: fen(m.after),
    helpers: [m.isCapture(), m.isPromotion(), m.isEnPassant(), m.isKingsideCastle(), m.isQueensideCastle(), m.isBigPawn()].join(),
  };
}

export function assertSameMoves(ours: Move[], theirs: ChessJsMove[], where: string): void {
  assert.equal(ours.length, theirs.length, `move count differs ${where}`);
  for (let i = 0; i < ours.length; i++) {
    assert.ok(ours[i] instanceof Move, `not a Move ${where}`);
    assert.deepEqual(moveRecord(ours[i], true), moveRecord(theirs[i], false), `move ${i} differs ${where}`);
  }
}

/**
 * Is the threefold difference the documented one (2)? chess.js keys a position after a double
 * step by the en-passant square whenever an enemy pawn stands beside the pawn; FIDE (and we) only
 * when the capture is legal. Returns true when the game holds such a position.
 */
function pseudoEnPassantSeen(ours: Chess): boolean {
  return ours.history({ verbose: true }).some((m) => {
    if (!m.isBigPawn()) return false;
    const after = m.after.split(' ');
    if (asChessJsFen(m.after).split(' ')[3] !== '-') return false; // the capture was legal
    const to = SQUARES.indexOf(m.to);
    const beside = [to - 1, to + 1].filter((i) => Math.floor(i / 8) === Math.floor(to / 8));
    const enemyPawn = { type: 'p', color: m.color === 'w' ? 'b' : 'w' };
    const board = new Chess(after.join(' '));
    return beside.some((i) => {
      const p = board.get(SQUARES[i]);
      return p !== undefined && p.type === enemyPawn.type && p.color === enemyPawn.color;
    });
  });
}

/**
 * Status predicates, with the documented differences checked and counted: threefold by FIDE's
 * en passant, chess.js's repetition counts going wrong once a turn was passed in the game
 * (`turnPassed`), and a mate on the fiftieth move standing.
 */
function compareStatus(ours: Chess, theirs: ChessJs, tally: Tally, where: string, turnPassed: boolean, full: boolean): void {
  const mate = ours.isCheckmate();
  assert.equal(mate, theirs.isCheckmate(), `isCheckmate ${where}`);
  assert.equal(ours.isCheck(), theirs.isCheck(), `isCheck ${where}`);
  assert.equal(ours.inCheck(), theirs.inCheck(), `inCheck ${where}`);
  assert.equal(ours.isInsufficientMaterial(), theirs.isInsufficientMaterial(), `isInsufficientMaterial ${where}`);
  const fifty = theirs.isDrawByFiftyMoves();
  if (fifty && mate) {
    assert.equal(ours.isDrawByFiftyMoves(), false, `a mate on the fiftieth move stands ${where}`);
    count(tally.documented, 'fifty-move rule: checkmate stands');
  } else assert.equal(ours.isDrawByFiftyMoves(), fifty, `isDrawByFiftyMoves ${where}`);
  const threefold = ours.isThreefoldRepetition(),
    theirThreefold = theirs.isThreefoldRepetition();
  if (threefold !== theirThreefold) {
    if (turnPassed) count(tally.documented, 'threefold: chess.js miscounts once a turn was passed');
    else {
      assert.ok(
        pseudoEnPassantSeen(ours),
        `isThreefoldRepetition ${where}: ours ${threefold}, and no en-passant square chess.js keys differently`,
      );
      count(tally.documented, 'threefold: en passant as FIDE counts it');
    }
  }
  const stalemate = ours.isStalemate();
  const draw = ours.isDrawByFiftyMoves() || stalemate || ours.isInsufficientMaterial() || threefold;
  assert.equal(ours.isDraw(), draw, `isDraw is not its parts ${where}`);
  assert.equal(ours.isGameOver(), mate || draw, `isGameOver is not its parts ${where}`);
  count(tally.calls, 'isCheck, inCheck, isCheckmate, isInsufficientMaterial, isDrawByFiftyMoves, isThreefoldRepetition', 6);
  if (mate) count(tally.ends, 'checkmate');
  if (stalemate) count(tally.ends, 'stalemate');
  if (ours.isInsufficientMaterial()) count(tally.ends, 'insufficient material');
  if (ours.isDrawByFiftyMoves()) count(tally.ends, 'fifty moves');
  if (threefold && threefold === theirThreefold) count(tally.ends, 'threefold repetition');
  if (!full) return; // the three below each generate chess.js's moves again
  assert.equal(stalemate, theirs.isStalemate(), `isStalemate ${where}`);
  if (draw !== theirs.isDraw()) assert.ok((fifty && mate) || threefold !== theirThreefold, `isDraw ${where}`);
  if (ours.isGameOver() !== theirs.isGameOver()) assert.ok(threefold !== theirThreefold, `isGameOver ${where}`);
  count(tally.calls, 'isStalemate, isDraw, isGameOver', 3);
}

/** Everything a board answers without moves: FEN, squares, pictures, attacks. */
function compareBoard(ours: Chess, theirs: ChessJs, tally: Tally, where: string, detail: boolean): void {
  assert.equal(asChessJsFen(ours.fen()), theirs.fen(), `fen ${where}`);
  assert.equal(ours.turn(), theirs.turn(), `turn ${where}`);
  assert.equal(ours.moveNumber(), theirs.moveNumber(), `moveNumber ${where}`);
  for (const c of ['w', 'b'] as const)
    assert.deepEqual(ours.getCastlingRights(c), theirs.getCastlingRights(c), `getCastlingRights(${c}) ${where}`);
  count(tally.calls, 'fen, turn, moveNumber, getCastlingRights', 5);
  if (!detail) return;
  assert.deepEqual(ours.board(), theirs.board(), `board ${where}`);
  assert.equal(ours.ascii(), theirs.ascii(), `ascii ${where}`);
  for (const sq of SQUARES) {
    assert.deepEqual(ours.get(sq), theirs.get(sq as ChessJsSquare), `get(${sq}) ${where}`);
    for (const c of ['w', 'b'] as const) {
      assert.equal(ours.isAttacked(sq, c), theirs.isAttacked(sq as ChessJsSquare, c), `isAttacked(${sq}, ${c}) ${where}`);
      assert.deepEqual(ours.attackers(sq, c), theirs.attackers(sq as ChessJsSquare, c), `attackers(${sq}, ${c}) ${where}`);
    }
    assert.deepEqual(ours.attackers(sq), theirs.attackers(sq as ChessJsSquare), `attackers(${sq}) ${where}`);
  }
  for (const type of ['p', 'n', 'b', 'r', 'q', 'k'] as const)
    for (const color of ['w', 'b'] as const)
      assert.deepEqual(ours.findPiece({ type, color }), theirs.findPiece({ type, color }), `findPiece(${color}${type}) ${where}`);
  count(tally.calls, 'board, ascii, get, isAttacked, attackers, findPiece', 2 + 64 * 6 + 12);
}

/**
 * How often the costly comparisons run (chess.js's moves({ verbose }) and history() cost
 * milliseconds, and each of its status predicates generates its moves): every `status`-th ply
 * isStalemate, isDraw and isGameOver; every `detail`-th ply the board in full and the verbose and per-piece moves,
 * every `squares`-th moves({ square }) for all 64 squares, every `history`-th history(), every
 * `verboseHistory`-th history({ verbose }). FEN, turn, the other status predicates and moves()
 * are compared every ply, and everything at a game's last ply.
 */
export interface Schedule {
  status: number;
  detail: number;
  squares: number;
  history: number;
  verboseHistory: number;
}

/** Moves in every form the library offers. */
function compareMoves(
  ours: Chess,
  theirs: ChessJs,
  tally: Tally,
  where: string,
  ply: number,
  schedule: Schedule,
  random: () => number,
): string[] {
  const san = ours.moves();
  assert.deepEqual(san, theirs.moves(), `moves() ${where}`);
  count(tally.calls, 'moves()');
  let all: ChessJsMove[] | undefined;
  if (ply % schedule.detail === 0) {
    all = theirs.moves({ verbose: true });
    assertSameMoves(ours.moves({ verbose: true }), all, `in moves({ verbose: true }) ${where}`);
    for (const piece of ['p', 'n', 'b', 'r', 'q', 'k'] as const)
      assert.deepEqual(ours.moves({ piece }), theirs.moves({ piece }), `moves({ piece: ${piece} }) ${where}`);
    const piece = (['p', 'n', 'b', 'r', 'q', 'k'] as const)[Math.floor(random() * 6)];
    assertSameMoves(
      ours.moves({ piece, verbose: true }),
      theirs.moves({ piece, verbose: true }),
      `in moves({ piece: ${piece}, verbose }) ${where}`,
    );
    count(tally.calls, 'moves({ verbose }), moves({ piece })', 8);
  }
  if (ply % schedule.squares === 0) {
    for (const square of SQUARES) {
      const mine = ours.moves({ square }),
        theirSan = theirs.moves({ square: square as ChessJsSquare });
      if (mine.join() === theirSan.join()) continue;
      // chess.js tells a piece from its rivals only among the moves asked for, so moves({ square }) can lack a needed file or rank.
      all ??= theirs.moves({ verbose: true });
      assert.deepEqual(
        mine,
        all.filter((m) => m.from === square).map((m) => m.san),
        `moves({ square: ${square} }) ${where}`,
      );
      count(tally.documented, 'moves({ square }): SAN told apart among all moves');
    }
    const square = SQUARES[Math.floor(random() * 64)];
    const mine = ours.moves({ square, verbose: true });
    if (mine.length > 0 && mine.map((m) => m.san).join() === theirs.moves({ square: square as ChessJsSquare }).join())
      assertSameMoves(
        mine,
        theirs.moves({ square: square as ChessJsSquare, verbose: true }),
        `in moves({ square: ${square}, verbose }) ${where}`,
      );
    count(tally.calls, 'moves({ square })', 65);
  }
  return san;
}

function compareHistory(ours: Chess, theirs: ChessJs, tally: Tally, where: string, ply: number, schedule: Schedule, last: boolean): void {
  if (ply % schedule.history === 0 || last) {
    assert.deepEqual(ours.history(), theirs.history(), `history() ${where}`);
    count(tally.calls, 'history()');
  }
  if (ply % schedule.verboseHistory === 0 || last) {
    assertSameMoves(ours.history({ verbose: true }), theirs.history({ verbose: true }), `in history({ verbose: true }) ${where}`);
    count(tally.calls, 'history({ verbose })');
  }
}

/** A move (its UCI) that leaves the opponent no legal move (mate or stalemate), if there is one; made and taken back on the live Position. */
function gameEndingMove(ours: Chess): string | undefined {
  const pos = ours.position;
  for (const m of legalMoveList(pos)) {
    pos.makeMove(m);
    const none = legalMoveList(pos).length === 0;
    pos.unmakeMove();
    if (none) return moveToUci(m);
  }
  return undefined;
}

/** The move as the random game gives it: SAN, a { from, to, promotion } object, or LAN, to exercise each parser. */
function moveInput(m: Move, random: () => number): string | { from: string; to: string; promotion?: string } {
  const r = random();
  if (r < 0.5) return m.san;
  if (r < 0.75) return m.promotion ? { from: m.from, to: m.to, promotion: m.promotion } : { from: m.from, to: m.to };
  return m.lan;
}

/**
 * One seeded random game from `start` on both libraries, compared at every ply; undoes a few
 * plies now and then, passes the turn (setTurn / null move) now and then, and, to reach the
 * draw rules, often takes back its own previous move (repetitions) or plays a move that ends
 * the game.
 */
export function differentialGame(
  start: string,
  random: () => number,
  { maxPlies, schedule, passTurns }: { maxPlies: number; schedule: Schedule; passTurns: boolean },
  tally: Tally,
): void {
  const ours = new Chess(start),
    theirs = new ChessJs(start);
  const played: Move[] = [];
  let turnPassed = false;
  const where = () => `from ${start} after ${played.map((m) => m.san).join(' ') || '(no moves)'}: ${ours.fen()}`;
  for (let ply = 0; ; ply++) {
    const here = where();
    compareBoard(ours, theirs, tally, here, ply % schedule.detail === 0);
    const moves = compareMoves(ours, theirs, tally, here, ply, schedule, random);
    const last = ply >= maxPlies || moves.length === 0;
    compareStatus(ours, theirs, tally, here, turnPassed, last || ply % schedule.status === 0);
    compareHistory(ours, theirs, tally, here, ply, schedule, last);
    tally.plies++;
    if (last) break;
    const r = random();
    if (r < 0.03 && played.length > 0) {
      for (let k = 1 + Math.floor(random() * 3); k > 0 && played.length > 0; k--) {
        const a = ours.undo(),
          b = theirs.undo();
        assert.ok(a !== null && b !== null, `undo returned null ${where()}`);
        assertSameMoves([a], [b], `in undo() ${where()}`);
        played.pop();
        count(tally.calls, 'undo');
      }
      continue;
    }
    if (r < 0.04 && passTurns && !ours.isCheck()) {
      // Passing the turn: chess.js 1.4's setTurn and move(null) both record a null move ('--').
      const to = ours.turn() === 'w' ? 'b' : 'w';
      if (random() < 0.5) {
        // setTurn records a null move: taken back here to compare it, then passed again with move(null).
        assert.equal(ours.setTurn(to), theirs.setTurn(to), `setTurn ${where()}`);
        assertSameMoves([ours.undo()!], [theirs.undo()!], `in undo() of setTurn's null move ${where()}`);
      }
      const a = ours.move(null);
      assertSameMoves([a], [theirs.move(null)], `in move(null) ${where()}`);
      played.push(a);
      turnPassed = true;
      count(tally.calls, 'setTurn / move(null)');
      continue;
    }
    const verbose = ours.moves({ verbose: true });
    const ending = r < 0.3 ? gameEndingMove(ours) : undefined;
    let chosen = ending === undefined ? undefined : verbose.find((m) => m.lan === ending);
    const prev = played[played.length - 2];
    if (chosen === undefined && r < 0.7 && prev !== undefined && prev.piece !== 'p' && prev.flags !== '-')
      chosen = verbose.find((m) => m.from === prev.to && m.to === prev.from);
    chosen ??= verbose[Math.floor(random() * verbose.length)];
    const input = moveInput(chosen, random);
    const a = ours.move(input);
    assertSameMoves([a], [theirs.move(input as Parameters<ChessJs['move']>[0])], `in move(${JSON.stringify(input)}) ${where()}`);
    count(tally.calls, 'move');
    played.push(a);
  }
  tally.games++;
}

// ---- FENs: validateFen and load on good and corrupted FENs ----

/** chess.js's FEN error messages by the field they are about (ours name the field in FenError.field). */
const CHESS_JS_FIELDS: Array<[RegExp, FenField]> = [
  [/six space-delimited fields/, 'fen'],
  [/move number/, 'fullmove'],
  [/half move counter/, 'halfmove'],
  [/en-passant square/, 'enPassant'],
  [/castling availability/, 'castling'],
  [/side-to-move/, 'side'],
  [/piece data/, 'placement'],
  [/king|edge rows/, 'position'],
];

function chessJsField(message: string): FenField {
  const hit = CHESS_JS_FIELDS.find(([re]) => re.test(message));
  assert.ok(hit, `unknown chess.js FEN error '${message}'`);
  return hit[1];
}

const FIELD_WORDS: Record<FenField, string> = {
  fen: 'Invalid FEN: expected',
  placement: 'Invalid FEN: piece placement:',
  side: 'Invalid FEN: side to move:',
  castling: 'Invalid FEN: castling:',
  enPassant: 'Invalid FEN: en-passant square:',
  halfmove: 'Invalid FEN: halfmove clock:',
  fullmove: 'Invalid FEN: fullmove number:',
  position: 'Invalid FEN: position:',
};

/**
 * Why chess.js and we may disagree on a FEN (documented difference 4, FEN validation): the
 * position or a field breaks a rule chess.js does not check, or is written in a way one of the
 * two does not read. Returns the reason's name, or undefined when none applies.
 */
export function fenDifference(fen: string): string | undefined {
  const fields = fen.split(/\s+/);
  if (fen !== fen.trim()) return 'whitespace around the FEN';
  if (/\d\d/.test(fields[0] ?? '')) return 'consecutive digits in a rank';
  if (fields.length >= 5 && fields.slice(4).some((f) => !/^\d+$/.test(f))) return 'clock not written in digits';
  if (fields.length >= 6 && (Number(fields[4]) > 1_000_000 || Number(fields[5]) > 1_000_000)) return 'clock above 1000000';
  if (fields.length >= 3 && fields[2] !== '-' && (/-/.test(fields[2]) || new Set(fields[2]).size !== fields[2].length))
    return "castling field repeating a letter or mixing in '-'";
  if (fields.length >= 3 && fields[2] !== '-' && fields[2].length > 4) return "castling field repeating a letter or mixing in '-'";
  try {
    // A position chess.js loads but the rules forbid: the core says which rule.
    scratch.setFen(fields.length < 4 ? [...fields, ...['w', '-', '-'].slice(fields.length - 1)].join(' ') : fen);
  } catch (err) {
    if (!(err instanceof FenError)) throw err;
    if (err.field === 'castling') return 'castling right without its king and rook';
    if (err.field === 'enPassant') return 'en-passant square without the pawn that stepped past it';
    if (err.field === 'position' && /not to move/.test(err.message)) return 'side not to move in check';
    return undefined;
  }
  try {
    new Chess(fen);
  } catch (err) {
    if (err instanceof FenError && err.field === 'castling') return 'castling right without its king and rook';
  }
  return undefined;
}

/** The load() and validateFen() of both on one FEN: same acceptance and field, or a documented reason. */
export function compareFen(fen: string, tally: Tally): void {
  const theirsValid = chessJsValidateFen(fen);
  const oursValid = validateFen(fen);
  let theirsLoad: string | Error, oursLoad: string | Error;
  try {
    theirsLoad = new ChessJs(fen).fen();
  } catch (err) {
    theirsLoad = err as Error;
  }
  try {
    oursLoad = asChessJsFen(new Chess(fen).fen());
  } catch (err) {
    assert.ok(err instanceof FenError, `load threw ${String(err)} for ${JSON.stringify(fen)}`);
    oursLoad = err;
  }
  const reason = fenDifference(fen);
  if (oursValid.ok !== theirsValid.ok || typeof oursLoad !== typeof theirsLoad) {
    assert.ok(
      reason,
      `FEN acceptance differs for ${JSON.stringify(fen)}: validateFen ours ${JSON.stringify(oursValid)} chess.js ${JSON.stringify(theirsValid)}; load ours ${String(oursLoad)} chess.js ${String(theirsLoad)}`,
    );
    count(tally.documented, `FEN: ${reason}`);
    return;
  }
  count(tally.calls, 'validateFen, load');
  if (typeof oursLoad === 'string') assert.equal(oursLoad, theirsLoad, `load(${JSON.stringify(fen)}).fen()`);
  else {
    const field = (oursLoad as FenError).field;
    assert.ok(oursLoad.message.startsWith('Invalid FEN: '), `load error shape: ${oursLoad.message}`);
    if (field !== chessJsField((theirsLoad as Error).message)) {
      // Both refuse; they name different fields only when the corruption broke more than one rule.
      assert.ok(
        reason !== undefined || fen.trim().split(/\s+/).length !== 6,
        `load(${JSON.stringify(fen)}): ours '${oursLoad.message}', chess.js '${(theirsLoad as Error).message}'`,
      );
      count(tally.documented, 'FEN: two rules broken, each names one');
    }
  }
  if (!oursValid.ok) {
    assert.ok(
      Object.values(FIELD_WORDS).some((w) => oursValid.error!.startsWith(w)),
      `validateFen error does not name the field: ${oursValid.error}`,
    );
    if (reason === undefined && fen.trim().split(/\s+/).length === 6) {
      const theirs = chessJsField(theirsValid.error!);
      if (!oursValid.error!.startsWith(FIELD_WORDS[theirs])) count(tally.documented, 'FEN: two rules broken, each names one');
    }
  }
}

const PIECE_LETTERS = 'pnbrqkPNBRQK';

/** A FEN with one field damaged in one of the ways a FEN goes wrong. */
export function corruptFen(fen: string, random: () => number): string {
  const f = fen.split(' ');
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const ranks = f[0].split('/');
  switch (Math.floor(random() * 16)) {
    case 0: // a piece letter replaced (or a king removed, or a king added, or a pawn onto the edge)
    case 1: {
      const r = Math.floor(random() * 8);
      const chars = [...expand(ranks[r])];
      chars[Math.floor(random() * 8)] = pick([...PIECE_LETTERS, 'x', '1', 'K', 'k', 'P', 'p']);
      ranks[r] = compress(chars);
      f[0] = ranks.join('/');
      break;
    }
    case 2:
      f[0] = pick([
        ranks.slice(1).join('/'),
        [...ranks, '8'].join('/'),
        ranks.join('//'),
        f[0].replace(/\d/, (d) => String(Number(d) + 1)),
        f[0].replace(/[1-7]/, (d) => `${d}1`),
      ]);
      break;
    case 3:
      f[1] = pick(['W', 'x', '-', 'white', 'bw', f[1] === 'w' ? 'b' : 'w']);
      break;
    case 4:
    case 5:
      f[2] = pick(['KQkq', 'K', 'Q', 'k', 'q', 'Kk', 'Qq', 'KQ', 'kq', 'X', 'KQkqK', 'K-', 'HAha', 'kqKQ', '-', 'Kq', 'Qk']);
      break;
    case 6:
    case 7:
      f[3] = pick([...'abcdefgh'].flatMap((file) => [`${file}3`, `${file}6`]).concat(['e4', 'z9', 'e', '--']));
      break;
    case 8:
      f[4] = pick(['-1', 'x', '1e2', '1.5', '+3', '00', '150', '99', '100', '2000000']);
      break;
    case 9:
      f[5] = pick(['0', '-1', 'x', '1.5', '01', '+2', '999', '2000000']);
      break;
    case 10:
      return pick([
        f.slice(0, 4).join(' '),
        f.slice(0, 5).join(' '),
        f.slice(0, 2).join(' '),
        `${fen} extra`,
        ` ${fen}`,
        `${fen} `,
        f.join('  '),
        '',
      ]);
    case 11: {
      // The side to move flipped: often the side not to move is then in check.
      f[1] = f[1] === 'w' ? 'b' : 'w';
      f[3] = '-';
      break;
    }
    default: {
      // Two pieces swapped or a piece moved: kings into check, pawns onto edges, rooks off their corners.
      const chars = ranks.map((r) => [...expand(r)]);
      const a = [Math.floor(random() * 8), Math.floor(random() * 8)],
        b = [Math.floor(random() * 8), Math.floor(random() * 8)];
      [chars[a[0]][a[1]], chars[b[0]][b[1]]] = [chars[b[0]][b[1]], chars[a[0]][a[1]]];
      f[0] = chars.map((c) => compress(c)).join('/');
    }
  }
  return f.join(' ');
}

function expand(rank: string): string {
  return rank.replace(/\d/g, (d) => '.'.repeat(Number(d)));
}

function compress(chars: string[]): string {
  return chars.join('').replace(/\.+/g, (dots) => String(dots.length));
}

// ---- board edits: put, remove, clear, setTurn, setCastlingRights, load ----

const TYPES: readonly PieceSymbol[] = ['p', 'n', 'b', 'r', 'q', 'k'];

/**
 * A run of random board edits on both, from `fen`. Pawns are not put on the first or last rank
 * (documented difference: we refuse, chess.js accepts and then cannot generate moves; the unit
 * test shows both). When an edit leaves a board that is not a legal position, we hold it as a
 * board being set up with no legal moves (documented); chess.js still generates moves there, so
 * only the board is compared until the position is legal again.
 */
export function differentialEdits(fen: string, random: () => number, edits: number, tally: Tally): void {
  const ours = new Chess(fen),
    theirs = new ChessJs(fen);
  const done: string[] = [];
  const where = () => `from ${fen} after ${done.join(', ')}: ${ours.fen()}`;
  for (let i = 0; i < edits; i++) {
    const r = random(),
      square = SQUARES[Math.floor(random() * 64)],
      color: Color = random() < 0.5 ? 'w' : 'b';
    if (theirs.history().length > 0) {
      // chess.js keeps the moves across an edit, we start a new game from the edited board (documented): start both afresh.
      ours.load(ours.fen(), { skipValidation: true });
      theirs.load(theirs.fen(), { skipValidation: true });
    }
    if (r < 0.45) {
      const type = TYPES[Math.floor(random() * 6)];
      if (type === 'p' && (square[1] === '1' || square[1] === '8')) continue;
      done.push(`put ${color}${type} ${square}`);
      assert.equal(ours.put({ type, color }, square), theirs.put({ type, color }, square as ChessJsSquare), `put ${where()}`);
    } else if (r < 0.8) {
      done.push(`remove ${square}`);
      assert.deepEqual(ours.remove(square), theirs.remove(square as ChessJsSquare), `remove ${where()}`);
    } else if (r < 0.85) {
      done.push('clear');
      ours.clear();
      theirs.clear();
    } else if (r < 0.9) {
      const rights = { k: random() < 0.5, q: random() < 0.5 };
      done.push(`setCastlingRights ${color} ${JSON.stringify(rights)}`);
      assert.equal(ours.setCastlingRights(color, rights), theirs.setCastlingRights(color, rights), `setCastlingRights ${where()}`);
      syncStartTags(ours, theirs, tally, 'setCastlingRights sets the SetUp/FEN tags');
    } else if (r < 0.95) {
      done.push(`setTurn ${color}`);
      let a: boolean | string, b: boolean | string;
      const settingUp = !isLegalPosition(ours);
      try {
        a = ours.setTurn(color);
      } catch (err) {
        a = (err as Error).message;
      }
      try {
        b = theirs.setTurn(color);
      } catch (err) {
        b = (err as Error).message;
      }
      assert.equal(a, b, `setTurn ${where()}`);
      // On a board being set up no null move can be recorded: the turned board starts a new game (documented); chess.js too, to compare on.
      if (settingUp && a === true) {
        count(tally.documented, 'setTurn on a board being set up starts a new game');
        theirs.load(theirs.fen(), { skipValidation: true, preserveHeaders: true });
      }
    } else {
      done.push('load START');
      ours.load(START_FEN);
      theirs.load(START_FEN);
    }
    count(tally.calls, 'edit');
    compareEdited(ours, theirs, tally, where(), i % 3 === 0);
  }
}

/**
 * Where chess.js leaves the SetUp/FEN tags as they were and we set them for the new start
 * (documented): counts the difference and copies our tags to chess.js, so later edits compare.
 */
function syncStartTags(ours: Chess, theirs: ChessJs, tally: Tally, name: string): void {
  const tags = chessJsHeaders(ours);
  if (tags.FEN === chessJsHeaders(theirs).FEN && tags.SetUp === theirs.getHeaders().SetUp) return;
  count(tally.documented, name);
  for (const tag of ['SetUp', 'FEN']) {
    if (tags[tag] === undefined) theirs.removeHeader(tag);
    else theirs.setHeader(tag, tags[tag]);
  }
}

/** Whether our board is a legal position (else it is held as a board being set up). */
function isLegalPosition(ours: Chess): boolean {
  try {
    void ours.position;
    return true;
  } catch (err) {
    assert.ok(err instanceof FenError, `position threw ${String(err)}`);
    return false;
  }
}

/**
 * Headers with the FEN tag's en-passant field as chess.js's fen() writes it: chess.js itself
 * writes the tag with the square as loaded after load(), and by its fen() after an edit.
 */
function chessJsHeaders(c: Chess | ChessJs): Record<string, string> {
  const headers = c.getHeaders();
  if (headers.FEN !== undefined) headers.FEN = asChessJsFen(headers.FEN);
  return headers;
}

/** After an edit: the board always (in full when `detail`); moves and status when the board is a legal position. */
function compareEdited(ours: Chess, theirs: ChessJs, tally: Tally, where: string, detail: boolean): void {
  compareBoard(ours, theirs, tally, where, detail);
  assert.deepEqual(chessJsHeaders(ours), chessJsHeaders(theirs), `getHeaders ${where}`);
  if (!isLegalPosition(ours)) {
    assert.deepEqual(ours.moves(), [], `a board that is not a legal position has no moves ${where}`);
    assert.equal(ours.isGameOver(), true, `a board that is not a legal position is over ${where}`);
    count(tally.documented, 'edits: a board that is not a legal position has no moves');
    return;
  }
  compareStatus(ours, theirs, tally, where, ours.history().includes('--'), true);
  assert.deepEqual(ours.moves(), theirs.moves(), `moves() ${where}`);
  if (detail) assertSameMoves(ours.moves({ verbose: true }), theirs.moves({ verbose: true }), `in moves({ verbose: true }) ${where}`);
  assert.deepEqual(ours.history(), theirs.history(), `history() ${where}`);
}

// ---- move input: SAN, the permissive forms, objects, strict ----

type MoveInput = string | { from: string; to: string; promotion?: string };

/** The ways a program may write move `m` (and a few it may not: a capture mark on a non-capture, a wrong piece letter). */
function moveVariants(m: Move, rookSquare: string | undefined): MoveInput[] {
  const letter = m.piece === 'p' ? '' : m.piece.toUpperCase();
  const promo = m.promotion ?? '';
  const san = m.san.replace(/[+#]$/, '');
  const castle = m.isKingsideCastle() || m.isQueensideCastle();
  const out: MoveInput[] = [
    m.san,
    san,
    `${san}+`,
    `${san}#`,
    `${san}!`,
    `${san}?!`,
    `${san}!!`,
    m.lan,
    `${m.from}-${m.to}${promo}`,
    `${m.from}x${m.to}${promo}`,
  ];
  out.push(
    `${letter || 'P'}${m.from}${m.to}${promo}`,
    `${letter || 'P'}${m.from}-${m.to}${promo}`,
    `${(letter || 'p').toLowerCase()}${m.from}${m.to}${promo}`,
  );
  out.push(m.promotion ? { from: m.from, to: m.to, promotion: m.promotion } : { from: m.from, to: m.to });
  if (!castle) {
    if (san.includes('x')) out.push(san.replace('x', ''));
    else if (letter) out.push(`${letter}x${m.to}`);
    if (letter) {
      const x = m.isCapture() ? 'x' : '';
      out.push(
        `${letter}${m.from[0]}${x}${m.to}`,
        `${letter}${m.from[1]}${x}${m.to}`,
        `${letter}${m.from}${x}${m.to}`,
        `${letter === 'N' ? 'B' : 'N'}${m.from}${m.to}`,
      );
    }
  }
  if (m.promotion) {
    const up = m.promotion.toUpperCase();
    out.push(
      san.replace('=', ''),
      `${m.from}${m.to}${up}`,
      `${m.from}${m.to}=${up}`,
      `${m.from}${m.to}`,
      { from: m.from, to: m.to },
      { from: m.from, to: m.to, promotion: up },
    );
  } else out.push({ from: m.from, to: m.to, promotion: 'q' }, `${m.lan}q`);
  if (castle) {
    out.push(san.replace(/O/g, '0'), `K${m.from}${m.to}`);
    if (rookSquare) out.push(`${m.from}${rookSquare}`, { from: m.from, to: rookSquare });
  }
  return out;
}

/** Whether `text` (a piece letter, a file or rank, a square) fits more than one legal move: chess.js then plays one of them. */
function ambiguous(ours: Chess, text: string): boolean {
  const m = /^([NBRQK])([a-h1-8])x?([a-h][1-8])$/.exec(text);
  if (!m) return false;
  const fits = ours.moves({ verbose: true }).filter((v) => v.piece === m[1].toLowerCase() && v.to === m[3] && v.from.includes(m[2]));
  return fits.length > 1;
}

function tryMove(c: Chess | ChessJs, input: MoveInput, strict: boolean): string {
  try {
    const played = (c as Chess).move(input, { strict });
    c.undo();
    return played.san;
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

/**
 * Every legal move of `fen` in every variant, permissive and strict, on both: the same move or
 * the same error, except the documented ones (6, move input): long algebraic naming a promotion
 * without its piece (chess.js promotes to a knight, we refuse) and castling written
 * king-takes-own-rook (we read it, chess.js does not).
 */
export function compareMoveInputs(fen: string, tally: Tally): void {
  const ours = new Chess(fen),
    theirs = new ChessJs(fen);
  for (const m of ours.moves({ verbose: true })) {
    const castle = m.isKingsideCastle() || m.isQueensideCastle();
    const rookSquare = castle ? `${m.isKingsideCastle() ? 'h' : 'a'}${m.from[1]}` : undefined;
    for (const input of moveVariants(m, rookSquare)) {
      for (const strict of [false, true]) {
        const a = tryMove(ours, input, strict),
          b = tryMove(theirs, input, strict);
        count(tally.calls, 'move(input)');
        if (a === b) continue;
        const text = typeof input === 'string' ? input : '';
        const to = typeof input === 'string' ? text.slice(-2) : input.to;
        if (m.promotion && !strict && /^[Pp]?[a-h][1-8][-x]?[a-h][1-8]$/.test(text) && /=N[+#]?$/.test(b)) {
          assert.match(a, /^error: Invalid move: /, `${JSON.stringify(input)} in ${fen}`);
          count(tally.documented, 'move: long algebraic promotion without a piece');
        } else if (!strict && ambiguous(ours, text)) {
          assert.match(a, /^error: Invalid move: /, `${JSON.stringify(input)} in ${fen}`);
          count(tally.documented, 'move: ambiguous text refused');
        } else if (!strict && m.piece === 'p' && /^b[a-h][1-8]/.test(text) && !text.includes('x')) {
          // chess.js reads a leading 'b' as a bishop, so it cannot read a b-pawn's capture without its x.
          assert.equal(a, m.san, `${JSON.stringify(input)} in ${fen}`);
          count(tally.documented, "move: b-pawn capture without 'x'");
        } else if (castle && to === rookSquare && (typeof input === 'object' || !strict)) {
          assert.equal(a, m.san, `${JSON.stringify(input)} (king takes own rook) in ${fen}`);
          assert.match(b, /^error: /, `${JSON.stringify(input)} in ${fen}`);
          count(tally.documented, 'move: castling as king-takes-own-rook');
        } else assert.fail(`move(${JSON.stringify(input)}, { strict: ${strict} }) in ${fen}: ours ${a}, chess.js ${b}`);
      }
    }
  }
}

// ---- comments and headers ----

/** A random game with comments and headers set, read, removed around moves and undos: the same answers from both. */
export function differentialAnnotations(random: () => number, steps: number, tally: Tally): void {
  const ours = new Chess(),
    theirs = new ChessJs();
  const comments = (list: { fen: string; comment: string }[]) => list.map((c) => ({ fen: asChessJsFen(c.fen), comment: c.comment }));
  const tags = ['Event', 'White', 'Black', 'Result', 'ECO', 'Annotator', 'MyTag', 'Other'];
  for (let i = 0; i < steps; i++) {
    const r = random(),
      where = `step ${i} at ${theirs.fen()}`;
    const tag = tags[Math.floor(random() * tags.length)];
    if (r < 0.3) {
      const moves = ours.moves();
      if (moves.length === 0) {
        ours.reset();
        theirs.reset();
      } else {
        const san = moves[Math.floor(random() * moves.length)];
        ours.move(san);
        theirs.move(san);
      }
    } else if (r < 0.4) assert.deepEqual(ours.undo()?.san, theirs.undo()?.san, `undo ${where}`);
    else if (r < 0.5) {
      const text = `note ${i}`;
      ours.setComment(text);
      theirs.setComment(text);
    } else if (r < 0.55) assert.equal(ours.getComment(), theirs.getComment(), `getComment ${where}`);
    else if (r < 0.6) assert.equal(ours.removeComment(), theirs.removeComment(), `removeComment ${where}`);
    else if (r < 0.62) assert.equal(ours.deleteComment(), theirs.deleteComment(), `deleteComment ${where}`);
    else if (r < 0.7) assert.deepEqual(comments(ours.getComments()), theirs.getComments(), `getComments ${where}`);
    else if (r < 0.72) assert.deepEqual(comments(ours.removeComments()), theirs.removeComments(), `removeComments ${where}`);
    else if (r < 0.73) assert.deepEqual(comments(ours.deleteComments()), theirs.deleteComments(), `deleteComments ${where}`);
    else if (r < 0.8) assert.deepEqual(ours.setHeader(tag, `v${i}`), theirs.setHeader(tag, `v${i}`), `setHeader ${where}`);
    else if (r < 0.86) assert.equal(ours.removeHeader(tag), theirs.removeHeader(tag), `removeHeader ${where}`);
    else if (r < 0.9) assert.deepEqual(ours.header(tag, `h${i}`), theirs.header(tag, `h${i}`), `header ${where}`);
    else if (r < 0.97) assert.deepEqual(chessJsHeaders(ours), chessJsHeaders(theirs), `getHeaders ${where}`);
    else {
      const keep = random() < 0.5;
      ours.clear({ preserveHeaders: keep });
      theirs.clear({ preserveHeaders: keep });
      assert.deepEqual(ours.getHeaders(), theirs.getHeaders(), `getHeaders after clear ${where}`);
      ours.reset();
      theirs.reset();
    }
    count(tally.calls, 'comments and headers');
  }
}

// ---- PGN: pgn() and loadPgn() both ways ----

/**
 * chess.js's pgn() text as ours writes the same game, by the documented differences (16): tag
 * values escaped, the FEN tag's en-passant square as ours (1), a Black move number after a
 * comment and at the start (`1... e5` for chess.js's `1. ... e5`), a blank line before a lone
 * result. Each difference met is counted.
 */
function chessJsPgnAsOurs(text: string, ours: Chess, newline: string, tally: Tally): string {
  const lines = text.split(newline);
  const out: string[] = [];
  let i = 0;
  for (; i < lines.length && lines[i].startsWith('['); i++) {
    const m = /^\[(\w+) "(.*)"\]$/.exec(lines[i]);
    assert.ok(m, `chess.js tag line ${lines[i]}`);
    let value = m[2];
    if (/["\\]/.test(value)) {
      count(tally.documented, 'pgn: escaped tag value');
      value = value.replace(/[\\"]/g, (c) => '\\' + c);
    }
    if (m[1] === 'FEN') value = ours.getHeaders().FEN ?? value;
    out.push(`[${m[1]} "${value}"]`);
  }
  // chess.js puts the blank line after the tags only when there are moves.
  const rest = lines.slice(i);
  if (out.length > 0 && rest[0] !== '') {
    count(tally.documented, 'pgn: blank line before the movetext');
    rest[0] = rest[0].replace(/^ /, '');
    rest.unshift('');
  }
  let movetext = rest.join(newline);
  // Black move numbers: chess.js writes `N. ...` at a Black start and none after a comment.
  const history = ours.history({ verbose: true });
  const tokens: string[] = [];
  let k = 0,
    afterComment = false,
    numbered = false;
  for (const token of movetext.match(/\{[^}]*\}|\d+\. \.\.\.|\S+/g) ?? []) {
    if (token.startsWith('{')) {
      tokens.push(token);
      afterComment = true;
    } else if (/^\d+\. \.\.\.$/.test(token)) {
      count(tally.documented, 'pgn: 1... at a Black start');
      tokens.push(token.replace('. ...', '...'));
      numbered = true;
    } else if (/^\d+\.$/.test(token)) {
      tokens.push(token);
      numbered = true;
    } else {
      const move = history[k];
      if (move !== undefined && token === move.san) {
        if (move.color === 'b' && afterComment && !numbered) {
          count(tally.documented, 'pgn: Black move number after a comment');
          tokens.push(`${move.before.split(' ')[5]}...`);
        }
        k++;
      }
      tokens.push(token);
      afterComment = numbered = false;
    }
  }
  movetext = (movetext.startsWith(newline) ? newline : '') + tokens.join(' ');
  return out.length > 0 ? out.join(newline) + newline + movetext : movetext.replace(/^\s+/, '');
}

function comparePgnLoad(text: string, strict: boolean, tally: Tally, where: string): void {
  const ours = new Chess(),
    theirs = new ChessJs();
  let ourError = '',
    theirError = '';
  try {
    ours.loadPgn(text, { strict });
  } catch (e) {
    ourError = (e as Error).message;
  }
  try {
    theirs.loadPgn(text, { strict });
  } catch (e) {
    theirError = (e as Error).message;
  }
  assert.equal(ourError, theirError, `loadPgn error ${where}: ${text}`);
  count(tally.calls, strict ? 'loadPgn strict' : 'loadPgn');
  if (ourError !== '') return;
  assert.deepEqual(ours.history(), theirs.history(), `history after loadPgn ${where}`);
  assert.equal(asChessJsFen(ours.fen()), theirs.fen(), `fen after loadPgn ${where}`);
  assert.deepEqual(chessJsHeaders(ours), chessJsHeaders(theirs), `headers after loadPgn ${where}`);
  const comments = ours.getComments().map((c) => ({ fen: asChessJsFen(c.fen), comment: c.comment }));
  assert.deepEqual(comments, theirs.getComments(), `comments after loadPgn ${where}`);
}

const WORDS = [
  'good',
  'a long comment about the position',
  'x',
  'White should castle',
  'Nf3 was better',
  '!?',
  '0-1',
  '$1 (1. d4)',
  'line; semicolon',
];

/**
 * Seeded random games played on both libraries with comments and headers set on the way: pgn()
 * compared (plain and wrapped), each library's pgn() loaded by both (plain and strict), an
 * illegal move put in, and a PGN of ours with variations, NAGs and ';' comments read by both.
 */
export function differentialPgn(random: () => number, games: number, fens: string[], tally: Tally): void {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  for (let g = 0; g < games; g++) {
    const fen = random() < 0.6 ? START_FEN : pick(fens);
    const ours = new Chess(fen),
      theirs = new ChessJs(fen);
    const where = `game ${g} from ${fen}`;
    if (random() < 0.3) {
      ours.setComment('start');
      theirs.setComment('start');
    }
    for (const tag of ['White', 'Black', 'Event', 'Annotator']) {
      if (random() < 0.4) {
        const value = random() < 0.15 ? `O"Brien \\ ${g}` : `${tag} ${g}`;
        ours.setHeader(tag, value);
        theirs.setHeader(tag, value);
      }
    }
    const plies = Math.floor(random() * 40);
    for (let i = 0; i < plies; i++) {
      const moves = ours.moves();
      if (moves.length === 0) break;
      const san = pick(moves);
      ours.move(san);
      theirs.move(san);
      if (random() < 0.25) {
        const text = pick(WORDS);
        ours.setComment(text);
        theirs.setComment(text);
      }
    }
    if (ours.isGameOver() || random() < 0.3) {
      const r = ours.isCheckmate()
        ? ours.turn() === 'w'
          ? '0-1'
          : '1-0'
        : ours.isGameOver()
          ? '1/2-1/2'
          : pick(['1-0', '0-1', '1/2-1/2']);
      ours.setHeader('Result', r);
      theirs.setHeader('Result', r);
    }
    const newline = random() < 0.2 ? '\r\n' : '\n';
    const ourText = ours.pgn({ newline });
    assert.equal(ourText, chessJsPgnAsOurs(theirs.pgn({ newline }), ours, newline, tally), `pgn() ${where}`);
    count(tally.calls, 'pgn');
    // Wrapped: the same tokens, no line longer than asked (one token longer than that stands alone).
    const width = 20 + Math.floor(random() * 60);
    const wrapped = ours.pgn({ maxWidth: width });
    assert.equal(wrapped.split(/\s+/).join(' '), ours.pgn().split(/\s+/).join(' '), `pgn({ maxWidth }) ${where}`);
    for (const line of wrapped.split('\n'))
      if (!line.startsWith('[') && !line.includes('{')) assert.ok(line.length <= width, `${width}: ${line}`);
    count(tally.calls, 'pgn({ maxWidth })');
    // Each library's text, loaded by both. chess.js cannot read an escaped tag value (documented).
    const theirText = theirs.pgn();
    comparePgnLoad(theirText.replace(/\[\w+ "[^"\n]*"[^\]\n]*"\]\n/g, ''), false, tally, `${where}, chess.js's PGN`);
    if (/\\["\\]/.test(ourText)) count(tally.documented, 'pgn: chess.js cannot read an escaped tag value');
    else {
      comparePgnLoad(ourText.replace(/\r\n/g, '\n'), random() < 0.3, tally, `${where}, our PGN`);
      comparePgnLoad(ourText, false, tally, `${where}, our PGN with CRLF`);
    }
    // An illegal move put in: both refuse it the same way.
    const history = ours.history();
    if (history.length > 2 && !/\\["\\]/.test(ourText)) {
      const bad = ourText.replace(new RegExp(`(\\d+\\.+ )${history[1].replace(/[+]/g, '\\+')}(?=[ \\n])`), '$1a1');
      if (bad !== ourText) comparePgnLoad(bad, false, tally, `${where}, an illegal move`);
    }
    // Our PGN of the same main line with variations, NAGs and ';' comments: both read the main line and its comments.
    if (history.length > 0 && !/\\["\\]/.test(ourText)) {
      const game = parsePgnGame(ourText);
      for (const node of game.moves) {
        if (random() < 0.2) node.nags = [pick([1, 2, 5, 6, 14])];
        if (random() < 0.1) node.variations = [[{ san: node.san }]];
        if (node.commentsAfter && random() < 0.3 && !node.variations) node.commentsAfter = [`${node.commentsAfter[0]} }`];
      }
      comparePgnLoad(makePgn(game), false, tally, `${where}, our PGN with variations`);
    }
  }
}
