import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { MAX_MOVES, defaultGenerator } from '../src/core/movegen.js';
import { moveFrom, moveKind, moveTo, KIND_CASTLE } from '../src/core/move.js';
import { decodeNetwork, encodeNetwork, NnueFileError, type NnueNetwork } from '../src/engine/nnue/network.js';
import { nnueFromNetwork } from '../src/engine/nnue/load-node.js';
import {
  featureIndex,
  featureInputs,
  KING_BUCKET_LAYOUT,
  kingTransform,
  mirrorFeature,
  outputBucket,
  type NnueFeatures,
} from '../src/engine/nnue/features.js';
import { KING } from '../src/core/types.js';
import { mirrorFiles } from '../src/tune/nnue/dataset.js';
import { NNUE_SLOTS } from '../src/engine/nnue/kernel.js';
import { Engine } from '../src/engine/engine.js';
import { evaluate } from '../src/engine/evaluate.js';
import { crc32 } from '../src/core/crc32.js';
import { mirrorFen } from './helpers.js';
import { CHESS960_CASTLE_FENS, GAME_FENS, checkGames, checkTrees, pieceCount, randomNetwork } from './nnue-helpers.js';

test('network file: round trip, and every damaged file is refused with its problem named', () => {
  const net = randomNetwork(32, 4, 1);
  const bytes = encodeNetwork(net);
  const back = decodeNetwork(bytes, 'x.bin');
  assert.equal(back.hidden, 32);
  assert.equal(back.buckets, 4);
  assert.equal(back.description, 'random test network');
  assert.deepEqual(back.w1, net.w1);
  assert.deepEqual(back.w2, net.w2);
  assert.deepEqual(back.b2, net.b2);
  assert.deepEqual(back.psqt, net.psqt);
  const flipped = bytes.slice();
  flipped[500] ^= 1;
  assert.throws(
    () => decodeNetwork(flipped, 'x.bin'),
    (e: unknown) => e instanceof NnueFileError && /checksum/.test(e.message) && e.file === 'x.bin',
  );
  assert.throws(
    () => decodeNetwork(bytes.subarray(0, bytes.length - 10), 'x.bin'),
    (e: unknown) => e instanceof NnueFileError && /truncated/.test(e.message),
  );
  const magic = bytes.slice();
  magic[0] = 0;
  assert.throws(() => decodeNetwork(magic, 'x.bin'), /bad magic/);
  const version = bytes.slice();
  version[7] = 9;
  assert.throws(() => decodeNetwork(version, 'x.bin'), /format version 9, expected 3 or 4/);
  assert.throws(() => decodeNetwork(new Uint8Array(10), 'x.bin'), /truncated/);
  assert.equal(back.kind, 'evaluation');
  assert.equal(decodeNetwork(encodeNetwork(randomNetwork(32, 4, 1, 'residual'))).kind, 'residual');
  // An unknown kind is refused like any other damage (the checksum made right, so the kind is the problem).
  const kind = bytes.slice();
  kind[92] = 7;
  new DataView(kind.buffer).setUint32(kind.length - 4, crc32(kind.subarray(0, kind.length - 4)), true);
  assert.throws(() => decodeNetwork(kind, 'x.bin'), /x\.bin: network kind 7, expected 0 \(evaluation\) or 1 \(residual\)/);
  // The activation: clipped ReLU unless the file says squared; an unknown one is refused.
  assert.equal(back.activation, 'crelu');
  assert.equal(decodeNetwork(encodeNetwork(randomNetwork(32, 4, 1, 'evaluation', 'screlu'))).activation, 'screlu');
  const act = bytes.slice();
  act[94] = 2;
  new DataView(act.buffer).setUint32(act.length - 4, crc32(act.subarray(0, act.length - 4)), true);
  assert.throws(() => decodeNetwork(act, 'x.bin'), /x\.bin: activation 2, expected 0 \(clipped ReLU\) or 1 \(squared clipped ReLU\)/);
  // Squared: QA·w must fit the kernel's 16-bit lanes (−128 does, 129 does not); the squared sum is
  // no longer bounded by 32 bits (int64 partial sums), so 256 and 512 neurons load.
  const wide = randomNetwork(32, 4, 1, 'evaluation', 'screlu');
  wide.w2[5] = -128;
  assert.equal(decodeNetwork(encodeNetwork(wide)).w2[5], -128);
  wide.w2[5] = 129;
  assert.throws(() => decodeNetwork(encodeNetwork(wide), 'w.bin'), /w\.bin: output weights up to 129 times QA 255 overflow/);
  for (const hidden of [256, 512])
    assert.equal(decodeNetwork(encodeNetwork(randomNetwork(hidden, 8, 1, 'evaluation', 'screlu'))).hidden, hidden);
  // QA is the clamp's bound in an int16 lane of the kernel.
  const bigQa = randomNetwork(32, 4, 1);
  bigQa.qa = 40000;
  bigQa.w2.fill(1);
  assert.throws(
    () => decodeNetwork(encodeNetwork(bigQa), 'q.bin'),
    /q\.bin: QA 40000 does not fit the kernel's 16-bit lanes \(at most 32767\)/,
  );
  // Piece-square rows of 2^25: 32 of them fit the output sum, but the two perspectives' difference
  // (64 rows) would wrap the kernel's int32 subtraction; 2^25 − 1 is accepted.
  const psq = randomNetwork(32, 4, 1);
  psq.psqt[7] = 2 ** 25;
  assert.throws(
    () => decodeNetwork(encodeNetwork(psq), 'p.bin'),
    /p\.bin: output weights up to \d+ \(piece-square up to 33554432\) could overflow/,
  );
  psq.psqt[7] = 2 ** 25 - 1;
  assert.equal(decodeNetwork(encodeNetwork(psq)).psqt[7], 2 ** 25 - 1);
  // The feature set: plain unless the file says king-mirrored or king-buckets; an unknown one is refused.
  assert.equal(back.features, 'plain');
  const km = decodeNetwork(encodeNetwork(randomNetwork(32, 4, 1, 'evaluation', 'crelu', 'king-mirrored')));
  assert.equal(km.features, 'king-mirrored');
  assert.deepEqual(km.w1, net.w1);
  const feat = bytes.slice();
  feat[96] = 3;
  new DataView(feat.buffer).setUint32(feat.length - 4, crc32(feat.subarray(0, feat.length - 4)), true);
  assert.throws(
    () => decodeNetwork(feat, 'x.bin'),
    /x\.bin: feature set 3, expected 0 \(plain\), 1 \(king-mirrored\) or 2 \(king-buckets\)/,
  );
  // A plain network's file that says king-buckets: its inputs field (768) is not the feature set's.
  const kbHeader = bytes.slice();
  kbHeader[96] = 2;
  new DataView(kbHeader.buffer).setUint32(kbHeader.length - 4, crc32(kbHeader.subarray(0, kbHeader.length - 4)), true);
  assert.throws(
    () => decodeNetwork(kbHeader, 'x.bin'),
    (e: unknown) =>
      e instanceof NnueFileError && /^x\.bin: inputs field 768, the king-buckets feature set has 3840 inputs$/.test(e.message),
  );
  // A version-3 file (the shipped networks before the features field) is the same network, plain.
  const v3 = new Uint8Array(bytes.length - 2);
  v3.set(bytes.subarray(0, 96));
  v3.set(bytes.subarray(98), 96);
  v3[7] = 3;
  new DataView(v3.buffer).setUint32(v3.length - 4, crc32(v3.subarray(0, v3.length - 4)), true);
  const old = decodeNetwork(v3, 'v3.bin');
  assert.equal(old.features, 'plain');
  assert.deepEqual([old.w1, old.w2, old.b2, old.psqt], [net.w1, net.w2, net.b2, net.psqt]);
});

test("network file, king-buckets: W1 and the piece-square term have 3840 rows; the inputs field must be the feature set's", () => {
  const net = randomNetwork(32, 4, 41, 'evaluation', 'crelu', 'king-buckets');
  assert.equal(net.w1.length, 3840 * 32);
  assert.equal(net.psqt.length, 3840 * 4);
  const bytes = encodeNetwork(net);
  const v = new DataView(bytes.buffer);
  assert.equal(v.getUint16(8, true), 3840);
  assert.equal(v.getUint16(96, true), 2);
  assert.equal(bytes.length, 98 + 2 * 3840 * 32 + 2 * 32 + 2 * 4 * 64 + 4 * 4 + 4 * 3840 * 4 + 4);
  const back = decodeNetwork(bytes, 'kb.bin');
  assert.equal(back.features, 'king-buckets');
  assert.deepEqual([back.w1, back.b1, back.w2, back.b2, back.psqt], [net.w1, net.b1, net.w2, net.b2, net.psqt]);
  // The inputs field disagrees with the feature set (the checksum made right): refused, naming both.
  for (const inputs of [768, 3839, 0]) {
    const bad = bytes.slice();
    new DataView(bad.buffer).setUint16(8, inputs, true);
    new DataView(bad.buffer).setUint32(bad.length - 4, crc32(bad.subarray(0, bad.length - 4)), true);
    assert.throws(
      () => decodeNetwork(bad, 'kb.bin'),
      (e: unknown) =>
        e instanceof NnueFileError && e.message === `kb.bin: inputs field ${inputs}, the king-buckets feature set has 3840 inputs`,
    );
  }
  // A plain file cannot claim 3840 inputs either.
  const plain = encodeNetwork(randomNetwork(32, 4, 1));
  new DataView(plain.buffer).setUint16(8, 3840, true);
  new DataView(plain.buffer).setUint32(plain.length - 4, crc32(plain.subarray(0, plain.length - 4)), true);
  assert.throws(() => decodeNetwork(plain, 'p.bin'), /^NnueFileError: p\.bin: inputs field 3840, the plain feature set has 768 inputs$/);
  // Truncation is measured against the 3840-row payload.
  assert.throws(
    () => decodeNetwork(bytes.subarray(0, bytes.length - 4 * 3840), 'kb.bin'),
    /3840 inputs, 32 hidden, 4 buckets\) needs \d+ \(truncated\)/,
  );
  // A network in memory whose matrices do not fit its feature set is neither written nor loaded into a kernel.
  const misfit = { ...net, features: 'plain' as const };
  assert.throws(() => encodeNetwork(misfit), /w1 has 122880 entries, expected 24576/);
  assert.throws(() => nnueFromNetwork(misfit, 'ts'), /w1 has 122880 entries, expected 24576/);
  assert.throws(() => nnueFromNetwork(misfit, 'wasm'), /w1 has 122880 entries, expected 24576/);
  assert.throws(
    () => nnueFromNetwork({ ...randomNetwork(32, 4, 1), features: 'king-buckets' }, 'wasm'),
    /w1 has 24576 entries, expected 122880/,
  );
});

test('features: Black sees the board flipped, with colours exchanged', () => {
  for (const piece of [1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14]) {
    for (let sq = 0; sq < 64; sq++) {
      const w = featureIndex(0, piece, sq),
        b = featureIndex(1, piece, sq);
      assert.equal(b, mirrorFeature(w));
      // Black's view of a black piece equals White's view of the mirrored white piece.
      assert.equal(b, featureIndex(0, piece ^ 8, sq ^ 56));
    }
  }
});

test('features: king transforms of the three feature sets (plain 0; king-mirrored 0 or 7; king-buckets 768 × bucket)', () => {
  const sq = (name: string): number => (name.charCodeAt(1) - 49) * 8 + name.charCodeAt(0) - 97;
  const WHITE_KING = 6,
    BLACK_KING = 14,
    WHITE_PAWN = 1;
  assert.deepEqual([featureInputs('plain'), featureInputs('king-mirrored'), featureInputs('king-buckets')], [768, 768, 3840]);
  for (let k = 0; k < 64; k++)
    for (const persp of [0, 1]) {
      assert.equal(kingTransform('plain', persp, k), 0);
      assert.equal(kingTransform('king-mirrored', persp, k), (k & 7) >= 4 ? 7 : 0);
      const t = kingTransform('king-buckets', persp, k);
      assert.equal(t & 7, 0, 'king buckets never flip');
      assert.equal(t, 768 * KING_BUCKET_LAYOUT[persp === 0 ? k : k ^ 56]);
    }
  // King-mirrored: unchanged, a king on f1 flips the files, on d1 it does not.
  assert.equal(kingTransform('king-mirrored', 0, sq('f1')), 7);
  assert.equal(kingTransform('king-mirrored', 1, sq('f1')), 7);
  assert.equal(kingTransform('king-mirrored', 0, sq('d1')), 0);
  assert.equal(featureIndex(0, WHITE_PAWN, sq('a2'), 7), featureIndex(0, WHITE_PAWN, sq('h2')));
  // King buckets by the king's square from its own side: back rank a–c 0, d–e 1, f–h 2; second rank 3; above 4.
  const kb = (persp: number, k: string): number => kingTransform('king-buckets', persp, sq(k));
  assert.equal(kb(0, 'g1'), 1536);
  assert.equal(kb(1, 'g8'), 1536, "Black's king on g8 is on its back rank's f–h part");
  assert.equal(kb(0, 'g8'), 4 * 768);
  assert.equal(kb(1, 'g1'), 4 * 768);
  assert.equal(kb(0, 'e2'), 3 * 768);
  assert.equal(kb(1, 'e7'), 3 * 768);
  assert.equal(kb(0, 'e4'), 4 * 768);
  assert.equal(kb(1, 'e4'), 4 * 768);
  assert.deepEqual(
    ['a1', 'b1', 'c1', 'd1', 'e1', 'f1', 'g1', 'h1'].map((k) => kb(0, k) / 768),
    [0, 0, 0, 1, 1, 2, 2, 2],
  );
  assert.deepEqual(
    ['a8', 'b8', 'c8', 'd8', 'e8', 'f8', 'g8', 'h8'].map((k) => kb(1, k) / 768),
    [0, 0, 0, 1, 1, 2, 2, 2],
  );
  // featureIndex: the plain feature plus the bucket's offset, in [0, 3840); plain and king-mirrored unchanged.
  for (const piece of [1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14])
    for (let s = 0; s < 64; s++)
      for (const persp of [0, 1]) {
        const plain = featureIndex(persp, piece, s);
        assert.ok(plain >= 0 && plain < 768);
        assert.equal(featureIndex(persp, piece, s, 0), plain);
        assert.equal(featureIndex(persp, piece, s, 7), plain ^ 7);
        for (let b = 0; b < 5; b++) assert.equal(featureIndex(persp, piece, s, b * 768), plain + b * 768);
      }
  assert.equal(featureIndex(0, WHITE_KING, sq('g1'), kb(0, 'g1')), 1536 + 5 * 64 + sq('g1'));
  assert.equal(featureIndex(1, BLACK_KING, sq('g8'), kb(1, 'g8')), 1536 + 5 * 64 + sq('g1'));
});

test('NNUE: incremental accumulators equal full recomputation after every move, null move, castle, en passant and promotion (both kernels)', () => {
  const net = randomNetwork(64, 8, 7);
  const seen = checkGames([nnueFromNetwork(net, 'ts'), nnueFromNetwork(net, 'wasm')], GAME_FENS, 11, 120);
  for (const [kind, n] of Object.entries(seen)) assert.ok(n > 0, `the random games played no ${kind}`);
});

test('NNUE, king-mirrored features: incremental equals full after every move, the king crossing the d/e boundary included (both kernels)', () => {
  const net = randomNetwork(64, 8, 31, 'evaluation', 'crelu', 'king-mirrored');
  const seen = checkGames([nnueFromNetwork(net, 'ts'), nnueFromNetwork(net, 'wasm')], GAME_FENS, 12, 120);
  for (const [kind, n] of Object.entries(seen)) assert.ok(n > 0, `the random games played no ${kind}`);
  // The same network read as plain features is another evaluation: the flip is really applied.
  const plain = nnueFromNetwork({ ...net, features: 'plain' }, 'ts'),
    mirrored = nnueFromNetwork(net, 'ts');
  const kingside = Position.fromFen('r4rk1/pp3ppp/2n5/8/8/2N5/PP3PPP/R4RK1 w - - 0 1');
  assert.notEqual(plain.evaluateFresh(kingside), mirrored.evaluateFresh(kingside));
});

test('NNUE, king-buckets features: incremental equals full after every move, king moves between all five buckets and castles (Chess960 too) included (both kernels)', () => {
  const net = randomNetwork(64, 8, 43, 'evaluation', 'crelu', 'king-buckets');
  const bucket = (us: number, k: number): number => KING_BUCKET_LAYOUT[us === 0 ? k : k ^ 56];
  const changes = new Set<string>(),
    castles = new Set<string>();
  let stale = 0;
  const observe = (pos: Position, m: number): void => {
    if ((pos.board[moveFrom(m)] & 7) !== KING) return;
    const us = pos.side,
      a = bucket(us, moveFrom(m)),
      b = bucket(us, moveTo(m));
    if (moveKind(m) === KIND_CASTLE) castles.add(`${us ? 'black' : 'white'} ${(moveTo(m) & 7) === 6 ? 'O-O' : 'O-O-O'} ${a}->${b}`);
    if (a !== b) {
      changes.add(`${a}->${b}`);
      stale++;
    }
  };
  const evaluators = [nnueFromNetwork(net, 'ts'), nnueFromNetwork(net, 'wasm')];
  const seen = checkGames(evaluators, [...GAME_FENS, ...CHESS960_CASTLE_FENS], 13, 160, observe);
  for (const [kind, n] of Object.entries(seen)) assert.ok(n > 0, `the random games played no ${kind}`);
  // Every bucket is entered and left by a king move, the back rank's three parts among each other too.
  for (const want of ['0->1', '1->0', '1->2', '2->1', '0->3', '3->0', '1->3', '3->1', '2->3', '3->2', '3->4', '4->3'])
    assert.ok(changes.has(want), `no king move from bucket ${want.replace('->', ' to ')} (saw ${[...changes].sort().join(', ')})`);
  assert.ok(stale > 50, `only ${stale} king moves changed bucket`);
  // Every castle of the castling positions, for either side to move, then every reply: incremental == full.
  const moves = new Int32Array(MAX_MOVES),
    replies = new Int32Array(MAX_MOVES);
  for (const fen of [GAME_FENS[1], GAME_FENS[2], ...CHESS960_CASTLE_FENS])
    for (const side of ['w', 'b']) {
      const pos = Position.fromFen(fen.replace(/ [wb] (\S+) \S+ /, ` ${side} $1 - `));
      const n = defaultGenerator.generate(pos, moves, 0);
      for (let i = 0; i < n; i++) {
        const m = moves[i];
        if (moveKind(m) !== KIND_CASTLE) continue;
        observe(pos, m);
        for (const e of evaluators) e.reset(pos);
        for (const e of evaluators) e.make(pos, m);
        pos.makeMove(m);
        const nr = defaultGenerator.generate(pos, replies, 0);
        for (let j = 0; j < nr; j++) {
          for (const e of evaluators) e.make(pos, replies[j]);
          pos.makeMove(replies[j]);
          for (const e of evaluators) assert.equal(e.evaluate(pos), e.evaluateFresh(pos), `${e.kernel.name}: ${fen} ${side}`);
          pos.unmakeMove();
        }
        for (const e of evaluators) assert.equal(e.evaluate(pos), e.evaluateFresh(pos), `${e.kernel.name}: ${fen} ${side}`);
        pos.unmakeMove();
      }
    }
  // Castles from the back rank's d–e part to either side, from a–c to f–h, and the Chess960 king that stays on g1.
  for (const colour of ['white', 'black'])
    for (const want of ['O-O 1->2', 'O-O-O 1->0', 'O-O 0->2', 'O-O-O 2->0', 'O-O 2->2', 'O-O-O 0->0'])
      assert.ok(castles.has(`${colour} ${want}`), `no castle ${colour} ${want} (saw ${[...castles].sort().join(', ')})`);
});

test('NNUE, king-buckets features: five copies of a plain network are that network; changing one bucket changes only positions whose king stands in it (both kernels)', () => {
  const plain = randomNetwork(32, 8, 47);
  const tile = <T extends Int16Array | Int32Array>(a: T, row: number): T => {
    const out = new (a.constructor as new (n: number) => T)(a.length * 5);
    for (let b = 0; b < 5; b++) out.set(a, b * 768 * row);
    return out;
  };
  const kb: NnueNetwork = { ...plain, features: 'king-buckets', w1: tile(plain.w1, 32), psqt: tile(plain.psqt, 8) };
  // Bucket 2's columns (a king on f–h of its back rank) changed: W1 negated, psqt doubled.
  const changed: NnueNetwork = { ...kb, w1: kb.w1.slice(), psqt: kb.psqt.slice() };
  for (let i = 2 * 768 * 32; i < 3 * 768 * 32; i++) changed.w1[i] = -changed.w1[i];
  for (let i = 2 * 768 * 8; i < 3 * 768 * 8; i++) changed.psqt[i] *= 2;
  let same = 0,
    differ = 0;
  for (const kernel of ['ts', 'wasm'] as const) {
    const p = nnueFromNetwork(plain, kernel),
      k = nnueFromNetwork(kb, kernel),
      c = nnueFromNetwork(changed, kernel);
    for (const fen of [
      ...GAME_FENS,
      ...CHESS960_CASTLE_FENS,
      'r4rk1/pp3ppp/2n5/8/8/2N5/PP3PPP/R4RK1 w - - 0 1',
      '6k1/8/8/8/8/8/8/3K4 b - - 0 1',
    ]) {
      const pos = Position.fromFen(fen);
      assert.equal(k.networkOutputFresh(pos), p.networkOutputFresh(pos), `${kernel}: ${fen}`);
      const inBucket2 = [0, 1].some((persp) => kingTransform('king-buckets', persp, pos.kingSq[persp]) === 1536);
      if (inBucket2) {
        assert.notEqual(c.networkOutputFresh(pos), p.networkOutputFresh(pos), `${kernel}: ${fen}`);
        differ++;
      } else {
        assert.equal(c.networkOutputFresh(pos), p.networkOutputFresh(pos), `${kernel}: ${fen}`);
        same++;
      }
    }
  }
  assert.ok(same > 4 && differ > 4, `${same} positions without a king in bucket 2, ${differ} with`);
});

test('NNUE: the lazy update, over search-like trees (make, unmake, null moves, most nodes unevaluated), equals full recomputation (both kernels, all three feature sets)', () => {
  for (const features of ['plain', 'king-mirrored', 'king-buckets'] as const) {
    const net = randomNetwork(32, 8, 37, 'evaluation', 'crelu', features);
    const longChains = checkTrees([nnueFromNetwork(net, 'ts'), nnueFromNetwork(net, 'wasm')], GAME_FENS.slice(0, 8), 17);
    assert.ok(longChains > 20, `${features}: only ${longChains} evaluations after three or more unevaluated plies`);
  }
});

test('features, king-mirrored: each side sees its king on the a–d files, so a position reflected a↔h has the same inputs and evaluation', () => {
  const net = randomNetwork(32, 8, 33, 'evaluation', 'crelu', 'king-mirrored'),
    e = nnueFromNetwork(net, 'ts');
  const features: NnueFeatures = 'king-mirrored';
  let checked = 0;
  for (const fen of GAME_FENS) {
    const pos = Position.fromFen(fen),
      reflected = mirrorFiles(pos);
    for (let persp = 0; persp < 2; persp++) {
      const inputs = (p: Position): number[] => {
        const flip = kingTransform(features, persp, p.kingSq[persp]);
        assert.ok(((p.kingSq[persp] & 7) ^ flip) < 4, 'the king lands on files a–d');
        const out: number[] = [];
        for (let sq = 0; sq < 64; sq++) if (p.board[sq] !== 0) out.push(featureIndex(persp, p.board[sq], sq, flip));
        return out.sort((a, b) => a - b);
      };
      assert.deepEqual(inputs(reflected), inputs(pos), fen);
    }
    assert.equal(e.evaluateFresh(reflected), e.evaluateFresh(pos), fen);
    checked++;
  }
  assert.ok(checked > 5);
});

test('NNUE: a residual network is added to the classical evaluation, incrementally as from scratch (both kernels)', () => {
  const net = randomNetwork(32, 8, 13, 'residual');
  const evaluators = [nnueFromNetwork(net, 'ts'), nnueFromNetwork(net, 'wasm')];
  checkGames(evaluators, GAME_FENS.slice(0, 4), 17, 60);
  for (const fen of GAME_FENS.slice(0, 4)) {
    const pos = Position.fromFen(fen);
    for (const e of evaluators) {
      assert.notEqual(e.networkOutputFresh(pos), 0);
      assert.equal(e.evaluateFresh(pos), evaluate(pos) + e.networkOutputFresh(pos), `${e.kernel.name}: ${fen}`);
    }
  }
});

test('NNUE: the WebAssembly kernel equals the TypeScript reference on thousands of random positions (wide network)', () => {
  const net = randomNetwork(256, 8, 3);
  const seen = checkGames([nnueFromNetwork(net, 'ts'), nnueFromNetwork(net, 'wasm')], GAME_FENS.slice(0, 6), 5, 400);
  assert.ok(seen.positions > 1000, `only ${seen.positions} positions`);
});

test('NNUE, king-buckets: the WebAssembly kernel holds a 3840×512 W1 and equals the TypeScript reference', () => {
  const net = randomNetwork(512, 8, 53, 'evaluation', 'crelu', 'king-buckets');
  const seen = checkGames(
    [nnueFromNetwork(net, 'ts'), nnueFromNetwork(net, 'wasm')],
    [GAME_FENS[1], ...CHESS960_CASTLE_FENS.slice(0, 2)],
    59,
    100,
  );
  assert.ok(seen.positions > 150, `only ${seen.positions} positions`);
});

test('NNUE: the squared activation, both kernels: incremental equals full, WebAssembly equals TypeScript, and the output is the sum of clamp²·w / QA', () => {
  const net = randomNetwork(128, 8, 21, 'residual', 'screlu');
  net.psqt.fill(0);
  net.b2.fill(0);
  const evaluators = [nnueFromNetwork(net, 'ts'), nnueFromNetwork(net, 'wasm')];
  const seen = checkGames(evaluators, GAME_FENS.slice(0, 6), 23, 150);
  assert.ok(seen.positions > 500, `only ${seen.positions} positions`);
  // Written out here from the accumulators: with no bias and no piece-square term, the output is
  // trunc(trunc(Σ clamp(a)²·w / QA) · SCALE / (QA·QB)).
  const crelu = nnueFromNetwork({ ...net, activation: 'crelu' }, 'wasm');
  let differs = 0;
  for (const fen of GAME_FENS) {
    const pos = Position.fromFen(fen);
    for (const e of evaluators) {
      const out = e.networkOutputFresh(pos);
      const us = e.kernel.accumulator(NNUE_SLOTS - 1, pos.side),
        them = e.kernel.accumulator(NNUE_SLOTS - 1, pos.side ^ 1);
      const bucket = outputBucket(pieceCount(pos), 8),
        w = bucket * 256;
      let sum = 0;
      for (let i = 0; i < 128; i++) {
        const a = Math.min(255, Math.max(0, us[i])),
          b = Math.min(255, Math.max(0, them[i]));
        sum += a * a * net.w2[w + i] + b * b * net.w2[w + 128 + i];
      }
      assert.equal(out, Math.trunc((Math.trunc(sum / 255) * 400) / (255 * 64)), `${e.kernel.name}: ${fen}`);
    }
    if (crelu.networkOutputFresh(pos) !== evaluators[1].networkOutputFresh(pos)) differs++;
  }
  assert.ok(differs > GAME_FENS.length / 2, 'the squared activation changes the output');
});

test('NNUE: a search with the network is deterministic and leaves the position as it was', () => {
  const net = randomNetwork(32, 8, 9);
  const pos = Position.fromFen(GAME_FENS[1]);
  const fen = pos.toFen();
  const a = new Engine({ hashMb: 1, nnue: nnueFromNetwork(net, 'wasm') }).search(pos, { nodes: 3000 });
  const b = new Engine({ hashMb: 1, nnue: nnueFromNetwork(net, 'ts') }).search(pos, { nodes: 3000 });
  assert.equal(pos.toFen(), fen);
  assert.equal(a.nodes, b.nodes);
  assert.equal(a.bestMove, b.bestMove);
  assert.deepEqual(a.score, b.score);
});

test("NNUE: the network's output goes through the classical evaluation's endgame rules (insufficient material is 0, mop-up against a bare king)", () => {
  const net = randomNetwork(32, 8, 5);
  for (const kernel of ['ts', 'wasm'] as const) {
    const e = nnueFromNetwork(net, kernel);
    // A knight cannot mate: whatever the random network says, the evaluation is a draw.
    for (const fen of ['8/8/8/4k3/8/8/8/4KN2 w - - 0 1', '8/8/8/4k3/8/8/8/4KN2 b - - 0 1', '8/8/3b4/4k3/8/8/8/4K3 w - - 0 1']) {
      const pos = Position.fromFen(fen);
      assert.notEqual(e.networkOutputFresh(pos), 0, `${kernel}: the random network already says 0 for ${fen}`);
      assert.equal(e.evaluateFresh(pos), 0, `${kernel}: ${fen}`);
    }
    // Rook pawns held in the corner: a draw when the network favours the pawns' side (the rule's
    // side); when it favours the bare king, the king's side has too little to win (scale 4/64).
    let held = 0;
    for (const fen of ['k7/P7/8/8/4K3/4B3/8/8 b - - 0 1', '8/6kP/3K4/8/4B3/8/8/8 w - - 0 1', '1k6/8/8/P7/P7/8/8/4K3 w - - 0 1']) {
      for (const f of [fen, mirrorFen(fen)]) {
        const pos = Position.fromFen(f),
          out = e.networkOutputFresh(pos),
          pawnsWhite = f === fen;
        if (out !== 0 && out > 0 === (pawnsWhite === (pos.side === 0))) {
          assert.equal(e.evaluateFresh(pos), 0, `${kernel}: ${f} (network ${out})`);
          held++;
        } else assert.ok(Math.abs(e.evaluateFresh(pos)) <= Math.abs(out) / 16 + 1, `${kernel}: ${f}`);
      }
    }
    assert.ok(held > 0, `${kernel}: the random network never favoured the pawns`);
    // KRvK: the same rook, the bare king in the corner is worth more to the rook's side than in the centre.
    const corner = Position.fromFen('k7/8/8/8/8/8/8/1R2K3 w - - 0 1'),
      centre = Position.fromFen('8/8/8/3k4/8/8/8/1R2K3 w - - 0 1');
    const bonus = (p: Position): number => e.evaluateFresh(p) - e.networkOutputFresh(p);
    assert.ok(bonus(corner) > bonus(centre) && bonus(centre) > 0, `${kernel}: mop-up ${bonus(corner)} vs ${bonus(centre)}`);
  }
});
