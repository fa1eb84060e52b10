/**
 * SPSA (simultaneous perturbation stochastic approximation, Spall 1992) over search parameters,
 * in the form engine testing frameworks use: each iteration perturbs every parameter at once by
 * ±c_k, plays one colour-reversed game pair between θ + c_k·Δ and θ − c_k·Δ, and moves θ along Δ by
 * the pair's result. One pair's result is a very noisy gradient sign; thousands of pairs average it.
 *
 * Gains follow Spall's schedule with the customary exponents (α 0.602, γ 0.101, A = N/10), set so
 * that at the last iteration the perturbation is `cEnd` and the step per point of result is
 * `rEnd · cEnd` (a_k = r_k · c_k², step = a_k · result / c_k). Everything here is pure: the state is
 * plain JSON, and Δ for iteration k comes from the seed and k alone, so a run resumes exactly.
 */
import { mix32 } from '../../core/rng.js';

export const SPSA_ALPHA = 0.602;
export const SPSA_GAMMA = 0.101;

export interface SpsaParam {
  name: string;
  /** Where the run starts (the engine's current value by default). */
  start: number;
  min: number;
  max: number;
  /** Perturbation at the last iteration, in the parameter's units. */
  cEnd: number;
  /** Learning rate at the last iteration (OpenBench's R_end; 0.002 by default). */
  rEnd: number;
}

export interface SpsaState {
  /** Iterations (game pairs) done. */
  k: number;
  /** The current estimate, unrounded, by parameter (the order of `params`). */
  theta: number[];
  /** Sum over iterations of the plus side's points minus 1 (−1, −½, 0, ½, 1 per pair): a drift check. */
  pointsSum: number;
}

export function initialState(params: readonly SpsaParam[]): SpsaState {
  return { k: 0, theta: params.map((p) => p.start), pointsSum: 0 };
}

/** c_k and a_k of iteration k (0-based) of an N-iteration run. */
export function spsaGains(p: SpsaParam, k: number, iterations: number): { c: number; a: number } {
  const A = 0.1 * iterations;
  const c0 = p.cEnd * Math.pow(iterations, SPSA_GAMMA);
  const a0 = p.rEnd * p.cEnd * p.cEnd * Math.pow(A + iterations, SPSA_ALPHA);
  return { c: c0 / Math.pow(k + 1, SPSA_GAMMA), a: a0 / Math.pow(A + k + 1, SPSA_ALPHA) };
}

/** Δ_i ∈ {+1, −1} of parameter i at iteration k: a hash of the seed, k and i. */
export function spsaDelta(seed: number, k: number, i: number): 1 | -1 {
  return (mix32(mix32(seed ^ 0x5b5a) + mix32(k) * 31 + i) & 1) === 0 ? 1 : -1;
}

const clamp = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);

/** The two integer parameter sets iteration k plays: θ ± c_k·Δ, rounded and kept in range. */
export function spsaPoint(
  params: readonly SpsaParam[],
  state: SpsaState,
  seed: number,
  iterations: number,
): { plus: Record<string, number>; minus: Record<string, number> } {
  const plus: Record<string, number> = {},
    minus: Record<string, number> = {};
  params.forEach((p, i) => {
    const { c } = spsaGains(p, state.k, iterations);
    const d = spsaDelta(seed, state.k, i) * c;
    plus[p.name] = Math.round(clamp(state.theta[i] + d, p.min, p.max));
    minus[p.name] = Math.round(clamp(state.theta[i] - d, p.min, p.max));
  });
  return { plus, minus };
}

/**
 * Applies the result of iteration state.k: `plusPoints` is what θ + c_k·Δ scored in its pair
 * (0 … 2). Returns the next state; the input is left as it was.
 */
export function spsaUpdate(
  params: readonly SpsaParam[],
  state: SpsaState,
  seed: number,
  iterations: number,
  plusPoints: number,
): SpsaState {
  const result = plusPoints - 1; // wins minus losses over the pair, halved: −1 … +1
  const theta = params.map((p, i) => {
    const { c, a } = spsaGains(p, state.k, iterations);
    return clamp(state.theta[i] + ((a * 2 * result) / c) * spsaDelta(seed, state.k, i), p.min, p.max);
  });
  return { k: state.k + 1, theta, pointsSum: state.pointsSum + result };
}
