// The README's commands, run as a newcomer would: `npm start -- --memory`, then the tour's curl
// commands in order against it (every one must answer 2xx with JSON), then `npm run invoke`,
// `npm run fixture` and `npm run seed`.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#lib/local/dynamo.js';

const run = promisify(execFile);
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The shell block that follows a heading. */
function block(after: string): string {
  const start = readme.indexOf(after);
  expect(start, after).toBeGreaterThan(-1);
  const open = readme.indexOf('```sh\n', start) + 6;
  return readme.slice(open, readme.indexOf('```', open));
}

describe('README', () => {
  let server: ChildProcess | undefined;
  let origin = '';
  let output = '';

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    // A shell of its own (detached), so that the whole process group can be stopped.
    server = spawn('npm', ['start', '--', '--memory'], { env: { ...process.env, PORT: String(port), DYNAMODB_ENDPOINT: '', TABLE_NAME: '', SITE_URL: '' }, detached: true });
    server.stdout!.on('data', (d) => (output += d));
    server.stderr!.on('data', (d) => (output += d));
    const deadline = Date.now() + 90_000;
    while (!output.includes('Press Ctrl-C to stop.')) {
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`npm start did not come up:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 120_000);

  afterAll(async () => {
    if (server?.pid) process.kill(-server.pid, 'SIGINT');
    await new Promise((r) => setTimeout(r, 500));
  });

  it('a second npm start on the same port says so at once, before starting DynamoDB Local', async () => {
    const port = new URL(origin).port;
    const second = await run('npm', ['start', '--', '--memory'], { env: { ...process.env, PORT: port, DYNAMODB_ENDPOINT: '' }, timeout: 60_000 }).catch(
      (e: { stdout: string; stderr: string; code: number }) => e,
    );
    expect('code' in second ? second.code : 0).toBe(1);
    expect(second.stderr).toContain(`127.0.0.1:${port} is already in use`);
    expect(second.stdout).not.toContain('DynamoDB Local:');
  }, 60_000);

  it('npm start prints the API URL, the token command and the reference page', () => {
    expect(output).toContain(`Event Calendar API: ${origin}/en/tribe/events/v1/`);
    expect(output).toContain('npm run token -- --role editor');
    expect(output).toContain(`${origin}/docs`);
  });

  it('runs the five-minute tour: every curl answers 2xx with JSON', async () => {
    // Each curl also prints its status on a line of its own.
    const script = block('### A five-minute tour')
      .replaceAll('http://127.0.0.1:3000', origin)
      .replace(/curl -s /g, `curl -s -w '\\n@@%{http_code}\\n' `);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { maxBuffer: 1 << 24, timeout: 120_000 });
    const statuses = [...stdout.matchAll(/^@@(\d{3})$/gm)].map((m) => Number(m[1]));
    const curls = script.match(/\bcurl -s/g)!.length;
    expect(statuses).toHaveLength(curls);
    expect(
      statuses.filter((s) => s < 200 || s >= 300),
      stdout,
    ).toEqual([]);
    for (const body of stdout
      .split(/^@@\d{3}$/m)
      .map((b) => b.trim())
      .filter(Boolean))
      expect(() => JSON.parse(body), body).not.toThrow();
    expect(stdout).toContain('"slug":"winter-concert"');
    expect(stdout).toContain('"slug":"zimniy-kontsert"');
  }, 150_000);

  it('npm run invoke and npm run fixture work as the README says', async () => {
    // As the README writes it: no DynamoDB settings, so invoke finds the running server's data.
    const env = { ...process.env, DYNAMODB_ENDPOINT: '', TABLE_NAME: '', SITE_URL: '' };
    const command = block('### Invoking one handler').trim().split(' ');
    expect(command.slice(0, 4)).toEqual(['npm', 'run', 'invoke', '--']);
    const invoked = await run('npm', ['run', '-s', ...command.slice(2)], { env, timeout: 60_000 });
    expect(invoked.stdout).toMatch(/^(HTTP\/1\.1 )?200\b/m);
    expect(invoked.stderr).toContain(`# Data: the running server's (${origin}`);
    // The tour's venue: the server's data, not an empty table.
    expect(invoked.stdout).toContain('"venue": "Anchor Hall"');
    const fixture = await run('npm', ['run', '-s', 'fixture', '--', 'GET', '/events?per_page=2'], { timeout: 60_000 });
    const event = JSON.parse(fixture.stdout);
    expect(event).toMatchObject({ version: '2.0', routeKey: 'GET /{lang}/tribe/events/v1/events', rawQueryString: 'per_page=2' });
  }, 120_000);

  it('npm run app-password and the Basic-auth curl work as the README says', async () => {
    const env = { ...process.env, DYNAMODB_ENDPOINT: '', TABLE_NAME: '', SITE_URL: '' };
    const [make, ...curl] = block('### WordPress clients').trim().split('\n');
    const command = make!.replace(/\s+#.*$/, '').split(' ');
    expect(command.slice(0, 4)).toEqual(['npm', 'run', 'app-password', '--']);
    const made = await run('npm', ['run', '-s', ...command.slice(2)], { env, timeout: 60_000 });
    const credentials = made.stdout.trim().split('\n').at(-1)!;
    expect(credentials).toMatch(/^alice:[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
    const script = curl
      .join('\n')
      .replaceAll('http://127.0.0.1:3000', origin)
      .replace(/-u '[^']*'/, `-u '${credentials}'`)
      .replace('curl ', `curl -s -w '\\n@@%{http_code}\\n' `);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { timeout: 60_000 });
    expect(stdout).toMatch(/^@@201$/m);
    expect(JSON.parse(stdout.split(/^@@/m)[0]!)).toMatchObject({ title: 'Jazz night', status: 'publish' });
  }, 120_000);

  it('npm run seed loads the demo data once', async () => {
    const endpoint = output.match(/DynamoDB Local: (http:\/\/\S+)/)![1]!;
    const env = { ...process.env, DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: `readme-seed-${Date.now()}` };
    const first = await run('npm', ['run', '-s', 'seed', '--', '--events', '20'], { env, timeout: 120_000 });
    expect(first.stdout).toContain('Seeded 68 events.');
    const again = await run('npm', ['run', '-s', 'seed', '--', '--events', '20'], { env, timeout: 60_000 });
    expect(again.stdout).toContain('Already seeded');
  }, 200_000);
});
