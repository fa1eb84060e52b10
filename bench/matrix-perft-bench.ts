/**
 * Perft speed: the matrix backend against chessops 0.15 (its own perft from chessops/debug,
 * bulk-counted at depth 1) and the bitboard core, on the same positions in the same process.
 * Each engine runs every position `--runs` times (default 5, interleaved); the figure is the
 * median nodes/s per engine over runs of the whole set, both per wall-clock second and per second
 * of process CPU time (on a shared, loaded machine the CPU figure is the steadier one; the
 * engines are single-threaded). Every count is checked against the published one. Short by
 * design (2 shared cores): about 10–40 s.
 *
 *   npx tsc -p tsconfig.json && node dist/bench/matrix-perft-bench.js [--runs 5] [--quick]
 */
import { parseFen } from 'chessops/fen';
import { Chess } from 'chessops/chess';
import { perft as chessopsPerft } from 'chessops/debug';
import { Position } from '../src/core/position.js';
import { perft as corePerft } from '../src/core/perft.js';
import { matrixGenerator } from '../src/matrix/backend.js';
import { parseCommandArgs, parseIntIn } from '../src/cmdline/args.js';
import { runScript } from '../src/cmdline/errors.js';
import { median } from './median.js';

interface Case {
  name: string;
  fen: string;
  depth: number;
  nodes: number;
}

const CASES: Case[] = [
  { name: 'start d5', fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', depth: 5, nodes: 4865609 },
  { name: 'kiwipete d4', fen: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', depth: 4, nodes: 4085603 },
  { name: 'pos3 d5', fen: '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', depth: 5, nodes: 674624 },
  { name: 'pos4 d4', fen: 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', depth: 4, nodes: 422333 },
  { name: 'pos5 d4', fen: 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', depth: 4, nodes: 2103487 },
];

type Engine = { name: string; run: (c: Case) => number };

const engines: Engine[] = [
  { name: 'matrix', run: (c) => corePerft(Position.fromFen(c.fen), c.depth, matrixGenerator) },
  { name: 'bitboard', run: (c) => corePerft(Position.fromFen(c.fen), c.depth) },
  { name: 'chessops', run: (c) => chessopsPerft(Chess.fromSetup(parseFen(c.fen).unwrap()).unwrap(), c.depth, false) },
];

function main(): void {
  const { values } = parseCommandArgs(
    'matrix-perft-bench',
    process.argv.slice(2),
    { runs: { type: 'string' }, quick: { type: 'boolean' } },
    0,
  );
  const runs = values.runs === undefined ? 5 : parseIntIn('--runs', values.runs as string, 1, 99);
  const cases = values.quick === true ? CASES.filter((c) => c.nodes < 1e6) : CASES;
  const rates = new Map<string, number[]>(engines.map((e) => [e.name, []]));
  const cpuRates = new Map<string, number[]>(engines.map((e) => [e.name, []]));
  // Warm-up: every engine once on a small case.
  for (const e of engines) e.run({ ...CASES[2], depth: 3, nodes: 0 });
  for (let r = 0; r < runs; r++) {
    for (const e of engines) {
      let nodes = 0,
        ms = 0,
        cpuMs = 0;
      for (const c of cases) {
        const t0 = process.hrtime.bigint(),
          c0 = process.cpuUsage();
        const n = e.run(c);
        ms += Number(process.hrtime.bigint() - t0) / 1e6;
        const cu = process.cpuUsage(c0);
        cpuMs += (cu.user + cu.system) / 1000;
        if (n !== c.nodes) throw new Error(`${e.name} ${c.name}: ${n} nodes, expected ${c.nodes}`);
        nodes += n;
      }
      rates.get(e.name)!.push(nodes / (ms / 1000));
      cpuRates.get(e.name)!.push(nodes / (cpuMs / 1000));
    }
  }
  const total = cases.reduce((s, c) => s + c.nodes, 0);
  console.log(`perft, ${cases.length} positions, ${total} nodes per run, ${runs} runs (median nodes/s)`);
  for (const [label, table] of [
    ['wall clock', rates],
    ['CPU time', cpuRates],
  ] as const) {
    const med = new Map([...table].map(([k, v]) => [k, median(v)]));
    console.log(` per ${label} second:`);
    for (const [name, v] of table) {
      console.log(
        `  ${name.padEnd(9)} ${(med.get(name)! / 1e6).toFixed(2).padStart(6)} M nodes/s   runs: ${v.map((x) => (x / 1e6).toFixed(2)).join(' ')}`,
      );
    }
    const m = med.get('matrix')!;
    console.log(
      `  matrix / chessops = ${(m / med.get('chessops')!).toFixed(2)}   matrix / bitboard = ${(m / med.get('bitboard')!).toFixed(2)}`,
    );
  }
}

await runScript('matrix-perft-bench', main);
