/** Worker thread for self-play: plays the games it is sent, one at a time, and returns them. */
import { parentPort } from 'node:worker_threads';
import { playSelfplayGame, selfplayEngine, type SelfplayGameSpec } from './game.js';

if (!parentPort) throw new Error('selfplay/worker.js must run as a worker thread');
const port = parentPort;
import { loadNnue } from '../../engine/nnue/load.js';

const engine = selfplayEngine();
let evalFile = '';
port.on('message', (spec: SelfplayGameSpec) => {
  if ((spec.nnueFile ?? '') !== evalFile) {
    evalFile = spec.nnueFile ?? '';
    engine.setEvaluator(evalFile === '' ? null : loadNnue(evalFile));
  }
  port.postMessage(playSelfplayGame(engine, spec));
});
