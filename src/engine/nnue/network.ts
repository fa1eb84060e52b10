/**
 * The learned evaluation's network and its file (docs/nnue.md).
 *
 * Architecture: one-hot inputs per perspective (6 piece types × 2 colours relative to the
 * perspective × 64 squares, flipped vertically for Black: 768; with the `king-mirrored` feature
 * set flipped a↔h when that side's king is on files e–h; with `king-buckets`, 768 per bucket of
 * that side's king square, 3840 in all: features.ts) → an accumulator of `hidden` int16
 * sums per perspective (shared weights) → clipped ReLU [0, QA] of both accumulators, the side to
 * move's first → one output per material bucket (pieces on the board) → centipawns. Beside the
 * hidden layer a linear piece-square term per bucket (psqt, summed incrementally like the
 * accumulator, int32) carries material and placement straight to the output, so the hidden
 * layer learns what a piece-square table cannot say.
 *
 *   eval = trunc((Σ crelu(acc_stm)·w[b][i] + Σ crelu(acc_other)·w[b][H+i] + bias[b]
 *                 + trunc((psqt_stm[b] − psqt_other[b]) / 2)) · SCALE / (QA · QB))
 *
 * With the squared activation (`screlu`), crelu(x)·w becomes crelu(x)²·w, whose sum is divided
 * (truncated) by QA before the bias is added, so the units stay QA·QB; the kernels sum it exactly
 * at any width (int64 partial sums in WebAssembly, doubles in the reference: arithmeticProblem).
 *
 * A network of kind `residual` is a correction to the classical evaluation: the engine adds its
 * output to the hand-written evaluation (evaluator.ts), and the trainer fits the sum.
 *
 * Everything is integer arithmetic, so the TypeScript reference and the WebAssembly kernel give
 * the same number. File layout (little-endian):
 *   0   8  magic "MCNNUE\0\4" (format version 4; version 3 files, without the features field
 *           and so with a 96-byte header, are read as the plain feature set)
 *   8   2  inputs I: featureInputs(features), 768 or 3840 (king-buckets)
 *   10  2  hidden (multiple of 16)   12  2  output buckets
 *   14  2  QA                    16  2  QB                        18  2  SCALE
 *   20  4  training positions    24  4  training seed             28  4  epochs
 *   32  60 description (ASCII, NUL-padded): the data and command it was trained from
 *   92  2  kind: 0 the evaluation, 1 a residual added to the classical evaluation
 *   94  2  activation: 0 clipped ReLU, 1 squared clipped ReLU (files before it have 0 here)
 *   96  2  features: 0 plain, 1 king-mirrored, 2 king-buckets
 *   98  payload: L1 weights [I][hidden] i16, L1 bias [hidden] i16,
 *       output weights [buckets][2·hidden] i16, output bias [buckets] i32,
 *       piece-square term [I][buckets] i32 (output-sum units: QA·QB per 400 cp)
 *   end 4  CRC-32 of everything before it
 */
import { crc32 } from '../../core/crc32.js';
import { NNUE_FEATURE_SETS, PLAIN_INPUTS, featureInputs, type NnueFeatures } from './features.js';

/** The inputs of the plain (and king-mirrored) feature set; a network's own count is networkInputs(net). */
export const NNUE_INPUTS = PLAIN_INPUTS;
/**
 * Whether the engine plays with the shipped network unless told otherwise (UCI UseNNUE, play and
 * bench --eval, the web app's select): true since the residual network of generation 3 passed
 * the self-play SPRT against the classical evaluation at 10+0.1 (docs/nnue.md).
 */
export const NNUE_BY_DEFAULT = true;
export const HEADER_BYTES = 98;
/** The header of a version-3 file (no features field). */
const HEADER_BYTES_V3 = 96;
const MAGIC = [0x4d, 0x43, 0x4e, 0x4e, 0x55, 0x45, 0x00, 0x04];
const DESCRIPTION_BYTES = 60;

/** What the network's output is: the evaluation itself, or a correction added to the classical one. */
export type NnueKind = 'evaluation' | 'residual';
const KINDS: readonly NnueKind[] = ['evaluation', 'residual'];
/** The hidden layer's activation: clamp(x, 0, QA), or its square (then divided by QA). */
export type NnueActivation = 'crelu' | 'screlu';
const ACTIVATIONS: readonly NnueActivation[] = ['crelu', 'screlu'];

export class NnueFileError extends Error {
  override readonly name = 'NnueFileError';
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

export interface NnueNetwork {
  kind: NnueKind;
  activation: NnueActivation;
  features: NnueFeatures;
  hidden: number;
  buckets: number;
  qa: number;
  qb: number;
  scale: number;
  positions: number;
  seed: number;
  epochs: number;
  description: string;
  /** [inputs][hidden], inputs = featureInputs(features) */
  w1: Int16Array;
  b1: Int16Array;
  /** [buckets][2·hidden] */
  w2: Int16Array;
  b2: Int32Array;
  /** [inputs][buckets] */
  psqt: Int32Array;
}

/** The network's inputs (W1 and psqt rows): its feature set's. */
export const networkInputs = (n: Pick<NnueNetwork, 'features'>): number => featureInputs(n.features);

/** Bytes between the header and the checksum of a network with `inputs` rows (featureInputs). */
export function payloadBytes(hidden: number, buckets: number, inputs: number): number {
  return 2 * inputs * hidden + 2 * hidden + 2 * buckets * 2 * hidden + 4 * buckets + 4 * inputs * buckets;
}

/**
 * Throws a RangeError unless every array of `n` has the length its feature set, hidden width and
 * buckets give: a network built in memory (the trainer, a test) is checked before it is written
 * or copied into a kernel, which would otherwise read or write past its matrices.
 */
export function checkNetworkShape(n: NnueNetwork): void {
  const inputs = networkInputs(n),
    H = n.hidden,
    B = n.buckets;
  const want: [string, number, number][] = [
    ['w1', n.w1.length, inputs * H],
    ['b1', n.b1.length, H],
    ['w2', n.w2.length, B * 2 * H],
    ['b2', n.b2.length, B],
    ['psqt', n.psqt.length, inputs * B],
  ];
  for (const [name, have, need] of want)
    if (have !== need)
      throw new RangeError(
        `NNUE network (${n.features}, ${inputs} inputs, ${H} hidden, ${B} buckets): ${name} has ${have} entries, expected ${need}`,
      );
}

/** The largest QA: the clamp's upper bound is an int16 lane of the kernel. */
export const MAX_QA = 32767;

/**
 * Why the kernels could not evaluate `n` exactly, or undefined when they can: the loader refuses
 * such a file, and the trainer never writes one. The bounds (docs/nnue.md, exact integers):
 * - QA ≤ 32767, so the clamp fits an int16 lane;
 * - with the squared activation, QA·max|W2| ≤ 32767, so each clamp·w is exact in an int16 lane;
 *   the kernel then sums clamp·w·clamp in int32 lanes per perspective for at most
 *   squaredChunkNeurons(QA) neurons before widening the partial sums to int64, so nothing else
 *   bounds the squared sum, which is divided by QA before the rest is added;
 * - either way the output sum before scaling, |hidden part| ≤ 2·H·QA·max|W2| plus |b2| plus 32
 *   piece-square rows (a perspective has at most 32 features on), stays below 2^31, and so does
 *   the two perspectives' piece-square difference (64 rows), which the kernel takes in int32.
 */
export function arithmeticProblem(n: Pick<NnueNetwork, 'activation' | 'hidden' | 'qa' | 'w2' | 'b2' | 'psqt'>): string | undefined {
  const { qa, hidden } = n;
  if (qa > MAX_QA) return `QA ${qa} does not fit the kernel's 16-bit lanes (at most ${MAX_QA})`;
  const maxAbs = (a: Int16Array | Int32Array): number => {
    let m = 0;
    for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
    return m;
  };
  const maxW = maxAbs(n.w2),
    maxB = maxAbs(n.b2),
    maxP = maxAbs(n.psqt);
  if (n.activation === 'screlu' && qa * maxW > MAX_QA)
    return `output weights up to ${maxW} times QA ${qa} overflow the 16-bit products of the squared activation`;
  // The squared sum divided by QA has the clipped one's bound: 2H·QA²·|w| / QA.
  const hiddenBound = 2 * hidden * qa * maxW;
  if (hiddenBound + maxB + 32 * maxP >= 2 ** 31 || 64 * maxP >= 2 ** 31)
    return `output weights up to ${maxW} (piece-square up to ${maxP}) could overflow the 32-bit output sum`;
  return undefined;
}

/**
 * How many neurons of one perspective the kernel's squared activation sums in int32 lanes before
 * widening them to int64: each lane adds two products clamp·w·clamp a block of 8 neurons, each at
 * most 32767·QA in size (clamp·w fits int16, arithmeticProblem), so C blocks stay below 2^31 while
 * C·2·32767·QA < 2^31 (QA 255: 128 blocks, 1024 neurons, so at 256 and 512 neurons one widening
 * at the end; QA 32767: one block).
 */
export function squaredChunkNeurons(qa: number): number {
  return 8 * Math.floor((2 ** 31 - 1) / (2 * MAX_QA * qa));
}

export function encodeNetwork(n: NnueNetwork): Uint8Array {
  checkNetworkShape(n);
  const inputs = networkInputs(n);
  const size = HEADER_BYTES + payloadBytes(n.hidden, n.buckets, inputs) + 4;
  const buf = new Uint8Array(size);
  const v = new DataView(buf.buffer);
  buf.set(MAGIC, 0);
  v.setUint16(8, inputs, true);
  v.setUint16(10, n.hidden, true);
  v.setUint16(12, n.buckets, true);
  v.setUint16(14, n.qa, true);
  v.setUint16(16, n.qb, true);
  v.setUint16(18, n.scale, true);
  v.setUint32(20, n.positions >>> 0, true);
  v.setUint32(24, n.seed >>> 0, true);
  v.setUint32(28, n.epochs >>> 0, true);
  const desc = n.description.replace(/[^\x20-\x7e]/g, '?').slice(0, DESCRIPTION_BYTES);
  for (let i = 0; i < desc.length; i++) buf[32 + i] = desc.charCodeAt(i);
  v.setUint16(32 + DESCRIPTION_BYTES, KINDS.indexOf(n.kind), true);
  v.setUint16(34 + DESCRIPTION_BYTES, ACTIVATIONS.indexOf(n.activation), true);
  v.setUint16(96, NNUE_FEATURE_SETS.indexOf(n.features), true);
  let o = HEADER_BYTES;
  for (const arr of [n.w1, n.b1, n.w2]) for (let i = 0; i < arr.length; i++, o += 2) v.setInt16(o, arr[i], true);
  for (let i = 0; i < n.b2.length; i++, o += 4) v.setInt32(o, n.b2[i], true);
  for (let i = 0; i < n.psqt.length; i++, o += 4) v.setInt32(o, n.psqt[i], true);
  v.setUint32(o, crc32(buf.subarray(0, o)), true);
  return buf;
}

/** Decodes a network file; every problem is an NnueFileError naming `file`. */
export function decodeNetwork(buf: Uint8Array, file = 'network'): NnueNetwork {
  if (buf.length < HEADER_BYTES_V3 + 4)
    throw new NnueFileError(file, `truncated: ${buf.length} bytes, a network file has at least ${HEADER_BYTES_V3 + 4}`);
  for (let i = 0; i < 7; i++) if (buf[i] !== MAGIC[i]) throw new NnueFileError(file, 'not a Matrix Chess network file (bad magic)');
  const version = buf[7];
  if (version !== 3 && version !== 4) throw new NnueFileError(file, `format version ${version}, expected 3 or 4`);
  const header = version === 3 ? HEADER_BYTES_V3 : HEADER_BYTES;
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const inputs = v.getUint16(8, true),
    hidden = v.getUint16(10, true),
    buckets = v.getUint16(12, true);
  // The feature set decides the inputs, and so the payload's size: it is read first.
  const featureCode = version === 3 ? 0 : v.getUint16(96, true),
    features = NNUE_FEATURE_SETS[featureCode];
  if (features === undefined)
    throw new NnueFileError(file, `feature set ${featureCode}, expected 0 (plain), 1 (king-mirrored) or 2 (king-buckets)`);
  const expectedInputs = featureInputs(features);
  if (inputs !== expectedInputs)
    throw new NnueFileError(file, `inputs field ${inputs}, the ${features} feature set has ${expectedInputs} inputs`);
  if (hidden === 0 || hidden % 16 !== 0 || hidden > 4096)
    throw new NnueFileError(file, `hidden width ${hidden}, expected a multiple of 16 up to 4096`);
  if (buckets === 0 || buckets > 32) throw new NnueFileError(file, `${buckets} output buckets, expected 1 to 32`);
  const size = header + payloadBytes(hidden, buckets, inputs) + 4;
  if (buf.length !== size)
    throw new NnueFileError(
      file,
      `${buf.length} bytes, the header's architecture (${inputs} inputs, ${hidden} hidden, ${buckets} buckets) needs ${size}${buf.length < size ? ' (truncated)' : ''}`,
    );
  const stored = v.getUint32(size - 4, true),
    actual = crc32(buf.subarray(0, size - 4));
  if (stored !== actual)
    throw new NnueFileError(
      file,
      `checksum mismatch (stored ${stored.toString(16)}, computed ${actual.toString(16)}): the file is corrupt`,
    );
  const qa = v.getUint16(14, true),
    qb = v.getUint16(16, true),
    scale = v.getUint16(18, true);
  if (qa === 0 || qb === 0 || scale === 0) throw new NnueFileError(file, 'QA, QB and SCALE must be non-zero');
  const kind = KINDS[v.getUint16(32 + DESCRIPTION_BYTES, true)];
  if (kind === undefined)
    throw new NnueFileError(file, `network kind ${v.getUint16(32 + DESCRIPTION_BYTES, true)}, expected 0 (evaluation) or 1 (residual)`);
  const activation = ACTIVATIONS[v.getUint16(34 + DESCRIPTION_BYTES, true)];
  if (activation === undefined)
    throw new NnueFileError(
      file,
      `activation ${v.getUint16(34 + DESCRIPTION_BYTES, true)}, expected 0 (clipped ReLU) or 1 (squared clipped ReLU)`,
    );
  let description = '';
  for (let i = 32; i < 32 + DESCRIPTION_BYTES && buf[i] !== 0; i++) description += String.fromCharCode(buf[i]);
  let o = header;
  const i16 = (n: number): Int16Array => {
    const a = new Int16Array(n);
    for (let i = 0; i < n; i++, o += 2) a[i] = v.getInt16(o, true);
    return a;
  };
  const w1 = i16(inputs * hidden),
    b1 = i16(hidden),
    w2 = i16(buckets * 2 * hidden);
  const b2 = new Int32Array(buckets);
  for (let i = 0; i < buckets; i++, o += 4) b2[i] = v.getInt32(o, true);
  const psqt = new Int32Array(inputs * buckets);
  for (let i = 0; i < psqt.length; i++, o += 4) psqt[i] = v.getInt32(o, true);
  const problem = arithmeticProblem({ activation, hidden, qa, w2, b2, psqt });
  if (problem !== undefined) throw new NnueFileError(file, problem);
  return {
    kind,
    activation,
    features,
    hidden,
    buckets,
    qa,
    qb,
    scale,
    description,
    w1,
    b1,
    w2,
    b2,
    psqt,
    positions: v.getUint32(20, true),
    seed: v.getUint32(24, true),
    epochs: v.getUint32(28, true),
  };
}
