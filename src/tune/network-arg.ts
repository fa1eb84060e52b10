/**
 * A network file named by a command-line option: loaded, or refused as a usage error that names
 * the option and the file's problem (exit 2, one line), as every other bad argument is.
 */
import { UsageError } from '../cmdline/errors.js';
import { NnueFileError, type NnueNetwork } from '../engine/nnue/network.js';
import { loadNetwork } from '../engine/nnue/load-node.js';

/** @param option the command and option, e.g. `tune datagen --nnue`. */
export function loadNetworkArg(option: string, file: string): NnueNetwork {
  try {
    return loadNetwork(file);
  } catch (e) {
    if (e instanceof NnueFileError) throw new UsageError(`${option}: ${e.message}`);
    throw e;
  }
}
