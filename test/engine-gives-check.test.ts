import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { MAX_MOVES, defaultGenerator } from '../src/core/movegen.js';
import { KIND_CASTLE, moveFrom, moveKind, movePromo, moveTo } from '../src/core/move.js';
import { givesDirectCheck, givesQuietCheck } from '../src/engine/gives-check.js';
import { rng, suiteFens } from './helpers.js';

test('givesQuietCheck equals making the move and testing for check, for every quiet move of random games (direct and discovered checks)', () => {
  const r = rng(23),
    moves = new Int32Array(MAX_MOVES);
  let quiet = 0,
    direct = 0,
    discovered = 0;
  for (const fen of suiteFens()) {
    const pos = Position.fromFen(fen);
    for (let ply = 0; ply < 60; ply++) {
      const n = defaultGenerator.generate(pos, moves, 0);
      if (n === 0) break;
      for (let i = 0; i < n; i++) {
        const m = moves[i];
        if (pos.board[moveTo(m)] !== 0 || moveKind(m) !== 0 || movePromo(m) !== 0) continue;
        const told = givesQuietCheck(pos, m),
          byDirect = givesDirectCheck(pos, m);
        pos.makeMove(m);
        const checks = pos.inCheck();
        pos.unmakeMove();
        assert.equal(told, checks, `${fen} after ${ply} plies: move ${moveFrom(m)}-${moveTo(m)}`);
        if (byDirect) assert.ok(checks, 'a direct check the move does not give');
        quiet++;
        if (checks && byDirect) direct++;
        if (checks && !byDirect) discovered++;
      }
      // Prefer quiet moves so the games last and pieces stay on the board.
      let m = moves[Math.floor(r() * n)];
      if (pos.board[moveTo(m)] !== 0 && r() < 0.7) m = moves[Math.floor(r() * n)];
      pos.makeMove(m);
      if (moveKind(m) === KIND_CASTLE) continue;
    }
  }
  assert.ok(
    quiet > 10000 && direct > 500 && discovered > 20,
    `too little seen: ${quiet} quiet moves, ${direct} direct and ${discovered} discovered checks`,
  );
});
