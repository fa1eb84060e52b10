/**
 * `matrix-chess bnn train | verify | bench`. User mistakes print one line on stderr and return 2.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseSquare } from '../core/types.js';
import { type NetworkLayout, NETWORK_LAYOUTS, layoutByName } from './network.js';
import { train, defaultWorkers } from './trainer.js';
import { BnnWeightsError, readWeightsFile, writeWeightsFile, weightsFileName, isComplete, type WeightsFile } from './weights.js';
import { verifySliders, type VerifyResult } from './verify.js';
import { referenceSliders } from './infer.js';
import { WASM_FILE, WEIGHTS_DIR } from './paths.js';
import { loadWasmKernel } from './wasm-kernel.js';
import { runBench } from './bench.js';

class UsageError extends Error {}

const USAGE = `usage: matrix-chess bnn <command> [options]
  train   [--layout 16x32x1|64x64x1|all] [--piece rook|bishop|both] [--squares all|a1,h8,...|0-63]
          [--seed N] [--out-dir DIR] [--workers N]
  verify  [--layout ...] [--weights-dir DIR] [--file FILE] [--engine both|wasm|ts] [--wasm FILE]
  bench   [--count N] [--seed N] [--layout 16x32x1|64x64x1] [--weights-dir DIR]`;

type Flags = Map<string, string>;

function parseFlags(args: string[], allowed: string[]): Flags {
  const flags: Flags = new Map();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('--')) throw new UsageError(`unexpected argument '${a}'`);
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (!allowed.includes(name)) throw new UsageError(`unknown option --${name} (allowed: ${allowed.map((x) => '--' + x).join(' ')})`);
    let value: string;
    if (eq > 0) value = a.slice(eq + 1);
    else {
      if (i + 1 >= args.length) throw new UsageError(`option --${name} needs a value`);
      value = args[++i];
    }
    flags.set(name, value);
  }
  return flags;
}

function intFlag(flags: Flags, name: string, dflt: number, min: number, max: number): number {
  const v = flags.get(name);
  if (v === undefined) return dflt;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new UsageError(`--${name} must be an integer in ${min}..${max}, got '${v}'`);
  return Number(v);
}

function layoutsFlag(flags: Flags): NetworkLayout[] {
  const v = flags.get('layout') ?? 'all';
  if (v === 'all') return [...NETWORK_LAYOUTS];
  const l = layoutByName(v);
  if (!l) throw new UsageError(`--layout must be 16x32x1, 64x64x1 or all, got '${v}'`);
  return [l];
}

function piecesFlag(flags: Flags): number[] {
  const v = flags.get('piece') ?? 'both';
  if (v === 'both' || v === 'all') return [0, 1];
  if (v === 'rook') return [0];
  if (v === 'bishop') return [1];
  throw new UsageError(`--piece must be rook, bishop or both, got '${v}'`);
}

function squaresFlag(flags: Flags): number[] {
  const v = flags.get('squares') ?? 'all';
  if (v === 'all') return Array.from({ length: 64 }, (_, i) => i);
  const set = new Set<number>();
  for (const part of v.split(',')) {
    const range = /^(\d+)-(\d+)$/.exec(part);
    if (range) {
      const a = Number(range[1]), b = Number(range[2]);
      if (a > b || b > 63) throw new UsageError(`bad square range '${part}' in --squares`);
      for (let s = a; s <= b; s++) set.add(s);
      continue;
    }
    const sq = /^\d+$/.test(part) && Number(part) < 64 ? Number(part) : parseSquare(part);
    if (sq < 0) throw new UsageError(`bad square '${part}' in --squares (use e.g. a1,h8 or 0-63)`);
    set.add(sq);
  }
  return [...set].sort((a, b) => a - b);
}

function progressBar(label: string): ((done: number, total: number) => void) | undefined {
  if (!process.stderr.isTTY || process.env.CI === 'true') return undefined;
  const start = performance.now();
  let last = 0;
  return (done, total) => {
    const now = performance.now();
    if (done < total && now - last < 100) return;
    last = now;
    const frac = done / total, width = 30;
    const elapsed = (now - start) / 1000;
    const eta = done > 0 ? (elapsed / done) * (total - done) : 0;
    const bar = '#'.repeat(Math.round(frac * width)).padEnd(width, '-');
    process.stderr.write(`\r${label} [${bar}] ${(frac * 100).toFixed(0).padStart(3)}% ${done}/${total} ETA ${eta.toFixed(1)}s `);
    if (done === total) process.stderr.write('\n');
  };
}

async function cmdTrain(args: string[]): Promise<number> {
  const flags = parseFlags(args, ['layout', 'piece', 'squares', 'seed', 'out-dir', 'workers']);
  const layouts = layoutsFlag(flags), pieces = piecesFlag(flags), squares = squaresFlag(flags);
  const seed = intFlag(flags, 'seed', 1, 0, 0xffffffff);
  const workers = intFlag(flags, 'workers', defaultWorkers(), 0, 64);
  const outDir = flags.get('out-dir') ?? WEIGHTS_DIR;
  let status = 0;
  const t0 = performance.now();
  for (const layout of layouts) {
    const report = await train({ layout, seed, pieces, squares, workers, onProgress: progressBar(`train ${layout.name}`) });
    const complete = isComplete(report.file);
    const file = join(outDir, complete ? weightsFileName(layout) : weightsFileName(layout).replace('.bin', '.partial.bin'));
    const ok = report.failed.length === 0;
    if (ok) writeWeightsFile(file, report.file);
    console.log(`${layout.name}: ${report.networks} networks, ${report.failed.length} not exact, ` +
      `${report.moves} moves, ${report.restarts} restarts, ${report.seconds.toFixed(2)} s, seed ${seed}` +
      (ok ? ` -> ${file}` : ' (nothing written)'));
    if (!ok) {
      status = 1;
      for (const [p, sq, t] of report.failed.slice(0, 10)) console.error(`not exact: ${p ? 'bishop' : 'rook'} square ${sq} target ${t}`);
    }
  }
  console.log(`total ${((performance.now() - t0) / 1000).toFixed(2)} s with ${workers} worker(s)`);
  return status;
}

function loadFiles(flags: Flags): Array<{ file: string; w: WeightsFile }> {
  const explicit = flags.get('file');
  if (explicit) return [{ file: explicit, w: readWeightsFile(explicit) }];
  const dir = flags.get('weights-dir') ?? WEIGHTS_DIR;
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
  const flags = parseFlags(args, ['layout', 'weights-dir', 'file', 'engine', 'wasm']);
  const engine = flags.get('engine') ?? 'both';
  if (engine !== 'both' && engine !== 'wasm' && engine !== 'ts') throw new UsageError(`--engine must be both, wasm or ts, got '${engine}'`);
  const wasmFile = flags.get('wasm') ?? WASM_FILE;
  // Checked before any work: a verify that skipped the kernel would pass without proving it.
  if (engine !== 'ts' && !existsSync(wasmFile)) {
    console.error(`matrix-chess bnn: verify: WebAssembly kernel ${wasmFile} not found (npm run build:wasm builds it; --engine ts checks the TypeScript reference alone)`);
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

async function cmdBench(args: string[]): Promise<number> {
  const flags = parseFlags(args, ['count', 'seed', 'weights-dir', 'layout']);
  const count = intFlag(flags, 'count', 5_000_000, 1, 100_000_000);
  const seed = intFlag(flags, 'seed', 1, 0, 0xffffffff);
  const dir = flags.get('weights-dir') ?? WEIGHTS_DIR;
  const layout = flags.has('layout') ? layoutsFlag(flags) : [NETWORK_LAYOUTS[0]];
  if (layout.length !== 1) throw new UsageError('bench takes one --layout: 16x32x1 or 64x64x1');
  const file = join(dir, weightsFileName(layout[0]));
  return runBench(readWeightsFile(file), count, seed);
}

export async function runBnnCommand(args: string[]): Promise<number> {
  const [cmd, ...rest] = args;
  try {
    switch (cmd) {
      case 'train': return await cmdTrain(rest);
      case 'verify': return await cmdVerify(rest);
      case 'bench': return await cmdBench(rest);
      case undefined: case 'help': case '--help': case '-h':
        console.log(USAGE);
        return cmd === undefined ? 2 : 0;
      default: throw new UsageError(`unknown bnn command '${cmd}' (train, verify, bench)`);
    }
  } catch (e) {
    if (e instanceof UsageError) { console.error(`matrix-chess bnn: ${e.message}`); return 2; }
    if (e instanceof BnnWeightsError) { console.error(`matrix-chess bnn: bad weights file ${e.message}`); return 1; }
    throw e;
  }
}
