/**
 * The terminal board: Unicode pieces, optional ANSI colours (off for NO_COLOR and non-TTY
 * output), and a sidebar with the state a player needs: side to move, move number, fifty-move
 * counter, check, en passant square, castling rights and evaluation.
 */
import type { Position } from '../core/position.js';
import { BLACK_OO, BLACK_OOO, NO_SQUARE, PIECE_LETTERS, WHITE_OO, WHITE_OOO, squareName } from '../core/types.js';

const WHITE_GLYPHS = ['', '♙', '♗', '♘', '♖', '♕', '♔'];
const BLACK_GLYPHS = ['', '♟', '♝', '♞', '♜', '♛', '♚'];

export function pieceGlyph(piece: number): string {
  return (piece >> 3 ? BLACK_GLYPHS : WHITE_GLYPHS)[piece & 7] ?? '?';
}

/** Colours on only for a terminal, and never when NO_COLOR is set (no-color.org). */
export function useColor(stream: NodeJS.WriteStream = process.stdout): boolean {
  const noColor = process.env.NO_COLOR;
  return Boolean(stream.isTTY) && (noColor === undefined || noColor === '');
}

export interface BoardView {
  color: boolean;
  /** Black at the bottom. */
  flipped: boolean;
  /** FEN letters (K, q, …) instead of chess glyphs, for fonts or consoles without them. */
  ascii?: boolean;
  /** Squares of the last move, highlighted in colour mode. */
  lastFrom?: number;
  lastTo?: number;
  sidebar?: string[];
}

const RESET = '\x1b[0m';
const LIGHT_BG = '\x1b[48;5;180m',
  DARK_BG = '\x1b[48;5;137m',
  LAST_BG = '\x1b[48;5;143m';
const WHITE_FG = '\x1b[1;97m',
  BLACK_FG = '\x1b[1;30m';

export function renderBoard(pos: Position, view: BoardView): string {
  const lines: string[] = [];
  const side = view.sidebar ?? [];
  for (let row = 0; row < 8; row++) {
    const rank = view.flipped ? row : 7 - row;
    let line = ` ${rank + 1} `;
    for (let col = 0; col < 8; col++) {
      const file = view.flipped ? 7 - col : col;
      const sq = rank * 8 + file;
      const piece = pos.board[sq];
      if (view.color) {
        const bg = sq === view.lastFrom || sq === view.lastTo ? LAST_BG : (rank + file) % 2 === 0 ? DARK_BG : LIGHT_BG;
        const fg = piece >> 3 ? BLACK_FG : WHITE_FG;
        // With colour telling the sides apart, the solid glyphs read better for both.
        const glyph = view.ascii ? PIECE_LETTERS[piece] : BLACK_GLYPHS[piece & 7];
        line += `${bg}${fg} ${piece ? glyph : ' '} ${RESET}`;
      } else {
        line += ` ${piece ? (view.ascii ? PIECE_LETTERS[piece] : pieceGlyph(piece)) : '.'}`;
      }
    }
    if (side[row]) line += `    ${side[row]}`;
    lines.push(line);
  }
  const files = view.flipped ? 'hgfedcba' : 'abcdefgh';
  lines.push('   ' + [...files].map((f) => (view.color ? ` ${f} ` : ` ${f}`)).join(''));
  for (let i = 8; i < side.length; i++) lines.push(' '.repeat(view.color ? 27 : 19) + '    ' + side[i]);
  return lines.join('\n');
}

export function castlingText(rights: number): string {
  const s =
    (rights & WHITE_OO ? 'K' : '') + (rights & WHITE_OOO ? 'Q' : '') + (rights & BLACK_OO ? 'k' : '') + (rights & BLACK_OOO ? 'q' : '');
  return s || '-';
}

/** Centipawns from White's view as pawns with a sign: +0.35, -1.20. */
export function formatEval(cpWhite: number | null): string {
  if (cpWhite === null) return 'n/a';
  return (cpWhite >= 0 ? '+' : '-') + (Math.abs(cpWhite) / 100).toFixed(2);
}

export function sidebar(pos: Position, check: boolean, evalWhiteCp: number | null): string[] {
  return [
    `Turn:        ${pos.side === 0 ? 'White' : 'Black'}`,
    `Move:        ${pos.fullmove}`,
    `Fifty-move:  ${pos.halfmove}/100`,
    `Check:       ${check ? 'yes' : 'no'}`,
    `En passant:  ${pos.ep === NO_SQUARE ? '-' : squareName(pos.ep)}`,
    `Castling:    ${castlingText(pos.castling)}`,
    `Eval:        ${formatEval(evalWhiteCp)}`,
  ];
}
