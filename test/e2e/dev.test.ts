// `npm run dev`: the server restarts when a file it imports changes, and DynamoDB Local (with its
// in-memory data) keeps running across the restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { utimesSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '#lib/local/dynamo.js';
import { roleToken } from '../support/tokens.js';

describe('npm run dev', () => {
  let dev: ChildProcess | undefined;
  let output = '';
  const ready = (n: number) => output.split('Press Ctrl-C to stop.').length - 1 >= n;
  async function waitFor(n: number) {
    const deadline = Date.now() + 90_000;
    while (!ready(n)) {
      if (Date.now() > deadline || dev?.exitCode !== null) throw new Error(`npm run dev did not come up:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  afterAll(async () => {
    if (dev?.pid && dev.exitCode === null) {
      process.kill(-dev.pid, 'SIGINT');
      await new Promise((r) => setTimeout(r, 1_000));
    }
  });

  it('restarts the server on a change and keeps the data', async () => {
    const port = await freePort();
    const env = { ...process.env, PORT: String(port), DYNAMODB_ENDPOINT: '', TABLE_NAME: '', SITE_URL: '' };
    dev = spawn('node_modules/.bin/tsx', ['scripts/dev.ts', '--memory'], { env, detached: true });
    dev.stdout!.on('data', (d) => (output += d));
    dev.stderr!.on('data', (d) => (output += d));
    await waitFor(1);
    const base = `http://127.0.0.1:${port}/en/tribe/events/v1`;
    const token = await roleToken('editor');
    const created = await fetch(`${base}/venues`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ venue: 'Kept across restarts' }),
    }).then((r) => r.json() as Promise<{ id: number }>);

    // A change to a file the server imports.
    const now = new Date();
    utimesSync('lib/runtime/config.ts', now, now);
    await waitFor(2);
    expect(output).toContain('Restarting');
    const read = await fetch(`${base}/venues/${created.id}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { venue: string }).venue).toBe('Kept across restarts');
    // DynamoDB Local started once; the restarted server used it.
    expect(output.match(/DynamoDB Local: /g)).toHaveLength(1);
    expect(output).toContain('(DYNAMODB_ENDPOINT)');

    process.kill(-dev.pid!, 'SIGINT');
    const code = await new Promise((ok) => dev!.once('exit', ok));
    expect(code).toBe(0);
  }, 180_000);
});
