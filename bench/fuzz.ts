/**
 * The long fuzz run (test/slow/fuzz.test.ts is the short one in CI): mutated FEN, SAN, UCI-move and
 * PGN strings through the core's parsers, then junk command lines through the UCI loop, and the
 * counts by outcome. Exit status 1 if any input crashed, parsed wrongly or was slow.
 *
 *   node dist/bench/fuzz.js [--inputs 1000000] [--seed 1] [--uci-lines 20000]
 */
import { parseCommandArgs, parseIntIn } from '../src/cmdline/args.js';
import { runScript } from '../src/cmdline/errors.js';
import { OUTCOMES, PARSERS, fuzzParsers, fuzzUciLoop, uciFuzzLines } from '../test/fuzz-inputs.js';

async function main(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(
    'fuzz',
    argv,
    { inputs: { type: 'string' }, seed: { type: 'string' }, 'uci-lines': { type: 'string' } },
    0,
  );
  const inputs = values.inputs === undefined ? 1_000_000 : parseIntIn('--inputs', values.inputs as string, 1, 1e9);
  const seed = values.seed === undefined ? 1 : parseIntIn('--seed', values.seed as string, 0, 2 ** 32 - 1);
  const uciLines = values['uci-lines'] === undefined ? 20_000 : parseIntIn('--uci-lines', values['uci-lines'] as string, 0, 1e7);

  const t0 = performance.now();
  const report = fuzzParsers(inputs, seed);
  const parseSeconds = (performance.now() - t0) / 1000;
  console.log(`parsers: ${inputs} inputs, seed ${seed}, ${parseSeconds.toFixed(1)} s, slowest ${report.slowestMs.toFixed(1)} ms of CPU`);
  for (const p of PARSERS) console.log(`  ${p.padEnd(4)} ${OUTCOMES.map((o) => `${o} ${report.counts[p][o]}`).join('  ')}`);
  for (const f of report.failures) console.log(`  FAIL ${f.parser} ${f.outcome}: ${JSON.stringify(f.input)}: ${f.detail}`);

  const t1 = performance.now();
  const uci = await fuzzUciLoop(uciFuzzLines(uciLines, seed), 100, 60_000);
  const uciSeconds = (performance.now() - t1) / 1000;
  console.log(
    `uci loop: ${uci.lines} lines, ${uci.readyChecks} isready checks answered, ${uci.bestmoves} bestmoves, ` +
      `${uci.infoStrings} info strings, ${uci.badOutput.length} bad output lines, ${uciSeconds.toFixed(1)} s`,
  );
  for (const l of uci.badOutput.slice(0, 20)) console.log(`  BAD ${l}`);

  const failed =
    PARSERS.reduce((n, p) => n + report.counts[p].crash + report.counts[p].wrong + report.counts[p].slow, 0) + uci.badOutput.length;
  console.log(failed === 0 ? 'result: no failures' : `result: ${failed} failures`);
  return failed === 0 ? 0 : 1;
}

void runScript('fuzz', () => main(process.argv.slice(2)));
