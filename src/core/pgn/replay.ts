/**
 * Replaying a game model on the core's Position: every move of every line is read as SAN
 * (notation.ts's parseSan: SAN, permissive forms, UCI) and made, variations from the position
 * before the move they replace, on one Position made and unmade. Each move gets its move code;
 * the first one that is not legal is a PgnError naming it and saying why.
 */
import { FenError } from '../fen.js';
import { MoveError, parseSan } from '../notation.js';
import { Position } from '../position.js';
import { PgnError } from './errors.js';
import { pgnStartFen, type PgnGame, type PgnMove } from './model.js';

/**
 * The position the game starts from (its FEN tag), set up on `into` if given (a reader reuses one
 * Position for every game); a bad FEN tag is a PgnError of kind 'fen'.
 */
export function pgnStartPosition(game: PgnGame, into?: Position): Position {
  try {
    if (into === undefined) return Position.fromFen(pgnStartFen(game));
    into.setFen(pgnStartFen(game));
    return into;
  } catch (e) {
    if (e instanceof FenError) throw new PgnError('fen', `FEN tag: ${e.message}`);
    throw e;
  }
}

/**
 * Replays the whole game (main line and variations), setting each move's `move` code, and
 * returns the Position after the main line (its history holds the main line). Throws PgnError
 * (kind 'move' or 'fen') at the first move that cannot be played.
 */
export function replayPgnGame(game: PgnGame): Position {
  return replayWithPlaces(game, undefined);
}

/**
 * replayPgnGame, with the line and column of each move in text order (main line move, then its
 * variations, then the next move: the order the tree is walked) for the error's place.
 */
export function replayWithPlaces(game: PgnGame, places: ArrayLike<number> | undefined, into?: Position): Position {
  const pos = pgnStartPosition(game, into);
  const walk = { pos, places, index: 0 };
  playLine(walk, game.moves);
  return pos;
}

interface Walk {
  pos: Position;
  places: ArrayLike<number> | undefined;
  /** Moves visited so far, in text order. */
  index: number;
}

function playLine(w: Walk, line: readonly PgnMove[]): void {
  const pos = w.pos;
  for (const node of line) {
    const k = w.index++;
    const m = playOne(w, node, k);
    node.move = m;
    if (node.variations !== undefined && node.variations.length > 0) {
      unplay(pos, m);
      for (const v of node.variations) {
        const ply = pos.ply;
        playLine(w, v);
        while (pos.ply > ply) unplay(pos, pos.moveAt(pos.ply - 1));
      }
      replay(pos, m);
    }
  }
}

function playOne(w: Walk, node: PgnMove, k: number): number {
  const pos = w.pos;
  const label = `move ${pos.fullmove}${pos.side === 0 ? '.' : '...'} ${node.san}`;
  const place = w.places !== undefined && w.places.length >= 2 * k + 2 ? { line: w.places[2 * k], column: w.places[2 * k + 1] } : {};
  if (node.san === '--') {
    if (pos.inCheck()) throw new PgnError('move', `${label}: a null move while in check`, place);
    pos.makeNullMove();
    return 0;
  }
  let m: number;
  try {
    m = parseSan(pos, node.san);
  } catch (e) {
    if (e instanceof MoveError) throw new PgnError('move', `${label}: ${e.message}`, place);
    throw e;
  }
  pos.makeMove(m);
  return m;
}

function unplay(pos: Position, m: number): void {
  if (m === 0) pos.unmakeNullMove();
  else pos.unmakeMove();
}

function replay(pos: Position, m: number): void {
  if (m === 0) pos.makeNullMove();
  else pos.makeMove(m);
}
