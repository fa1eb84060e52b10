// The engine: search a position to a fixed depth and print the best line.
import { Position, moveToUci } from 'matrix-chess/core';
import { Engine } from 'matrix-chess/engine';

const engine = new Engine({ hashMb: 16 });
// The back rank is weak: White mates in one.
const position = Position.fromFen('6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1');
const result = engine.search(position, { depth: 6 });
console.log(`bestmove ${moveToUci(result.bestMove)}`);
console.log(`score ${'mate' in result.score ? `mate ${result.score.mate}` : `cp ${result.score.cp}`}`);
console.log(`pv ${result.pv.map((m) => moveToUci(m)).join(' ')}`);
