/**
 * matrix-chess/compat (chess.js's API on our core) against chess.js 1.4 itself and chessops 0.15:
 *
 * (a) the differential replay: --games seeded random games (default 10,000) through both
 *     libraries with every method compared as test/compat-differential.test.ts does for a few
 *     hundred (test/compat-compare.ts), plus board edits, corrupted FENs and move input; any
 *     difference beyond docs/coming-from-chess-js.md's documented ones stops the bench (exit 1);
 * (b) speed, one thread, CPU time (the machine is shared), the median of --runs interleaved runs:
 *     perft (ours through Chess.perft, chess.js's own perft, chessops/debug's perft), and over
 *     positions from random games moves({ verbose: true }), move + undo, fen() (the first call in a
 *     position: later ones return the FEN kept) and the SAN of every legal move (moves()); chessops
 *     does the same work its own way (SAN and FEN after each legal move; makeFen; makeSan) except
 *     move + undo, where it only parses the SAN and plays it on a clone (it has no undo, and its
 *     play returns nothing: no SAN, no FENs), so that row is not like for like.
 *
 *   node dist/bench/compat-bench.js [--games 10000] [--runs 5] [--positions 200] [--no-replay] [--no-speed]
 */
import { Chess as ChessJs } from 'chess.js';
import { Chess as Chessops } from 'chessops/chess';
import { parseFen, makeFen } from 'chessops/fen';
import { makeSan, parseSan } from 'chessops/san';
import { perft as chessopsPerft } from 'chessops/debug';
import type { Move as ChessopsMove, Role } from 'chessops';
import { Chess } from '../src/compat/index.js';
import { START_FEN } from '../src/core/fen.js';
import { readPerftEpd, standardSuitePath } from '../scripts/perft-files.js';
import { Sfc32 } from '../src/core/rng.js';
import { parseCommandArgs, parseIntIn } from '../src/cmdline/args.js';
import { runScript } from '../src/cmdline/errors.js';
import { median } from './median.js';
import {
  compareFen,
  compareMoveInputs,
  corruptFen,
  differentialAnnotations,
  differentialPgn,
  differentialEdits,
  differentialGame,
  newTally,
  type Tally,
} from '../test/compat-compare.js';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const PERFT = [
  { name: 'start d5', fen: START_FEN, depth: 5, nodes: 4_865_609 },
  { name: 'kiwipete d4', fen: KIWIPETE, depth: 4, nodes: 4_085_603 },
  { name: 'position 3 d5', fen: '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', depth: 5, nodes: 674_624 },
  { name: 'position 4 d4', fen: 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', depth: 4, nodes: 422_333 },
];

function randomSource(seed: number): () => number {
  const s = new Sfc32(seed);
  return () => s.nextFloat();
}

// ---- (a) the differential replay ----

function replay(games: number, seed: number): Tally {
  const random = randomSource(seed);
  const tally = newTally();
  const suite = readPerftEpd(standardSuitePath()).map((c) => c.fen);
  const schedule = { status: 4, detail: 12, squares: 24, history: 12, verboseHistory: 40 };
  const t0 = performance.now();
  for (let g = 0; g < games; g++) {
    // Three games in four from the start position, the rest from the perft suite's positions.
    const start = g % 4 === 3 ? suite[Math.floor(random() * suite.length)] : START_FEN;
    differentialGame(start, random, { maxPlies: g % 4 === 3 ? 30 : 50, schedule, passTurns: g % 8 === 0 }, tally);
    if ((g + 1) % 1000 === 0) console.log(`  ${g + 1} games, ${tally.plies} positions, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const fens = [START_FEN, ...suite];
  for (let i = 0; i < Math.max(1, games / 20); i++) {
    const fen = fens[Math.floor(random() * fens.length)];
    if (i % 4 === 0) differentialEdits(fen, random, 20, tally);
    compareFen(fen, tally);
    for (let k = 0; k < 4; k++) compareFen(corruptFen(fen, random), tally);
  }
  for (let i = 0; i < Math.max(1, games / 500); i++) compareMoveInputs(fens[Math.floor(random() * fens.length)], tally);
  differentialAnnotations(random, Math.max(100, games), tally);
  differentialPgn(random, games, fens, tally);
  return tally;
}

// ---- (b) speed ----

/** Positions met in seeded random games, as FENs, with their SAN moves. */
function benchPositions(count: number, seed: number): { fen: string; san: string[] }[] {
  const random = randomSource(seed);
  const out: { fen: string; san: string[] }[] = [];
  const c = new Chess();
  while (out.length < count) {
    c.reset();
    for (let ply = 0; ply < 80 && out.length < count; ply++) {
      const san = c.moves();
      if (san.length === 0) break;
      if (random() < 0.25) out.push({ fen: c.fen(), san });
      c.move(san[Math.floor(random() * san.length)]);
    }
  }
  return out;
}

const ROLE: Record<string, Role> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };

/** chessops's legal moves, promotions expanded. */
function chessopsMoves(pos: Chessops): ChessopsMove[] {
  const out: ChessopsMove[] = [];
  for (const [from, dests] of pos.allDests()) {
    const pawn = pos.board.get(from)?.role === 'pawn';
    for (const to of dests) {
      if (pawn && (to >> 3 === 7 || to >> 3 === 0)) for (const p of 'qrbn') out.push({ from, to, promotion: ROLE[p] });
      else out.push({ from, to });
    }
  }
  return out;
}

interface Task {
  name: string;
  unit: string;
  /** One pass over the positions; returns the number of operations done. */
  ours(): number;
  chessJs(): number;
  chessops(): number;
}

/** Operations per second of CPU time: passes repeated until at least `minMs` of CPU. */
function rate(pass: () => number, minMs: number): number {
  const c0 = process.cpuUsage();
  let ops = 0,
    ms = 0;
  do {
    ops += pass();
    const c = process.cpuUsage(c0);
    ms = (c.user + c.system) / 1000;
  } while (ms < minMs);
  return (ops * 1000) / ms;
}

function speedTasks(positions: { fen: string; san: string[] }[]): Task[] {
  const ours = positions.map((p) => new Chess(p.fen));
  const theirs = positions.map((p) => new ChessJs(p.fen));
  const ops = positions.map((p) => Chessops.fromSetup(parseFen(p.fen).unwrap()).unwrap());
  const opsMoves = ops.map(chessopsMoves);
  const each = <T>(list: T[], f: (x: T, i: number) => number): number => list.reduce((n, x, i) => n + f(x, i), 0);
  return [
    {
      name: 'moves({ verbose: true })',
      unit: 'calls',
      ours: () => each(ours, (c) => (c.moves({ verbose: true }), 1)),
      chessJs: () => each(theirs, (c) => (c.moves({ verbose: true }), 1)),
      // SAN and the FEN after every legal move, the FEN before once: what a verbose move list holds.
      chessops: () =>
        each(ops, (pos, i) => {
          makeFen(pos.toSetup());
          for (const m of opsMoves[i]) {
            makeSan(pos, m);
            const child = pos.clone();
            child.play(m);
            makeFen(child.toSetup());
          }
          return 1;
        }),
    },
    {
      name: 'move + undo',
      unit: 'moves',
      ours: () => each(ours, (c, i) => each(positions[i].san, (san) => (c.move(san), c.undo(), 1))),
      chessJs: () => each(theirs, (c, i) => each(positions[i].san, (san) => (c.move(san), c.undo(), 1))),
      // chessops has no undo: a move is played on a clone.
      chessops: () =>
        each(ops, (pos, i) =>
          each(positions[i].san, (san) => {
            const child = pos.clone();
            child.play(parseSan(pos, san)!);
            return 1;
          }),
        ),
    },
    {
      // A Chess keeps the FEN of its position once written, so a repeated fen() costs nothing: time the writing, the core's toFen.
      name: 'fen() (first call)',
      unit: 'calls',
      ours: () => each(ours, (c) => (c.position.toFen(), 1)),
      chessJs: () => each(theirs, (c) => (c.fen(), 1)),
      chessops: () => each(ops, (pos) => (makeFen(pos.toSetup()), 1)),
    },
    {
      name: 'moves() (SAN list)',
      unit: 'lists',
      ours: () => each(ours, (c) => (c.moves(), 1)),
      chessJs: () => each(theirs, (c) => (c.moves(), 1)),
      chessops: () => each(ops, (pos) => (chessopsMoves(pos).forEach((m) => makeSan(pos, m)), 1)),
    },
  ];
}

function perftRate(run: () => number, nodes: number, name: string): number {
  const c0 = process.cpuUsage();
  const got = run();
  const c = process.cpuUsage(c0);
  if (got !== nodes) throw new Error(`${name}: perft counted ${got} nodes, the published count is ${nodes}`);
  return (nodes * 1000) / ((c.user + c.system) / 1000);
}

const fmt = (x: number) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M` : x >= 1e3 ? `${(x / 1e3).toFixed(1)} k` : x.toFixed(0));

function speed(runs: number, count: number): void {
  const positions = benchPositions(count, 7);
  const tasks = speedTasks(positions);
  const names = ['ours', 'chess.js', 'chessops'] as const;
  // rows: perft positions then tasks; each [contender] = rates of the runs.
  const rows: { label: string; unit: string; rates: number[][] }[] = [
    ...PERFT.map((p) => ({ label: `perft ${p.name}`, unit: 'nodes', rates: names.map(() => [] as number[]) })),
    ...tasks.map((t) => ({ label: t.name, unit: t.unit, rates: names.map(() => [] as number[]) })),
  ];
  const perftRuns = [
    (p: (typeof PERFT)[number]) => perftRate(() => new Chess(p.fen).perft(p.depth), p.nodes, 'ours'),
    (p: (typeof PERFT)[number]) => perftRate(() => new ChessJs(p.fen).perft(p.depth), p.nodes, 'chess.js'),
    (p: (typeof PERFT)[number]) =>
      perftRate(() => chessopsPerft(Chessops.fromSetup(parseFen(p.fen).unwrap()).unwrap(), p.depth, false), p.nodes, 'chessops'),
  ];
  // Warm-up: every contender does everything once, a ply shallower for perft.
  for (const p of PERFT) {
    new Chess(p.fen).perft(p.depth - 1);
    new ChessJs(p.fen).perft(p.depth - 2);
    chessopsPerft(Chessops.fromSetup(parseFen(p.fen).unwrap()).unwrap(), p.depth - 1, false);
  }
  for (const t of tasks)
    for (let i = 0; i < 2; i++) {
      t.ours();
      t.chessJs();
      t.chessops();
    }
  for (let run = 0; run < runs; run++) {
    PERFT.forEach((p, i) => perftRuns.forEach((f, c) => rows[i].rates[c].push(f(p))));
    tasks.forEach((t, i) => {
      const passes = [t.ours, t.chessJs, t.chessops];
      passes.forEach((f, c) => rows[PERFT.length + i].rates[c].push(rate(f, 300)));
    });
    console.log(`  run ${run + 1} of ${runs} done`);
  }
  console.log(`\nSpeed: ${positions.length} positions from seeded random games; CPU time; median of ${runs} runs`);
  console.log(`${'operation'.padEnd(34)}${names.map((n) => n.padStart(14)).join('')}   ours/chess.js  ours/chessops`);
  const ratios: number[][] = [[], []];
  for (const row of rows) {
    const m = row.rates.map(median);
    ratios[0].push(m[0] / m[1]);
    ratios[1].push(m[0] / m[2]);
    console.log(
      `${`${row.label} (${row.unit}/s)`.padEnd(34)}${m.map((x) => fmt(x).padStart(14)).join('')}${`${(m[0] / m[1]).toFixed(1)}x`.padStart(16)}${`${(m[0] / m[2]).toFixed(1)}x`.padStart(15)}`,
    );
  }
  const geo = (xs: number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
  console.log(
    `${'geometric mean'.padEnd(34)}${''.padStart(42)}${`${geo(ratios[0]).toFixed(1)}x`.padStart(16)}${`${geo(ratios[1]).toFixed(1)}x`.padStart(15)}`,
  );
  const perftRatio = geo(ratios[0].slice(0, PERFT.length));
  console.log(`perft, ours through Chess.perft / chess.js's own perft: ${perftRatio.toFixed(1)}x (the goal: at least 10x)`);
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const { values } = parseCommandArgs(
    'compat-bench',
    argv,
    {
      games: { type: 'string' },
      runs: { type: 'string' },
      positions: { type: 'string' },
      'no-replay': { type: 'boolean' },
      'no-speed': { type: 'boolean' },
    },
    0,
  );
  const games = values.games === undefined ? 10_000 : parseIntIn('--games', values.games as string, 1, 10_000_000);
  const runs = values.runs === undefined ? 5 : parseIntIn('--runs', values.runs as string, 1, 99);
  const count = values.positions === undefined ? 200 : parseIntIn('--positions', values.positions as string, 1, 100_000);
  if (values['no-replay'] !== true) {
    console.log(`Differential replay: ${games} seeded random games through matrix-chess/compat and chess.js, every method compared`);
    const c0 = process.cpuUsage(),
      t0 = performance.now();
    const tally = replay(games, 1);
    const cpu = process.cpuUsage(c0);
    const list = (m: Map<string, number>) => [...m].map(([k, n]) => `  ${k}: ${n}`).join('\n') || '  none';
    console.log(
      `${tally.games} games, ${tally.plies} positions, 0 undocumented differences; ${((performance.now() - t0) / 1000).toFixed(0)} s (${((cpu.user + cpu.system) / 1e6).toFixed(0)} s of CPU)`,
    );
    console.log(
      `calls compared:\n${list(tally.calls)}\ngame ends reached and agreed (positions):\n${list(tally.ends)}\ndocumented differences met:\n${list(tally.documented)}`,
    );
  }
  if (values['no-speed'] !== true) speed(runs, count);
  return 0;
}

void runScript('compat-bench', main);
