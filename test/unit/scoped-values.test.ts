// What a request's ambient scope may hold: its deadline, its logging (log context, log writer,
// capacity tally), the write log, the form of its links, and locally its table grants. What changes
// what a write does (a retried create's id, an imported record's values) travels on the request
// (RequestContext), where a function's signature shows it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ALLOWED: Record<string, string> = {
  'lib/runtime/deadline.ts': 'deadline',
  'lib/observe/log.ts': 'request',
  'lib/observe/logger.ts': 'log-writer',
  'lib/observe/capacity.ts': 'capacity',
  'lib/store/transactions.ts': 'writes',
  'lib/runtime/link-form.ts': 'link form',
  'lib/local/grants.ts': 'grants',
};

describe('scoped values', () => {
  it('are made only for the deadline, logging, the write log, the link form and local grants', () => {
    const files = execFileSync('git', ['ls-files', 'lib/*.ts', 'functions/*.ts', 'infra/*.ts', 'scripts/*.ts'], { encoding: 'utf8' }).split('\n').filter(Boolean);
    const made: Record<string, string> = {};
    for (const file of files) {
      if (file === 'lib/runtime/scope.ts') continue;
      for (const m of readFileSync(file, 'utf8').matchAll(/scopedValue<[^>]*>\('([^']+)'\)/g)) made[file] = m[1]!;
    }
    expect(made).toEqual(ALLOWED);
  });

  it('finds a scoped value wherever one is made (the pattern above reads them)', () => {
    const sample = "const store = scopedValue<number>('deadline');";
    expect([...sample.matchAll(/scopedValue<[^>]*>\('([^']+)'\)/g)].map((m) => m[1])).toEqual(['deadline']);
  });
});
