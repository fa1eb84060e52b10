/**
 * The squared activation's exactness on many more positions than the quick test's: extreme networks
 * of 256 and 512 neurons, several seeds, every feature set and both kinds, each position checked
 * from scratch, incrementally and lazily against the exact formula (BigInt) on both kernels.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suiteFens } from '../helpers.js';
import { CHESS960_CASTLE_FENS, GAME_FENS, checkExact, extremeNetwork } from '../nnue-helpers.js';

const FENS = [...GAME_FENS, ...suiteFens().filter((_, i) => i % 16 === 8), ...CHESS960_CASTLE_FENS.slice(0, 3)];

for (const hidden of [256, 512])
  test(`NNUE, squared activation at ${hidden} neurons, many positions: both kernels equal the exact formula on extreme networks of every shape`, () => {
    let positions = 0,
      beyond32 = 0;
    for (const [k, o] of [
      { buckets: 8, features: 'plain' as const },
      { buckets: 1, features: 'plain' as const, kind: 'residual' as const },
      { buckets: 4, features: 'king-mirrored' as const },
      { buckets: 8, features: 'king-buckets' as const },
      { buckets: 8, features: 'plain' as const },
    ].entries()) {
      const seen = checkExact(extremeNetwork({ hidden, seed: 1000 * hidden + k, ...o }), FENS, 100 + k, 120);
      positions += seen.positions;
      beyond32 += seen.beyond32;
    }
    assert.ok(positions > 10000, `only ${positions} positions`);
    assert.ok(beyond32 > positions / 2, `only ${beyond32} of ${positions} positions have a squared sum beyond 2^31`);
  });
