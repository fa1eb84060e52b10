/**
 * `matrix-chess bnn train | verify | bench | study`. User mistakes are UsageErrors (one line, exit 2); a
 * bad weights file is one line and exit 1.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseSquare } from '../core/types.js';
import { availableParallelism } from 'node:os';
import { type NetworkLayout, NETWORK_LAYOUTS, LAYOUT_8, layoutByName } from '../bnn/network.js';
import { train, defaultWorkers } from '../bnn/trainer.js';
import { BnnWeightsError, weightsFileName, isComplete, type WeightsFile } from '../bnn/weights.js';
import { readWeightsFile, writeWeightsFile } from '../bnn/weights-node.js';
import { verifySliders, type VerifyResult } from '../bnn/verify.js';
import { referenceSliders } from '../bnn/infer.js';
import { WASM_FILE, WEIGHTS_DIR } from '../bnn/paths.js';
import { loadWasmKernel } from '../bnn/wasm-kernel.js';
import { runStudy, formatStudyTable } from '../bnn/study.js';
import { runBench, type BenchSubject } from '../bnn/bench.js';
import { type OptionSpec, type ParsedArgs, parseCommandArgs, parseIntIn } from '../cmdline/args.js';
import { UsageError } from '../cmdline/errors.js';
import { createProgress } from '../cmdline/progress.js';

const USAGE = `usage: matrix-chess bnn <command> [options]
  train   [--layout 16x32x1|64x64x1|16x8x1|all] [--piece rook|bishop|both] [--squares all|a1,h8,...|0-63]
          [--seed N] [--out-dir DIR] [--workers N]
  verify  [--layout ...] [--weights-dir DIR] [--file FILE] [--engine both|wasm|ts] [--wasm FILE]
  bench   [--count N] [--seed N] [--layout 16x32x1|64x64x1|16x8x1|all] [--weights-dir DIR] [--file FILE]
          [--threads N] [--wasm FILE]
  study   [--seed N] [--json FILE]    the smallest exact network of every target (docs/bnn.md)`;

type Flags = ParsedArgs['values'];

/** Every bnn flag takes a value; `names` are the ones this subcommand accepts. */
function parseFlags(command: string, args: string[], names: string[]): Flags {
  const options: OptionSpec = {};
  for (const name of names) options[name] = { type: 'string' };
  return parseCommandArgs(`bnn ${command}`, args, options, 0).values;
}

function str(flags: Flags, name: string): string | undefined {
  return flags[name] as string | undefined;
}

function intFlag(flags: Flags, name: string, dflt: number, min: number, max: number): number {
  const v = str(flags, name);
  return v === undefined ? dflt : parseIntIn(`bnn --${name}`, v, min, max);
}

function layoutsFlag(flags: Flags): NetworkLayout[] {
  const v = str(flags, 'layout') ?? 'all';
  if (v === 'all') return [...NETWORK_LAYOUTS];
  const l = layoutByName(v);
  if (!l) throw new UsageError(`bnn --layout: expected ${NETWORK_LAYOUTS.map((x) => x.name).join(', ')} or all, got '${v}'`);
  return [l];
}

function piecesFlag(flags: Flags): number[] {
  const v = str(flags, 'piece') ?? 'both';
  if (v === 'both' || v === 'all') return [0, 1];
  if (v === 'rook') return [0];
  if (v === 'bishop') return [1];
  throw new UsageError(`bnn --piece: expected rook, bishop or both, got '${v}'`);
}

function squaresFlag(flags: Flags): number[] {
  const v = str(flags, 'squares') ?? 'all';
  if (v === 'all') return Array.from({ length: 64 }, (_, i) => i);
  const set = new Set<number>();
  for (const part of v.split(',')) {
    const range = /^(\d+)-(\d+)$/.exec(part);
    if (range) {
      const a = Number(range[1]),
        b = Number(range[2]);
      if (a > b || b > 63) throw new UsageError(`bnn --squares: bad square range '${part}'`);
      for (let s = a; s <= b; s++) set.add(s);
      continue;
    }
    const sq = /^\d+$/.test(part) && Number(part) < 64 ? Number(part) : parseSquare(part);
    if (sq < 0) throw new UsageError(`bnn --squares: bad square '${part}' (use e.g. a1,h8 or 0-63)`);
    set.add(sq);
  }
  return [...set].sort((a, b) => a - b);
}

async function cmdTrain(args: string[]): Promise<number> {
  const flags = parseFlags('train', args, ['layout', 'piece', 'squares', 'seed', 'out-dir', 'workers']);
  const layouts = layoutsFlag(flags),
    pieces = piecesFlag(flags),
    squares = squaresFlag(flags);
  const seed = intFlag(flags, 'seed', 1, 0, 0xffffffff);
  const workers = intFlag(flags, 'workers', defaultWorkers(), 0, 64);
  const outDir = str(flags, 'out-dir') ?? WEIGHTS_DIR;
  let status = 0;
  const t0 = performance.now();
  for (const layout of layouts) {
    const progress = createProgress(`train ${layout.name}`);
    const report = await train({ layout, seed, pieces, squares, workers, onProgress: (done, total) => progress.update(done, total) });
    progress.finish();
    const complete = isComplete(report.file);
    const file = join(outDir, complete ? weightsFileName(layout) : weightsFileName(layout).replace('.bin', '.partial.bin'));
    const ok = report.failed.length === 0;
    if (ok) writeWeightsFile(file, report.file);
    console.log(
      `${layout.name}: ${report.networks} networks, ${report.failed.length} not exact, ` +
        `${report.moves} moves, ${report.restarts} restarts, ${report.seconds.toFixed(2)} s, seed ${seed}` +
        (ok ? ` -> ${file}` : ' (nothing written)'),
    );
    if (!ok) {
      status = 1;
      for (const [p, sq, t] of report.failed.slice(0, 10)) console.error(`not exact: ${p ? 'bishop' : 'rook'} square ${sq} target ${t}`);
    }
  }
  console.log(`total ${((performance.now() - t0) / 1000).toFixed(2)} s with ${workers} worker(s)`);
  return status;
}

function loadFiles(flags: Flags): Array<{ file: string; w: WeightsFile }> {
  const explicit = str(flags, 'file');
  if (explicit) return [{ file: explicit, w: readWeightsFile(explicit) }];
  const dir = str(flags, 'weights-dir') ?? WEIGHTS_DIR;
  return layoutsFlag(flags).map((l) => {
    const file = join(dir, weightsFileName(l));
    const w = readWeightsFile(file);
    if (w.layout.id !== l.id) throw new BnnWeightsError(file, `holds layout ${w.layout.name}, expected ${l.name}`);
    return { file, w };
  });
}

function printVerify(label: string, r: VerifyResult): void {
  console.log(`${label}: ${r.checked} inputs checked, ${r.errors} errors`);
  for (const e of r.examples) console.log(`  ${e}`);
}

async function cmdVerify(args: string[]): Promise<number> {
  const flags = parseFlags('verify', args, ['layout', 'weights-dir', 'file', 'engine', 'wasm']);
  const engine = str(flags, 'engine') ?? 'both';
  if (engine !== 'both' && engine !== 'wasm' && engine !== 'ts')
    throw new UsageError(`bnn verify --engine: expected both, wasm or ts, got '${engine}'`);
  const wasmFile = str(flags, 'wasm') ?? WASM_FILE;
  // Checked before any work: a verify that skipped the kernel would pass without proving it.
  if (engine !== 'ts' && !existsSync(wasmFile)) {
    console.error(
      `matrix-chess bnn: verify: WebAssembly kernel ${wasmFile} not found (npm run build:wasm builds it; --engine ts checks the TypeScript reference alone)`,
    );
    return 1;
  }
  const files = loadFiles(flags);
  let errors = 0;
  for (const { file, w } of files) {
    const cover = { pieces: w.pieces, squaresLo: w.squaresLo, squaresHi: w.squaresHi };
    console.log(`${file}: layout ${w.layout.name}, seed ${w.seed}, checksum ok${isComplete(w) ? '' : ' (partial)'}`);
    if (engine !== 'wasm') {
      const ts = verifySliders(referenceSliders(w.layout, w.weights), cover);
      printVerify(`  TypeScript reference ${w.layout.name}`, ts);
      errors += ts.errors;
    }
    if (engine !== 'ts') {
      const kernel = loadWasmKernel(w, wasmFile)!; // exists: checked above
      const wr = verifySliders(kernel.sliders, cover);
      printVerify(`  WebAssembly kernel   ${w.layout.name}`, wr);
      errors += wr.errors;
    }
  }
  const checked = engine === 'both' ? '' : engine === 'ts' ? ' (TypeScript reference only)' : ' (WebAssembly kernel only)';
  console.log(errors === 0 ? `verify: OK, 0 errors${checked}` : `verify: FAILED, ${errors} errors${checked}`);
  return errors === 0 ? 0 : 1;
}

/** Every layout the bench knows, in id order. */
const BENCH_LAYOUTS: readonly NetworkLayout[] = NETWORK_LAYOUTS;

async function cmdBench(args: string[]): Promise<number> {
  const flags = parseFlags('bench', args, ['count', 'seed', 'weights-dir', 'layout', 'file', 'threads', 'wasm']);
  const count = intFlag(flags, 'count', 5_000_000, 1, 100_000_000);
  const seed = intFlag(flags, 'seed', 1, 0, 0xffffffff);
  const threads = intFlag(flags, 'threads', availableParallelism(), 1, 256);
  const dir = str(flags, 'weights-dir') ?? WEIGHTS_DIR;
  const wasmFile = str(flags, 'wasm') ?? WASM_FILE;
  const explicit = str(flags, 'file');
  if (explicit) {
    if (str(flags, 'layout') !== undefined)
      throw new UsageError('bnn bench: --file and --layout exclude each other (the file names its layout)');
    return runBench([{ file: explicit, w: readWeightsFile(explicit) }], count, seed, threads, wasmFile);
  }
  const v = str(flags, 'layout') ?? 'all';
  const chosen = v === 'all' ? BENCH_LAYOUTS : BENCH_LAYOUTS.filter((l) => l.name === v);
  if (chosen.length === 0) throw new UsageError(`bnn bench --layout: expected 16x32x1, 64x64x1, 16x8x1 or all, got '${v}'`);
  const subjects: BenchSubject[] = [],
    skipped: string[] = [];
  for (const l of chosen) {
    const file = join(dir, weightsFileName(l));
    // 16x8x1 is not shipped yet: benching every layout skips it in one line rather than failing.
    if (v === 'all' && l.id === LAYOUT_8.id && !existsSync(file)) {
      skipped.push(`${l.name}: ${file} not found: skipped (bnn bench --file FILE benches another weights file)`);
      continue;
    }
    const w = readWeightsFile(file);
    if (w.layout.id !== l.id) throw new BnnWeightsError(file, `holds layout ${w.layout.name}, expected ${l.name}`);
    subjects.push({ file, w });
  }
  return runBench(subjects, count, seed, threads, wasmFile, skipped);
}

function cmdStudy(args: string[]): number {
  const flags = parseFlags('study', args, ['seed', 'json']);
  const seed = intFlag(flags, 'seed', 1, 0, 0xffffffff);
  const result = runStudy(seed);
  console.log(`bnn study: smallest exact own-byte network of each of ${result.networks.length} targets, seed ${seed}`);
  for (const line of formatStudyTable(result)) console.log(line);
  console.log(`${result.problems.length} distinct (relevant bits, between bits) problems, ${result.seconds.toFixed(2)} s`);
  const json = str(flags, 'json');
  if (json) {
    mkdirSync(dirname(json), { recursive: true });
    writeFileSync(json, JSON.stringify({ ...result, seconds: undefined }, null, 1) + '\n');
    console.log(`-> ${json}`);
  }
  const unsolved = result.problems.filter((p) => p.neurons === 0).length;
  return unsolved === 0 ? 0 : 1;
}

export async function runBnnCommand(args: string[]): Promise<number> {
  const [cmd, ...rest] = args;
  try {
    switch (cmd) {
      case 'train':
        return await cmdTrain(rest);
      case 'verify':
        return await cmdVerify(rest);
      case 'bench':
        return await cmdBench(rest);
      case 'study':
        return cmdStudy(rest);
      case 'help':
      case '--help':
      case '-h':
        console.log(USAGE);
        return 0;
      case undefined:
        throw new UsageError('bnn: missing command: expected train, verify, bench or study (matrix-chess bnn help)');
      default:
        throw new UsageError(`bnn: unknown command '${cmd}' (train, verify, bench, study)`);
    }
  } catch (e) {
    if (e instanceof BnnWeightsError) {
      console.error(`matrix-chess bnn: bad weights file ${e.message}`);
      return 1;
    }
    throw e;
  }
}
