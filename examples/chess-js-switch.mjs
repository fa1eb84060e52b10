// Code written for chess.js runs on Matrix Chess by changing the import line:
//   import { Chess } from 'chess.js';  ->  import { Chess } from 'matrix-chess';
import { Chess } from 'matrix-chess';

const chess = new Chess();
for (const san of ['f3', 'e5', 'g4']) chess.move(san);

// Verbose moves carry chess.js's fields and helpers.
const mate = chess.moves({ verbose: true }).find((m) => m.san === 'Qh4#');
console.log(`${mate.piece} ${mate.from}-${mate.to} ${mate.san} capture: ${mate.isCapture()}`);

chess.move('Qh4#');
console.log(`checkmate: ${chess.isCheckmate()} game over: ${chess.isGameOver()}`);
console.log(chess.fen());
