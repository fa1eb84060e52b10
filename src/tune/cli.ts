/**
 * `matrix-chess tune selfplay | fit | export`: the evaluation-tuning pipeline (docs/strength.md).
 *   selfplay  plays the engine against itself and writes the games as PGN (the labelled data);
 *   fit       Texel tuning: fits the evaluation's weights to those games' results and writes
 *             src/engine/eval-params.ts (or another file);
 *   export    writes the current weights as that module (the starting point, or a copy to compare).
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { availableParallelism } from 'node:os';
import { parseCommandArgs, parseIntIn } from '../cmdline/args.js';
import { UsageError } from '../cmdline/errors.js';
import { createProgress } from '../cmdline/progress.js';
import { loadOpenings, OpeningError } from '../match/openings.js';
import { makePgn, newPgnGame, pgnDate, pgnLine, setPgnStartFen } from '../core/pgn/index.js';
import { runSelfplay } from './selfplay/run.js';
import type { SelfplayGame } from './selfplay/game.js';
import { DATAGEN_USAGE, type ShardQueue } from './datagen.js';
import { NNUE_USAGE } from './nnue/cli.js';
import { SPSA_USAGE } from './spsa/cli.js';

export const TUNE_USAGE = `usage: matrix-chess tune <command> [options]
  selfplay --games N [--nodes 4000] [--seed 1] [--random-plies 2] [--workers N]
           [--openings data/openings/balanced.txt] --out FILE.pgn
  fit      --pgn FILE[,FILE...] [--out src/engine/eval-params.ts] [--json FILE]
           [--iterations 800] [--optimizer gd|adam] [--lr 3000 (gd) | 1 (adam)] [--lambda 0]
           [--result-weight 0.5] [--skip-plies 6] [--hold-out 5] [--freeze terms,material,pst]
           [--mirror-pst] [--verbose]
  export   [--out src/engine/eval-params.ts] [--json FILE]
${DATAGEN_USAGE}
${NNUE_USAGE}
${SPSA_USAGE}`;

const out = (line: string): void => {
  process.stdout.write(line + '\n');
};

export async function runTuneCommand(args: string[], loadQueue?: () => Promise<ShardQueue>): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'selfplay':
      await selfplayCommand(rest);
      return 0;
    case 'fit':
      await (await import('./texel/cli.js')).fitCommand(rest, out);
      return 0;
    case 'datagen':
      await (await import('./datagen.js')).datagenCommand(rest, out, loadQueue);
      return 0;
    case 'nnue':
      await (await import('./nnue/cli.js')).nnueCommand(rest, out);
      return 0;
    case 'nnue-scale':
      (await import('./nnue/cli.js')).nnueScaleCommand(rest, out);
      return 0;
    case 'spsa':
      await (await import('./spsa/cli.js')).spsaCommand(rest, out);
      return 0;
    case 'export':
      await (await import('./texel/cli.js')).exportCommand(rest, out);
      return 0;
    case 'help':
    case '--help':
      out(TUNE_USAGE);
      return 0;
    case undefined:
      throw new UsageError(
        'tune: missing command: expected selfplay, fit, export, datagen, nnue, nnue-scale or spsa (matrix-chess tune help)',
      );
    default:
      throw new UsageError(`tune: unknown command '${sub}': expected selfplay, fit, export, datagen, nnue, nnue-scale or spsa`);
  }
}

/** A self-play game as `tune selfplay` writes it: the engine's score/depth after each move, the ending after the last. */
function selfplayGame(g: SelfplayGame, seed: number) {
  const game = newPgnGame({
    Event: 'Matrix Chess self-play (tuning data)',
    Site: 'matrix-chess tune selfplay',
    Date: pgnDate(),
    Round: String(g.index + 1),
    White: 'Matrix Chess',
    Black: 'Matrix Chess',
    Result: g.result,
  });
  setPgnStartFen(game, g.fen);
  game.tags.set('Termination', g.termination.startsWith('adjudicated') ? 'adjudication' : 'normal');
  game.tags.set('PlyCount', String(g.san.length));
  game.tags.set('Nodes', String(g.nodes));
  game.tags.set('Seed', String(seed));
  const comments: Array<string | undefined> = g.comments.slice();
  if (g.san.length > 0)
    comments[g.san.length - 1] = `${comments[g.san.length - 1] ?? ''}${comments[g.san.length - 1] ? ', ' : ''}${g.termination}`;
  else game.comments.push(g.termination);
  game.moves = pgnLine(g.san, comments);
  return game;
}

async function selfplayCommand(args: string[]): Promise<void> {
  const { values } = parseCommandArgs(
    'tune selfplay',
    args,
    {
      games: { type: 'string' },
      nodes: { type: 'string' },
      seed: { type: 'string' },
      'random-plies': { type: 'string' },
      workers: { type: 'string' },
      openings: { type: 'string' },
      out: { type: 'string' },
    },
    0,
  );
  const games = parseIntIn('--games', values.games as string | undefined, 1, 1_000_000);
  const nodes = values.nodes === undefined ? 4000 : parseIntIn('--nodes', values.nodes as string, 100, 100_000_000);
  const seed = values.seed === undefined ? 1 : parseIntIn('--seed', values.seed as string, 0, 0xffffffff);
  const randomPlies = values['random-plies'] === undefined ? 2 : parseIntIn('--random-plies', values['random-plies'] as string, 0, 40);
  const workers =
    values.workers === undefined ? Math.min(2, availableParallelism()) : parseIntIn('--workers', values.workers as string, 1, 256);
  const outPath = values.out as string | undefined;
  if (!outPath) throw new UsageError('tune selfplay: --out FILE.pgn is required');
  let openings;
  try {
    openings = loadOpenings((values.openings as string | undefined) ?? 'data/openings/balanced.txt');
  } catch (e) {
    if (e instanceof OpeningError) throw new UsageError(`tune selfplay: ${e.message}`);
    throw e;
  }
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, '');
  const progress = createProgress('self-play');
  const t0 = Date.now();
  let plies = 0,
    white = 0,
    black = 0,
    draws = 0,
    n = 0;
  await runSelfplay({
    games,
    nodes,
    seed,
    randomPlies,
    openings,
    workers,
    onGame(g) {
      plies += g.san.length;
      n++;
      if (g.result === '1-0') white++;
      else if (g.result === '0-1') black++;
      else draws++;
      appendFileSync(outPath, makePgn(selfplayGame(g, seed)));
      progress.update(n, games);
    },
  });
  progress.finish();
  const secs = (Date.now() - t0) / 1000;
  out(
    `${games} games, ${plies} plies (${(plies / games).toFixed(1)} per game), +${white} =${draws} -${black} (White's view), ${secs.toFixed(0)} s -> ${outPath}`,
  );
}
