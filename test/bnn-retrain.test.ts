/**
 * The shipped BNN weights are reproducible: the documented command (docs/bnn.md,
 * `matrix-chess bnn train --seed 1`) run afresh writes every layout's file byte for byte
 * (16x32x1, 64x64x1, 16x8x1).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NETWORK_LAYOUTS } from '../src/bnn/network.js';
import { weightsFileName } from '../src/bnn/weights.js';
import { WEIGHTS_DIR } from '../src/bnn/paths.js';

const BIN = fileURLToPath(new URL('../../bin/matrix-chess', import.meta.url));

test('bnn train --seed 1 reproduces the shipped weights byte for byte', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bnn-retrain-'));
  try {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'bnn', 'train', '--seed', '1', '--out-dir', dir], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, CI: 'true' },
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => {
        err += d;
      });
      child.on('close', (c) => resolve({ code: c, stderr: err }));
    });
    assert.equal(code, 0, stderr);
    assert.equal(NETWORK_LAYOUTS.length, 3);
    for (const layout of NETWORK_LAYOUTS) {
      const name = weightsFileName(layout);
      const fresh = readFileSync(join(dir, name)),
        shipped = readFileSync(join(WEIGHTS_DIR, name));
      assert.equal(fresh.length, shipped.length, `${name}: length`);
      const at = fresh.findIndex((b, i) => b !== shipped[i]);
      assert.equal(at, -1, `${name}: first differing byte at offset ${at}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
