/** A mistake in how the command was invoked: reported as one line on stderr, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Runs a stand-alone script's main (bench/, scripts/) under the same rule as the CLI: a
 * UsageError is one line on stderr and exit status 2; a returned number is the exit status.
 */
export async function runScript(name: string, main: () => number | void | Promise<number | void>): Promise<void> {
  try {
    const code = await main();
    if (typeof code === 'number') process.exitCode = code;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    // parseCommandArgs already names the command; other messages name only the flag.
    const line = err.message.split('\n')[0];
    process.stderr.write(line.startsWith(`${name}: `) ? `${line}\n` : `${name}: ${line}\n`);
    process.exitCode = 2;
  }
}
