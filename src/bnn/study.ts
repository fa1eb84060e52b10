/**
 * The minimal-size study: for every one of the 1456 networks, the smallest number k of seed
 * byte-neurons, all reading the network's own line byte, that gives an exact network (output:
 * more than a derived T of them fire). k = 1, 2, 3 by exhaustive search (so a failure there is
 * a proof), k = 4..8 by seeded annealing (a success is an upper bound; at k = 4 it is the
 * minimum, since 3 was proved impossible). Networks with the same (relevant bits, between bits)
 * problem share one search.
 */
import { SQUARE_LAYOUTS, NETWORK_COUNT, PIECE_NAMES } from './layout.js';
import { popcount32 } from '../core/bitboard.js';
import { Sfc32, mix32 } from '../core/rng.js';
import { OwnByteSolver, ownByteProblem, problemKey } from './own-byte-network.js';

/** Largest k tried; 16x8x1 has this many neurons. */
export const STUDY_MAX_NEURONS = 8;
const EXHAUSTIVE_MAX = 3;
/** Annealing budget per (problem, k): restarts of 4000 moves each. */
const STUDY_RESTARTS = 50;

export interface StudyProblem {
  mask: number;
  between: number;
  /** Byte values of the problem (2^popcount(mask)). */
  values: number;
  /** Smallest k found; 0 when none up to STUDY_MAX_NEURONS was found. */
  neurons: number;
  /** True when `neurons` is proven minimal (exhaustive search, or annealing at 4 after 1..3 were proved impossible). */
  proven: boolean;
  /** An exact network of that size: its weights and threshold T. */
  weights: number[];
  threshold: number;
}

export interface StudyNetwork {
  piece: 'rook' | 'bishop';
  square: number;
  target: number;
  /** 'A' (a rook's rank, a bishop's a1-h8 diagonal) or 'B'. */
  line: 'A' | 'B';
  /** Squares on the target's line through the slider's square, the square included (rook: 8; bishop: 2..8). */
  lineLength: number;
  /** Index into `problems`. */
  problem: number;
}

export interface StudyResult {
  seed: number;
  problems: StudyProblem[];
  networks: StudyNetwork[];
  seconds: number;
}

export function runStudy(seed: number): StudyResult {
  const started = performance.now();
  const solver = new OwnByteSolver();
  const weights = new Uint8Array(STUDY_MAX_NEURONS);
  const problems: StudyProblem[] = [];
  const byKey = new Map<number, number>();
  const networks: StudyNetwork[] = [];
  for (let p = 0; p < 2; p++) {
    for (let sq = 0; sq < 64; sq++) {
      const lay = SQUARE_LAYOUTS[p][sq];
      lay.targets.forEach((t, ti) => {
        const prob = ownByteProblem(p, sq, ti);
        const key = problemKey(prob);
        let index = byKey.get(key);
        if (index === undefined) {
          index = problems.length;
          byKey.set(key, index);
          problems.push(solveProblem(solver, prob.mask, prob.between, seed, weights));
        }
        const onA = t.bit < 8;
        const lineSquares = onA ? popcount32(lay.lineALo) + popcount32(lay.lineAHi) : popcount32(lay.lineBLo) + popcount32(lay.lineBHi);
        networks.push({
          piece: PIECE_NAMES[p],
          square: sq,
          target: t.square,
          line: onA ? 'A' : 'B',
          lineLength: lineSquares + 1,
          problem: index,
        });
      });
    }
  }
  if (networks.length !== NETWORK_COUNT) throw new Error(`internal: ${networks.length} networks, expected ${NETWORK_COUNT}`);
  return { seed, problems, networks, seconds: (performance.now() - started) / 1000 };
}

function solveProblem(solver: OwnByteSolver, mask: number, between: number, seed: number, w: Uint8Array): StudyProblem {
  solver.setProblem({ mask, between });
  const base = { mask, between, values: solver.valueCount };
  for (let k = 1; k <= EXHAUSTIVE_MAX; k++) {
    if (solver.exhaustive(k, w))
      return { ...base, neurons: k, proven: true, weights: [...w.subarray(0, k)], threshold: solver.threshold(w, k) };
  }
  // Every problem has its own stream, so the result does not depend on the order of the search.
  const rng = new Sfc32(mix32(seed) ^ problemKey({ mask, between }));
  for (let k = EXHAUSTIVE_MAX + 1; k <= STUDY_MAX_NEURONS; k++) {
    if (solver.anneal(k, rng, w, 0, STUDY_RESTARTS).solved) {
      return { ...base, neurons: k, proven: k === EXHAUSTIVE_MAX + 1, weights: [...w.subarray(0, k)], threshold: solver.threshold(w, k) };
    }
  }
  return { ...base, neurons: 0, proven: false, weights: [], threshold: -1 };
}

/** One row of the distribution table: how many networks (or problems) need k neurons, k = 1..8. */
export interface StudyRow {
  label: string;
  counts: number[];
  total: number;
}

/** Distribution rows: the distinct problems, all networks, rook, bishop, and bishops by diagonal length. */
export function studyRows(r: StudyResult): StudyRow[] {
  const row = (label: string, ks: number[]): StudyRow => {
    const counts = new Array<number>(STUDY_MAX_NEURONS + 1).fill(0);
    for (const k of ks) counts[k]++;
    return { label, counts, total: ks.length };
  };
  const k = (n: StudyNetwork): number => r.problems[n.problem].neurons;
  const rows = [
    row(
      'distinct problems',
      r.problems.map((p) => p.neurons),
    ),
    row('all networks', r.networks.map(k)),
    row('rook (lines of 8)', r.networks.filter((n) => n.piece === 'rook').map(k)),
    row('bishop', r.networks.filter((n) => n.piece === 'bishop').map(k)),
  ];
  for (let len = 8; len >= 2; len--) {
    rows.push(row(`bishop, diagonal of ${len}`, r.networks.filter((n) => n.piece === 'bishop' && n.lineLength === len).map(k)));
  }
  return rows;
}

/** The table `bnn study` prints: one line per row, columns k = 1..8 (k = 0: none found). */
export function formatStudyTable(r: StudyResult): string[] {
  const rows = studyRows(r);
  const kMax = STUDY_MAX_NEURONS;
  const width = Math.max(...rows.map((x) => x.label.length));
  const head =
    `${'minimal neurons k'.padEnd(width)} ` + Array.from({ length: kMax }, (_, i) => String(i + 1).padStart(5)).join('') + '  total';
  const lines = [head];
  for (const x of rows) {
    const cells = x.counts
      .slice(1)
      .map((c) => String(c || '.').padStart(5))
      .join('');
    const none = x.counts[0] ? `  (${x.counts[0]} not solved)` : '';
    lines.push(`${x.label.padEnd(width)} ${cells}  ${String(x.total).padStart(5)}${none}`);
  }
  const upper = r.problems.filter((p) => !p.proven && p.neurons > 0);
  const bound = upper.length ? `; k >= 5 (${upper.length} problems) are annealing upper bounds` : '';
  lines.push(`k = 1..3 exhaustive, k = 4 proven (annealing after 1..3 were proved impossible)${bound}`);
  return lines;
}
