// The local development issuer: an RSA key pair kept under .local/, which `npm run token` signs
// with and the local runtime trusts (through AUTH_JWKS, so handlers never fetch a JWKS).
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import type { Role } from '#lib/contract/principal.js';

export const LOCAL_ISSUER = 'urn:event-calendar:local';
export const LOCAL_AUDIENCE = 'event-calendar-local';
const KID = 'local-dev-1';

export interface DevKeys {
  privateJwk: JWK;
  publicJwk: JWK;
}

export async function ensureDevKeys(dir = '.local'): Promise<DevKeys> {
  const file = join(dir, 'dev-keys.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as DevKeys;
  } catch {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const keys: DevKeys = {
      privateJwk: { ...(await exportJWK(privateKey)), kid: KID, alg: 'RS256', use: 'sig' },
      publicJwk: { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' },
    };
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
    return keys;
  }
}

/**
 * The environment that makes handlers trust the development issuer, and hash application
 * passwords with a key derived from the development key (on AWS the key is a secret).
 */
export function localAuthEnv(keys: DevKeys): Record<string, string> {
  return {
    APP_PASSWORD_KEY: createHash('sha256')
      .update(`application passwords\u0000${String(keys.privateJwk.d)}`)
      .digest('base64url'),
    AUTH_ISSUER: LOCAL_ISSUER,
    AUTH_AUDIENCE: LOCAL_AUDIENCE,
    AUTH_JWKS_URI: 'http://127.0.0.1/.well-known/jwks.json',
    AUTH_JWKS: JSON.stringify({ keys: [keys.publicJwk] }),
  };
}

export interface MintOptions {
  role?: Role;
  sub?: string;
  /** The `username` claim (the login of HTTP Basic); default: the subject. */
  user?: string;
  email?: string;
  /** The `email_verified` claim sent with `email`, as Cognito's id tokens do (default true); null leaves it out. */
  emailVerified?: boolean | null;
  /** Lifetime, e.g. '1h', '30m', or seconds. */
  ttl?: string | number;
  issuer?: string;
  audience?: string;
  /** Overrides for tests of the bad-token cases. */
  expiresAt?: number;
  /** The `iat` claim (Unix seconds); default: now. */
  issuedAt?: number;
}

export async function mintToken(keys: DevKeys, opts: MintOptions = {}): Promise<string> {
  const key = await importJWK(keys.privateJwk, 'RS256');
  const sub = opts.sub ?? `local-${opts.role ?? 'user'}`;
  const verified = opts.emailVerified === undefined ? true : opts.emailVerified;
  const email = opts.email ? { email: opts.email, ...(verified === null ? {} : { email_verified: verified }) } : {};
  const jwt = new SignJWT({ 'cognito:groups': opts.role ? [opts.role] : [], username: opts.user ?? sub, ...email })
    .setProtectedHeader({ alg: 'RS256', kid: keys.privateJwk.kid })
    .setSubject(sub)
    .setIssuer(opts.issuer ?? LOCAL_ISSUER)
    .setAudience(opts.audience ?? LOCAL_AUDIENCE)
    .setIssuedAt(opts.issuedAt);
  if (opts.expiresAt !== undefined) jwt.setExpirationTime(opts.expiresAt);
  else jwt.setExpirationTime(typeof opts.ttl === 'number' ? Math.floor(Date.now() / 1000) + opts.ttl : (opts.ttl ?? '1h'));
  return jwt.sign(key);
}
