/**
 * The published package, as a user gets it: `npm pack` (scripts skipped: npm test has just built
 * dist/), the tarball installed offline into a fresh project, and each `exports` entry used from
 * there. Checks that the tarball holds every file the exports and the runtime paths point at
 * (the network, both WASM kernels, the BNN weights, the book, the search thread, the worker),
 * that `matrix-chess`, `matrix-chess/core`, `matrix-chess/engine`, `matrix-chess/compat` and `matrix-chess/node`
 * import (and `require()`) and type-check, that the root holds exactly its documented names, that
 * `matrix-chess/worker` resolves to the worker script, and that the installed code finds its
 * own files (the network and kernels load from node_modules/matrix-chess, not the repository;
 * createEngine's worker thread starts from there).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { repoRoot } from '../../scripts/build-web.js';
import { DEFAULT_NETWORK_FILE, NNUE_WASM_FILE } from '../../src/engine/nnue/load-node.js';
import { WASM_FILE, WEIGHTS_DIR } from '../../src/bnn/paths.js';
import { DEFAULT_BOOK_FILE } from '../../src/book/polyglot-node.js';
import { weightsFileName } from '../../src/bnn/weights.js';
import { LAYOUT_16, LAYOUT_8 } from '../../src/bnn/network.js';

const root = repoRoot();
let dir: string;
let project: string;
let packed: string[];

const run = (cmd: string, args: string[], cwd: string, input?: string): string =>
  execFileSync(cmd, args, { cwd, input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], timeout: 60_000 });

before(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'matrix-chess-pack-')));
  const [pack] = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root)) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  packed = pack.files.map((f) => f.path);
  project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // The package has no dependencies (bullmq and ioredis are optional peers), so this needs no registry.
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, pack.filename)], project);
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the tarball holds every exports target and every file the code finds at run time', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>> };
  const targets = Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [t] : Object.values(t)));
  assert.ok(targets.length >= 9, `exports: ${targets.join(', ')}`);
  const runtime = [
    DEFAULT_NETWORK_FILE,
    NNUE_WASM_FILE,
    WASM_FILE,
    join(WEIGHTS_DIR, weightsFileName(LAYOUT_16)),
    join(WEIGHTS_DIR, weightsFileName(LAYOUT_8)),
    DEFAULT_BOOK_FILE,
    join(root, 'dist', 'src', 'uci', 'search-worker-node.js'),
    join(root, 'bin', 'matrix-chess'),
  ].map((f) => relative(root, f));
  const worker = ['nnue.bin', 'nnue.wasm', weightsFileName(LAYOUT_16), weightsFileName(LAYOUT_8)].map((f) => `dist/worker/${f}`);
  for (const f of [...targets.map((t) => t.replace(/^\.\//, '')), ...runtime, ...worker]) {
    assert.ok(packed.includes(f), `${f} is in the tarball`);
  }
  // Nothing of the tests, scripts or sources beyond what users run, nor the lab notebook; the docs and changelog ship.
  assert.deepEqual(
    packed.filter((f) => /^(dist\/(test|scripts|bench)|src|test|data|notebook)\//.test(f)),
    [],
  );
  for (const f of ['README.md', 'CHANGELOG.md', 'docs/nnue.md']) assert.ok(packed.includes(f), `${f} is in the tarball`);
});

/** The root entry's names (docs/library.md): a small documented set; the rest lives in the other entries. */
const ROOT_NAMES = [
  'AsyncEngine',
  'Chess',
  'Engine',
  'EngineClosedError',
  'EngineOptionError',
  'EngineReplyError',
  'FenError',
  'Move',
  'MoveError',
  'PgnError',
  'START_FEN',
  'SearchLimitError',
  'analyseGame',
  'analysePgnGame',
  'createEngine',
  'formatEval',
  'gameAccuracy',
  'judgeMove',
  'moveAccuracy',
  'makePgn',
  'makePgnGames',
  'moveToUci',
  'newPgnGame',
  'nnueFromBytes',
  'parsePgn',
  'parsePgnGame',
  'readPgn',
  'replayPgnGame',
  'streamPgn',
  'validateFen',
  'winPercent',
  'winningChances',
];

test('an installed copy: the modules import, the root has its documented names, the worker resolves, the network, kernels and weights load from the package', () => {
  const script = `
    import * as lib from 'matrix-chess';
    import * as core from 'matrix-chess/core';
    import * as engine from 'matrix-chess/engine';
    import * as compat from 'matrix-chess/compat';
    import * as node from 'matrix-chess/node';
    const chess = new compat.Chess();
    chess.move('e2e4');
    const pos = core.Position.fromFen(core.START_FEN);
    const result = new engine.Engine({ hashMb: 1 }).search(pos, { depth: 3 });
    const nnue = node.loadNnue();
    const bnn = await node.getBackend('bnn');
    const client = await node.createEngine({ options: { Hash: 8 } });
    const analysis = await client.analyse('startpos', { depth: 4 });
    await client.quit();
    console.log(JSON.stringify({
      names: Object.keys(lib).sort(),
      worker: import.meta.resolve('matrix-chess/worker'),
      legal: core.legalMoveList(pos).length,
      best: core.legalMoveList(pos).map(core.moveToUci).includes(core.moveToUci(result.bestMove)),
      network: engine.describeNnue(nnue),
      bnn: bnn.name,
      perft: core.perft(pos, 3, bnn),
      client: [analysis.lines[0].depth, core.legalMoveList(pos).map(core.moveToUci).includes(analysis.bestmove)],
      compat: [chess.fen(), new lib.Chess().perft(2), compat.SQUARES[0], lib.Chess === compat.Chess],
    }));`;
  const out = JSON.parse(run(process.execPath, ['--input-type=module', '-e', script], project)) as Record<string, unknown>;
  const installed = join(project, 'node_modules', 'matrix-chess');
  assert.deepEqual(out.names, [...ROOT_NAMES].sort());
  assert.equal(out.worker, `file://${installed}/dist/worker/matrix-chess-worker.js`);
  assert.equal(out.legal, 20);
  assert.equal(out.best, true);
  assert.match(String(out.network), new RegExp(`^NNUE ${installed}/weights/nnue\\.bin: 768x2-\\d+-\\d+ buckets, wasm kernel`));
  assert.equal(out.bnn, 'bnn');
  assert.equal(out.perft, 8902);
  assert.deepEqual(out.client, [4, true]);
  assert.deepEqual(out.compat, ['rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1', 400, 'a8', true]);
});

test('an installed copy: require() loads every entry (ESM through Node >= 20.19 require(esm), no warning)', () => {
  const script = `
    const lib = require('matrix-chess');
    const core = require('matrix-chess/core');
    const engine = require('matrix-chess/engine');
    const compat = require('matrix-chess/compat');
    const node = require('matrix-chess/node');
    const pos = core.Position.fromFen(core.START_FEN);
    console.log(JSON.stringify([
      new lib.Chess().moves().length,
      core.perft(pos, 2),
      engine.Engine === lib.Engine,
      typeof compat.validateFen,
      typeof node.createEngine,
      require.resolve('matrix-chess/worker').endsWith('matrix-chess-worker.js'),
    ]));`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: project, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [20, 400, true, 'function', 'function', true]);
  assert.equal(r.stderr, '', 'no ExperimentalWarning or other noise');
});

test('an installed copy: the bin speaks UCI with the package network and the BNN WebAssembly kernel', () => {
  const input = 'setoption name UseNNUE value true\nsetoption name Backend value bnn\nisready\ngo depth 3\n';
  const lines = run(join(project, 'node_modules', '.bin', 'matrix-chess'), ['uci'], project, input).split('\n');
  const installed = join(project, 'node_modules', 'matrix-chess');
  assert.ok(
    lines.some((l) => l.startsWith(`info string evaluation: NNUE ${installed}/weights/nnue.bin: `) && l.includes('wasm kernel')),
    lines.join('\n'),
  );
  assert.ok(lines.includes('info string backend bnn (WebAssembly kernel, 16x32x1)'), lines.join('\n'));
  assert.ok(
    lines.some((l) => /^bestmove [a-h][1-8][a-h][1-8]/.test(l)),
    lines.join('\n'),
  );
});

test('an installed copy without the optional queue packages: the Redis queue says what to install, in one line, exit 1', () => {
  assert.deepEqual(readdirSync(join(project, 'node_modules')).sort(), ['.bin', '.package-lock.json', 'matrix-chess'].sort());
  const r = spawnSync(join(project, 'node_modules', '.bin', 'matrix-chess'), ['worker', '--queue', 'redis://127.0.0.1:9'], {
    cwd: project,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(
    r.stderr,
    'matrix-chess: the Redis job queue needs the optional packages bullmq and ioredis (bullmq is not installed): npm install bullmq ioredis\n',
  );
});

test('an installed copy type-checks against each export', () => {
  writeFileSync(
    join(project, 'use.ts'),
    [
      "import { Chess } from 'matrix-chess';",
      "import { Chess as ChessJsShaped, validateFen, type Square } from 'matrix-chess/compat';",
      "import { Position, START_FEN, legalMoveList } from 'matrix-chess/core';",
      "import { Engine, SearchLimitError } from 'matrix-chess/engine';",
      "import { createEngine } from 'matrix-chess/node';",
      "import type { Analysis, AnalysisLine } from 'matrix-chess';",
      "import type { UciWorkerLine } from 'matrix-chess/worker';",
      'const n: number = legalMoveList(Position.fromFen(START_FEN)).length;',
      'const line: UciWorkerLine = new Chess().fen();',
      "const square: Square = 'e4';",
      'const ok: boolean = validateFen(new ChessJsShaped().fen()).ok;',
      'const lines = async (): Promise<AnalysisLine[]> => ((await (await createEngine()).analyse(START_FEN, { depth: 2 })) satisfies Analysis).lines;',
      'export const used = [n, line, square, ok, new Engine({ hashMb: 1 }), lines, SearchLimitError];',
    ].join('\n'),
  );
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = [
    '--noEmit',
    '--strict',
    '--skipLibCheck',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--target',
    'es2022',
    '--types',
    'node',
  ];
  run(process.execPath, [tsc, ...args, '--typeRoots', join(root, 'node_modules', '@types'), 'use.ts'], project);
});
