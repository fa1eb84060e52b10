import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Sfc32, mix32 } from '../src/core/rng.js';

/** sfc32 written the textbook way (unsigned words, explicit masks), to check the int32 version. */
function referenceSfc32(a: number, b: number, c: number, d: number): () => number {
  const u = (x: number): number => x >>> 0;
  a = u(a);
  b = u(b);
  c = u(c);
  d = u(d);
  return () => {
    const t = u(u(a + b) + d);
    d = u(d + 1);
    a = u(b ^ (b >>> 9));
    b = u(c + u(c * 8));
    c = u(u((c * 2 ** 21) % 2 ** 32) | (c >>> 11));
    c = u(c + t);
    return t;
  };
}

test('Sfc32.fromState follows the textbook sfc32 stream, after the warm-up', () => {
  const state = [0x1337, 0x9e3779b9, 0x7f4a7c15, 0x2545f491] as const;
  const ref = referenceSfc32(...state);
  for (let i = 0; i < 16; i++) ref();
  const rng = Sfc32.fromState(...state, 16);
  for (let i = 0; i < 1000; i++) assert.equal(rng.next(), ref(), `output ${i}`);
});

test('a seeded stream is reproducible, seeds give different streams, floats stay in [0, 1)', () => {
  const take = (r: Sfc32): number[] => Array.from({ length: 64 }, () => r.next());
  assert.deepEqual(take(new Sfc32(42)), take(new Sfc32(42)));
  assert.notDeepEqual(take(new Sfc32(42)), take(new Sfc32(43)));
  const r = new Sfc32(7);
  for (let i = 0; i < 10000; i++) {
    const x = r.nextFloat();
    assert.ok(x >= 0 && x < 1, `float ${x}`);
  }
});

test('mix32 is an unsigned 32-bit hash that spreads neighbouring inputs', () => {
  const seen = new Set<number>();
  for (let i = 0; i < 4096; i++) {
    const h = mix32(i);
    assert.ok(Number.isInteger(h) && h >= 0 && h < 2 ** 32);
    seen.add(h);
  }
  assert.equal(seen.size, 4096);
});
