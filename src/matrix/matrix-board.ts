/**
 * MatrixBoard: the seed's board, operation for operation, with the general (readable) matrix
 * operations of mat8.ts. It is the model the demo shows and the tests hold the fast
 * MatrixPosition to; it knows nothing of turn order, legality or castling rights.
 *
 *   encoding     M[r, c] = ±type (+ white, − black), 0 empty; row 0 = rank 8, column 0 = file a
 *   extraction   M[r, c] = e_rᵀ · M · e_c
 *   moving       M' = (M ⊙ Z) + v · E(r2, c2),   Z = J − E(r, c) − E(r2, c2)
 */
import * as m8 from './mat8.js';
import { MatrixError } from './errors.js';
import { PIECE_LETTERS } from '../core/types.js';
import { codeOfEntry } from './matrix-position.js';

/** The standard starting matrix, row 0 = rank 8. */
export const START_MATRIX: ReadonlyArray<number> = [
  -4, -3, -2, -5, -6, -2, -3, -4, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 4, 3, 2, 5, 6, 2, 3, 4,
];

/** The parts of one affine update, kept so they can be shown. */
export interface AffineStep {
  readonly z: m8.Mat8; // Z = J − E(r, c) − E(r2, c2)
  readonly e: m8.Mat8; // E(r2, c2) = e_r2 e_c2ᵀ
  readonly v: number; // the value dropped in
  readonly before: Int8Array;
  readonly after: Int8Array;
}

export class MatrixBoard {
  readonly m: Int8Array;

  /** A board from a 64-entry row-major matrix (validated: integers in −6..6). */
  constructor(matrix: ArrayLike<number> = START_MATRIX) {
    m8.assertMatrix(matrix, 'board matrix', -6, 6);
    this.m = Int8Array.from(matrix as ArrayLike<number>);
  }

  static start(): MatrixBoard {
    return new MatrixBoard(START_MATRIX);
  }

  /** M[r, c] = e_rᵀ · M · e_c (throws MatrixError off the board). */
  get(r: number, c: number): number {
    m8.assertIndex(r, 'row');
    m8.assertIndex(c, 'column');
    return m8.extract(this.m, r, c);
  }

  /** The one-hot piece matrix [M == v] (v signed: 3 white knights, −4 black rooks). */
  pieceMatrix(out: m8.Mat8, v: number): m8.Mat8 {
    for (let i = 0; i < 64; i++) out[i] = this.m[i] === v ? 1 : 0;
    return out;
  }

  /** Occupancy |sign(M)|. */
  occupancy(out: m8.Mat8): m8.Mat8 {
    for (let i = 0; i < 64; i++) out[i] = this.m[i] !== 0 ? 1 : 0;
    return out;
  }

  /**
   * Moves the piece on (r, c) to (r2, c2), capturing whatever is there, by the affine update.
   * `value` replaces the piece's value (promotion); default: the piece itself. Returns the parts.
   */
  applyMove(r: number, c: number, r2: number, c2: number, value?: number): AffineStep {
    m8.assertIndex(r, 'from row');
    m8.assertIndex(c, 'from column');
    m8.assertIndex(r2, 'to row');
    m8.assertIndex(c2, 'to column');
    const v = value ?? this.get(r, c);
    if (this.get(r, c) === 0) throw new MatrixError('empty-square', `no piece on row ${r}, column ${c}`);
    if (r === r2 && c === c2) throw new MatrixError('index', 'a move must change squares');
    if (!Number.isInteger(v) || v === 0 || v < -6 || v > 6) throw new MatrixError('entry', `value ${v} is not a piece`);
    const z = m8.create(),
      e = m8.create(),
      t = m8.create();
    m8.ones(z);
    m8.sub(z, z, m8.elementary(t, r, c));
    m8.sub(z, z, m8.elementary(e, r2, c2));
    const before = this.m.slice();
    this.affine(z, v, e);
    return { z, e, v, before, after: this.m.slice() };
  }

  /**
   * A castle (Chess960 included) as two affine updates of the same form: the king's, whose Z also
   * zeroes the castling rook's square, M' = (M ⊙ (J − E(king) − E(rook) − E(king to))) + v_K·E(king to);
   * then the rook's, M'' = (M' ⊙ (J − E(rook to))) + v_R·E(rook to). Lifting the rook in the first
   * update keeps the order right when the king lands on the rook's square, the rook on the king's,
   * or the king does not move at all. Cells are [row, column]; returns both steps.
   */
  castle(
    king: readonly [number, number],
    kingTo: readonly [number, number],
    rook: readonly [number, number],
    rookTo: readonly [number, number],
  ): [AffineStep, AffineStep] {
    for (const [r, c] of [king, kingTo, rook, rookTo]) {
      m8.assertIndex(r, 'row');
      m8.assertIndex(c, 'column');
    }
    const vK = this.get(king[0], king[1]),
      vR = this.get(rook[0], rook[1]);
    if (Math.abs(vK) !== 6 || vR !== (vK > 0 ? 4 : -4)) throw new MatrixError('entry', 'a castle needs a king and a rook of its colour');
    const step = (zero: readonly (readonly [number, number])[], v: number, to: readonly [number, number]): AffineStep => {
      const z = m8.ones(m8.create()),
        e = m8.create(),
        t = m8.create();
      for (const [r, c] of zero) {
        m8.elementary(t, r, c);
        m8.hadamard(z, z, m8.sub(t, m8.ones(m8.create()), t));
      }
      m8.elementary(e, to[0], to[1]);
      const before = this.m.slice();
      this.affine(z, v, e);
      return { z, e, v, before, after: this.m.slice() };
    };
    const first = step([king, rook, kingTo], vK, kingTo);
    return [first, step([rookTo], vR, rookTo)];
  }

  /** Removes the piece on (r, c): M' = M ⊙ (J − E(r, c)) (the en-passant capture). */
  clear(r: number, c: number): void {
    m8.assertIndex(r, 'row');
    m8.assertIndex(c, 'column');
    const z = m8.create(),
      e = m8.create();
    m8.sub(z, m8.ones(z), m8.elementary(e, r, c));
    m8.hadamard(this.m, this.m, z);
  }

  /** M ← (M ⊙ Z) + v · E. */
  private affine(z: m8.Mat8, v: number, e: m8.Mat8): void {
    const t = m8.create();
    m8.hadamard(t, this.m, z);
    m8.addScaled(t, t, v, e);
    m8.assertMatrix(t, 'updated board', -6, 6);
    m8.copy(this.m, t);
  }

  /** Piece letters, rank 8 first. */
  toString(): string {
    const lines: string[] = [];
    for (let r = 0; r < 8; r++) {
      let s = `${8 - r} `;
      for (let c = 0; c < 8; c++) {
        const v = this.m[r * 8 + c];
        s += ' ' + (v === 0 ? '.' : PIECE_LETTERS[codeOfEntry(v)]);
      }
      lines.push(s);
    }
    lines.push('   a b c d e f g h');
    return lines.join('\n');
  }
}
