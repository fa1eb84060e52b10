// The engine on another thread: createEngine runs it in a worker thread (matrix-chess/node; in a
// browser the same API comes from 'matrix-chess' and runs a Web Worker). Your thread never blocks.
import { createEngine } from 'matrix-chess/node';

const engine = await createEngine();

// The two best lines to depth 6: White mates in one on the back rank.
const analysis = await engine.analyse('6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1', { depth: 6, multiPv: 2 });
console.log(`bestmove ${analysis.bestmove}`);
console.log(`lines: ${analysis.lines.length}`);
const [best] = analysis.lines;
console.log(`line 1: ${'mate' in best.score ? `mate ${best.score.mate}` : `cp ${best.score.cp}`} ${best.pv.join(' ')}`);

// An analysis without a limit, stopped by its AbortSignal once depth 8 has been reported.
const controller = new AbortController();
const stopped = await engine.analyse('startpos', {
  infinite: true,
  signal: controller.signal,
  onInfo: (line) => line.depth >= 8 && controller.abort(),
});
console.log(`stopped: ${stopped.stopped} at depth ${stopped.lines[0].depth >= 8 ? '8 or more' : stopped.lines[0].depth}`);

await engine.quit();
