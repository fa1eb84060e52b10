/**
 * Command-line argument helpers on top of node's util.parseArgs: every mistake becomes a
 * UsageError that names the flag and what was expected.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './errors.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

export function parseCommandArgs(command: string, args: string[], options: OptionSpec, maxPositionals: number): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    // parseArgs messages are long and mention internals; keep the gist on one line.
    const msg = (err as Error).message.split('\n')[0].replace(/\. To specify a positional argument.*$/, '');
    throw new UsageError(`${command}: ${msg}`);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`${command}: unexpected argument '${parsed.positionals[maxPositionals]}'`);
  }
  return { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
}

/** Parses a whole number in [min, max]; `what` names the flag or argument for the message. */
export function parseIntIn(what: string, text: string | undefined, min: number, max: number): number {
  if (text === undefined) throw new UsageError(`${what}: missing value, expected a whole number from ${min} to ${max}`);
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${what}: '${text}' is not a whole number (expected ${min} to ${max})`);
  const n = Number(text);
  if (n < min || n > max) throw new UsageError(`${what}: ${n} is out of range (expected ${min} to ${max})`);
  return n;
}

/** Parses a number (decimals and exponents allowed) in [min, max]; `dflt` when absent. */
export function parseNumberIn(what: string, text: string | undefined, dflt: number, min: number, max: number): number {
  if (text === undefined) return dflt;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < min || n > max)
    throw new UsageError(`${what}: '${text}' is not a number from ${min} to ${max}`);
  return n;
}
