// The command line of every script: node's parseArgs, plus `--help` (`-h`) that prints the usage,
// and a clear one-paragraph error with the usage (exit 2) for unknown or malformed options,
// instead of a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Cli {
  /** Option values: strings for `type: 'string'`, booleans for `type: 'boolean'`. */
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /** Prints the message and the usage, and exits with 2. */
  fail(message: string): never;
}

export function cli(usage: string, options: Options, { positionals = false } = {}): Cli {
  const fail = (message: string): never => {
    console.error(`${message}\n\n${usage}`);
    process.exit(2);
  };
  let parsed: { values: Cli['values']; positionals: string[] };
  try {
    parsed = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true }) as typeof parsed;
  } catch (err) {
    return fail((err as Error).message);
  }
  if (parsed.values.help) {
    console.log(usage);
    process.exit(0);
  }
  if (!positionals && parsed.positionals.length) fail(`Unexpected argument "${parsed.positionals[0]}".`);
  return { values: parsed.values, positionals: parsed.positionals, fail };
}

/** A whole number of at least `min`, or the CLI's failure. */
export function wholeNumber(c: { fail(message: string): never }, name: string, raw: string | undefined, fallback: number, min = 1): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min) return c.fail(`--${name} must be a whole number of at least ${min}, got "${raw}".`);
  return n;
}
