// Bearer tokens end to end (docs/design.md §5): every bad token is 401 rest_forbidden with a message that
// says what is wrong (lib/auth/tokens.ts), on write and read routes alike (never silently anonymous),
// and `npm run token` prints a token the server accepts.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { generateKeyPair, importJWK, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDevKeys, LOCAL_AUDIENCE, LOCAL_ISSUER, mintToken, type DevKeys } from '#lib/local/dev-auth.js';
import { useGateway } from '../support/gateway.js';
import { RUN } from '../support/run-id.js';

type Json = Record<string, any>;

const REPO = fileURLToPath(new URL('../..', import.meta.url));

const MESSAGES = {
  expired: 'The token has expired.',
  notYet: 'The token is not valid yet.',
  issuer: 'The token was issued by an issuer this API does not trust.',
  audience: 'The token was issued for another audience.',
  signature: 'The token signature is not valid.',
  malformed: 'The token is malformed.',
  scheme: 'The Authorization header must be "Bearer <token>" or "Basic <login:application password>".',
  noSubject: 'The token has no subject.',
};
const unauthorized = (message: string) => ({ code: 'rest_forbidden', message, data: { status: 401 } });

/** The claims of a JWT, without verifying it. */
function claimsOf(token: string): Json {
  const [, payload] = token.split('.');
  return JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
}

describe('bearer tokens', () => {
  const gw = useGateway({ tablePrefix: 'e2e-tokens' });
  let keys: DevKeys;
  let published: Json;

  /** A token signed with the development key, with full control over its claims. */
  async function signed(claims: Json, set: (jwt: SignJWT) => SignJWT = (j) => j): Promise<string> {
    const key = await importJWK(keys.privateJwk, 'RS256');
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: keys.privateJwk.kid! }).setIssuedAt();
    return set(jwt).sign(key);
  }

  /** A token signed by a key this API has never seen, otherwise perfect. */
  async function forged(kid: string | undefined): Promise<string> {
    const { privateKey } = await generateKeyPair('RS256');
    return new SignJWT({ 'cognito:groups': ['editor'] })
      .setProtectedHeader(kid ? { alg: 'RS256', kid } : { alg: 'RS256' })
      .setSubject('mallory')
      .setIssuer(LOCAL_ISSUER)
      .setAudience(LOCAL_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
  }

  beforeAll(async () => {
    keys = await ensureDevKeys('.local');
    const res = await gw.api('POST', '/events', {
      token: 'editor',
      body: { title: `Public ${RUN}`, start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 12:00:00' },
    });
    expect(res.status, res.text).toBe(201);
    published = res.body;
  });

  /** Every kind of bad credentials: [label, the Authorization header, the expected message]. */
  const BAD: [string, () => Promise<string>, string][] = [
    ['an expired token', async () => `Bearer ${await mintToken(keys, { role: 'editor', expiresAt: Math.floor(Date.now() / 1000) - 3600 })}`, MESSAGES.expired],
    ['a token signed by another key (same kid)', async () => `Bearer ${await forged(keys.publicJwk.kid)}`, MESSAGES.signature],
    ['a token issued by another issuer', async () => `Bearer ${await mintToken(keys, { role: 'editor', issuer: 'https://evil.example.com/' })}`, MESSAGES.issuer],
    ['a token issued for another audience', async () => `Bearer ${await mintToken(keys, { role: 'editor', audience: 'some-other-api' })}`, MESSAGES.audience],
    [
      'a token that is not valid yet (nbf)',
      async () =>
        `Bearer ${await signed({ 'cognito:groups': ['editor'] }, (j) =>
          j
            .setSubject('early')
            .setIssuer(LOCAL_ISSUER)
            .setAudience(LOCAL_AUDIENCE)
            .setNotBefore(Math.floor(Date.now() / 1000) + 3600)
            .setExpirationTime('2h'),
        )}`,
      MESSAGES.notYet,
    ],
    [
      'a token without a subject',
      async () => `Bearer ${await signed({ 'cognito:groups': ['editor'] }, (j) => j.setIssuer(LOCAL_ISSUER).setAudience(LOCAL_AUDIENCE).setExpirationTime('1h'))}`,
      MESSAGES.noSubject,
    ],
    ['a malformed token (one word)', async () => 'Bearer not-a-jwt', MESSAGES.malformed],
    ['a malformed token (three garbage parts)', async () => 'Bearer abc.def.ghi', MESSAGES.malformed],
    ['a malformed token (a truncated real one)', async () => `Bearer ${(await mintToken(keys, { role: 'editor' })).split('.').slice(0, 2).join('.')}`, MESSAGES.malformed],
    ['a Token Authorization header', async () => `Token ${await mintToken(keys, { role: 'editor' })}`, MESSAGES.scheme],
    ['a bare token without a scheme', async () => await mintToken(keys, { role: 'editor' }), MESSAGES.scheme],
    ['"Bearer" alone', async () => 'Bearer', MESSAGES.scheme],
    ['"Bearer" with two words', async () => 'Bearer abc def', MESSAGES.scheme],
  ];

  const routes: [string, string, () => Json | undefined][] = [
    ['POST', '/events', () => ({ title: 'Nope', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' })],
    ['DELETE', '/events/{id}', () => undefined],
    ['POST', '/categories', () => ({ name: `Nope ${RUN}` })],
    ['GET', '/events', () => undefined],
    ['GET', '/events/{id}', () => undefined],
    ['GET', '/venues', () => undefined],
    ['GET', '/categories', () => undefined],
    ['GET', '', () => undefined],
  ];

  for (const [label, header, message] of BAD) {
    describe(label, () => {
      for (const [method, path, body] of routes) {
        it(`${method} ${path || '/'} → 401 rest_forbidden: ${message}`, async () => {
          const res = await gw.api(method, path.replace('{id}', String(published.id)), { headers: { authorization: await header() }, body: body() });
          expect(res.status, res.text).toBe(401);
          expect(res.body).toEqual(unauthorized(message));
        });
      }

      it('a write with an invalid body is still 401 (authentication comes first)', async () => {
        const res = await gw.api('POST', '/events', { headers: { authorization: await header() }, body: { title: '' } });
        expect(res.body).toEqual(unauthorized(message));
      });
    });
  }

  it('nothing was written by any of the refused requests', async () => {
    const res = await gw.api('GET', '/events', { query: { start_date: '2031-01-01', end_date: '2031-01-01' } });
    expect(res.body.total).toBe(0);
    expect((await gw.api('GET', `/events/${published.id}`)).status).toBe(200);
    expect((await gw.api('GET', '/categories', { query: { search: RUN, hide_empty: false } })).body.categories ?? []).toEqual([]);
  });

  it('a token signed by another key with an unknown kid (or none) is 401 too', async () => {
    for (const kid of ['someone-elses-key', undefined]) {
      const res = await gw.api('GET', '/events', { headers: { authorization: `Bearer ${await forged(kid)}` } });
      expect(res.status, res.text).toBe(401);
      expect(res.body.code).toBe('rest_forbidden');
      expect(res.body.data).toEqual({ status: 401 });
    }
  }, 30_000);

  it('an unsigned token (alg none) is 401', async () => {
    const b64 = (o: Json) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const token = `${b64({ alg: 'none', typ: 'JWT', kid: keys.publicJwk.kid })}.${b64({ sub: 'x', iss: LOCAL_ISSUER, aud: LOCAL_AUDIENCE, exp: now + 3600, 'cognito:groups': ['editor'] })}.`;
    const res = await gw.api('POST', '/events', { headers: { authorization: `Bearer ${token}` }, body: { title: 'x', start_date: '2031-01-01', end_date: '2031-01-01' } });
    expect(res.status, res.text).toBe(401);
    expect(res.body.code).toBe('rest_forbidden');
  });

  it('a valid token works with any case of "Bearer" and surrounding spaces', async () => {
    const token = await gw.token('editor', `case-${RUN}`);
    for (const [i, header] of [`bearer ${token}`, `BEARER ${token}`, `  Bearer   ${token}  `].entries()) {
      const res = await gw.api('POST', '/tags', { headers: { authorization: header }, body: { name: `Case ${i} ${RUN}` } });
      expect(res.status, res.text).toBe(201);
    }
  });

  it('an empty Authorization header is anonymous: reads work, writes are 401 with the generic message', async () => {
    expect((await gw.api('GET', `/events/${published.id}`, { headers: { authorization: '' } })).status).toBe(200);
    const res = await gw.api('POST', '/tags', { headers: { authorization: '' }, body: { name: `Empty ${RUN}` } });
    expect(res.body).toEqual(unauthorized('Sorry, you are not allowed to do that.'));
  });

  it('the highest role among the groups counts', async () => {
    const token = await signed({ 'cognito:groups': ['contributor', 'editor', 'somethingelse'] }, (j) =>
      j.setSubject(`multi-${RUN}`).setIssuer(LOCAL_ISSUER).setAudience(LOCAL_AUDIENCE).setExpirationTime('1h'),
    );
    const res = await gw.api('POST', '/categories', { token, body: { name: `Multi ${RUN}` } });
    expect(res.status, res.text).toBe(201);
  });

  describe('npm run token', () => {
    const run = promisify(execFile);
    let out: { stdout: string; stderr: string };
    let token: string;
    const started = Math.floor(Date.now() / 1000);

    beforeAll(async () => {
      out = await run('npm', ['run', 'token', '--', '--role', 'author', '--sub', 'alice', '--ttl', '2h'], { cwd: REPO, timeout: 60_000 });
      token = out.stdout.trim().split('\n').at(-1)!.trim();
    }, 60_000);

    it('prints a JWT as the last line of its output, for the subject and lifetime asked for', () => {
      expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      const claims = claimsOf(token);
      expect(claims.sub).toBe('alice');
      expect(claims['cognito:groups']).toEqual(['author']);
      expect(claims.iss).toBe(LOCAL_ISSUER);
      expect(claims.aud).toBe(LOCAL_AUDIENCE);
      expect(claims.exp - claims.iat).toBe(2 * 3600);
      const now = Math.floor(Date.now() / 1000);
      expect(claims.exp).toBeGreaterThanOrEqual(started + 2 * 3600 - 5);
      expect(claims.exp).toBeLessThanOrEqual(now + 2 * 3600 + 5);
    });

    it('the server accepts it, as an author named alice', async () => {
      const created = await gw.api('POST', '/events', {
        token,
        body: { title: `Alice ${RUN}`, start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 11:00:00', status: 'draft' },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body.status).toBe('draft');
      // Her own draft: she reads it, anonymous callers do not.
      expect((await gw.api('GET', `/events/${created.body.id}`, { token })).status).toBe(200);
      expect((await gw.api('GET', `/events/${created.body.id}`)).status).toBe(403);
      // Authors publish.
      const published = await gw.api('PATCH', `/events/${created.body.id}`, { token, body: { status: 'publish' } });
      expect(published.status, published.text).toBe(200);
      expect(published.body.status).toBe('publish');
      // Another token for the same subject is the same user.
      const again = await gw.token('author', 'alice');
      expect((await gw.api('PATCH', `/events/${created.body.id}`, { token: again, body: { title: 'Still alice' } })).status).toBe(200);
      // A different subject is a different user.
      const bob = await gw.token('author', `bob-${RUN}`);
      expect((await gw.api('PATCH', `/events/${created.body.id}`, { token: bob, body: { title: 'Bob' } })).status).toBe(403);
    });

    it('an unknown role is refused with a non-zero exit', async () => {
      const err = await run('npm', ['run', 'token', '--', '--role', 'superuser'], { cwd: REPO, timeout: 60_000 }).catch((e: unknown) => e as { code?: number; stderr?: string });
      expect((err as { code?: number }).code).not.toBe(0);
      expect((err as { code?: number }).code).toBeDefined();
      expect((err as { stderr?: string }).stderr).toContain('--role must be one of');
    }, 60_000);
  });
});
