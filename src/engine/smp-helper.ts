/**
 * Lazy SMP, a helper thread's side: an Engine of its own (own move ordering and accumulators)
 * on the main engine's shared transposition table, searching each root the main search sends
 * until the control block says stop. Platform-neutral: the thread's script (smp-worker-node.ts,
 * or the web app's helper worker) feeds it the messages and says how to rebuild the network.
 */
import { Position } from '../core/position.js';
import type { NnueEvaluator } from './nnue/evaluator.js';
import { Engine } from './engine.js';
import { SMP_GEN, SMP_READY, SMP_RUNNING, SMP_STOP, type HelperNnue, type ToHelper } from './smp.js';

/** A position that exercises every part of the search, to compile the hot paths before the first real search. */
const WARM_UP_FEN = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

/** Returns the thread's message handler; `makeNnue` builds this thread's evaluator from the main engine's network. */
export function createHelper(makeNnue: (nnue: HelperNnue) => NnueEvaluator): (msg: ToHelper) => void {
  const engine = new Engine({ hashMb: 1 });
  // On its own private table, before it joins the shared one.
  engine.search(Position.fromFen(WARM_UP_FEN), { depth: 4 });
  engine.newGame();
  let control: Int32Array | undefined;
  let index = 0;

  function search(msg: Extract<ToHelper, { type: 'search' }>, c: Int32Array): void {
    // Entering before looking at the flags: either the main thread's stop() sees this helper
    // running and waits for it, or this helper sees the stop (both sides are seq-cst Atomics).
    Atomics.add(c, SMP_RUNNING, 1);
    try {
      // A search the main thread has finished (or replaced) before this message arrived.
      if (Atomics.load(c, SMP_STOP) !== 0 || Atomics.load(c, SMP_GEN) !== msg.gen) return;
      const pos = Position.fromFen(msg.fen);
      for (const m of msg.moves) {
        if (m === 0) pos.makeNullMove();
        else pos.makeMove(m);
      }
      engine.searchAsHelper(pos, msg.depth, msg.ttAge, c);
    } finally {
      Atomics.sub(c, SMP_RUNNING, 1);
      Atomics.notify(c, SMP_RUNNING);
    }
  }

  return (msg: ToHelper): void => {
    switch (msg.type) {
      case 'init':
        control = new Int32Array(msg.control);
        index = msg.index;
        Atomics.add(control, SMP_READY, 1);
        Atomics.notify(control, SMP_READY);
        return;
      case 'config': {
        const { tt, nnue, params } = msg.config;
        Object.assign(engine.params, params);
        engine.paramsChanged();
        engine.joinAsHelper(index, tt);
        engine.setEvaluator(nnue === null ? null : makeNnue(nnue));
        return;
      }
      case 'newgame':
        engine.newGame();
        return;
      case 'search':
        if (control === undefined) throw new Error('Lazy SMP helper: a search arrived before init');
        search(msg, control);
        return;
    }
  };
}
