/**
 * Self-play games for tuning data: the engine plays itself at a fixed node budget per move from
 * the balanced openings plus a few seeded random plies (so no two games start alike). Games end
 * by the rules (our core), or by adjudication when the engine's own score has been decisive or
 * dead level for a while; the result is the label of every position of the game.
 *
 * A game depends only on (seed, game index, nodes, opening set): node-limited search is
 * deterministic and every game starts from a cleared engine, so worker scheduling changes nothing.
 */
import { Position } from '../../core/position.js';
import { MAX_MOVES, defaultGenerator } from '../../core/movegen.js';
import { moveToSan, parseUciMove } from '../../core/notation.js';
import { Engine } from '../../engine/engine.js';
import { evaluate } from '../../engine/evaluate.js';
import { ruleVerdict } from '../../match/adjudicate.js';
import { pgnScore } from '../../core/pgn/index.js';
import type { Opening } from '../../match/openings.js';
import { Sfc32, mix32 } from '../../core/rng.js';
import { encodeScore } from '../game-records.js';

export interface SelfplayGameSpec {
  index: number;
  seed: number;
  nodes: number;
  /** Random legal plies after the opening line. */
  randomPlies: number;
  opening: Opening;
  /** A network file for the learned evaluation; absent: the classical evaluation. */
  nnueFile?: string;
}

export interface SelfplayGame {
  index: number;
  /** FEN after the opening line and the random plies: where the engine took over. */
  fen: string;
  /** Moves from `fen`, as SAN. */
  san: string[];
  /** The search's score and depth for each move, from the mover's view, as PGN comments ("+0.35/9", "-M3/12"). */
  comments: string[];
  /** The same moves as engine move ints, and the scores in the binary records' encoding (../game-records.ts). */
  moves: number[];
  scores: number[];
  result: '1-0' | '0-1' | '1/2-1/2';
  termination: string;
  nodes: number;
}

/** Decisive: the mover's score (White's view, same sign) beyond this for WIN_PLIES plies. */
const WIN_CP = 1000,
  WIN_PLIES = 8;
/** Level: |score| <= DRAW_CP for DRAW_PLIES plies once DRAW_FROM_PLY plies have been played. */
const DRAW_CP = 10,
  DRAW_PLIES = 16,
  DRAW_FROM_PLY = 100;
const MAX_PLIES = 500;

const moves = new Int32Array(MAX_MOVES);

/** Plays the opening and the random plies; retries other random plies if the position is lopsided. */
function startPosition(spec: SelfplayGameSpec, rng: Sfc32): Position {
  for (let attempt = 0; ; attempt++) {
    const pos = Position.fromFen(spec.opening.fen);
    for (const m of spec.opening.moves) pos.makeMove(parseUciMove(pos, m));
    let ok = true;
    for (let i = 0; i < spec.randomPlies && ok; i++) {
      const n = defaultGenerator.generate(pos, moves, 0);
      if (n === 0) ok = false;
      else pos.makeMove(moves[rng.next() % n]);
    }
    // A blunder among the random plies would make the game's label say little about the rest.
    if (ok && !pos.inCheck() && (Math.abs(evaluate(pos)) < 150 || attempt >= 20)) return Position.fromFen(pos.toFen());
  }
}

export function playSelfplayGame(engine: Engine, spec: SelfplayGameSpec): SelfplayGame {
  const rng = new Sfc32(mix32(spec.seed) ^ mix32(spec.index + 0x51ed));
  const pos = startPosition(spec, rng);
  const fen = pos.toFen();
  engine.newGame();
  const san: string[] = [],
    comments: string[] = [],
    moves: number[] = [],
    scores: number[] = [];
  let winPlies = 0,
    winSign = 0,
    drawPlies = 0;
  for (;;) {
    const verdict = ruleVerdict(pos);
    if (verdict)
      return { index: spec.index, fen, san, comments, moves, scores, result: verdict.result, termination: verdict.text, nodes: spec.nodes };
    if (san.length >= MAX_PLIES)
      return { index: spec.index, fen, san, comments, moves, scores, result: '1/2-1/2', termination: 'ply limit', nodes: spec.nodes };
    const r = engine.search(pos, { nodes: spec.nodes });
    const s = 'mate' in r.score ? (r.score.mate > 0 ? 30000 : -30000) : r.score.cp;
    const white = pos.side === 0 ? s : -s;
    if (Math.abs(white) >= WIN_CP && Math.sign(white) === winSign) winPlies++;
    else {
      winSign = Math.abs(white) >= WIN_CP ? Math.sign(white) : 0;
      winPlies = winSign === 0 ? 0 : 1;
    }
    drawPlies = Math.abs(white) <= DRAW_CP ? drawPlies + 1 : 0;
    san.push(moveToSan(pos, r.bestMove));
    comments.push(`${pgnScore(r.score)}/${r.depth}`);
    moves.push(r.bestMove);
    scores.push(encodeScore(r.score));
    pos.makeMove(r.bestMove);
    if (winPlies >= WIN_PLIES) {
      return {
        index: spec.index,
        fen,
        san,
        comments,
        moves,
        scores,
        result: winSign > 0 ? '1-0' : '0-1',
        termination: `adjudicated: score beyond ${WIN_CP} cp for ${WIN_PLIES} plies`,
        nodes: spec.nodes,
      };
    }
    if (drawPlies >= DRAW_PLIES && san.length >= DRAW_FROM_PLY) {
      return {
        index: spec.index,
        fen,
        san,
        comments,
        moves,
        scores,
        result: '1/2-1/2',
        termination: `adjudicated: score within ${DRAW_CP} cp for ${DRAW_PLIES} plies`,
        nodes: spec.nodes,
      };
    }
  }
}

/** Engine used by self-play: small hash, node budget only. */
export function selfplayEngine(): Engine {
  return new Engine({ hashMb: 16 });
}
