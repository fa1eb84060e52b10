/**
 * The "see inside: neural network" panel for a selected rook, bishop or queen, using src/bnn:
 * the 16-bit input gathered from the occupancy (gatherInput), then for every target square its
 * 16x32x1 network's 32 byte-neurons (fires when popcount(input byte XOR weight byte) < 4) and
 * the output (fires when more than 16 neurons fire), checked against infer16 and the ray walk;
 * beside it the same target's small 16x8x1 network: 8 neurons on the target's own line byte,
 * firing when more than its own T fire, checked against infer8.
 */
import type { Position } from '../src/core/position.js';
import { BISHOP, QUEEN, ROOK, squareName } from '../src/core/types.js';
import { rayWalkAttacks } from '../src/core/slider-attacks.js';
import { SQUARE_LAYOUTS, gatherInput, scatterOutput, type SquareLayout } from '../src/bnn/layout.js';
import { LAYOUT_16, LAYOUT_8, NEURON_THRESHOLD, OUTPUT_THRESHOLD, POPCOUNT8, networkOffset, thresholdOffset } from '../src/bnn/network.js';
import { infer16, infer8 } from '../src/bnn/infer.js';
import { el } from './grid.js';

export interface NetworkTrace {
  target: number;
  bit: number;
  neurons: boolean[];
  fired: number;
  /** The output threshold: fires when more than this many neurons fire. */
  threshold: number;
  output: boolean;
}

/** A square's 16x8x1 networks, neuron by neuron. */
export interface SmallTrace {
  networks: NetworkTrace[];
  /** infer8 gives the same output word and the ray walk the same attack set. */
  agreesInfer: boolean;
  agreesRays: boolean;
}

export interface SliderTrace {
  piece: 0 | 1;
  layout: SquareLayout;
  input: number;
  networks: NetworkTrace[];
  /** Attack set from the network outputs (lo, hi). */
  attacks: [number, number];
  /** infer16 gives the same output word and the ray walk the same attack set. */
  agreesInfer: boolean;
  agreesRays: boolean;
}

/** Runs the networks of one slider (bnn piece 0 rook, 1 bishop) neuron by neuron. */
export function traceSlider(weights: Uint8Array, piece: 0 | 1, sq: number, occLo: number, occHi: number): SliderTrace {
  const lay = SQUARE_LAYOUTS[piece][sq];
  const input = gatherInput(lay, occLo, occHi);
  const bytes = [input & 0xff, (input >>> 8) & 0xff];
  let word = 0;
  const networks = lay.targets.map((t, ti) => {
    const off = networkOffset(LAYOUT_16, piece, sq, ti);
    const neurons: boolean[] = [];
    let fired = 0;
    for (let i = 0; i < LAYOUT_16.neurons; i++) {
      const on = POPCOUNT8[bytes[i % LAYOUT_16.groups] ^ weights[off + i]] < NEURON_THRESHOLD;
      neurons.push(on);
      if (on) fired++;
    }
    const output = fired > OUTPUT_THRESHOLD;
    if (output) word |= 1 << t.bit;
    return { target: t.square, bit: t.bit, neurons, fired, threshold: OUTPUT_THRESHOLD, output };
  });
  const out = new Int32Array(2);
  scatterOutput(lay, word, out);
  const ref = new Int32Array(2);
  (piece === 0 ? rayWalkAttacks.rook : rayWalkAttacks.bishop)(sq, occLo, occHi, ref);
  return {
    piece,
    layout: lay,
    input,
    networks,
    attacks: [out[0], out[1]],
    agreesInfer: infer16(lay, weights, input) === word,
    agreesRays: ref[0] === out[0] && ref[1] === out[1],
  };
}

/** Runs the 16x8x1 networks of one slider: 8 neurons on each target's own line byte, its own T. */
export function traceSmall(weights8: Uint8Array, piece: 0 | 1, sq: number, occLo: number, occHi: number): SmallTrace {
  const lay = SQUARE_LAYOUTS[piece][sq];
  const input = gatherInput(lay, occLo, occHi);
  let word = 0;
  const networks = lay.targets.map((t, ti) => {
    const byte = t.bit < 8 ? input & 0xff : (input >>> 8) & 0xff;
    const off = networkOffset(LAYOUT_8, piece, sq, ti);
    const threshold = weights8[thresholdOffset(LAYOUT_8, piece, sq, ti)];
    const neurons: boolean[] = [];
    let fired = 0;
    for (let i = 0; i < LAYOUT_8.neurons; i++) {
      const on = POPCOUNT8[byte ^ weights8[off + i]] < NEURON_THRESHOLD;
      neurons.push(on);
      if (on) fired++;
    }
    const output = fired > threshold;
    if (output) word |= 1 << t.bit;
    return { target: t.square, bit: t.bit, neurons, fired, threshold, output };
  });
  const out = new Int32Array(2),
    ref = new Int32Array(2);
  scatterOutput(lay, word, out);
  (piece === 0 ? rayWalkAttacks.rook : rayWalkAttacks.bishop)(sq, occLo, occHi, ref);
  return { networks, agreesInfer: infer8(lay, weights8, input) === word, agreesRays: ref[0] === out[0] && ref[1] === out[1] };
}

/** The 16x8x1 table: one row per target, its 8 neurons, how many fired, T and the output. */
function renderSmall(tr: SmallTrace): HTMLElement {
  const nets = el('table', { class: 'neurons', 'data-testid': 'bnn-small-neurons' });
  nets.append(
    el(
      'tr',
      {},
      el('th', {}, 'target'),
      el('th', {}, `16x8x1: 8 neurons on the target's own line byte`),
      el('th', {}, 'fired'),
      el('th', {}, 'T'),
      el('th', {}, 'out (> T)'),
    ),
  );
  for (const n of tr.networks) {
    const cells = el('td', { class: 'nrow' });
    const line = n.bit < 8 ? 'A' : 'B';
    n.neurons.forEach((on, i) => cells.append(el('span', { class: on ? 'n on' : 'n', title: `neuron ${i} reads byte ${line}` })));
    nets.append(
      el(
        'tr',
        { class: n.output ? 'fires' : '' },
        el('td', {}, squareName(n.target)),
        cells,
        el('td', {}, String(n.fired)),
        el('td', {}, String(n.threshold)),
        el('td', { class: n.output ? 'yes' : 'no' }, n.output ? 'attacked' : '—'),
      ),
    );
  }
  const ok = tr.agreesInfer && tr.agreesRays;
  return el(
    'div',
    { class: 'bnn-small' },
    nets,
    el(
      'p',
      { class: ok ? 'ok' : 'bad', 'data-testid': 'bnn-small-check' },
      `${tr.agreesInfer ? '✓' : '✗'} same output word as infer8; ${tr.agreesRays ? '✓' : '✗'} same attack set as the ray walk.`,
    ),
  );
}

/** Squares whose occupancy bit feeds input bit b (line A bits 0..7, line B 8..15). */
function inputBitSquare(lay: SquareLayout, b: number): number {
  const t = new Int32Array(2);
  scatterOutput(lay, 1 << b, t);
  for (let s = 0; s < 64; s++) if (s < 32 ? (t[0] >>> s) & 1 : (t[1] >>> (s - 32)) & 1) return s;
  return -1;
}

function renderTrace(tr: SliderTrace, label: string): HTMLElement {
  const lay = tr.layout;
  const box = el('div', { class: 'bnn-trace' });
  const lines = tr.piece === 0 ? ['rank', 'file'] : ['diagonal', 'anti-diagonal'];
  const input = el('table', { class: 'bits', 'data-testid': 'bnn-input' });
  for (let li = 0; li < 2; li++) {
    const row = el('tr', {}, el('th', {}, `line ${li ? 'B' : 'A'} (${lines[li]})`));
    for (let k = 0; k < 8; k++) {
      const b = li * 8 + k;
      const relevant = ((lay.inputMask >>> b) & 1) !== 0;
      const v = (tr.input >>> b) & 1;
      const s = inputBitSquare(lay, b);
      row.append(
        el(
          'td',
          {
            class: relevant ? (v ? 'one' : 'zero') : 'unused',
            title: relevant && s >= 0 ? `bit ${b}: ${squareName(s)}` : `bit ${b}: not an input`,
          },
          relevant ? String(v) : '–',
        ),
      );
    }
    input.append(row);
  }
  box.append(
    el('div', { class: 'bnn-head' }, `${label}: input = gathered occupancy (16 bits, two bytes; edge squares are not inputs)`),
    input,
  );
  const nets = el('table', { class: 'neurons', 'data-testid': 'bnn-neurons' });
  nets.append(
    el(
      'tr',
      {},
      el('th', {}, 'target'),
      el('th', {}, `32 hidden neurons (fire: popcount(byte ⊕ w) < ${NEURON_THRESHOLD})`),
      el('th', {}, 'fired'),
      el('th', {}, `out (> ${OUTPUT_THRESHOLD})`),
    ),
  );
  for (const n of tr.networks) {
    const cells = el('td', { class: 'nrow' });
    n.neurons.forEach((on, i) =>
      cells.append(el('span', { class: on ? 'n on' : 'n', title: `neuron ${i} reads byte ${i % 2 ? 'B' : 'A'}` })),
    );
    nets.append(
      el(
        'tr',
        { class: n.output ? 'fires' : '' },
        el('td', {}, squareName(n.target)),
        cells,
        el('td', {}, String(n.fired)),
        el('td', { class: n.output ? 'yes' : 'no' }, n.output ? 'attacked' : '—'),
      ),
    );
  }
  box.append(nets);
  return box;
}

/** The small networks' weights (16x8x1 payload), or why there are none. */
export interface SmallWeights {
  weights: Uint8Array | null;
  error: string | null;
}

/** The panel for the piece on `sq`, or a reason why there is none. */
export function renderBnnPanel(
  pos: Position,
  sq: number,
  weights: Uint8Array | null,
  weightsError: string | null,
  small: SmallWeights = { weights: null, error: 'the 16x8x1 weights are not loaded' },
): { element: HTMLElement; attacks: number[] | null } {
  const box = el('div', { class: 'panel-body', 'data-testid': 'bnn-panel' });
  const piece = pos.board[sq],
    type = piece & 7;
  if (!piece || (type !== ROOK && type !== BISHOP && type !== QUEEN)) {
    box.append(el('p', { class: 'hint' }, 'Select a rook, bishop or queen to see its networks.'));
    return { element: box, attacks: null };
  }
  if (!weights) {
    box.append(el('p', { class: 'bad' }, weightsError ?? 'BNN weights are not loaded.'));
    return { element: box, attacks: null };
  }
  const occLo = pos.colorLo[0] | pos.colorLo[1],
    occHi = pos.colorHi[0] | pos.colorHi[1];
  const pieces: Array<0 | 1> = type === ROOK ? [0] : type === BISHOP ? [1] : [0, 1];
  let lo = 0,
    hi = 0,
    okInfer = true,
    okRays = true;
  box.append(
    el(
      'p',
      { class: 'formula' },
      `${type === QUEEN ? 'Queen' : type === ROOK ? 'Rook' : 'Bishop'} on ${squareName(sq)}: one 16x32x1 binary network per target square (the seed's), and below it the same target's small 16x8x1 network (src/bnn, TypeScript reference inference).`,
    ),
  );
  for (const p of pieces) {
    const tr = traceSlider(weights, p, sq, occLo, occHi);
    lo |= tr.attacks[0];
    hi |= tr.attacks[1];
    okInfer &&= tr.agreesInfer;
    okRays &&= tr.agreesRays;
    const trace = renderTrace(tr, p === 0 ? 'rook networks' : 'bishop networks');
    trace.append(
      small.weights
        ? renderSmall(traceSmall(small.weights, p, sq, occLo, occHi))
        : el('p', { class: 'hint' }, `16x8x1: ${small.error ?? 'not loaded'}`),
    );
    box.append(trace);
  }
  const attacks: number[] = [];
  for (let s = 0; s < 64; s++) if (s < 32 ? (lo >>> s) & 1 : (hi >>> (s - 32)) & 1) attacks.push(s);
  box.append(
    el(
      'p',
      { class: 'bnn-result', 'data-testid': 'bnn-attacks' },
      `Attack set (highlighted on the board): ${attacks.map(squareName).join(' ') || 'none'}`,
    ),
  );
  box.append(
    el(
      'p',
      { class: okInfer && okRays ? 'ok' : 'bad' },
      `${okInfer ? '✓' : '✗'} same output word as infer16; ${okRays ? '✓' : '✗'} same attack set as the reference ray walk.`,
    ),
  );
  return { element: box, attacks };
}
