// The fuzzer as part of `npm test`: a fixed seed and 2,000 generated requests against the local
// gateway on a fresh table (fuzz/ has the generators, the oracle and the runner; `npm run
// fuzz` runs 20,000 with a random seed). It fails when any response breaks a rule: a 5xx, an
// error outside WordPress's envelope, a status or body /doc does not declare, a success for a
// request that breaks its arguments' declared types, stored control characters, a changed
// prototype, or a plain request that behaves differently after the run than before it. The
// report in the failure message lists each kind of failure with a minimized reproducer.
// Random requests reach some successes of WordPress's routes only now and then, so a fixed tour
// of them (every operation's success, and its usual refusals) is judged by the same oracle.
// Its own file, so its own process (vitest forks): a request that pollutes a prototype must not
// reach another test file.
import { describe, expect, it } from 'vitest';
import { ensureDevKeys, mintToken } from '#lib/local/dev-auth.js';
import { operation } from '#lib/contract/operations.js';
import { apiPath, client } from '../../fuzz/client.js';
import type { Caller, FuzzRequest } from '../../fuzz/model.js';
import { Oracle } from '../../fuzz/oracle.js';
import { failed, formatSummary } from '../../fuzz/report.js';
import { runFuzz } from '../../fuzz/runner.js';
import { basic } from '../../fuzz/seed.js';
import { useGateway } from '../support/gateway.js';

const SEED = 20_261_123;
const RUNS = 2_000;

const gw = useGateway({ tablePrefix: 'fuzz' });

describe('generated requests (fuzzing)', () => {
  it(`answers ${RUNS} requests from seed ${SEED} by the rules and /doc`, { timeout: 240_000 }, async () => {
    const summary = await runFuzz({ origin: gw.origin, keys: await ensureDevKeys('.local'), runs: RUNS, seed: SEED, concurrency: 8, minimizeBudget: 250 });
    const report = formatSummary(summary);
    expect(summary.sent).toBe(RUNS);
    expect(failed(summary), report).toBe(false);
  });

  it("answers a tour of WordPress's routes as /doc declares: every operation's success and its refusals", { timeout: 60_000 }, async () => {
    const http = client(gw.origin, 2);
    try {
      const keys = await ensureDevKeys('.local');
      const doc = JSON.parse((await http.send({ method: 'GET', target: `${apiPath('en')}/doc`, headers: {} })).text);
      const oracle = new Oracle(doc);
      const login = 'fuzz-tour';
      const bearer = `Bearer ${await mintToken(keys, { role: 'author', sub: login })}`;
      const other = `Bearer ${await mintToken(keys, { role: 'contributor', sub: 'fuzz-tour-other' })}`;
      let n = 0;
      /** One request to an operation, judged by the oracle; returns its status, code and body. */
      const send = async (opId: string, method: string, path: string, authorization: string | undefined, body?: unknown) => {
        const op = operation(opId);
        const headers: Record<string, string> = { ...(authorization ? { authorization } : {}), ...(body ? { 'content-type': 'application/json' } : {}) };
        const target = `${apiPath('en', op.api)}${path}`;
        const res = await http.send({ method, target, headers, ...(body ? { body: Buffer.from(JSON.stringify(body)) } : {}) });
        const req: FuzzRequest = {
          n: n++,
          op: opId,
          method,
          lang: 'en',
          api: op.api,
          segments: [],
          query: [],
          caller: 'editor' as Caller,
          headers,
          expect: { reject: [] },
          exclusive: false,
          notes: [],
        };
        expect(oracle.check(req, res), `${method} ${target} -> ${res.status} ${res.text.slice(0, 300)}`).toEqual([]);
        const parsed = JSON.parse(res.text);
        return { status: res.status, code: parsed?.code as string | undefined, body: parsed, headers: res.headers };
      };
      const passwords = '/users/me/application-passwords';

      const me = await send('users.me', 'GET', '/users/me', bearer);
      expect([me.status, me.body.name]).toEqual([200, login]);
      expect(Object.keys((await send('users.me', 'GET', '/users/me?context=edit', bearer)).body)).toContain('roles');
      expect((await send('users.me', 'GET', '/users/me', undefined)).code).toBe('rest_not_logged_in');

      const made = await send('appPasswords.create', 'POST', passwords, bearer, { name: 'Tour', app_id: '6ba7b810-9dad-11d1-80b4-00c04fd430c8' });
      expect(made.status).toBe(201);
      expect(made.headers.location).toBe(`${gw.origin}/en/wp/v2/users/${me.body.id}/application-passwords/${made.body.uuid}`);
      expect((await send('appPasswords.create', 'POST', passwords, bearer, { name: 'Tour' })).code).toBe('application_password_duplicate_name');
      expect((await send('appPasswords.create', 'POST', passwords, bearer, { name: ' <b></b> ' })).code).toBe('application_password_empty_name');
      expect((await send('appPasswords.create', 'POST', `/users/${me.body.id + 1000}/application-passwords`, bearer, { name: 'X' })).code).toBe('rest_user_invalid_id');
      const app = basic(login, made.body.password);

      expect((await send('appPasswords.list', 'GET', passwords, bearer)).body.map((p: { uuid: string }) => p.uuid)).toEqual([made.body.uuid]);
      expect((await send('appPasswords.list', 'GET', `/users/${me.body.id}/application-passwords`, other)).code).toBe('rest_cannot_list_application_passwords');
      expect((await send('appPasswords.list', 'GET', passwords, undefined)).status).toBe(401);
      expect((await send('appPasswords.get', 'GET', `${passwords}/${made.body.uuid}`, bearer)).body.name).toBe('Tour');
      expect((await send('appPasswords.get', 'GET', `${passwords}/${made.body.uuid}`, other)).code).toBe('rest_application_password_not_found');

      // Signed in with the password: WordPress's routes and TEC's writes.
      const seen = await send('appPasswords.introspect', 'GET', `${passwords}/introspect`, app);
      expect([seen.status, seen.body.uuid, typeof seen.body.last_used]).toEqual([200, made.body.uuid, 'string']);
      expect((await send('appPasswords.introspect', 'GET', `${passwords}/introspect`, bearer)).code).toBe('rest_no_authenticated_app_password');
      expect((await send('users.me', 'GET', '/users/me', app)).body.id).toBe(me.body.id);
      expect((await send('events.create', 'POST', '/events', app, { title: 'Tour event', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00' })).status).toBe(201);
      expect((await send('users.me', 'GET', '/users/me', basic(login, 'abcd efgh ijkl mnop qrst uvwx'))).code).toBe('incorrect_password');
      expect((await send('users.me', 'GET', '/users/me', basic('nobody-here', 'abcd'))).code).toBe('invalid_username');

      const gone = await send('appPasswords.delete', 'DELETE', `${passwords}/${made.body.uuid}`, bearer);
      expect([gone.status, gone.body.deleted, gone.body.previous.uuid]).toEqual([200, true, made.body.uuid]);
      expect((await send('appPasswords.delete', 'DELETE', `${passwords}/${made.body.uuid}`, bearer)).code).toBe('rest_application_password_not_found');
      expect((await send('users.me', 'GET', '/users/me', app)).code).toBe('incorrect_password');

      await send('appPasswords.create', 'POST', passwords, bearer, { name: 'Tour 2' });
      expect((await send('appPasswords.deleteAll', 'DELETE', passwords, bearer)).body).toEqual({ deleted: true, count: 1 });
      expect((await send('appPasswords.deleteAll', 'DELETE', `/users/${me.body.id}/application-passwords`, other)).code).toBe('rest_cannot_delete_application_passwords');
    } finally {
      http.close();
    }
  });
});
