/**
 * The package's browser entries bundle for browsers (scripts/bundle-sizes.ts, esbuild platform
 * 'browser'): the root, core, engine and compat reach no Node built-in and leave no import
 * outside the bundle; matrix-chess/node does reach them (its bundle fails); and with
 * "sideEffects": false a program importing one name gets less than the whole entry.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSER_ENTRIES, SINGLE_IMPORTS, bundleEntry } from '../scripts/bundle-sizes.js';

for (const entry of BROWSER_ENTRIES) {
  test(`${entry} bundles for browsers with no Node built-in and nothing left outside`, async () => {
    const b = await bundleEntry(entry);
    assert.deepEqual(b.external, []);
    assert.deepEqual(
      b.resolved.filter((f) => f.startsWith('node:') || /-node\.js$/.test(f)),
      [],
    );
    assert.ok(b.bytes > 10_000 && b.gzipBytes < b.bytes, `${b.bytes} bytes, ${b.gzipBytes} gzipped`);
  });
}

test('matrix-chess/node is Node only: bundling it for browsers fails on a Node built-in', async () => {
  await assert.rejects(bundleEntry('./node'), /node:|worker_threads|"fs"|built into node/i);
});

test('importing one name from the root bundles less than the whole root (sideEffects: false)', async () => {
  const whole = await bundleEntry('.');
  for (const [entry, names] of SINGLE_IMPORTS) {
    const one = await bundleEntry(entry, names);
    assert.deepEqual(one.external, []);
    assert.ok(one.bytes < whole.bytes * 0.6, `${one.label}: ${one.bytes} bytes of the root's ${whole.bytes}`);
  }
  // Chess alone carries no search.
  const chess = await bundleEntry('.', ['Chess']);
  assert.deepEqual(
    chess.inputs.filter((f) => f.includes('/engine/')),
    [],
  );
});
