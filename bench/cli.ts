// The command line of every benchmark. A benchmark is set up by environment variables, declared
// here with their meaning and default, so that `--help` (`-h`) lists them and exits before
// anything runs; any other argument stops it with the usage (exit 2) rather than start a run
// that may take an hour and rewrite bench/README.md.
import { DEFAULT_START_TIMEOUT_MS } from '#lib/local/dynamo.js';
import { cli } from '../scripts/cli.js';

export interface BenchSetting {
  meaning: string;
  /** The value when the variable is unset or empty. */
  default?: string | number;
}

/** What every benchmark reads to reach DynamoDB (lib/local/dynamo.ts). */
const DYNAMODB_SETTINGS: Record<string, BenchSetting> = {
  DYNAMODB_ENDPOINT: { meaning: 'a running DynamoDB to use instead of starting an in-memory DynamoDB Local' },
  DYNAMODB_START_TIMEOUT_MS: { meaning: 'how long DynamoDB Local may take to start, in milliseconds', default: DEFAULT_START_TIMEOUT_MS },
};

export interface BenchCli {
  /** A setting's value, else its declared default (undefined when it has none). */
  text(name: string): string | undefined;
  /** A whole-number setting of at least 1: its value, else its declared default. */
  count(name: string): number;
}

/** Handles the arguments of `npm run <script>`: `about` says what it does, `settings` what it reads. */
export function benchCli(script: string, about: string, settings: Record<string, BenchSetting>): BenchCli {
  const all = { ...settings, ...DYNAMODB_SETTINGS };
  const width = Math.max(...Object.keys(all).map((name) => name.length));
  const lines = Object.entries(all).map(([name, s]) => `  ${name.padEnd(width)}  ${s.meaning}${s.default === undefined ? '' : ` (default ${s.default})`}`);
  const c = cli(`Usage: [SETTING=value ...] npm run ${script}\n${about}\n\nSettings (environment variables):\n${lines.join('\n')}`, {});
  const declared = (name: string) => {
    if (!(name in settings)) throw new Error(`${script} declares no setting ${name}.`);
    return settings[name]!;
  };
  return {
    text(name) {
      const fallback = declared(name).default;
      return process.env[name]?.trim() || (fallback === undefined ? undefined : String(fallback));
    },
    count(name) {
      const fallback = declared(name).default;
      const raw = process.env[name];
      const n = raw === undefined || raw === '' ? fallback : Number(raw);
      return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : c.fail(`${name} must be a positive integer, got "${raw}".`);
    },
  };
}
