// Every script answers --help with its usage, and a bad option or argument with a clear message
// and the usage (exit 2), never a stack trace.
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const TSX = 'node_modules/.bin/tsx';

function run(script: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((ok) => {
    execFile(TSX, [`scripts/${script}.ts`, ...args], { env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } }, (error, stdout, stderr) =>
      ok({ code: error ? Number(error.code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

const SCRIPTS = ['token', 'seed', 'invoke', 'fixture', 'start', 'tz-rules', 'backfill-search'];

describe('scripts', () => {
  for (const script of SCRIPTS) {
    it(`${script}: --help prints the usage and exits 0`, async () => {
      const res = await run(script, '--help');
      expect(res.code, res.err).toBe(0);
      expect(res.out).toMatch(/^Usage: npm /);
    });
    it(`${script}: an unknown option is a clear error with the usage, exit 2`, async () => {
      const res = await run(script, '--no-such-option');
      expect(res.code).toBe(2);
      expect(res.err).toContain("Unknown option '--no-such-option'");
      expect(res.err).toContain('Usage: npm ');
      expect(res.err).not.toMatch(/\n\s+at /);
    });
  }

  it.each([
    ['token', ['--ttl', 'forever'], '--ttl must be a number and a unit'],
    ['token', ['--ttl', '9999d'], '--ttl may be at most 365d'],
    ['token', ['--role', 'admin'], '--role must be one of contributor, author, editor'],
    ['seed', ['--events', 'many'], '--events must be a whole number'],
    ['backfill-search', ['--aws'], '--aws needs --table'],
    ['backfill-search', ['--segments', '0'], '--segments must be a whole number of at least 1'],
    ['invoke', [], 'An operation id and a fixture file are needed.'],
    ['fixture', ['GET', '/ru/tribe/events/v1/events'], 'starts with a language'],
    ['fixture', ['GET', '/events', '--lang', 'xx'], '--lang must be one of en, lt, ru, wp-json'],
  ])('%s %j: %s', async (script, args, message) => {
    const res = await run(script, ...args);
    expect(res.code).toBe(2);
    expect(res.err).toContain(message);
    expect(res.err).not.toMatch(/\n\s+at /);
  });

  it('token: a valid ttl still prints a token as the last line', async () => {
    const res = await run('token', '--role', 'author', '--ttl', '8h');
    expect(res.code, res.err).toBe(0);
    expect(res.out.trim().split('\n').at(-1)).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });
});
