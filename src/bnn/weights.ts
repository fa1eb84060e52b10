/**
 * The weights file: a 40-byte header followed by the weight bytes of every network.
 *
 *   offset size  field
 *   0      8     magic "MCBNNW\0\1" (format version 1)
 *   8      1     layout id (1 = 16x32x1, 2 = 64x64x1, 3 = 16x8x1)
 *   9      1     pieces trained: bit 0 rook, bit 1 bishop
 *   10     2     neurons per network (32, 64 or 8)
 *   12     4     training seed
 *   16     4     squares trained, a1..h4 (bit per square)
 *   20     4     squares trained, a5..h8
 *   24     4     payload length in bytes
 *   28     4     networks in the payload
 *   32     4     reserved, 0
 *   36     4     CRC-32 of bytes 0..35 and the whole payload
 *
 * All integers little-endian. The payload is network after network in canonical order (rook
 * squares a1..h8 then bishop squares, targets by output bit), `neurons` bytes each, neuron 0
 * first; for 16x8x1 one threshold byte per network follows in the same order (0..8; payload
 * 1456 x 8 + 1456 = 13104 bytes). Untrained networks (partial runs) are zero.
 *
 * Encoding and decoding bytes only, so the browser decodes what it fetches; weights-node.ts reads
 * and writes the files.
 */
import { NETWORK_COUNT } from './layout.js';
import { crc32 } from '../core/crc32.js';
import { type NetworkLayout, layoutById, weightBytes } from './network.js';

export const HEADER_BYTES = 40;
const MAGIC = [0x4d, 0x43, 0x42, 0x4e, 0x4e, 0x57, 0x00, 0x01];

export class BnnWeightsError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = 'BnnWeightsError';
  }
}

export interface WeightsFile {
  layout: NetworkLayout;
  seed: number;
  /** Bit 0 rook, bit 1 bishop. */
  pieces: number;
  squaresLo: number;
  squaresHi: number;
  /** The payload: every network's weight bytes, then (16x8x1) every network's threshold. */
  weights: Uint8Array;
}

export function isComplete(w: WeightsFile): boolean {
  return w.pieces === 3 && w.squaresLo === -1 && w.squaresHi === -1;
}

export function encodeWeights(w: WeightsFile): Uint8Array {
  const payload = weightBytes(w.layout);
  if (w.weights.length !== payload) throw new Error(`weights array has ${w.weights.length} bytes, layout needs ${payload}`);
  const buf = new Uint8Array(HEADER_BYTES + payload);
  const view = new DataView(buf.buffer);
  buf.set(MAGIC, 0);
  view.setUint8(8, w.layout.id);
  view.setUint8(9, w.pieces);
  view.setUint16(10, w.layout.neurons, true);
  view.setUint32(12, w.seed >>> 0, true);
  view.setInt32(16, w.squaresLo, true);
  view.setInt32(20, w.squaresHi, true);
  view.setUint32(24, payload, true);
  view.setUint32(28, NETWORK_COUNT, true);
  buf.set(w.weights, HEADER_BYTES);
  view.setUint32(36, checksum(buf), true);
  return buf;
}

function checksum(buf: Uint8Array): number {
  return crc32(buf.subarray(HEADER_BYTES), crc32(buf.subarray(0, 36)));
}

/** Parses and checks a weights file image; throws BnnWeightsError naming `file` and the problem. */
export function decodeWeights(buf: Uint8Array, file: string): WeightsFile {
  if (buf.length < HEADER_BYTES)
    throw new BnnWeightsError(file, `truncated: ${buf.length} bytes, shorter than the ${HEADER_BYTES}-byte header`);
  for (let i = 0; i < MAGIC.length; i++) {
    if (buf[i] !== MAGIC[i]) throw new BnnWeightsError(file, 'not a Matrix Chess BNN weights file (bad magic)');
  }
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const layout = layoutById(view.getUint8(8));
  if (!layout) throw new BnnWeightsError(file, `unknown layout id ${view.getUint8(8)}`);
  const payload = view.getUint32(24, true);
  const expected = weightBytes(layout);
  if (payload !== expected || view.getUint16(10, true) !== layout.neurons || view.getUint32(28, true) !== NETWORK_COUNT) {
    throw new BnnWeightsError(file, `header does not match layout ${layout.name} (payload ${payload} bytes, expected ${expected})`);
  }
  if (buf.length !== HEADER_BYTES + expected) {
    const what = buf.length < HEADER_BYTES + expected ? 'truncated' : 'too long';
    throw new BnnWeightsError(file, `${what}: ${buf.length} bytes, expected ${HEADER_BYTES + expected}`);
  }
  const stored = view.getUint32(36, true),
    actual = checksum(buf);
  if (stored !== actual) {
    throw new BnnWeightsError(file, `checksum mismatch (stored ${hex(stored)}, computed ${hex(actual)}): the file is corrupted`);
  }
  if (layout.thresholds) {
    // A threshold above the neuron count would make a network that never fires: not a trained file.
    const base = HEADER_BYTES + NETWORK_COUNT * layout.neurons;
    for (let i = 0; i < NETWORK_COUNT; i++) {
      if (buf[base + i] > layout.neurons)
        throw new BnnWeightsError(file, `threshold of network ${i} is ${buf[base + i]}, expected 0..${layout.neurons}`);
    }
  }
  return {
    layout,
    pieces: view.getUint8(9),
    seed: view.getUint32(12, true),
    squaresLo: view.getInt32(16, true),
    squaresHi: view.getInt32(20, true),
    weights: new Uint8Array(buf.subarray(HEADER_BYTES)), // a copy, and a plain Uint8Array rather than a Buffer
  };
}

const hex = (x: number): string => '0x' + (x >>> 0).toString(16).padStart(8, '0');

/** Shipped file name of a layout, relative to the weights directory. */
export function weightsFileName(layout: NetworkLayout): string {
  return `bnn-${layout.name}.bin`;
}
