// Property tests: the packed bitboard core computes the same functions as the matrix model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kingAttacksHi, kingAttacksLo, knightAttacksHi, knightAttacksLo, pawnAttacksHi, pawnAttacksLo } from '../src/core/attacks.js';
import { magicAttacks } from '../src/core/magic.js';
import { rayWalkAttacks } from '../src/core/slider-attacks.js';
import * as m8 from '../src/matrix/mat8.js';
import * as bm from '../src/matrix/bitmat.js';
import { kingTargets, knightTargets, matrixSliderAttacks, pawnCaptureTargets, pawnForward } from '../src/matrix/matrix-attacks.js';
import { Position } from '../src/core/position.js';
import { perft } from '../src/core/perft.js';
import { MoveGenerator } from '../src/core/movegen.js';
import { randomPositions, rng } from './matrix-helpers.js';

const one = (sq: number): [number, number] => [sq < 32 ? 1 << sq : 0, sq < 32 ? 0 : 1 << (sq - 32)];

test('knight and king targets (shift-matrix products) equal the core tables on every square', () => {
  const out = new Int32Array(2);
  for (let sq = 0; sq < 64; sq++) {
    const [lo, hi] = one(sq);
    knightTargets(out, 0, lo, hi);
    assert.deepEqual([out[0], out[1]], [knightAttacksLo[sq], knightAttacksHi[sq]], `knight ${sq}`);
    kingTargets(out, 0, lo, hi);
    assert.deepEqual([out[0], out[1]], [kingAttacksLo[sq], kingAttacksHi[sq]], `king ${sq}`);
  }
});

test('knight and pawn targets of random piece sets are the union of the core tables (linearity)', () => {
  const rand = rng(11);
  const out = new Int32Array(2);
  for (let n = 0; n < 500; n++) {
    let lo = 0,
      hi = 0,
      nLo = 0,
      nHi = 0;
    const color = n & 1;
    let pLo = 0,
      pHi = 0,
      fLo = 0,
      fHi = 0;
    for (let sq = 0; sq < 64; sq++) {
      if (rand() < 0.15) {
        const [a, b] = one(sq);
        lo |= a;
        hi |= b;
        nLo |= knightAttacksLo[sq];
        nHi |= knightAttacksHi[sq];
        pLo |= pawnAttacksLo[color * 64 + sq];
        pHi |= pawnAttacksHi[color * 64 + sq];
        const f = color === 0 ? sq + 8 : sq - 8;
        if (f >= 0 && f < 64) {
          const [c, d] = one(f);
          fLo |= c;
          fHi |= d;
        }
      }
    }
    knightTargets(out, 0, lo, hi);
    assert.deepEqual([out[0], out[1]], [nLo, nHi]);
    pawnCaptureTargets(out, 0, color, lo, hi);
    assert.deepEqual([out[0], out[1]], [pLo, pHi]);
    pawnForward(out, 0, color, lo, hi);
    assert.deepEqual([out[0], out[1]], [fLo, fHi]);
  }
});

test('sliding attacks by L_d prefix products equal magic bitboards and ray walking on random boards', () => {
  const rand = rng(12);
  const a = new Int32Array(2),
    b = new Int32Array(2),
    c = new Int32Array(2);
  for (let n = 0; n < 3000; n++) {
    const density = rand() * 0.6;
    let occLo = 0,
      occHi = 0;
    for (let sq = 0; sq < 64; sq++)
      if (rand() < density) {
        const [x, y] = one(sq);
        occLo |= x;
        occHi |= y;
      }
    const sq = Math.floor(rand() * 64);
    for (const kind of ['rook', 'bishop'] as const) {
      matrixSliderAttacks[kind](sq, occLo, occHi, a);
      magicAttacks[kind](sq, occLo, occHi, b);
      rayWalkAttacks[kind](sq, occLo, occHi, c);
      assert.deepEqual([a[0], a[1]], [b[0], b[1]], `${kind} ${sq}`);
      assert.deepEqual([a[0], a[1]], [c[0], c[1]]);
      if (n < 300) {
        // The same comparison as 8×8 matrices: the core's bitboard unpacked, cell by cell.
        const fromCore = m8.create(),
          fromMatrix = m8.create();
        for (let r = 0; r < 8; r++)
          for (let col = 0; col < 8; col++) {
            const s2 = (7 - r) * 8 + col;
            fromCore[r * 8 + col] = s2 < 32 ? (b[0] >>> s2) & 1 : (b[1] >>> (s2 - 32)) & 1;
          }
        assert.deepEqual(bm.unpack(fromMatrix, a[0], a[1]), fromCore);
      }
    }
  }
});

test('the seed’s column formula: prefix = L · occ along a file finds the first blocker', () => {
  // A rook on row 7 looking up its file: the ray read upwards as a vector v, L · v its prefix sums.
  const rand = rng(13);
  const L = m8.lowerTriangular(m8.create()),
    v = new Int32Array(8),
    pv = new Int32Array(8),
    out = new Int32Array(2);
  for (let n = 0; n < 200; n++) {
    const col = Math.floor(rand() * 8);
    const occ = m8.create();
    for (let i = 0; i < 64; i++) occ[i] = rand() < 0.3 ? 1 : 0;
    occ[7 * 8 + col] = 1;
    for (let t = 0; t < 7; t++) v[t] = occ[(6 - t) * 8 + col]; // squares above the rook, nearest first
    v[7] = 0;
    m8.mulVec(pv, L, v);
    const first = pv.findIndex((x) => x > 0); // first non-zero entry: the blocker
    const p = new Int32Array(2);
    bm.pack(p, 0, occ);
    matrixSliderAttacks.rook(col, p[0], p[1], out); // rook on row 7 = rank 1, square = col
    let reach = 0;
    for (let r = 6; r >= 0; r--) {
      if (bm.get(out[0], out[1], r, col)) reach++;
      else break;
    }
    assert.equal(reach, first === -1 || first >= 7 ? 7 : first + 1);
  }
});

test('the core move generator with the matrix slider attacks plugged in counts the same perft', () => {
  const gen = new MoveGenerator(matrixSliderAttacks);
  for (const fen of randomPositions(40, 14, 50)) {
    const pos = Position.fromFen(fen);
    assert.equal(perft(pos, 2, gen), perft(pos, 2), fen);
  }
});
