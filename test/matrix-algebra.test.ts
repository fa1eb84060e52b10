import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as m8 from '../src/matrix/mat8.js';
import * as bm from '../src/matrix/bitmat.js';
import { MatrixError } from '../src/matrix/errors.js';
import { DIRECTIONS, RAY_OPS } from '../src/matrix/basis.js';
import { rng } from './matrix-helpers.js';

function randomMatrix(rand: () => number, lo: number, hi: number, density = 1): m8.Mat8 {
  const a = m8.create();
  for (let i = 0; i < 64; i++) a[i] = rand() < density ? lo + Math.floor(rand() * (hi - lo + 1)) : 0;
  return a;
}

test('E(i, j) = e_i e_jᵀ has a single 1 at (i, j); extraction e_rᵀ M e_c reads entry (r, c)', () => {
  const rand = rng(1);
  const e = m8.create();
  for (let i = 0; i < 8; i++)
    for (let j = 0; j < 8; j++) {
      m8.elementary(e, i, j);
      for (let k = 0; k < 64; k++) assert.equal(e[k], k === i * 8 + j ? 1 : 0);
    }
  const a = randomMatrix(rand, -6, 6);
  for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) assert.equal(m8.extract(a, r, c), a[r * 8 + c]);
});

test('shift matrices truncate, compose and transpose as S_a S_b = S_{a+b}, S_{−k} = S_kᵀ; L = Σ_{k≥0} S_k', () => {
  const rand = rng(2);
  const sa = m8.create(),
    sb = m8.create(),
    p = m8.create(),
    s = m8.create(),
    t = m8.create();
  for (let a = -7; a <= 7; a++) {
    m8.shift(sa, a);
    m8.transpose(t, sa);
    assert.ok(m8.equals(t, m8.shift(s, -a)));
    for (let b = -7; b <= 7; b++) {
      if (Math.sign(a) * Math.sign(b) < 0) continue;
      m8.mul(p, sa, m8.shift(sb, b));
      const k = a + b;
      if (Math.abs(k) <= 7) assert.ok(m8.equals(p, m8.shift(s, k)), `S_${a} S_${b}`);
      else assert.ok(m8.equals(p, m8.fill(s, 0)));
    }
  }
  // Row shift by left multiplication, column shift by right multiplication, nothing wraps.
  const x = randomMatrix(rand, 1, 9);
  m8.mul(p, m8.shift(sa, 2), x);
  for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) assert.equal(p[r * 8 + c], r >= 2 ? x[(r - 2) * 8 + c] : 0);
  m8.mul(p, x, m8.shift(sa, 3));
  for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) assert.equal(p[r * 8 + c], c + 3 <= 7 ? x[r * 8 + c + 3] : 0);
  m8.fill(s, 0);
  for (let k = 0; k <= 7; k++) m8.add(s, s, m8.shift(sa, k));
  assert.ok(m8.equals(s, m8.lowerTriangular(t)));
  // L · v is the prefix sum.
  const v = Int32Array.from({ length: 8 }, () => Math.floor(rand() * 5));
  const pv = new Int32Array(8);
  m8.mulVec(pv, t, v);
  let acc = 0;
  for (let i = 0; i < 8; i++) {
    acc += v[i];
    assert.equal(pv[i], acc);
  }
});

test('integer products satisfy (AB)ᵀ = BᵀAᵀ and (A + B) ⊙ J = A + B on random matrices', () => {
  const rand = rng(3);
  const ab = m8.create(),
    abt = m8.create(),
    at = m8.create(),
    bt = m8.create(),
    btat = m8.create(),
    j = m8.ones(m8.create());
  for (let n = 0; n < 50; n++) {
    const a = randomMatrix(rand, -9, 9),
      b = randomMatrix(rand, -9, 9);
    m8.transpose(abt, m8.mul(ab, a, b));
    m8.mul(btat, m8.transpose(bt, b), m8.transpose(at, a));
    assert.ok(m8.equals(abt, btat));
    const s = m8.add(m8.create(), a, b);
    assert.ok(m8.equals(m8.hadamard(m8.create(), s, j), s));
  }
});

test('packed Boolean products equal the integer product thresholded, for every loop order', () => {
  const rand = rng(4);
  const p = m8.create(),
    u = m8.create(),
    out = new Int32Array(2),
    pa = new Int32Array(2),
    pb = new Int32Array(2);
  for (let n = 0; n < 400; n++) {
    const a = randomMatrix(rand, 0, 1, rand()),
      b = randomMatrix(rand, 0, 1, rand());
    bm.pack(pa, 0, a);
    bm.pack(pb, 0, b);
    m8.mul(p, a, b);
    for (let i = 0; i < 64; i++) p[i] = p[i] > 0 ? 1 : 0;
    for (const f of [bm.mulRows, bm.mulCols, bm.mul]) {
      f(out, 0, pa[0], pa[1], pb[0], pb[1]);
      assert.ok(m8.equals(bm.unpack(u, out[0], out[1]), p), f.name);
    }
    bm.transpose(out, 0, pa[0], pa[1]);
    assert.ok(m8.equals(bm.unpack(u, out[0], out[1]), m8.transpose(m8.create(), a)));
    assert.ok(m8.equals(bm.unpack(u, pa[0], pa[1]), a));
  }
});

test('the packed layout is the core bitboard layout: entry (r, c) is bit (7 − r) * 8 + c', () => {
  const out = new Int32Array(2);
  for (let r = 0; r < 8; r++)
    for (let c = 0; c < 8; c++) {
      bm.elementary(out, 0, r, c);
      const sq = (7 - r) * 8 + c;
      assert.equal(out[0], sq < 32 ? 1 << sq : 0);
      assert.equal(out[1], sq < 32 ? 0 : 1 << (sq - 32));
    }
});

test('ray operator L_d applied to e_s is the empty-board ray from s in direction d', () => {
  for (let d = 0; d < 8; d++) {
    const [dr, dc] = DIRECTIONS[d];
    for (let r = 0; r < 8; r++)
      for (let c = 0; c < 8; c++) {
        const sq = (7 - r) * 8 + c;
        let lo = 0,
          hi = 0;
        for (let t = 1; ; t++) {
          const r2 = r + t * dr,
            c2 = c + t * dc;
          if (r2 < 0 || r2 > 7 || c2 < 0 || c2 > 7) break;
          const s2 = (7 - r2) * 8 + c2;
          if (s2 < 32) lo |= 1 << s2;
          else hi |= 1 << (s2 - 32);
        }
        assert.equal(RAY_OPS[128 * d + 2 * sq], lo);
        assert.equal(RAY_OPS[128 * d + 2 * sq + 1], hi);
      }
  }
});

test('bad input is a MatrixError', () => {
  assert.throws(() => m8.assertMatrix(new Int32Array(63)), MatrixError);
  assert.throws(() => m8.assertMatrix([...new Array(63).fill(0), 0.5]), MatrixError);
  assert.throws(() => m8.elementary(m8.create(), 8, 0), MatrixError);
  assert.throws(() => m8.elementary(m8.create(), 0, -1), MatrixError);
  assert.throws(() => m8.shift(m8.create(), 9), MatrixError);
  const a = m8.create();
  assert.throws(() => m8.mul(a, a, a), MatrixError);
  assert.throws(() => bm.pack(new Int32Array(2), 0, new Array(64).fill(2)), MatrixError);
});
