/**
 * Hosts (GUIs, bot runners, analysis tools) start an engine with no arguments and a pipe on
 * standard input. This drives `bin/matrix-chess` exactly that way through node-uci, a UCI client
 * from npm that we did not write: if our no-argument start printed help, `init()` would never see
 * `uciok`.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Engine } from 'node-uci';
import { defaultCommand } from '../src/cli/main.js';
import { parseUciMove } from '../src/core/notation.js';
import { Position } from '../src/core/position.js';
import { START_FEN } from '../src/core/fen.js';

const BIN = fileURLToPath(new URL('../../bin/matrix-chess', import.meta.url));
const engines: Engine[] = [];
after(async () => {
  for (const e of engines) await e.quit().catch(() => undefined);
});

function legalIn(fen: string, moves: string[], best: string | null): boolean {
  const pos = Position.fromFen(fen);
  for (const m of moves) pos.makeMove(parseUciMove(pos, m));
  if (best === null) return false;
  try {
    parseUciMove(pos, best);
    return true;
  } catch {
    return false;
  }
}

test('no command: a terminal gets the help, a pipe gets UCI', () => {
  assert.equal(defaultCommand(true), 'help');
  assert.equal(defaultCommand(false), 'uci');
  assert.equal(defaultCommand(undefined), 'uci');
});

test(
  'node-uci starts matrix-chess with no arguments: handshake, options, go depth, go wtime/btime, go infinite + stop',
  { timeout: 120_000 },
  async () => {
    const engine = new Engine(BIN);
    engines.push(engine);
    await engine.init();
    assert.match(engine.id.name ?? '', /Matrix Chess/i);
    assert.ok(engine.options.has('Hash'), 'the options were announced before uciok');
    assert.ok(engine.options.has('MultiPV'));

    await engine.setoption('Hash', '8');
    await engine.setoption('MultiPV', '2');
    await engine.isready();
    await engine.ucinewgame();

    const moves = ['e2e4', 'e7e5', 'g1f3'];
    await engine.position(START_FEN, moves);
    const byDepth = await engine.go({ depth: 5 });
    assert.ok(legalIn(START_FEN, moves, byDepth.bestmove), `go depth: legal bestmove, got ${byDepth.bestmove}`);
    const depths = byDepth.info.map((i) => i['depth']).filter((d): d is number => typeof d === 'number');
    assert.equal(Math.max(...depths), 5, 'searched to depth 5 exactly');
    assert.ok(
      byDepth.info.some((i) => i['multipv'] === 2),
      'MultiPV 2 took effect',
    );

    await engine.setoption('MultiPV', '1');
    await engine.position(START_FEN, []);
    const byClock = await engine.go({ wtime: 2000, btime: 2000, winc: 20, binc: 20 });
    assert.ok(legalIn(START_FEN, [], byClock.bestmove), `go wtime/btime: legal bestmove, got ${byClock.bestmove}`);

    const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
    await engine.position(fen, []);
    const infos: unknown[] = [];
    engine.goInfinite().on('data', (d) => infos.push(d));
    await new Promise((r) => setTimeout(r, 500));
    const stopped = await engine.stop();
    assert.ok(legalIn(fen, [], stopped.bestmove), `stop: legal bestmove, got ${stopped.bestmove}`);
    assert.ok(infos.length > 0, 'go infinite reported info lines before stop');

    await engine.quit();
    engines.length = 0;
  },
);
