/** Worker thread for self-play (run.ts): plays the games it is sent, one at a time, and returns them. */
import { serveTasks } from '../../node/worker-pool.js';
import { loadNnue } from '../../engine/nnue/load-node.js';
import { playSelfplayGame, selfplayEngine, type SelfplayGame, type SelfplayGameSpec } from './game.js';

const engine = selfplayEngine();
let evalFile = '';
serveTasks<SelfplayGameSpec, SelfplayGame>((spec) => {
  if ((spec.nnueFile ?? '') !== evalFile) {
    evalFile = spec.nnueFile ?? '';
    engine.setEvaluator(evalFile === '' ? null : loadNnue(evalFile));
  }
  return playSelfplayGame(engine, spec);
});
