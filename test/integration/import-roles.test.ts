// A WordPress user moved here keeps their role as the ceiling of their application passwords: the
// import stores it as of the run (lib/store/credentials.ts importRole), a password made with a
// token issued before the import holds at most it, a token issued later sets it again, and a
// later import that lowers it lowers it.
import { beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#lib/local/invoke.js';
import type { SiteUser } from '#lib/import/records.js';
import { storedRole, writeRecords } from '#lib/import/writer.js';
import { getItem } from '#lib/store/reads.js';
import { keys } from '#lib/store/keys.js';
import { forgetConfirmedRoles } from '#lib/store/credentials.js';
import { useGateway } from '../support/gateway.js';

const gw = useGateway({ tablePrefix: 'import-roles' });
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
const wp = (method: string, route: string, o: Parameters<typeof gw.api>[2] = {}) => gw.api(method, gw.abs(`/en/wp/v2${route}`), o);
const rolesOf = async (authorization: string) => (await wp('GET', '/users/me', { headers: { authorization }, query: { context: 'edit' } })).body.roles;

let token = '';
beforeAll(async () => {
  token = await gw.token('editor', 'site-import');
});

const user = (login: string, id: number, role?: string): SiteUser => ({ kind: 'user', id, login, name: login, email: `${login}@example.org`, ...(role ? { role } : {}) });
const importUsers = async (...users: SiteUser[]) => {
  const s = await writeRecords(users, { send: invoke, token });
  expect(s.failed).toEqual([]);
  return s;
};
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('imported WordPress roles', () => {
  it('names WordPress roles as this API does', () => {
    expect(['administrator', 'editor', 'author', 'contributor', 'subscriber', 'shop_manager'].map(storedRole)).toEqual([
      'editor',
      'editor',
      'author',
      'contributor',
      'none',
      'none',
    ]);
  });

  it('caps a password made with a token issued before the import at the imported role', async () => {
    const before = Math.floor(Date.now() / 1000) - 60;
    await importUsers(user('ana', 41, 'author'));
    expect(await getItem(keys.credentials('ana'))).toMatchObject({ role: 'author', userId: 41, login: 'ana' });
    // A token of the identity provider issued before the import says editor: its password is an author's.
    const old = await gw.token('editor', 'ana', { user: 'ana', issuedAt: before });
    const made = await wp('POST', '/users/me/application-passwords', { token: old, body: { name: 'kept from before' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const auth = basic('ana', made.body.password);
    expect(await rolesOf(auth)).toEqual(['author']);
    expect((await wp('GET', '/users/me', { token: old })).body.id).toBe(41);
    // The old token seen again does not raise it.
    forgetConfirmedRoles();
    expect((await gw.api('GET', '/events', { token: old })).status).toBe(200);
    expect(await rolesOf(auth)).toEqual(['author']);
    // A token issued after the import lowers it.
    await wait(1100);
    const later = await gw.token('contributor', 'ana', { user: 'ana', issuedAt: Math.floor(Date.now() / 1000) });
    expect((await gw.api('GET', '/events', { token: later })).status).toBe(200);
    expect(await rolesOf(auth)).toEqual(['contributor']);
  });

  it('lowers the role when a later import says the site lowered it, and a subscriber may not write', async () => {
    await importUsers(user('ben', 42, 'editor'));
    const now = Math.floor(Date.now() / 1000);
    const tok = await gw.token('editor', 'ben', { user: 'ben', issuedAt: now });
    const made = await wp('POST', '/users/me/application-passwords', { token: tok, body: { name: 'ben' } });
    expect(made.status).toBe(201);
    const auth = basic('ben', made.body.password);
    expect(await rolesOf(auth)).toEqual(['editor']);
    await wait(1100);
    await importUsers(user('ben', 42, 'subscriber'));
    expect(await rolesOf(auth)).toEqual([]);
    const refused = await gw.api('POST', '/events', {
      headers: { authorization: auth },
      body: { title: 'No', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' },
    });
    expect(refused.status).toBe(403);
  });

  it('leaves the role alone for a source without roles (an export file)', async () => {
    await importUsers(user('cid', 43));
    expect(await getItem(keys.credentials('cid'))).toBeUndefined();
    expect(await getItem(keys.userBySub('cid'))).toMatchObject({ userId: 43 });
  });
});
