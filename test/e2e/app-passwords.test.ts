// HTTP Basic with application passwords, end to end through the local gateway: every credential
// case of the TEC corpus (test/corpus/tec/auth.jsonl) on a public read, `users/me` and an
// event create, answered as the live WordPress answered; the application-password routes in
// WordPress's shapes (auth-shapes.json); roles that follow their user; revocation that bites at
// once; and a table that holds no password.
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { keys } from '#lib/store/keys.js';
import { useGateway, type ApiOptions } from '../support/gateway.js';

type Json = Record<string, any>;

const CORPUS = fileURLToPath(new URL('../corpus/tec', import.meta.url));

interface AuthRow {
  case: string;
  method: 'GET' | 'POST';
  path: string;
  status: number;
  code?: string;
  message?: string;
  body_keys?: string[];
}

const gw = useGateway({ tablePrefix: 'apppw' });
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const basic = (login: string, password: string) => `Basic ${b64(`${login}:${password}`)}`;
const SHAPE = /^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let startDay = 0;
function eventBody(title: string): Json {
  startDay += 1;
  const day = new Date(Date.UTC(2045, 5, 1 + (startDay % 25))).toISOString().slice(0, 10);
  return { title, start_date: `${day} 10:00:00`, end_date: `${day} 11:00:00`, status: 'draft' };
}

/** A request anywhere on the server (WordPress's routes are not below the TEC base). */
function wp(method: string, route: string, o: ApiOptions = {}) {
  return gw.api(method, gw.abs(`/en/wp/v2${route}`), o);
}

/** One request with the given Authorization header values, each its own header line. */
function rawRequest(method: string, target: string, authorizations: string[], body?: string): Promise<{ status: number; body: Json }> {
  const url = new URL(gw.abs(target));
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close'];
      for (const a of authorizations) lines.push(`Authorization: ${a}`);
      if (body !== undefined) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
      // Not end(): the server closes a half-closed connection before it answers.
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
    });
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]);
      let text = rest.join('\r\n\r\n');
      // The gateway may answer chunked.
      if (/transfer-encoding: chunked/i.test(head)) text = text.replace(/(?:^|\r\n)[0-9a-f]+\r\n/gi, '').replace(/\r\n$/, '');
      resolve({ status, body: JSON.parse(text || 'null') as Json });
    });
  });
}

interface Admin {
  login: string;
  email: string;
  token: string;
  password: string;
  uuid: string;
  created: Json;
  location: string | null;
}

let admin: Admin;

async function createPassword(token: string, name: string) {
  const res = await wp('POST', '/users/me/application-passwords', { token, body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res;
}

beforeAll(async () => {
  const login = 'Admin';
  const email = 'admin@example.org';
  const token = await gw.token('editor', 'apppw-admin', { user: login, email });
  const res = await createPassword(token, 'x');
  admin = { login, email, token, password: res.body.password, uuid: res.body.uuid, created: res.body, location: res.headers.get('location') };
});

describe('application-password routes, in WordPress shapes', () => {
  const shapes = JSON.parse(readFileSync(path.join(CORPUS, 'auth-shapes.json'), 'utf8')).application_passwords as Json;

  it('creates with 201, WordPress keys in order, the password once in six groups of four, and a Location', () => {
    expect(Object.keys(admin.created)).toEqual(shapes.create.keys);
    expect(admin.password).toMatch(SHAPE);
    expect(admin.password).toHaveLength(shapes.create.password_regex_checks.length);
    expect(admin.created).toMatchObject({ app_id: '', name: 'x', last_used: null, last_ip: null });
    expect(admin.uuid).toMatch(UUID);
    expect(admin.created.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(Object.keys(admin.created._links)).toEqual(shapes.create._links_keys);
    expect(admin.location).toMatch(new RegExp(`/en/wp/v2/users/\\d+/application-passwords/${admin.uuid}$`));
    expect(admin.created._links.self[0].href).toBe(admin.location);
  });

  it('lists without the password, reads one, and records its use (time and address)', async () => {
    await gw.api('GET', '/events', { headers: { authorization: basic(admin.login, admin.password) } });
    const list = await wp('GET', '/users/me/application-passwords', { token: admin.token });
    expect(list.status).toBe(200);
    const mine = list.body.find((p: Json) => p.uuid === admin.uuid);
    expect(Object.keys(mine)).toEqual(shapes.list.item_keys);
    expect(mine).not.toHaveProperty('password');
    expect(mine.last_used).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(mine.last_ip).toBe('127.0.0.1');
    const one = await wp('GET', `/users/me/application-passwords/${admin.uuid}`, { token: admin.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(mine);
  });

  it('introspects the password a Basic request used, and refuses to without one', async () => {
    const res = await wp('GET', '/users/me/application-passwords/introspect', { headers: { authorization: basic(admin.login, admin.password) } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(shapes.introspect.keys);
    expect(res.body.uuid).toBe(admin.uuid);
    const bearer = await wp('GET', '/users/me/application-passwords/introspect', { token: admin.token });
    expect(bearer.status).toBe(404);
    expect(bearer.body.code).toBe('rest_no_authenticated_app_password');
  });

  it('deletes with {deleted, previous}, and a second delete is 404 rest_application_password_not_found', async () => {
    const made = await createPassword(admin.token, 'to delete');
    const del = await wp('DELETE', `/users/me/application-passwords/${made.body.uuid}`, { token: admin.token });
    expect(del.status).toBe(200);
    expect(Object.keys(del.body)).toEqual(shapes.delete.keys);
    expect(del.body.deleted).toBe(true);
    expect(Object.keys(del.body.previous)).toEqual(Object.keys(shapes.delete.value_formats.previous).concat('_links'));
    expect(del.body.previous.uuid).toBe(made.body.uuid);
    const again = await wp('DELETE', `/users/me/application-passwords/${made.body.uuid}`, { token: admin.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ code: 'rest_application_password_not_found', message: 'Application password not found.', data: { status: 404 } });
    // Its name is free again.
    await createPassword(admin.token, 'to delete');
  });

  it('refuses a duplicate name (409), an empty one (400), a missing one (400) and anonymous callers (401)', async () => {
    const dup = await wp('POST', '/users/me/application-passwords', { token: admin.token, body: { name: 'x' } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('application_password_duplicate_name');
    const empty = await wp('POST', '/users/me/application-passwords', { token: admin.token, body: { name: ' <b></b> ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('application_password_empty_name');
    const missing = await wp('POST', '/users/me/application-passwords', { token: admin.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('rest_missing_callback_param');
    for (const [method, route] of [
      ['POST', '/users/me/application-passwords'],
      ['GET', '/users/me/application-passwords'],
      ['GET', '/users/me'],
    ] as const) {
      const anon = await wp(method, route, method === 'POST' ? { body: { name: 'y' } } : {});
      expect(anon.status, `${method} ${route}`).toBe(401);
      expect(anon.body).toEqual({ code: 'rest_not_logged_in', message: 'You are not currently logged in.', data: { status: 401 } });
    }
    const badUser = await wp('GET', '/users/abc/application-passwords', { token: admin.token });
    expect(badUser.status).toBe(404);
    expect(badUser.body.code).toBe('rest_no_route');
  });

  it('answers keys DynamoDB could not hold as WordPress answers names it does not know', async () => {
    const longLogin = await gw.api('GET', '/events', { headers: { authorization: basic('x'.repeat(3000), admin.password) } });
    expect(longLogin.status).toBe(401);
    expect(longLogin.body.code).toBe('invalid_username');
    for (const uuid of ['x'.repeat(1500), 'é'.repeat(600), 'not-a-uuid']) {
      for (const method of ['GET', 'DELETE']) {
        const res = await wp(method, `/users/me/application-passwords/${encodeURIComponent(uuid)}`, { token: admin.token });
        expect(res.status, `${method} ${uuid.slice(0, 10)}`).toBe(404);
        expect(res.body.code).toBe('rest_application_password_not_found');
      }
    }
  });

  it('keeps only a keyed hash: no item of the user holds the password in any form', async () => {
    const out = await db().send(
      new QueryCommand({ TableName: config().tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.credentials('apppw-admin').pk } }),
    );
    const text = JSON.stringify(out.Items);
    expect(out.Items!.length).toBeGreaterThan(1);
    expect(text).not.toContain(admin.password);
    expect(text).not.toContain(admin.password.replaceAll(' ', ''));
    const stored = out.Items!.find((i) => i.sk === `APPPW#${admin.uuid}`)!;
    expect(stored.hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('HTTP Basic answers every credential case as WordPress does (TEC corpus)', () => {
  const file = path.join(CORPUS, 'auth.jsonl');
  if (!existsSync(file)) throw new Error(`The TEC corpus is missing: ${file}`);
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuthRow);

  /** The Authorization header lines each corpus case sent, for this service's users. */
  async function headersFor(c: string): Promise<string[] | 'skip'> {
    const pw = admin.password;
    const bare = pw.replaceAll(' ', '');
    switch (c) {
      case 'no-auth':
        return [];
      case 'valid-app-password':
        return [basic(admin.login, bare)];
      case 'valid-app-password-with-spaces':
      case 'new-app-password-as-returned-with-spaces':
        return [basic(admin.login, pw)];
      case 'valid-app-password-lowercase-scheme':
        return [`basic ${b64(`${admin.login}:${bare}`)}`];
      case 'wrong-password-real-user':
        return [basic(admin.login, 'wrongpassword123')];
      case 'wrong-24char-password-real-user':
        return [basic(admin.login, 'AbCdEfGhIjKlMnOpQrStUvWx')];
      case 'unknown-username':
        return [basic('nobody-here', bare)];
      case 'username-different-case':
        return [basic(admin.login.toUpperCase(), bare)];
      case 'login-password':
        // This service has no login passwords; any other secret is just as wrong.
        return [basic(admin.login, 'correct horse battery staple')];
      case 'empty-password':
        return [basic(admin.login, '')];
      case 'empty-username':
        return [basic('', bare)];
      case 'malformed-not-base64':
        return ['Basic !!!not-base64!!!'];
      case 'malformed-no-colon':
        return [`Basic ${b64(`${admin.login}${bare}`)}`];
      case 'malformed-basic-empty':
        return ['Basic '];
      case 'two-headers-valid-then-wrong':
        return [basic(admin.login, bare), basic(admin.login, 'wrongpassword123')];
      case 'two-headers-wrong-then-valid':
        return [basic(admin.login, 'wrongpassword123'), basic(admin.login, bare)];
      case 'one-header-valid-comma-wrong':
        return [`${basic(admin.login, bare)}, ${basic(admin.login, 'wrongpassword123')}`];
      case 'email-as-username':
        return [basic(admin.email, bare)];
      case 'new-app-password-spaces-removed':
        return [basic(admin.login, bare)];
      case 'new-app-password-dashes-instead-of-spaces':
        return [basic(admin.login, pw.replaceAll(' ', '-'))];
      case 'new-app-password-lowercased':
        return [basic(admin.login, pw.toLowerCase())];
      case 'deleted-app-password': {
        const made = await createPassword(admin.token, `deleted ${c}`);
        await wp('DELETE', `/users/me/application-passwords/${made.body.uuid}`, { token: admin.token });
        return [basic(admin.login, made.body.password)];
      }
      case 'bearer':
        // A deliberate difference (docs/design.md §5): an invalid bearer token is a 401 here, not anonymous.
        return 'skip';
      default:
        throw new Error(`A corpus case this test does not know: ${c}`);
    }
  }

  const target = (row: AuthRow) => row.path.replace('/wp-json/tribe/events/v1/', `/en/${config().namespace}/events/v1/`).replace('/wp-json/wp/v2/', '/en/wp/v2/');

  it('matches status, code and message (and the keys of successful answers) on every row', async () => {
    let checked = 0;
    for (const row of rows) {
      const auth = await headersFor(row.case);
      if (auth === 'skip') continue;
      const where = `${row.case}: ${row.method} ${row.path}`;
      const body = row.method === 'POST' ? JSON.stringify(eventBody(`Basic ${row.case}`)) : undefined;
      const res = await rawRequest(row.method, target(row), auth, body);
      expect(res.status, where).toBe(row.status);
      if (row.code)
        expect({ code: res.body.code, message: res.body.message, data: res.body.data }, where).toEqual({ code: row.code, message: row.message, data: { status: row.status } });
      // Records carry their language besides TEC's keys (docs/tec-behaviour.md §1.1).
      else if (row.body_keys)
        expect(
          Object.keys(res.body).filter((k) => k !== 'lang'),
          where,
        ).toEqual(row.body_keys);
      checked++;
    }
    expect(checked).toBe(rows.filter((r) => r.case !== 'bearer').length);
  });

  it("keeps this service's rule for bearer tokens: an invalid one is a 401, not anonymous", async () => {
    const res = await gw.api('GET', '/events', { headers: { authorization: 'Bearer xyz' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('rest_forbidden');
  });

  it('fails a revoked password at once', async () => {
    const made = await createPassword(admin.token, 'revoked at once');
    const auth = { authorization: basic(admin.login, made.body.password) };
    expect((await gw.api('GET', '/events', { headers: auth })).status).toBe(200);
    await wp('DELETE', `/users/me/application-passwords/${made.body.uuid}`, { token: admin.token });
    const after = await gw.api('GET', '/events', { headers: auth });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('incorrect_password');
    // A client that tried Basic is told both schemes; others only Bearer (no browser dialog).
    expect(after.headers.get('www-authenticate')).toBe('Basic realm="Event Calendar API", charset="UTF-8", Bearer');
    expect((await gw.api('POST', '/events', { body: eventBody('anonymous') })).headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('whose role a password carries', () => {
  const meAs = async (authorization: string) => (await wp('GET', '/users/me', { headers: { authorization }, query: { context: 'edit' } })).body;

  it('acts as the same user as the bearer token (same id, same records)', async () => {
    const viaBearer = await wp('GET', '/users/me', { token: admin.token });
    const viaBasic = await wp('GET', '/users/me', { headers: { authorization: basic(admin.login, admin.password) } });
    expect(viaBasic.status).toBe(200);
    expect(viaBasic.body.id).toBe(viaBearer.body.id);
    const created = await gw.api('POST', '/events', { headers: { authorization: basic(admin.login, admin.password) }, body: eventBody('Made with Basic') });
    expect(created.status).toBe(201);
    expect(created.body.author).toBe(String(viaBearer.body.id));
  });

  it('follows the user down when their token shows a lower role, and back up to the role the password was made with', async () => {
    const login = 'demoted';
    const now = Math.floor(Date.now() / 1000);
    const editor = await gw.token('editor', 'apppw-demoted', { user: login, issuedAt: now - 20 });
    const made = await createPassword(editor, 'demotion');
    const auth = basic(login, made.body.password);
    expect((await meAs(auth)).roles).toEqual(['editor']);
    // The identity provider took the editor role away: the user's next token says contributor.
    const contributor = await gw.token('contributor', 'apppw-demoted', { user: login, issuedAt: now - 10 });
    expect((await gw.api('GET', '/events', { token: contributor })).status).toBe(200);
    expect((await meAs(auth)).roles).toEqual(['contributor']);
    const publish = await gw.api('POST', '/events', { headers: { authorization: auth }, body: { ...eventBody('Demoted'), status: 'publish' } });
    expect(publish.status).toBe(201);
    expect(publish.body.status).not.toBe('publish');
    // Given back, by a token issued after the demotion: the password again has the role it was made with, and never more.
    const editorAgain = await gw.token('editor', 'apppw-demoted', { user: login, issuedAt: now });
    expect((await gw.api('GET', '/events', { token: editorAgain })).status).toBe(200);
    expect((await meAs(auth)).roles).toEqual(['editor']);
  });

  it('lets no token issued before the newest one raise its user back, nor make a password above the newest role', async () => {
    const login = 'kept-token';
    const now = Math.floor(Date.now() / 1000);
    const kept = await gw.token('editor', 'apppw-kept', { user: login, issuedAt: now - 30 });
    const first = await createPassword(kept, 'before demotion');
    const firstAuth = basic(login, first.body.password);
    // Demoted: the newer token says author.
    const demoted = await gw.token('author', 'apppw-kept', { user: login, issuedAt: now - 10 });
    expect((await gw.api('GET', '/events', { token: demoted })).status).toBe(200);
    expect((await meAs(firstAuth)).roles).toEqual(['author']);
    // The editor token kept from before the demotion is seen again: the stored role stays author.
    expect((await gw.api('GET', '/events', { token: kept })).status).toBe(200);
    expect((await meAs(firstAuth)).roles).toEqual(['author']);
    // The user's passwords are revoked; the kept token makes a new one: it is an author's.
    const revoked = await wp('DELETE', '/users/me/application-passwords', { token: kept });
    expect(revoked.status).toBe(200);
    const second = await createPassword(kept, 'after demotion');
    expect(second.status).toBe(201);
    const secondAuth = basic(login, second.body.password);
    expect((await meAs(secondAuth)).roles).toEqual(['author']);
    const term = await gw.api('POST', '/categories', { headers: { authorization: secondAuth }, body: { name: 'Not for a demoted user' } });
    expect(term.status).toBe(403);
  });

  it('keeps a demotion seen before the user had any password: a kept token then makes no password above it', async () => {
    const login = 'demoted-first';
    const now = Math.floor(Date.now() / 1000);
    const kept = await gw.token('editor', 'apppw-demoted-first', { user: login, issuedAt: now - 30 });
    expect((await gw.api('GET', '/events', { token: kept })).status).toBe(200);
    // Demoted before any password was made: only this read sees the newer token.
    const demoted = await gw.token('author', 'apppw-demoted-first', { user: login, issuedAt: now - 10 });
    expect((await gw.api('GET', '/events', { token: demoted })).status).toBe(200);
    const made = await createPassword(kept, 'after an unrecorded demotion');
    const auth = basic(login, made.body.password);
    expect((await meAs(auth)).roles).toEqual(['author']);
    const term = await gw.api('POST', '/categories', { headers: { authorization: auth }, body: { name: 'Not for a demoted user either' } });
    expect(term.status).toBe(403);
    // Promoted again by a newer token: a password it makes is an editor's; the older one stays an author's.
    const promoted = await gw.token('editor', 'apppw-demoted-first', { user: login, issuedAt: now });
    const again = await createPassword(promoted, 'after the promotion');
    const againAuth = basic(login, again.body.password);
    expect((await meAs(againAuth)).roles).toEqual(['editor']);
    expect((await gw.api('POST', '/categories', { headers: { authorization: againAuth }, body: { name: 'Made after a promotion' } })).status).toBe(201);
    expect((await meAs(auth)).roles).toEqual(['author']);
  });

  it('takes the lower role of two tokens issued in the same second, whichever is seen first', async () => {
    const second = Math.floor(Date.now() / 1000) - 5;
    // The editor token first, with a password, then the author token of the same second.
    const edFirst = await gw.token('editor', 'apppw-tie-1', { user: 'tie-one', issuedAt: second });
    const authorLater = await gw.token('author', 'apppw-tie-1', { user: 'tie-one', issuedAt: second });
    const made = await createPassword(edFirst, 'editor first');
    const auth = basic('tie-one', made.body.password);
    expect((await meAs(auth)).roles).toEqual(['editor']);
    expect((await gw.api('GET', '/events', { token: authorLater })).status).toBe(200);
    expect((await meAs(auth)).roles).toEqual(['author']);
    // The editor token seen again changes nothing, and a password it makes is an author's.
    expect((await gw.api('GET', '/events', { token: edFirst })).status).toBe(200);
    expect((await meAs(auth)).roles).toEqual(['author']);
    const next = await createPassword(edFirst, 'editor again');
    expect((await meAs(basic('tie-one', next.body.password))).roles).toEqual(['author']);

    // The author token first, before any password; the editor token of that second then makes one.
    const authorFirst = await gw.token('author', 'apppw-tie-2', { user: 'tie-two', issuedAt: second });
    const edLater = await gw.token('editor', 'apppw-tie-2', { user: 'tie-two', issuedAt: second });
    expect((await gw.api('GET', '/events', { token: authorFirst })).status).toBe(200);
    const late = await createPassword(edLater, 'editor of the same second');
    const lateAuth = basic('tie-two', late.body.password);
    expect((await meAs(lateAuth)).roles).toEqual(['author']);
    expect((await gw.api('POST', '/categories', { headers: { authorization: lateAuth }, body: { name: 'Not for a tie' } })).status).toBe(403);
  });

  it('never lifts a password above the role its user had when it was made', async () => {
    const login = 'promoted';
    const author = await gw.token('author', 'apppw-promoted', { user: login });
    const made = await createPassword(author, 'before promotion');
    const editor = await gw.token('editor', 'apppw-promoted', { user: login });
    expect((await gw.api('GET', '/events', { token: editor })).status).toBe(200);
    expect((await meAs(basic(login, made.body.password))).roles).toEqual(['author']);
    const term = await gw.api('POST', '/categories', { headers: { authorization: basic(login, made.body.password) }, body: { name: 'Not for authors' } });
    expect(term.status).toBe(403);
  });

  it("lets an editor list and revoke another user's passwords, and nobody else", async () => {
    const login = 'revokee';
    const author = await gw.token('author', 'apppw-revokee', { user: login });
    const made = await createPassword(author, 'to be revoked');
    const id = (await wp('GET', '/users/me', { token: author })).body.id as number;
    const auth = { authorization: basic(login, made.body.password) };
    expect((await gw.api('GET', '/events', { headers: auth })).status).toBe(200);

    const other = await gw.token('author', 'apppw-other-author', { user: 'other-author' });
    const refused = await wp('GET', `/users/${id}/application-passwords`, { token: other });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('rest_cannot_list_application_passwords');
    const refusedDelete = await wp('DELETE', `/users/${id}/application-passwords`, { token: other });
    expect(refusedDelete.status).toBe(403);
    expect(refusedDelete.body.code).toBe('rest_cannot_delete_application_passwords');
    const noCreate = await wp('POST', `/users/${id}/application-passwords`, { token: admin.token, body: { name: 'for someone else' } });
    expect(noCreate.status).toBe(403);
    expect(noCreate.body.code).toBe('rest_cannot_create_application_passwords');
    const unknown = await wp('GET', '/users/999999/application-passwords', { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('rest_user_invalid_id');

    const listed = await wp('GET', `/users/${id}/application-passwords`, { token: admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((p: Json) => p.uuid)).toEqual([made.body.uuid]);
    expect(listed.body[0]._links.self[0].href).toContain(`/users/${id}/application-passwords/`);
    const revoked = await wp('DELETE', `/users/${id}/application-passwords`, { token: admin.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ deleted: true, count: 1 });
    const after = await gw.api('GET', '/events', { headers: auth });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('incorrect_password');
  });

  it('keeps a login to its first user: another subject cannot take it over', async () => {
    const impostor = await gw.token('editor', 'apppw-impostor', { user: admin.login.toLowerCase() });
    const res = await wp('POST', '/users/me/application-passwords', { token: impostor, body: { name: 'takeover' } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('rest_login_taken');
    // Nothing of the failed write stays: the real user's password still works, the impostor has none.
    expect((await gw.api('GET', '/events', { headers: { authorization: basic(admin.login, admin.password) } })).status).toBe(200);
    expect((await wp('GET', '/users/me/application-passwords', { token: impostor })).body).toEqual([]);
  });
});

describe('an e-mail address as a login', () => {
  const events = (login: string, password: string) => gw.api('GET', '/events', { headers: { authorization: basic(login, password) } });

  it('is only one the token says is verified: an unverified or unvouched address stays free for its owner', async () => {
    const email = 'unverified@example.org';
    for (const [sub, emailVerified] of [
      ['apppw-unverified', false],
      ['apppw-unvouched', null],
    ] as const) {
      const token = await gw.token('author', sub, { user: sub, email, emailVerified });
      const { body } = await createPassword(token, 'x');
      expect((await events(sub, body.password)).status).toBe(200);
      const byEmail = await events(email, body.password);
      expect(byEmail.status, JSON.stringify(byEmail.body)).toBe(401);
      // The address is no login of this user, so /users/me does not show it either.
      expect((await wp('GET', '/users/me', { token, query: { context: 'edit' } })).body.email).toBe('');
    }
    // The owner who verified it signs in with it.
    const owner = await gw.token('author', 'apppw-owner', { user: 'apppw-owner', email });
    const { body } = await createPassword(owner, 'x');
    expect((await events(email, body.password)).status).toBe(200);
  });
});
