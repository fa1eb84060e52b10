/** `matrix-chess perft <depth> [--fen FEN] [--divide] [--backend NAME]` */
import { backendLabel } from '../backends.js';
import { getBackend } from '../backends-node.js';
import { perftDivide } from '../core/perft.js';
import { moveToUci } from '../core/move.js';
import { Position } from '../core/position.js';
import { START_FEN } from '../core/fen.js';
import { parseCommandArgs, parseIntIn } from '../cmdline/args.js';
import { createProgress } from '../cmdline/progress.js';

export const PERFT_USAGE = 'perft <depth> [--fen FEN] [--divide] [--backend bitboard|matrix|bnn]';

export async function runPerftCommand(args: string[], out: (line: string) => void): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    'perft',
    args,
    {
      fen: { type: 'string' },
      divide: { type: 'boolean' },
      backend: { type: 'string', default: 'bitboard' },
    },
    1,
  );
  const depth = parseIntIn('perft depth', positionals[0], 1, 20);
  const pos = Position.fromFen((values.fen as string | undefined) ?? START_FEN);
  const backend = await getBackend(values.backend as string);
  const progress = createProgress(`perft ${depth}`);
  const t0 = process.hrtime.bigint();
  // Splitting by root move costs nothing extra and gives the progress display its unit of work.
  const divide = perftDivide(pos, depth, backend, (done, total) => progress.update(done, total));
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  progress.finish();
  let nodes = 0;
  for (const [move, count] of divide) {
    nodes += count;
    if (values.divide) out(`${moveToUci(move)}: ${count}`);
  }
  if (values.divide) out('');
  out(`Nodes: ${nodes}`);
  out(`Time: ${(ms / 1000).toFixed(3)} s`);
  out(`NPS: ${ms > 0 ? Math.round((nodes * 1000) / ms) : 0}`);
  out(`Backend: ${backendLabel(backend)}`);
}
