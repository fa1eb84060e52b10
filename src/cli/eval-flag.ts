/** The `--eval nnue|classical` flag of play and bench: which evaluation the engine uses. */
import { UsageError } from '../cmdline/errors.js';
import { NNUE_BY_DEFAULT } from '../engine/nnue/network.js';
import { loadNnue } from '../engine/nnue/load.js';
import type { NnueEvaluator } from '../engine/nnue/evaluator.js';

export type EvalChoice = 'nnue' | 'classical';

export const DEFAULT_EVAL: EvalChoice = NNUE_BY_DEFAULT ? 'nnue' : 'classical';

export function parseEvalChoice(command: string, value: string | undefined, extra: string[] = []): string {
  const v = value ?? DEFAULT_EVAL;
  const allowed = ['nnue', 'classical', ...extra];
  if (!allowed.includes(v)) throw new UsageError(`${command} --eval: expected ${allowed.join(', ')}, got '${v}'`);
  return v;
}

/** The evaluator for a choice: the shipped network (a bad or missing file throws NnueFileError naming it), or null. */
export function evaluatorFor(choice: string): NnueEvaluator | null {
  return choice === 'nnue' ? loadNnue() : null;
}
