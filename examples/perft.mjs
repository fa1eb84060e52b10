// The core: positions, legal moves and perft on bitboards (no engine, no Node built-ins).
import { Position, legalMoveList, moveToSan, perft } from 'matrix-chess/core';

const kiwipete = Position.fromFen('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1');
const moves = legalMoveList(kiwipete);
console.log(`legal moves: ${moves.length}`);
console.log(`first: ${moveToSan(kiwipete, moves[0])}`);
for (let depth = 1; depth <= 3; depth++) console.log(`perft(${depth}) = ${perft(kiwipete, depth)}`);
