/** A mistake in how the command was invoked: reported as one line on stderr, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
