/** Stand-alone entry for `node dist/src/bnn/cli-main.js <command>` until the main CLI dispatches `bnn`. */
import { runBnnCommand } from './cli.js';

process.exitCode = await runBnnCommand(process.argv.slice(2));
