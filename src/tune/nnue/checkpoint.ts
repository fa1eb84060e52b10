/**
 * The trainer's checkpoint (`tune nnue --checkpoint`, by default the output file + ".ckpt"): after
 * every epoch, what the next one needs (TrainState), and the settings of the run it belongs to.
 * A run that finds its checkpoint continues after the last finished epoch and ends with the
 * network an uninterrupted run writes; a checkpoint of other settings or other data is refused
 * with the setting that differs.
 *
 * File (little-endian): "MCNNCK\0\1", u32 n, n bytes of JSON (settings, epoch, reports, the
 * network's shape), then float32 arrays in PARTS order for the weights, Adam's m, Adam's v and
 * the best network, and a CRC-32 of everything before it.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { crc32 } from '../../core/crc32.js';
import type { NnueActivation, NnueKind } from '../../engine/nnue/network.js';
import type { NnueFeatures } from '../../engine/nnue/features.js';
import { PARTS } from './gradients.js';
import type { NnueSet } from './dataset.js';
import type { FloatNetwork } from './pass.js';
import type { EpochReport, TrainState } from './train.js';

export class NnueCheckpointError extends Error {
  override readonly name = 'NnueCheckpointError';
}

/** The options and data a run was started with; a checkpoint resumes only the same run. */
export type CheckpointSettings = Record<string, string | number | boolean>;

const MAGIC = Buffer.from('MCNNCK\0\x01', 'latin1');

interface Header {
  settings: CheckpointSettings;
  epoch: number;
  best: EpochReport;
  history: EpochReport[];
  shape: { kind: NnueKind; activation: NnueActivation; features: NnueFeatures; hidden: number; buckets: number; lengths: number[] };
}

/** A checksum of a training set's contents: the data a checkpoint was trained on. */
export function datasetChecksum(set: NnueSet): number {
  const bytes = (a: ArrayBufferView, n: number, width: number): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, n * width);
  let c = crc32(bytes(set.feat, set.count * 32, 2));
  for (const [a, w] of [
    [set.nFeat, 1],
    [set.stm, 1],
    [set.bucket, 1],
    [set.score, 2],
    [set.result, 4],
  ] as const)
    c = crc32(bytes(a, set.count, w), c);
  if (set.classical) c = crc32(bytes(set.classical, set.count, 2), c);
  return c;
}

export function encodeCheckpoint(settings: CheckpointSettings, s: TrainState): Buffer {
  const nets = [s.net, s.moments.m, s.moments.v, s.bestNet];
  const header: Header = {
    settings,
    epoch: s.epoch,
    best: s.best,
    history: s.history,
    shape: {
      kind: s.net.kind,
      activation: s.net.activation,
      features: s.net.features,
      hidden: s.net.hidden,
      buckets: s.net.buckets,
      lengths: PARTS.map((k) => s.net[k].length),
    },
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  const arrays = nets.flatMap((n) => PARTS.map((k) => Buffer.from(n[k].buffer, n[k].byteOffset, n[k].byteLength)));
  const body = Buffer.concat([MAGIC, len, json, ...arrays]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(crc32(body));
  return Buffer.concat([body, crc]);
}

export function decodeCheckpoint(bytes: Uint8Array, source: string): { settings: CheckpointSettings; state: TrainState } {
  const fail = (msg: string): never => {
    throw new NnueCheckpointError(`${source}: ${msg}`);
  };
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < MAGIC.length + 8 || !buf.subarray(0, MAGIC.length).equals(MAGIC)) fail('not a tune nnue checkpoint (bad magic)');
  if (crc32(buf.subarray(0, buf.length - 4)) !== buf.readUInt32LE(buf.length - 4)) fail('checksum mismatch (truncated or corrupt)');
  const n = buf.readUInt32LE(MAGIC.length);
  let header: Header;
  try {
    header = JSON.parse(buf.subarray(MAGIC.length + 4, MAGIC.length + 4 + n).toString('utf8')) as Header;
  } catch {
    return fail('unreadable header');
  }
  const { shape } = header;
  let at = MAGIC.length + 4 + n;
  const net = (): FloatNetwork => {
    const arrays = shape.lengths.map((len) => {
      if (at + 4 * len > buf.length - 4) fail('shorter than its header says');
      const a = new Float32Array(len);
      new Uint8Array(a.buffer).set(buf.subarray(at, at + 4 * len));
      at += 4 * len;
      return a;
    });
    const [w1, b1, w2, b2, psqt] = arrays;
    return {
      kind: shape.kind,
      activation: shape.activation,
      features: shape.features,
      hidden: shape.hidden,
      buckets: shape.buckets,
      w1,
      b1,
      w2,
      b2,
      psqt,
    };
  };
  const state: TrainState = {
    epoch: header.epoch,
    net: net(),
    moments: { m: net(), v: net() },
    bestNet: net(),
    best: header.best,
    history: header.history,
  };
  if (at !== buf.length - 4) fail('longer than its header says');
  return { settings: header.settings, state };
}

/** The first setting that differs between a checkpoint's run and this one, said for a person; null when they agree. */
export function settingsDiffer(saved: CheckpointSettings, now: CheckpointSettings): string | null {
  for (const k of new Set([...Object.keys(saved), ...Object.keys(now)]))
    if (saved[k] !== now[k]) return `${k} was ${JSON.stringify(saved[k] ?? null)}, now ${JSON.stringify(now[k] ?? null)}`;
  return null;
}

/** Writes the checkpoint whole or not at all: a run killed while writing keeps the previous one. */
export function writeCheckpoint(path: string, settings: CheckpointSettings, s: TrainState): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, encodeCheckpoint(settings, s));
  renameSync(tmp, path);
}
