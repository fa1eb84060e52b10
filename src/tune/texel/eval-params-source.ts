/**
 * The evaluation's weights as data, and the writer of src/engine/eval-params.ts (the module the
 * engine reads them from). `currentEvalParams` reads the live tables; `formatEvalParams` turns
 * values back into that module's source, so export followed by import is the identity.
 */
import { EVAL_WEIGHTS, T, TERM_COUNT } from '../../engine/evaluate.js';
import { MATERIAL_EG, MATERIAL_MG, PST_EG, PST_MG, setMaterialPst } from '../../engine/pst.js';

export interface EvalParamValues {
  /** By piece type (-, P, B, N, R, Q, K). */
  materialMg: number[];
  materialEg: number[];
  /** Piece-square bonuses, [type * 64 + sq], a1 = 0, White's view. */
  pstMg: number[];
  pstEg: number[];
  /** [mg, eg] per evaluation term: index 2 * term, 2 * term + 1. */
  terms: number[];
}

export function currentEvalParams(): EvalParamValues {
  return {
    materialMg: Array.from(MATERIAL_MG),
    materialEg: Array.from(MATERIAL_EG),
    pstMg: Array.from(PST_MG),
    pstEg: Array.from(PST_EG),
    terms: Array.from(EVAL_WEIGHTS),
  };
}

/**
 * Copies values into the live tables the evaluation reads, so two weight sets can play each other
 * in one process (bench/engine-selfplay.ts) without a rebuild.
 */
export function applyEvalParams(p: EvalParamValues): void {
  setMaterialPst(p.materialMg, p.materialEg, p.pstMg, p.pstEg);
  EVAL_WEIGHTS.set(p.terms);
}

/** Reads values written by `tune fit --json` / `tune export --json`, checking every array's length. */
export function parseEvalParamsJson(text: string, source: string): EvalParamValues {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new Error(`${source}: not JSON (${(e as Error).message})`);
  }
  const o = v as Record<string, unknown>;
  const want: Record<keyof EvalParamValues, number> = { materialMg: 7, materialEg: 7, pstMg: 7 * 64, pstEg: 7 * 64, terms: 2 * TERM_COUNT };
  for (const [k, n] of Object.entries(want)) {
    const a = o?.[k];
    if (!Array.isArray(a) || a.length !== n || !a.every((x) => Number.isInteger(x)))
      throw new Error(`${source}: field '${k}' must be ${n} integers`);
  }
  return o as unknown as EvalParamValues;
}

const TYPE_NAMES = ['', 'pawn', 'bishop', 'knight', 'rook', 'queen', 'king'];

/** "PASSED+3" style label for term index i. */
export function termLabel(i: number): string {
  let best = '',
    base = -1;
  for (const [name, idx] of Object.entries(T))
    if (idx <= i && idx > base) {
      best = name;
      base = idx;
    }
  const next = Math.min(...Object.values(T).filter((v) => v > base), TERM_COUNT);
  return next - base > 1 ? `${best}+${i - base}` : best;
}

function pad(n: number): string {
  return String(n).padStart(4);
}

function diagrams(name: string, pst: number[], what: string): string {
  const lines = [
    `/** ${what}: one board diagram per piece type (rank 8 first, file a left, White's view). */`,
    `export const ${name}: readonly (readonly number[])[] = [`,
    '  [],',
  ];
  for (let t = 1; t <= 6; t++) {
    lines.push(`  [ // ${TYPE_NAMES[t]}`);
    for (let row = 7; row >= 0; row--) {
      const cells: string[] = [];
      for (let file = 0; file < 8; file++) cells.push(pad(pst[t * 64 + row * 8 + file]));
      lines.push(`  ${cells.join(',')},`);
    }
    lines.push('  ],');
  }
  lines.push('];');
  return lines.join('\n');
}

export function formatEvalParams(p: EvalParamValues, provenance: string[]): string {
  const head = [
    '/**',
    " * The evaluation's weights, read by src/engine/pst.ts and src/engine/evaluate.ts.",
    ' * Written by `matrix-chess tune` (src/tune/): do not edit by hand, re-run the tuner (docs/strength.md).',
    ...provenance.map((l) => ` * ${l}`),
    ' */',
    '',
    '/** Piece values by type (-, P, B, N, R, Q, K). */',
    `export const MATERIAL_MG_VALUES: readonly number[] = [${p.materialMg.join(', ')}];`,
    `export const MATERIAL_EG_VALUES: readonly number[] = [${p.materialEg.join(', ')}];`,
    '',
    diagrams('PST_MG_DIAGRAMS', p.pstMg, 'Middlegame piece-square bonuses'),
    '',
    diagrams('PST_EG_DIAGRAMS', p.pstEg, 'Endgame piece-square bonuses'),
    '',
    '/** Evaluation terms (T in evaluate.ts): middlegame, endgame weight per term. */',
    'export const TERM_WEIGHTS: readonly number[] = [',
  ];
  for (let i = 0; i < TERM_COUNT; i++) head.push(`  ${pad(p.terms[2 * i])}, ${pad(p.terms[2 * i + 1])}, // ${termLabel(i)}`);
  head.push('];', '');
  return head.join('\n');
}
