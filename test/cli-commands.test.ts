/** The command line as users run it: output formats, exit codes, one-line errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../src/cli/main.js';

const BIN = fileURLToPath(new URL('../../bin/matrix-chess', import.meta.url));
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

function run(args: string[], input = '') {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', timeout: 60_000, env: { ...process.env, CI: 'true' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function runAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
    let stdout = '',
      stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `fn` with process.stdout.write captured (in-process checks avoid a process per case). */
async function captureStdout(fn: () => Promise<unknown>): Promise<string> {
  const original = process.stdout.write;
  let text = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    await fn();
  } finally {
    process.stdout.write = original;
  }
  return text;
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

test('help lists the commands', async () => {
  const r = run(['help']);
  assert.equal(r.code, 0);
  for (const cmd of ['play', 'uci', 'perft', 'bench', 'demo', 'bnn', 'match', 'tune'])
    assert.match(r.stdout, new RegExp(`^  ${cmd}\\b`, 'm'));
  for (const args of [['--help'], ['-h']]) {
    const text = await captureStdout(() => main(args));
    assert.equal(text, r.stdout);
  }
});

test('no command with a pipe on standard input speaks UCI, not help', () => {
  const r = run([], 'uci\nposition startpos\ngo depth 2\n');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^uciok$/m);
  assert.match(r.stdout, /^bestmove [a-h][1-8][a-h][1-8]/m);
  assert.doesNotMatch(r.stdout, /Usage: matrix-chess/);
});

test('end of input answers every isready before the process exits', () => {
  const r = run([], 'uci\nsetoption name Hash value 4\nisready\n');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^uciok\nreadyok$/m);
  assert.doesNotMatch(r.stdout, /Usage: matrix-chess/);
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
  assert.equal(
    lines.reduce((s, l) => s + Number(l.split(': ')[1]), 0),
    2039,
  );
  assert.match(r.stdout, /^Nodes: 2039$/m);
});

test('bench --evalfile searches with the network in that file', () => {
  // The seed-3 data folder keeps the network that played it (generation 3): another search tree.
  const other = fileURLToPath(new URL('../../data/nnue/selfplay-nnue3-5000n-s3/network.bin', import.meta.url));
  const shipped = fileURLToPath(new URL('../../weights/nnue.bin', import.meta.url));
  const nodes = (args: string[]): string => {
    const r = run(['bench', '--depth', '4', ...args]);
    assert.equal(r.code, 0, r.stderr);
    return /^Nodes: (\d+)$/m.exec(r.stdout)![1];
  };
  const byDefault = nodes([]);
  assert.equal(nodes(['--evalfile', shipped]), byDefault, 'the shipped file by name is the default');
  assert.notEqual(nodes(['--evalfile', other]), byDefault, 'another network searches another tree');
});

test('perft with the other backends agrees with the bitboard core and names what it loaded', () => {
  for (const [name, label] of [
    ['matrix', 'matrix'],
    ['bnn', 'bnn (WebAssembly kernel, 16x32x1)'],
  ]) {
    const r = run(['perft', '3', '--backend', name]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Nodes: 8902$/m, name);
    assert.ok(r.stdout.split('\n').includes(`Backend: ${label}`), r.stdout);
  }
});

test('user mistakes: one line on stderr, exit status 2, no stack trace', async () => {
  await Promise.all([
    assertUsageError(
      ['perft', '2', '--fen', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1'],
      /^matrix-chess: invalid FEN \(side\): /,
    ),
    assertUsageError(['perft', '2', '--speed'], /^matrix-chess: perft: Unknown option '--speed'/),
    assertUsageError(['castle'], /^matrix-chess: unknown command 'castle'/),
    assertUsageError(['demo', '--colour'], /^matrix-chess: demo: Unknown option '--colour'/),
    assertUsageError(['bnn', 'bench', '--count', '0'], /^matrix-chess: bnn --count: 0 is out of range/),
    assertUsageError(['match', '--engine1', 'cmd=a'], /^matrix-chess: match: missing --engine2/),
  ]);
});

test('user mistakes are typed errors that name the flag and what was expected', async () => {
  // The same errors runCli turns into one stderr line and status 2 (checked above), in-process.
  const cases: Array<[string[], string, RegExp]> = [
    [['perft', '2', '--fen', 'nonsense'], 'FenError', /invalid FEN \(fen\)/],
    [['perft'], 'UsageError', /perft depth: missing value/],
    [['perft', 'three'], 'UsageError', /perft depth: 'three' is not a whole number/],
    [['perft', '0'], 'UsageError', /perft depth: 0 is out of range/],
    [['perft', '2', '--backend', 'quantum'], 'BackendError', /unknown backend 'quantum': expected one of bitboard, matrix, bnn/],
    [['bench', '--depth', 'deep'], 'UsageError', /--depth: 'deep' is not a whole number/],
    [
      ['bench', '--eval', 'classical', '--evalfile', 'x.bin'],
      'UsageError',
      /bench --evalfile: a network file needs --eval nnue or both, not classical/,
    ],
    [
      ['play', '--eval', 'classical', '--evalfile', 'x.bin'],
      'UsageError',
      /play --evalfile: a network file needs --eval nnue, not classical/,
    ],
    [['bench', '--depth', '1', '--evalfile', 'no-such-network.bin'], 'NnueFileError', /no-such-network\.bin/],
    [['play', '--fen', '8/8/8/8/8/8/8/8 w - - 0 1'], 'FenError', /invalid FEN \(position\): white has no king/],
    [['play', '--mode', 'purple'], 'UsageError', /--mode: 'purple' is not a mode \(expected white, black or self\)/],
    [['play', '--depth', '99'], 'UsageError', /--depth: 99 is out of range/],
    [['play', 'now'], 'UsageError', /play: unexpected argument 'now'/],
    [['uci', 'extra'], 'UsageError', /uci: unexpected argument 'extra'/],
  ];
  for (const [args, name, pattern] of cases) {
    await assert.rejects(main(args), (err: Error) => {
      assert.equal(err.name, name, args.join(' '));
      assert.match(err.message, pattern, args.join(' '));
      assert.doesNotMatch(err.message, /\n/);
      return true;
    });
  }
});
