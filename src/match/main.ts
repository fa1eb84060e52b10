/** Stand-alone entry point until `matrix-chess match` is wired: node dist/src/match/main.js … */
import { runMatchCommand } from './cli.js';

runMatchCommand(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (e: unknown) => {
    process.stderr.write(`matrix-chess match: internal error: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
