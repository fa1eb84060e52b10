/** The command line as users run it: output formats, exit codes, one-line errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/matrix-chess', import.meta.url));
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

function run(args: string[], input = '') {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', timeout: 60_000, env: { ...process.env, CI: 'true' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function runAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
    let stdout = '', stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function assertUsageError(args: string[], pattern: RegExp): Promise<void> {
  const r = await runAsync(args);
  assert.equal(r.code, 2, `exit code for ${args.join(' ')}`);
  assert.equal(r.stdout, '');
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one stderr line expected, got:\n${r.stderr}`);
  assert.match(lines[0], /^matrix-chess: /);
  assert.match(lines[0], pattern);
}

test('help lists the commands', () => {
  for (const args of [['help'], ['--help'], []]) {
    const r = run(args);
    assert.equal(r.code, 0);
    for (const cmd of ['play', 'uci', 'perft', 'bench', 'demo', 'bnn']) assert.match(r.stdout, new RegExp(`^  ${cmd}\\b`, 'm'));
  }
});

test('perft prints the node count, time and speed', () => {
  const r = run(['perft', '3']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Nodes: 8902$/m);
  assert.match(r.stdout, /^Time: \d+\.\d+ s$/m);
  assert.match(r.stdout, /^NPS: \d+$/m);
  assert.equal(r.stderr, '', 'no progress output outside a terminal');
});

test('perft --divide lists root moves that add up to the total', () => {
  const r = run(['perft', '2', '--divide', '--fen', KIWIPETE]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n').filter((l) => /^[a-h][1-8][a-h][1-8][qrbn]?: \d+$/.test(l));
  assert.equal(lines.length, 48);
  assert.equal(lines.reduce((s, l) => s + Number(l.split(': ')[1]), 0), 2039);
  assert.match(r.stdout, /^Nodes: 2039$/m);
});

test('perft with the other backends agrees with the bitboard core, when they are built', () => {
  for (const name of ['matrix', 'bnn']) {
    const r = run(['perft', '3', '--backend', name]);
    if (r.code === 1 && /not available in this build/.test(r.stderr)) continue;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Nodes: 8902$/m, name);
    assert.match(r.stdout, new RegExp(`^Backend: ${name}$`, 'm'));
  }
});

test('user mistakes: one line on stderr, exit status 2', async () => {
  // Independent processes: run them side by side.
  await Promise.all([
    assertUsageError(['perft', '2', '--fen', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1'], /^matrix-chess: invalid FEN \(side\): /),
    assertUsageError(['perft', '2', '--fen', 'nonsense'], /invalid FEN \(fen\)/),
    assertUsageError(['perft'], /perft depth: missing value/),
    assertUsageError(['perft', 'three'], /perft depth: 'three' is not a whole number/),
    assertUsageError(['perft', '0'], /out of range/),
    assertUsageError(['perft', '2', '--speed'], /perft: Unknown option '--speed'/),
    assertUsageError(['perft', '2', '--backend', 'quantum'], /unknown backend 'quantum': expected one of bitboard, matrix, bnn/),
    assertUsageError(['castle'], /unknown command 'castle'/),
    assertUsageError(['play', '--fen', '8/8/8/8/8/8/8/8 w - - 0 1'], /invalid FEN \(position\): white has no king/),
    assertUsageError(['play', '--mode', 'purple'], /--mode: 'purple' is not a mode/),
    assertUsageError(['play', '--depth', '99'], /--depth: 99 is out of range/),
    assertUsageError(['uci', 'extra'], /uci: unexpected argument 'extra'/),
  ]);
});
