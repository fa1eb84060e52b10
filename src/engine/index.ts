/** The playing engine's public API: search, evaluation, bench. */
export type { EngineOptions, Score, SearchHooks, SearchInfo, SearchLimits, SearchResult } from './types.js';
export { Engine } from './engine.js';
export { SearchLimitError, EngineOptionError, validateSearchLimits, MAX_SEARCH_DEPTH, MAX_HASH_MB, type LimitContext } from './limits.js';
export { MATE, MATE_BOUND, toUciScore } from './score.js';
export { SearchParams, SEARCH_PARAM_RANGES } from './search-params.js';
export { STRENGTH_ANCHORS, STRENGTH_ELO_MAX, STRENGTH_ELO_MIN, StrengthError, chooseLine, strengthLevel } from './strength.js';
export type { CandidateLine, StrengthLevel } from './strength.js';
export type { SearchParamName, NumericSearchParam } from './search-params.js';
export { evaluate, evaluateFeatures, EVAL_WEIGHTS, T as EVAL_TERMS, TERM_COUNT } from './evaluate.js';
export { insufficientMaterial } from './endgame.js';
export {
  evaluateMaterialPst,
  gamePhase,
  taper,
  materialPstTerms,
  MG_TABLE,
  EG_TABLE,
  PST_MG,
  PST_EG,
  MATERIAL_MG,
  MATERIAL_EG,
  PHASE_MAX,
  PHASE_WEIGHT,
} from './pst.js';
export { seeGe, SEE_VALUE } from './see.js';
export { TranspositionTable } from './tt.js';
export {
  computeTimeBudget,
  computeClockBudget,
  softLimitScale,
  type TimeBudget,
  type ClockParams,
  type IterationTimeInfo,
} from './timeman.js';
export { runBench, BENCH_FENS, BENCH_DEPTH } from './bench.js';
// The learned evaluation: nnueFromBytes(bytes) anywhere (Node's loadNnue, matrix-chess/node, reads the file for you).
export { nnueFromBytes, type NnueBytesOptions } from './nnue/from-bytes.js';
export { NnueEvaluator, describeNnue } from './nnue/evaluator.js';
export { NnueFileError, decodeNetwork, encodeNetwork } from './nnue/network.js';
export type { NnueNetwork, NnueKind, NnueActivation } from './nnue/network.js';
export type { NnueFeatures } from './nnue/features.js';
export type { NnueKernel } from './nnue/kernel.js';
export type { SpawnHelper, HelperThread, ToHelper, HelperConfig, HelperNnue } from './smp.js';
