/**
 * The `--eval nnue|classical` and `--evalfile FILE` flags of play and bench: which evaluation the
 * engine uses, and which network file when it is the network.
 */
import { UsageError } from '../cmdline/errors.js';
import { NNUE_BY_DEFAULT } from '../engine/nnue/network.js';
import { loadNnue } from '../engine/nnue/load-node.js';
import type { NnueEvaluator } from '../engine/nnue/evaluator.js';

export type EvalChoice = 'nnue' | 'classical';

export const DEFAULT_EVAL: EvalChoice = NNUE_BY_DEFAULT ? 'nnue' : 'classical';

export function parseEvalChoice(command: string, value: string | undefined, extra: string[] = []): string {
  const v = value ?? DEFAULT_EVAL;
  const allowed = ['nnue', 'classical', ...extra];
  if (!allowed.includes(v)) throw new UsageError(`${command} --eval: expected ${allowed.join(', ')}, got '${v}'`);
  return v;
}

/** `--evalfile` belongs to the network: refused with the classical evaluation, where it would be ignored. */
export function checkEvalFile(command: string, choice: string, file: string | undefined): void {
  if (file !== undefined && choice === 'classical')
    throw new UsageError(`${command} --evalfile: a network file needs --eval nnue${command === 'bench' ? ' or both' : ''}, not classical`);
}

/**
 * The evaluator for a choice: the network in `file` (default the shipped one; a bad or missing
 * file throws NnueFileError naming it), or null for the classical evaluation.
 */
export function evaluatorFor(choice: string, file?: string): NnueEvaluator | null {
  return choice === 'nnue' ? loadNnue(file) : null;
}
