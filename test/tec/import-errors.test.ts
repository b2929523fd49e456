// `npm run import` against sites it cannot import from stops at once with one clear line and a
// non-zero exit, writing nothing: a URL where nothing listens, a site that is not WordPress, a
// WordPress without TEC (a local server answering the live site's REST index minus TEC's
// namespace), refused credentials, and a user of the live site who may not edit posts.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, localClient } from '#lib/local/dynamo.js';
import { TEC } from '../support/live-tec.js';
import { dynamoEndpoint, useFreshTable } from '../support/table.js';
import { liveSite, type LiveSiteClient } from './import-calendar.js';

const run = `ierr${Date.now().toString(36)}`;

describe('npm run import against a site it cannot import from', () => {
  // With its stream, as the command makes its tables (it would otherwise say it added one).
  const table = useFreshTable('tec-import-errors', { stream: true });
  let site: LiveSiteClient;
  let server: Server;
  let local = '';
  /** What the local server answers at /wp-json/, by path prefix. */
  let index: unknown;
  const subscriber = { id: 0, login: `sub-${run}`, password: '' };

  /** The command, as a site owner runs it; its exit code and output. */
  const importer = async (args: string[], more: Record<string, string> = {}) => {
    const env = { ...process.env, DYNAMODB_ENDPOINT: await dynamoEndpoint(), TABLE_NAME: table, NO_COLOR: '1', ...more };
    return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile('node_modules/.bin/tsx', ['scripts/import.ts', ...args], { env, timeout: 60_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  };

  /** Refused with `message` on one line and exit code 1 (2: refused by the command line itself). */
  const expectRefused = async (args: string[], message: RegExp, env: Record<string, string> = {}, code = 1) => {
    const out = await importer(args, env);
    // A command-line error is followed by the usage, after an empty line.
    const said = code === 2 ? out.stderr.split('\n\n')[0]! : out.stderr.trim();
    expect({ code: out.code, stderr: said, stdout: out.stdout }).toEqual({ code, stderr: expect.stringMatching(message), stdout: '' });
    expect(said.split('\n')).toHaveLength(1);
    // Nothing written: the table the command made is empty.
    const client = localClient(await dynamoEndpoint());
    try {
      expect((await client.send(new ScanCommand({ TableName: table, Select: 'COUNT' }))).Count).toBe(0);
    } finally {
      client.destroy();
    }
  };

  beforeAll(async () => {
    site = await liveSite();
    // The live site's REST index without TEC: what a WordPress without the plugin answers.
    const real = (await (await fetch(`${TEC}/wp-json/`)).json()) as { namespaces: string[]; routes: Record<string, unknown> };
    index = {
      ...real,
      namespaces: real.namespaces.filter((n) => !n.startsWith('tribe/') && !n.startsWith('tec/')),
      routes: Object.fromEntries(Object.entries(real.routes).filter(([r]) => !r.startsWith('/tribe/') && !r.startsWith('/tec/'))),
    };
    server = createServer((req, res) => {
      if (req.url?.startsWith('/no-tec/wp-json')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(index));
      } else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>A shop</title><p>Not WordPress</p>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A subscriber of the live site, with an application password of its own.
    const user = await site.make('/wp/v2/users', { username: subscriber.login, email: `${subscriber.login}@example.com`, password: `${run}-Pw-1!`, roles: ['subscriber'] });
    subscriber.id = user.id;
    subscriber.password = String((await site.make(`/wp/v2/users/${user.id}/application-passwords`, { name: run })).password);
  });

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    if (subscriber.id) await site.tec('DELETE', `/wp/v2/users/${subscriber.id}?force=true&reassign=1`);
  });

  it('says nothing answers at a URL where nothing listens', async () => {
    await expectRefused(
      ['--from', `http://127.0.0.1:${await freePort()}`, '--user', 'x', '--app-password', 'y'],
      /^http:\/\/127\.0\.0\.1:\d+ does not answer \(ECONNREFUSED\): is the URL right\?$/,
    );
  });

  it('says a site that is not WordPress is not one', async () => {
    await expectRefused(['--from', local, '--user', 'x', '--app-password', 'y'], /answered 200 with something other than JSON: is http:\/\/127\.0\.0\.1:\d+ a WordPress site\?$/);
  });

  it('says a WordPress without TEC does not run it', async () => {
    await expectRefused(
      ['--from', `${local}/no-tec`, '--user', 'x', '--app-password', 'y'],
      /^http:\/\/127\.0\.0\.1:\d+\/no-tec does not run The Events Calendar \(no tribe\/events\/v1 in its REST API\)\.$/,
    );
  });

  it('says the site refused credentials it refuses', async () => {
    await expectRefused(
      ['--from', TEC, '--user', site.login, '--app-password', 'abcd efgh ijkl mnop qrst uvwx'],
      /^The site refused the login admin with that application password \(401 incorrect_password\)\.$/,
    );
  });

  it('says a user who may not edit posts cannot import', async () => {
    // The subscriber's own password works: the site answers its users/me.
    const me = await fetch(`${TEC}/wp-json/wp/v2/users/me`, {
      headers: { authorization: `Basic ${Buffer.from(`${subscriber.login}:${subscriber.password}`).toString('base64')}` },
    });
    expect(me.status).toBe(200);
    await expectRefused(
      ['--from', TEC, '--user', subscriber.login, '--app-password', subscriber.password],
      new RegExp(`^${subscriber.login} may not edit posts on ${TEC.replaceAll('.', '\\.')} \\(roles: subscriber\\): the import needs an editor or administrator\\.$`),
    );
  });

  it('reads the time zone from the site, and refuses a SITE_TIMEZONE that is not the site’s', async () => {
    const zone = (await site.tec('GET', '/')).body as { timezone_string: string; gmt_offset: number | string };
    const expected = zone.timezone_string || `UTC${Number(zone.gmt_offset) < 0 ? '-' : '+'}${Math.abs(Number(zone.gmt_offset))}`;
    const other = expected === 'Pacific/Chatham' ? 'Europe/Vilnius' : 'Pacific/Chatham';
    await expectRefused(
      ['--from', TEC, '--user', site.login, '--app-password', site.password],
      new RegExp(`^SITE_TIMEZONE is ${other}, but the site's time zone is ${expected.replace('+', '\\+')}: `),
      { SITE_TIMEZONE: other },
    );
    // A dry run of what changed in the last second: it says the zone the calendar is served in.
    const out = await importer(['--from', TEC, '--user', site.login, '--app-password', site.password, '--dry-run', '--since', new Date().toISOString()]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(`The site's time zone is ${expected}: serve the imported calendar with SITE_TIMEZONE=${expected}.`);
  });

  it('says an export file needs the site’s time zone', async () => {
    await expectRefused(['--wxr', 'test/fixtures/wxr/tec-export.xml'], /^--wxr needs --timezone ZONE: the site's time zone \(Settings → General\)/, {}, 2);
    await expectRefused(['--wxr', 'test/fixtures/wxr/tec-export.xml', '--timezone', 'Mars/Base'], /^--timezone must be a time zone/, {}, 2);
  });
});
