/**
 * FEN checks for the chess.js API: `validateFen`, the rule that outside Chess960 castling needs
 * the king on the e-file and the rook in its corner, and chess.js's message shape
 * ('Invalid FEN: …') on the core's typed FenError, which still names the field.
 */
import { Position } from '../core/position.js';
import { FenError, type FenField } from '../core/fen.js';

/** Each FEN field as an error message names it. */
const FIELD_NAMES: Record<FenField, string> = {
  fen: '',
  placement: 'piece placement',
  side: 'side to move',
  castling: 'castling',
  enPassant: 'en-passant square',
  halfmove: 'halfmove clock',
  fullmove: 'fullmove number',
  position: 'position',
};

const CORE_PREFIX = /^invalid FEN \([^)]*\): /;

/** The same FenError (same `.field`), its message in chess.js's shape: 'Invalid FEN: castling: right …'. */
export function chessJsShaped(err: FenError): FenError {
  const detail = err.message.replace(CORE_PREFIX, '');
  const name = FIELD_NAMES[err.field];
  err.message = `Invalid FEN: ${name ? `${name}: ` : ''}${detail}`;
  return err;
}

/** validateFen's and load's scratch position (both synchronous, never nested). */
const scratch = new Position();

/**
 * Throws FenError (the core's message) unless `fen` is a legal position. Outside Chess960 the
 * castling field is KQkq letters, and a right needs the king on e1/e8 and the rook in its
 * corner, as in classical chess: the core reads X-FEN and Shredder-FEN, where 'K' would be any
 * rook on the h-side of the king.
 */
export function checkFen(fen: string, chess960: boolean): void {
  scratch.setFen(fen);
  if (chess960) return;
  const castling = fen.trim().split(/\s+/)[2];
  if (!/^(?:-|[KQkq]+)$/.test(castling))
    throw new FenError(
      'castling',
      `expected '-' or a subset of 'KQkq', got '${castling}' (rook files are Chess960's: new Chess(fen, { chess960: true }))`,
    );
  for (let right = 0; right < 4; right++) {
    if ((scratch.castling & (1 << right)) === 0) continue;
    const color = right >> 1,
      home = color === 0 ? 0 : 56,
      kingSide = (right & 1) === 0;
    if (scratch.kingSq[color] !== home + 4 || scratch.castleRook[right] !== home + (kingSide ? 7 : 0)) {
      const letter = kingSide ? 'k' : 'q',
        name = color === 0 ? 'white' : 'black',
        rank = color === 0 ? 1 : 8;
      throw new FenError(
        'castling',
        `right '${color === 0 ? letter.toUpperCase() : letter}' needs the ${name} king on e${rank} and a ${name} rook on ${kingSide ? 'h' : 'a'}${rank} (for Chess960: new Chess(fen, { chess960: true }))`,
      );
    }
  }
}

/**
 * chess.js's validateFen: `{ ok: true }`, or `{ ok: false, error }` with the message naming the
 * field. Like chess.js it wants all six fields (load() also takes four or five). `chess960`
 * (an extension) accepts Chess960 castling: X-FEN and Shredder-FEN rook files.
 */
export function validateFen(fen: string, options: { chess960?: boolean } = {}): { ok: boolean; error?: string } {
  try {
    if (typeof fen === 'string' && fen.trim() !== '') {
      const fields = fen.trim().split(/\s+/).length;
      if (fields !== 6) throw new FenError('fen', `expected 6 space-separated fields, got ${fields}`);
    }
    checkFen(fen, options.chess960 === true);
    return { ok: true };
  } catch (err) {
    if (err instanceof FenError) return { ok: false, error: chessJsShaped(err).message };
    throw err;
  }
}
