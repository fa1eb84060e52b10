/**
 * `matrix-chess <command>`: dispatch, help, and the one rule for failures: a user mistake is one
 * line on stderr and exit status 2, never a stack trace.
 */
import { BackendError } from '../backends.js';
import { MoveError } from '../core/notation.js';
import { FenError } from '../core/fen.js';
import { BENCH_USAGE, runBenchCommand } from './bench.js';
import { parseCommandArgs } from '../cmdline/args.js';
import { useColor } from '../cmdline/board.js';
import { UsageError } from '../cmdline/errors.js';
import { PERFT_USAGE, runPerftCommand } from './perft.js';
import { PLAY_USAGE, runPlayCommand } from './play.js';
import type { ShardQueue } from '../tune/datagen.js';

const HELP = `Matrix Chess: a chess engine and library (bitboards, matrices and binary neural networks)

Usage: matrix-chess <command> [options]

Commands:
  ${PLAY_USAGE}
        play in the terminal against the engine, or watch it play itself
  uci [--tunables]
        run the UCI protocol on stdin/stdout, for chess GUIs (also what matrix-chess
        without a command does when standard input is not a terminal); --tunables also
        lists the search parameters as options (docs/uci.md)
  ${PERFT_USAGE}
        count the leaf nodes of the legal move tree (move generator check and benchmark)
  ${BENCH_USAGE}
        search the fixed benchmark positions and report nodes per second
  demo [...]   the matrix model demonstration
  bnn <sub> [...]   binary-neural-network tools (weights, training, verification)
  match --engine1 SPEC --engine2 SPEC [...]   play a match between two UCI engines (see match --help)
  tune <selfplay|fit|export|datagen|nnue> [...]   evaluation tuning: self-play data, Texel fit,
        the network's data and trainer (see tune help)
  analyse FILE.pgn [...]   annotate games: evaluations, ?!/?/??, better moves, accuracy (see analyse --help)
  worker --queue redis://HOST:PORT   take analysis jobs from a Redis queue (docs/scale.md)
  help  this text

Errors in the command line exit with status 2; see docs/cli.md.`;

const out = (line: string): void => {
  process.stdout.write(line + '\n');
};

/** Commands with heavy modules are loaded on demand, so `play` and `uci` start fast. */
async function runLoaded(run: (args: string[]) => number | Promise<number>, args: string[]): Promise<void> {
  const code = await run(args);
  if (code !== 0) process.exitCode = code;
}

/**
 * With no command: a person at a terminal gets the help; a program that started us with a pipe
 * on standard input (a chess GUI, a bot runner, an analysis tool) gets a UCI engine at once, as
 * those hosts start engines without arguments.
 */
export function defaultCommand(stdinIsTty: boolean | undefined): string {
  return stdinIsTty ? 'help' : 'uci';
}

/** `tune datagen --queue`: the job layer's Redis queue, loaded only when asked for. */
async function shardQueue(): Promise<ShardQueue> {
  const { parseRedisUrl, runJobsOnQueue } = await import('../jobs/redis-queue.js');
  return (url, jobs, hooks) => runJobsOnQueue(parseRedisUrl(url), jobs, hooks);
}

export async function main(argv: string[]): Promise<number> {
  const [command = defaultCommand(process.stdin.isTTY), ...args] = argv;
  switch (command) {
    case 'help':
    case '--help':
    case '-h':
      out(HELP);
      return 0;
    case 'perft':
      await runPerftCommand(args, out);
      return 0;
    case 'bench':
      await runBenchCommand(args, out);
      return 0;
    case 'play':
      await runPlayCommand(args);
      return 0;
    case 'uci': {
      const { runUci } = await import('../uci/loop-node.js');
      await runUci(args);
      return 0;
    }
    case 'demo': {
      const { values } = parseCommandArgs('demo', args, { 'no-color': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, 0);
      const { DEMO_USAGE, runMatrixDemo } = await import('../matrix/demo.js');
      if (values.help === true) out(DEMO_USAGE);
      else runMatrixDemo({ color: useColor() && values['no-color'] !== true });
      return 0;
    }
    case 'bnn':
      await runLoaded((await import('./bnn.js')).runBnnCommand, args);
      return 0;
    case 'match':
      await runLoaded((await import('../match/cli.js')).runMatchCommand, args);
      return 0;
    case 'tune':
      await runLoaded(async (a) => (await import('../tune/cli.js')).runTuneCommand(a, shardQueue), args);
      return 0;
    case 'analyse':
      await runLoaded((await import('../jobs/cli.js')).runAnalyseCommand, args);
      return 0;
    case 'worker':
      await runLoaded((await import('../jobs/cli.js')).runWorkerCommand, args);
      return 0;
    default:
      throw new UsageError(
        `unknown command '${command}': expected play, uci, perft, bench, demo, bnn, match, tune, analyse, worker or help`,
      );
  }
}

/** Runs the CLI and sets the exit status; errors become one line on stderr. */
export async function runCli(argv: string[]): Promise<void> {
  // The reader went away (`| head`, a GUI that closed the pipe): nothing left to do.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  try {
    const code = await main(argv);
    if (code !== 0) process.exitCode = code;
  } catch (err) {
    const userMistake =
      err instanceof UsageError ||
      err instanceof FenError ||
      err instanceof MoveError ||
      (err instanceof BackendError && err.kind === 'unknown');
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`matrix-chess: ${message.split('\n')[0]}\n`);
    if (!userMistake && process.env.MATRIX_CHESS_DEBUG) process.stderr.write(`${(err as Error).stack}\n`);
    process.exitCode = userMistake ? 2 : 1;
  }
}
