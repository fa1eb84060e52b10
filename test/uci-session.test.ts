/** UciSession (src/uci/loop.ts) on a scripted search thread: what a thread started after a stop receives. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UciSession, type StartSearchThread } from '../src/uci/loop.js';
import type { ToWorker } from '../src/uci/search-worker.js';

test('without shared memory, a search thread started by stop gets a clear control block (later searches are not stopped at once)', () => {
  const g = globalThis as { crossOriginIsolated?: boolean };
  g.crossOriginIsolated = false; // as on a web page without COOP/COEP: no SharedArrayBuffer to post
  try {
    const threads: Array<{ control: Int32Array; got: ToWorker[] }> = [];
    const start: StartSearchThread = (control) => {
      // postMessage copies a non-shared buffer: the thread sees the block as it was at its start.
      const thread = { control: Int32Array.from(control), got: [] as ToWorker[] };
      threads.push(thread);
      return { post: (msg) => thread.got.push(msg), terminate: () => {} };
    };
    const out: string[] = [];
    const session = new UciSession((l) => out.push(l), {
      startThread: start,
      giveUp: () => assert.fail('gave up'),
      defaults: { maxThreads: 1, bookFile: '', evalFile: '' },
    });
    assert.equal(threads[0].control.buffer instanceof SharedArrayBuffer, false);
    session.handle('position startpos');
    session.handle('go infinite');
    session.handle('stop');
    assert.equal(threads.length, 2, 'stop replaced the search thread');
    assert.match(out.at(-1)!, /^bestmove [a-h][1-8][a-h][1-8]$/);
    assert.deepEqual([...threads[1].control], [0, 0], 'the new thread starts with neither stop nor ponderhit set');
    session.close();
  } finally {
    delete g.crossOriginIsolated;
  }
});
