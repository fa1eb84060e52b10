import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position, START_FEN } from '../src/core/position.js';
import { MAX_MOVES, defaultGenerator } from '../src/core/movegen.js';
import { moveKind, movePromo, KIND_CASTLE, KIND_EN_PASSANT } from '../src/core/move.js';
import {
  decodeNetwork,
  encodeNetwork,
  NnueFileError,
  NNUE_INPUTS,
  type NnueActivation,
  type NnueKind,
  type NnueNetwork,
} from '../src/engine/nnue/network.js';
import { nnueFromNetwork } from '../src/engine/nnue/load.js';
import type { NnueEvaluator } from '../src/engine/nnue/evaluator.js';
import { featureIndex, kingFlip, mirrorFeature, outputBucket, type NnueFeatures } from '../src/engine/nnue/features.js';
import { mirrorFiles } from '../src/tune/nnue-dataset.js';
import { NNUE_SLOTS } from '../src/engine/nnue/kernel.js';
import { Engine } from '../src/engine/search.js';
import { evaluate } from '../src/engine/evaluate.js';
import { crc32 } from '../src/core/crc32.js';
import { mirrorFen, rng, suiteFens } from './helpers.js';

/** A random network with weights in the ranges a trained one uses. */
export function randomNetwork(
  hidden: number,
  buckets: number,
  seed: number,
  kind: NnueKind = 'evaluation',
  activation: NnueActivation = 'crelu',
  features: NnueFeatures = 'plain',
): NnueNetwork {
  const r = rng(seed),
    int = (lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
  const w1 = new Int16Array(NNUE_INPUTS * hidden).map(() => int(-60, 60));
  const b1 = new Int16Array(hidden).map(() => int(-40, 200));
  const w2 = new Int16Array(buckets * 2 * hidden).map(() => int(-127, 127));
  const b2 = new Int32Array(buckets).map(() => int(-20000, 20000));
  const psqt = new Int32Array(NNUE_INPUTS * buckets).map(() => int(-40000, 40000));
  return {
    kind,
    activation,
    features,
    hidden,
    buckets,
    qa: 255,
    qb: 64,
    scale: 400,
    positions: 0,
    seed,
    epochs: 0,
    description: 'random test network',
    w1,
    b1,
    w2,
    b2,
    psqt,
  };
}

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
  // Squared: QA·w must fit the kernel's 16-bit lanes, and 2·hidden·QA²·|w| its 32-bit sum.
  const wide = randomNetwork(32, 4, 1, 'evaluation', 'screlu');
  wide.w2[5] = 129;
  assert.throws(() => decodeNetwork(encodeNetwork(wide), 'w.bin'), /w\.bin: output weights up to 129 times QA 255 overflow/);
  assert.throws(() => decodeNetwork(encodeNetwork(randomNetwork(256, 4, 1, 'evaluation', 'screlu')), 'w.bin'), /could overflow the 32-bit/);
  // The feature set: plain unless the file says king-mirrored; an unknown one is refused.
  assert.equal(back.features, 'plain');
  const km = decodeNetwork(encodeNetwork(randomNetwork(32, 4, 1, 'evaluation', 'crelu', 'king-mirrored')));
  assert.equal(km.features, 'king-mirrored');
  assert.deepEqual(km.w1, net.w1);
  const feat = bytes.slice();
  feat[96] = 2;
  new DataView(feat.buffer).setUint32(feat.length - 4, crc32(feat.subarray(0, feat.length - 4)), true);
  assert.throws(() => decodeNetwork(feat, 'x.bin'), /x\.bin: feature set 2, expected 0 \(plain\) or 1 \(king-mirrored\)/);
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

/** Plays seeded random games (with null moves) and checks incremental == full after every move. */
function checkGames(evaluators: NnueEvaluator[], fens: string[], seed: number, plies: number): Record<string, number> {
  const r = rng(seed),
    moves = new Int32Array(MAX_MOVES);
  const seen = { castle: 0, enPassant: 0, promotion: 0, capture: 0, nullMove: 0, kingCrossing: 0, positions: 0 };
  for (const fen of fens) {
    const pos = Position.fromFen(fen);
    for (const e of evaluators) e.reset(pos);
    for (let i = 0; i < plies; i++) {
      if (i % 100 === 99) for (const e of evaluators) e.reset(pos); // as a search does at its root
      const n = defaultGenerator.generate(pos, moves, 0);
      if (n === 0 || pos.halfmove >= 100) break;
      if (!pos.inCheck() && r() < 0.08) {
        for (const e of evaluators) e.makeNull(pos);
        pos.makeNullMove();
        seen.nullMove++;
      } else {
        // Random play rarely castles or captures en passant: take such a move when there is one, half the time.
        let m = moves[Math.floor(r() * n)];
        for (let k = 0; k < n; k++) if (moveKind(moves[k]) !== 0 && r() < 0.5) m = moves[k];
        if (moveKind(m) === KIND_CASTLE) seen.castle++;
        if (moveKind(m) === KIND_EN_PASSANT) seen.enPassant++;
        if (movePromo(m) !== 0) seen.promotion++;
        if (pos.board[(m >> 6) & 63] !== 0) seen.capture++;
        if ((pos.board[m & 63] & 7) === 6 && ((m ^ (m >> 6)) & 4) !== 0) seen.kingCrossing++;
        for (const e of evaluators) e.make(pos, m);
        pos.makeMove(m);
      }
      seen.positions++;
      const values = evaluators.map((e) => e.evaluate(pos));
      for (const [k, e] of evaluators.entries()) {
        assert.equal(values[k], e.evaluateFresh(pos), `${e.kernel.name}: incremental != full after ${i + 1} plies from ${fen}`);
        for (let persp = 0; persp < 2; persp++) {
          // The fresh refresh used the spare slot; the search's slot must hold the same numbers.
          const inc = e.accumulator(pos, persp);
          assert.deepEqual(inc, e.kernel.accumulator(NNUE_SLOTS - 1, persp), `${e.kernel.name}: accumulator ${persp} after ${i + 1} plies`);
        }
      }
      for (let k = 1; k < values.length; k++) assert.equal(values[k], values[0], 'TypeScript and WebAssembly kernels disagree');
    }
  }
  return seen;
}

const GAME_FENS = [
  START_FEN,
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'r3k2r/1P4P1/8/2pP4/8/8/1p4p1/R3K2R w KQkq c6 0 1',
  '4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 1',
  ...suiteFens().filter((_, i) => i % 16 === 0),
];

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

/**
 * Walks random trees as a search does (make, unmake, null moves, most nodes never evaluated), so
 * the lazy update runs chains of pending moves of every length; every evaluated node is compared
 * with a recomputation from the board. Returns how many nodes were evaluated after a chain of
 * at least three unevaluated plies.
 */
function checkTrees(evaluators: NnueEvaluator[], fens: string[], seed: number): number {
  const r = rng(seed),
    buf = new Int32Array(MAX_MOVES * 12);
  let longChains = 0;
  const walk = (pos: Position, depth: number, unevaluated: number): void => {
    let since = unevaluated + 1;
    if (r() < 0.25) {
      const values = evaluators.map((e) => e.evaluate(pos));
      for (const [k, e] of evaluators.entries())
        assert.equal(values[k], e.evaluateFresh(pos), `${e.kernel.name}: lazy != full at ${pos.toFen()}`);
      if (unevaluated >= 3) longChains++;
      since = 0;
    }
    if (depth === 0) return;
    const base = depth * MAX_MOVES,
      n = defaultGenerator.generate(pos, buf, base) - base;
    if (n === 0) return;
    if (!pos.inCheck() && r() < 0.1) {
      for (const e of evaluators) e.makeNull(pos);
      pos.makeNullMove();
      walk(pos, depth - 1, since);
      pos.unmakeNullMove();
    }
    for (let c = 0; c < 3; c++) {
      let m = buf[base + Math.floor(r() * n)];
      for (let k = 0; k < n; k++) if (moveKind(buf[base + k]) !== 0 && r() < 0.3) m = buf[base + k];
      for (const e of evaluators) e.make(pos, m);
      pos.makeMove(m);
      walk(pos, depth - 1, since);
      pos.unmakeMove();
    }
  };
  for (const fen of fens) {
    const pos = Position.fromFen(fen);
    for (const e of evaluators) e.reset(pos);
    walk(pos, 6, 0);
  }
  return longChains;
}

test('NNUE: the lazy update, over search-like trees (make, unmake, null moves, most nodes unevaluated), equals full recomputation (both kernels, both feature sets)', () => {
  for (const features of ['plain', 'king-mirrored'] as const) {
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
        const flip = kingFlip(features, p.kingSq[persp]);
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
      const bucket = outputBucket(popcount(pos), 8),
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

function popcount(pos: Position): number {
  let n = 0;
  for (let sq = 0; sq < 64; sq++) if (pos.board[sq] !== 0) n++;
  return n;
}

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
