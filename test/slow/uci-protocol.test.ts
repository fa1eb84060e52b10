/**
 * Drives the real `bin/matrix-chess uci` as a child process, as a GUI would. Time bounds are
 * only generous "answers at all" limits, never speed assertions.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { parseUciMove } from '../../src/core/notation.js';
import { Position } from '../../src/core/position.js';
import { START_FEN } from '../../src/core/fen.js';

const BIN = fileURLToPath(new URL('../../../bin/matrix-chess', import.meta.url));
const ANSWER_MS = 15_000; // generous: CI machines are loaded
const children: UciChild[] = [];
// A failed test must not leave an engine searching forever and keep the test run alive.
after(() => {
  for (const c of children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
});

class UciChild {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  stderr = '';
  private cursor = 0;
  private waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;

  constructor(args: string[] = ['uci']) {
    this.proc = spawn(process.execPath, [BIN, ...args], { stdio: 'pipe', env: { ...process.env, CI: 'true' } });
    children.push(this);
    let partial = '';
    this.proc.stderr.setEncoding('utf8').on('data', (d: string) => {
      this.stderr += d;
    });
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk: string) => {
      partial += chunk;
      const parts = partial.split('\n');
      partial = parts.pop()!;
      this.lines.push(...parts);
      for (const w of this.waiters.splice(0)) w();
    });
    this.exited = new Promise((resolve) =>
      this.proc.on('exit', (code) => {
        for (const w of this.waiters.splice(0)) w();
        resolve(code);
      }),
    );
  }

  send(...cmds: string[]): void {
    for (const c of cmds) this.proc.stdin.write(c + '\n');
  }

  /** Waits for the next line (after earlier matches) satisfying `pred`; returns it. */
  async expect(pred: RegExp | ((line: string) => boolean), timeoutMs = ANSWER_MS): Promise<string> {
    const test = typeof pred === 'function' ? pred : (l: string) => pred.test(l);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.cursor < this.lines.length) {
        const line = this.lines[this.cursor++];
        if (test(line)) return line;
      }
      if (this.proc.exitCode !== null)
        throw new Error(`process exited (${this.proc.exitCode}) before a line matching ${pred}; stderr: ${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no line matching ${pred} within ${timeoutMs} ms; got:\n${this.lines.slice(-20).join('\n')}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Lines received since the last expect() match that satisfy `pred`, without waiting. */
  seen(pred: RegExp): string[] {
    return this.lines.filter((l) => pred.test(l));
  }

  async quit(): Promise<number | null> {
    if (this.proc.exitCode === null) this.send('quit');
    return this.exited;
  }
}

function assertLegal(fen: string, moves: string[], bestLine: string): string {
  const m = /^bestmove (\S+)( ponder (\S+))?$/.exec(bestLine);
  assert.ok(m, `malformed bestmove line '${bestLine}'`);
  const pos = Position.fromFen(fen);
  for (const mv of moves) pos.makeMove(parseUciMove(pos, mv));
  const best = parseUciMove(pos, m[1]); // throws when illegal
  if (m[3]) {
    pos.makeMove(best);
    parseUciMove(pos, m[3]);
  }
  return m[1];
}

test('uci handshake (id, options, uciok), isready, then position with moves and go depth: info lines and a legal bestmove', async () => {
  const e = new UciChild();
  e.send('uci');
  assert.equal(await e.expect(/^id name/), 'id name Matrix Chess');
  await e.expect(/^id author /);
  await e.expect(/^uciok$/);
  const options = e.seen(/^option name /);
  for (const name of ['Hash', 'Clear Hash', 'Move Overhead', 'MultiPV', 'Backend', 'Ponder']) {
    assert.ok(
      options.some((o) => o.startsWith(`option name ${name} type`)),
      `option ${name} missing`,
    );
  }
  assert.match(
    options.find((o) => o.includes('Backend'))!,
    /type combo default bitboard var bitboard var matrix var bnn var bnn-16x8x1$/,
  );
  e.send('isready');
  await e.expect(/^readyok$/);

  // Then a game position with moves and a fixed-depth search.
  const moves = ['e2e4', 'e7e5', 'g1f3'];
  e.send('ucinewgame', `position startpos moves ${moves.join(' ')}`, 'go depth 3');
  const best = await e.expect(/^bestmove /);
  const infos = e.seen(/^info depth /);
  assert.ok(infos.length > 0, 'no info lines');
  const last = infos[infos.length - 1];
  assert.match(
    last,
    /^info depth \d+ seldepth \d+ multipv 1 score (cp -?\d+|mate -?\d+)( lowerbound| upperbound)? nodes \d+ nps \d+ time \d+ hashfull \d+ pv [a-h][1-8]/,
  );
  const move = assertLegal(START_FEN, moves, best);
  assert.ok(/^[a-h][78]/.test(move), `black must move from its side of the board, got ${move}`);

  // Options reach the engine: MultiPV 3 reports three lines per depth.
  e.send('setoption name MultiPV value 3', 'go depth 2');
  await e.expect(/^info depth \d+ .*multipv 3 /);
  assertLegal(START_FEN, moves, await e.expect(/^bestmove /));
  assert.equal(await e.quit(), 0);
});

test('go movetime and go with clocks answer with a legal move', async () => {
  const e = new UciChild();
  const fen = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
  e.send(`position fen ${fen}`, 'go movetime 200');
  assertLegal(fen, [], await e.expect(/^bestmove /));
  e.send(`position fen ${fen} moves e2a6`, 'go wtime 1000 btime 1000 winc 10 binc 10 movestogo 20');
  assertLegal(fen, ['e2a6'], await e.expect(/^bestmove /));
  e.send('go nodes 2000');
  assertLegal(fen, ['e2a6'], await e.expect(/^bestmove /));
  assert.equal(await e.quit(), 0);
});

test('go infinite: isready is answered during the search, stop answers promptly', async () => {
  const e = new UciChild();
  e.send('position startpos', 'go infinite');
  await e.expect(/^info depth /);
  e.send('isready');
  await e.expect(/^readyok$/);
  assert.equal(e.seen(/^bestmove/).length, 0, 'bestmove before stop in infinite mode');
  const t0 = Date.now();
  e.send('stop');
  assertLegal(START_FEN, [], await e.expect(/^bestmove /, 5000));
  assert.ok(Date.now() - t0 < 5000);
  // The engine is usable again after a stop.
  e.send('go depth 2');
  assertLegal(START_FEN, [], await e.expect(/^bestmove /));
  assert.equal(await e.quit(), 0);
});

test('stop and the next go sent back to back: both are answered, in order', async () => {
  const e = new UciChild();
  e.send('position startpos', 'go infinite');
  await e.expect(/^info depth /);
  e.send('stop', 'position startpos moves d2d4', 'go depth 2');
  assertLegal(START_FEN, [], await e.expect(/^bestmove /));
  assertLegal(START_FEN, ['d2d4'], await e.expect(/^bestmove /));
  assert.equal(await e.quit(), 0);
});

test('go ponder waits for ponderhit, then answers', async () => {
  const e = new UciChild();
  e.send('position startpos moves e2e4', 'go ponder wtime 2000 btime 2000');
  await e.expect(/^info depth /);
  assert.equal(e.seen(/^bestmove/).length, 0);
  e.send('ponderhit');
  assertLegal(START_FEN, ['e2e4'], await e.expect(/^bestmove /));
  assert.equal(await e.quit(), 0);
});

test('bad input: info string with the reason, previous position kept, engine keeps running; bestmove 0000 only without legal moves', async () => {
  const e = new UciChild();
  e.send('position startpos moves e2e4');
  e.send('frobnicate now');
  assert.match(await e.expect(/^info string/), /unknown command 'frobnicate'/);
  e.send('position fen 8/8/8 w - - 0 1');
  assert.match(await e.expect(/^info string/), /invalid FEN \(placement\).*keeping the previous position/);
  e.send('position startpos moves e2e4 e7e5 e1e3');
  assert.match(await e.expect(/^info string/), /move 3 of the list: illegal move 'e1e3'/);
  e.send('setoption name Hash value 0');
  assert.match(await e.expect(/^info string/), /Hash.*out of range/);
  e.send('setoption name MultiPV value many');
  assert.match(await e.expect(/^info string/), /MultiPV.*whole number/);
  e.send('setoption name Backend value quantum');
  assert.match(await e.expect(/^info string/), /Backend: expected one of bitboard, matrix, bnn/);
  e.send('setoption name Colour value red');
  assert.match(await e.expect(/^info string/), /unknown option 'Colour'/);
  e.send('go depth x');
  assert.match(await e.expect(/^info string/), /go depth: expected a whole number/);
  assert.match(await e.expect(/^info string/), /go ignored/);
  // The position is still the one after 1.e4.
  e.send('go depth 1');
  assertLegal(START_FEN, ['e2e4'], await e.expect(/^bestmove /));
  e.send('isready');
  await e.expect(/^readyok$/);
  // No legal move (black is mated): the null move is the only possible answer.
  e.send('position fen 7k/5KQ1/8/8/8/8/8/8 b - - 0 1', 'go depth 3');
  assert.equal(await e.expect(/^bestmove /), 'bestmove 0000');
  assert.equal(await e.quit(), 0);
});

test('random garbage from the UCI vocabulary never stops the engine', async () => {
  const words = [
    'position',
    'startpos',
    'fen',
    'moves',
    'e2e4',
    'e7e5',
    'g1f3',
    'e1g1',
    'xx',
    'setoption',
    'name',
    'value',
    'Hash',
    'MultiPV',
    'Move',
    'Overhead',
    'Clear',
    'Backend',
    'bitboard',
    'matrix',
    'Ponder',
    'true',
    '1',
    '0',
    '-5',
    '99999',
    'ucinewgame',
    'd',
    'isready',
    'stop',
    'ponderhit',
    'debug',
    'on',
    'register',
    'later',
    '8/8/8',
    'w',
    'b',
    'KQkq',
    '-',
    '\t',
    'ÿ',
  ];
  // A fixed-seed generator: the same garbage on every run.
  let seed = 12345;
  const next = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const lines: string[] = [];
  for (let i = 0; i < 300; i++) {
    const len = next(7);
    const line: string[] = [];
    for (let k = 0; k < len; k++) line.push(words[next(words.length)]);
    lines.push(line.join(next(4) === 0 ? '  ' : ' '));
  }
  const e = new UciChild();
  e.send(...lines, 'isready');
  await e.expect(/^readyok$/);
  e.send('position startpos moves e2e4', 'go depth 1');
  assertLegal(START_FEN, ['e2e4'], await e.expect(/^bestmove /));
  assert.equal(e.stderr, '');
  assert.equal(await e.quit(), 0);
});

test('go perft prints Stockfish-style divide and total, with the backend it switched to', async () => {
  const e = new UciChild();
  e.send('position startpos', 'go perft 3');
  const total = await e.expect(/^Nodes searched: /);
  const divide = e.seen(/^[a-h][1-8][a-h][1-8][qrbn]?: \d+$/);
  assert.equal(divide.length, 20);
  assert.equal(
    divide.reduce((s, l) => s + Number(l.split(': ')[1]), 0),
    8902,
  );
  assert.equal(total, 'Nodes searched: 8902');
  const idx = e.lines.indexOf(total);
  assert.equal(e.lines[idx - 1], '', 'blank line before the total');

  const kiwipete = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
  e.send(`position fen ${kiwipete}`, 'setoption name Backend value matrix', 'go perft 2');
  // The switch must be confirmed before the count: a silent keep of the bitboard backend fails here.
  assert.equal(await e.expect(/^(Nodes searched: |info string )/), 'info string backend matrix');
  assert.equal(await e.expect(/^Nodes searched: /), 'Nodes searched: 2039');
  e.send('setoption name Backend value bnn', 'go perft 2');
  assert.equal(await e.expect(/^(Nodes searched: |info string )/), 'info string backend bnn (WebAssembly kernel, 16x32x1)');
  assert.equal(await e.expect(/^Nodes searched: /), 'Nodes searched: 2039');
  e.send('setoption name Backend value bnn-16x8x1', 'go perft 2');
  assert.equal(await e.expect(/^(Nodes searched: |info string )/), 'info string backend bnn-16x8x1 (WebAssembly kernel, 16x8x1)');
  assert.equal(await e.expect(/^Nodes searched: /), 'Nodes searched: 2039');
  assert.equal(await e.quit(), 0);
});

test('quit during an infinite search exits promptly with status 0', async () => {
  const e = new UciChild();
  e.send('position startpos', 'go infinite');
  await e.expect(/^info depth /);
  const t0 = Date.now();
  e.send('quit');
  assert.equal(await e.exited, 0);
  assert.ok(Date.now() - t0 < 5000);
});

test('quit answers what was sent before it, as Stockfish does: readyok, and the bestmove of the search it stops', async () => {
  // All in one write, as a script piping commands does.
  const ready = new UciChild();
  ready.send('uci', 'isready', 'quit');
  await ready.expect(/^uciok$/);
  await ready.expect(/^readyok$/);
  assert.equal(await ready.exited, 0);

  const search = new UciChild();
  search.send('position startpos moves e2e4', 'go depth 60', 'quit');
  const t0 = Date.now();
  assertLegal(START_FEN, ['e2e4'], await search.expect(/^bestmove /, 5000));
  assert.equal(await search.exited, 0);
  assert.ok(Date.now() - t0 < 5000, 'quit must stop the search, not wait for depth 60');
});

test('end of input lets a finite search finish and print its bestmove', async () => {
  const e = new UciChild();
  e.send('position startpos', 'go depth 2');
  e.proc.stdin.end();
  assertLegal(START_FEN, [], await e.expect(/^bestmove /));
  assert.equal(await e.exited, 0);
});

test('OwnBook plays a move from the book file; a bad BookFile is reported and the old book kept', async () => {
  const { DEFAULT_BOOK_FILE, openBook } = await import('../../src/book/polyglot-node.js');
  const bookMoves = openBook(DEFAULT_BOOK_FILE)
    .lookup(Position.fromFen(START_FEN))
    .map((e) => e.move);
  assert.ok(bookMoves.length > 0, 'the shipped book has moves for the start position');
  const { moveToUci } = await import('../../src/core/move.js');
  const e = new UciChild();
  e.send('uci', 'setoption name BookFile value /no/such/book.bin', 'isready');
  // readyok comes after the option has been applied.
  await e.expect(/^info string .*no\/such\/book\.bin.*keeping the previous book/);
  await e.expect(/^readyok$/);
  e.send('setoption name OwnBook value true', 'position startpos', 'go wtime 60000 btime 60000');
  const note = await e.expect(/^info string book move /);
  const best = await e.expect(/^bestmove /);
  const played = best.split(' ')[1];
  assert.equal(note, `info string book move ${played}`);
  assert.ok(bookMoves.map(moveToUci).includes(played), `${played} is one of the book's moves`);
  assert.equal(await e.quit(), 0);
});

test('UseNNUE switches to the shipped network and back, each confirmed; a bad EvalFile is named and the network kept', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const bad = join(mkdtempSync(join(tmpdir(), 'mc-uci-')), 'broken.bin');
  writeFileSync(bad, 'not a network');
  const e = new UciChild();
  e.send('uci', 'setoption name UseNNUE value true', 'isready');
  await e.expect(/^info string evaluation: NNUE .*nnue\.bin: 768x2-\d+-\d+ buckets, wasm kernel/);
  await e.expect(/^readyok$/);
  e.send(`setoption name EvalFile value ${bad}`, 'isready');
  await e.expect(/^info string .*broken\.bin: .*; keeping the NNUE .*nnue\.bin/);
  await e.expect(/^readyok$/);
  e.send('position startpos moves e2e4', 'go depth 6');
  assertLegal(START_FEN, ['e2e4'], await e.expect(/^bestmove /));
  e.send('setoption name UseNNUE value false', 'isready');
  await e.expect(/^info string evaluation: classical$/);
  await e.expect(/^readyok$/);
  assert.equal(await e.quit(), 0);
});

test('Threads: bad values are named and the loop goes on; with 2 threads go depth, stop during go infinite and quit all behave', async () => {
  const e = new UciChild();
  e.send('setoption name Threads value 0');
  assert.match(await e.expect(/^info string/), /setoption Threads: 0 is out of range \(1 to \d+\)/);
  e.send('setoption name Threads value lots');
  assert.match(await e.expect(/^info string/), /setoption Threads: expected a whole number from 1 to \d+, got 'lots'/);
  if (availableParallelism() < 2) {
    // One core: a second search thread is refused like any other out-of-range value.
    e.send('setoption name Threads value 2');
    assert.match(await e.expect(/^info string/), /Threads: 2 is out of range \(1 to 1\)/);
    assert.equal(await e.quit(), 0);
    return;
  }
  e.send('setoption name Threads value 2', 'isready');
  await e.expect(/^readyok$/);
  e.send('position startpos moves e2e4', 'go depth 8');
  assertLegal(START_FEN, ['e2e4'], await e.expect(/^bestmove /));
  assert.ok(e.seen(/^info depth 8 /).length > 0, 'the main thread reports its depths');
  assert.equal(e.seen(/^info string/).length, 2, 'no helper thread reported a problem');

  // Hash resized and the table cleared with the helpers running, then an infinite search stopped.
  e.send('setoption name Hash value 8', 'ucinewgame', 'position startpos', 'go infinite');
  await e.expect(/^info depth /);
  const t0 = Date.now();
  e.send('stop');
  assertLegal(START_FEN, [], await e.expect(/^bestmove /, 5000));
  assert.ok(Date.now() - t0 < 5000);

  // quit while the main search and its helper are busy: the process still exits.
  e.send('go infinite');
  await e.expect(/^info depth /);
  const t1 = Date.now();
  e.send('quit');
  assert.equal(await e.exited, 0);
  assert.ok(Date.now() - t1 < 5000);
});

test('search parameters: listed with uci --tunables, accepted always, applied to the search, bad values named', async () => {
  const nodesAtDepth = async (e: UciChild, setup: string[]): Promise<number> => {
    e.send('ucinewgame', ...setup, 'position startpos moves e2e4 e7e5 g1f3 b8c6', 'go depth 8');
    await e.expect(/^bestmove /);
    const infos = e.seen(/^info depth 8 .* nodes \d+/);
    return Number(/ nodes (\d+)/.exec(infos[infos.length - 1])![1]);
  };
  const plain = new UciChild();
  plain.send('uci');
  await plain.expect(/^uciok$/);
  assert.equal(plain.seen(/^option name singularExtension /).length, 0, 'listed without --tunables');
  const base = await nodesAtDepth(plain, []);
  // The same search again after ucinewgame is the same tree; a changed margin is another tree.
  assert.equal(await nodesAtDepth(plain, []), base);
  const changed = await nodesAtDepth(plain, ['setoption name nullMinDepth value 16', 'setoption name LMRDIVISORHUNDREDTHS value 400']);
  assert.notEqual(changed, base, 'the search parameters did not reach the search');
  plain.send('setoption name lmrDivisorHundredths value 10', 'setoption name singularExtension value maybe', 'isready');
  await plain.expect(/^readyok$/);
  assert.equal(plain.seen(/^info string setoption lmrDivisorHundredths: 10 is out of range \(50 to 1000\)$/).length, 1);
  assert.equal(plain.seen(/^info string setoption singularExtension: expected true or false, got 'maybe'$/).length, 1);
  assert.equal(await plain.quit(), 0);

  const tunable = new UciChild(['uci', '--tunables']);
  tunable.send('uci');
  await tunable.expect(/^uciok$/);
  assert.equal(tunable.seen(/^option name singularExtension type check default true$/).length, 1);
  assert.equal(tunable.seen(/^option name lmrBaseHundredths type spin default 57 min 0 max 300$/).length, 1);
  assert.equal(await tunable.quit(), 0);
});

test('UCI_Chess960: a check option (default false) that switches castles to king-takes-own-rook in position, perft and bestmove', async () => {
  const e = new UciChild();
  e.send('uci');
  await e.expect(/^uciok$/);
  assert.deepEqual(e.seen(/UCI_Chess960/), ['option name UCI_Chess960 type check default false']);
  const castles = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
  e.send(`position fen ${castles}`, 'go perft 1');
  await e.expect(/^Nodes searched: 26$/);
  assert.deepEqual(e.seen(/^e1[a-h]1: /).sort(), ['e1c1: 1', 'e1d1: 1', 'e1f1: 1', 'e1g1: 1']);
  e.send('setoption name UCI_Chess960 value true', `position fen ${castles}`, 'go perft 1');
  await e.expect(/^Nodes searched: 26$/);
  const divide960 = e
    .seen(/^e1[a-h]1: /)
    .slice(-4)
    .sort();
  assert.deepEqual(divide960, ['e1a1: 1', 'e1d1: 1', 'e1f1: 1', 'e1h1: 1']);
  // Standard notation is refused in 960 mode (it would be a plain king move), king-takes-rook accepted.
  e.send(`position fen ${castles} moves e1g1`);
  assert.match(await e.expect(/^info string /), /illegal move 'e1g1'.*keeping the previous position/);
  const fen960 = 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9';
  e.send(`position fen ${castles} moves e1h1 e8a8`, 'd');
  await e.expect(/^Fen: 2kr3r\/8\/8\/8\/8\/8\/8\/R4RK1 w - - 2 2$/);
  e.send(`position fen ${fen960}`, 'go depth 3');
  const best = await e.expect(/^bestmove /);
  const pos = Position.fromFen(fen960);
  parseUciMove(pos, best.split(' ')[1], true);
  e.send('setoption name UCI_Chess960 value maybe');
  assert.match(await e.expect(/^info string /), /UCI_Chess960: expected true or false, got 'maybe'/);
  assert.equal(await e.quit(), 0);
});

test('UCI_LimitStrength and UCI_Elo: a bad value is an info string, a limited engine answers a clock search with a legal move', async () => {
  const e = new UciChild();
  e.send('uci');
  await e.expect(/^uciok$/);
  assert.ok(e.seen(/^option name UCI_Elo type spin default 2400 min 800 max 2400$/).length === 1);
  e.send('setoption name UCI_Elo value 100', 'setoption name UCI_LimitStrength value maybe');
  await e.expect(/^info string setoption UCI_Elo: 100 is out of range \(800 to 2400\)$/);
  await e.expect(/^info string setoption UCI_LimitStrength: expected true or false, got 'maybe'$/);
  e.send('setoption name UCI_LimitStrength value true', 'setoption name UCI_Elo value 1400', 'isready');
  await e.expect(/^readyok$/);
  const moves = ['e2e4', 'e7e5', 'g1f3'];
  for (let i = 0; i < 3; i++) {
    e.send(`position startpos moves ${moves.join(' ')}`, 'go wtime 5000 btime 5000 winc 50 binc 50');
    // The level's MultiPV lines are reported.
    await e.expect(/^info depth \d+ .*multipv 2 /);
    assertLegal(START_FEN, moves, await e.expect(/^bestmove /));
  }
  assert.equal(await e.quit(), 0);
});
