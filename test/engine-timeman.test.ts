import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { defaultGenerator } from '../src/core/movegen.js';
import { SearchParams } from '../src/engine/index.js';
import { TranspositionTable } from '../src/engine/tt.js';
import { Searcher, type RootMove } from '../src/engine/search.js';
import { INF } from '../src/engine/score.js';

test('root moves count the nodes searched under them: together, all of a root search', () => {
  const searcher = new Searcher(new TranspositionTable(1), new SearchParams(), defaultGenerator, null);
  const pos = Position.fromFen('r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3');
  const moves = searcher.begin(pos);
  const rms: RootMove[] = moves.map((m) => ({ move: m, score: -INF, prevScore: -INF, pv: [m], nodes: 0 }));
  searcher.rootSearch(rms, -INF, INF, 5, 0);
  const total = rms.reduce((n, rm) => n + rm.nodes, 0);
  assert.equal(total, searcher.nodes);
  assert.ok(
    rms.every((rm) => rm.nodes >= 1),
    'each root move is at least its own node',
  );
  // The first move gets the full window, the others null windows: it takes the largest share.
  assert.ok(rms[0].nodes > total / rms.length, `first move ${rms[0].nodes} of ${total}`);
  // A second pass (an aspiration re-search) adds to the same counts.
  searcher.rootSearch(rms, -INF, INF, 5, 0);
  assert.equal(
    rms.reduce((n, rm) => n + rm.nodes, 0),
    searcher.nodes,
  );
});
