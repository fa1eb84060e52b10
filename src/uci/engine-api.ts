/**
 * The playing engine as the interfaces see it: the engine's own types, re-exported so the CLI
 * and the UCI loop name one vocabulary.
 */
export { Engine, evaluate } from '../engine/index.js';
export type { Score, SearchHooks, SearchInfo, SearchLimits, SearchResult } from '../engine/types.js';
