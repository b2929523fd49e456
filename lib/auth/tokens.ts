// Bearer-token authentication (docs/design.md §5) and the reading of Authorization headers (HTTP Basic
// with application passwords is checked in lib/auth/sign-in.ts). Every handler verifies the token
// itself, so that 401/403 keep the WordPress envelope and local runs behave exactly like AWS. The
// JWKS is cached at module scope, across invocations of a warm Lambda.
import { CognitoJwtVerifier, JwtRsaVerifier } from 'aws-jwt-verify';
import {
  JwtExpiredError,
  JwtInvalidAudienceError,
  JwtInvalidIssuerError,
  JwtInvalidSignatureError,
  JwtNotBeforeError,
  CognitoJwtInvalidClientIdError,
  KidNotFoundInJwksError,
  JwtParseError,
} from 'aws-jwt-verify/error';
import { unauthorized } from '#lib/contract/errors.js';
import { ROLES, type Principal, type Role } from '#lib/contract/principal.js';

interface Verifier {
  verify(token: string): Promise<Record<string, unknown>>;
}

export interface AuthSettings {
  cognitoUserPoolId?: string;
  cognitoClientId?: string;
  issuer?: string;
  audience?: string;
  jwksUri?: string;
  /** A JWKS given inline (JSON); the local runtime passes its development key this way. */
  jwks?: string;
  groupsClaim: string;
}

export function authSettings(env: NodeJS.ProcessEnv = process.env): AuthSettings {
  return {
    cognitoUserPoolId: env.COGNITO_USER_POOL_ID || undefined,
    cognitoClientId: env.COGNITO_CLIENT_ID || undefined,
    issuer: env.AUTH_ISSUER || undefined,
    audience: env.AUTH_AUDIENCE || undefined,
    jwksUri: env.AUTH_JWKS_URI || undefined,
    jwks: env.AUTH_JWKS || undefined,
    groupsClaim: env.AUTH_GROUPS_CLAIM || 'cognito:groups',
  };
}

function makeVerifier(s: AuthSettings): Verifier | undefined {
  if (s.cognitoUserPoolId) {
    // Cognito access tokens carry client_id (no aud); id tokens carry aud. Both are accepted.
    return CognitoJwtVerifier.create({
      userPoolId: s.cognitoUserPoolId,
      clientId: s.cognitoClientId ?? null,
      tokenUse: null,
    }) as unknown as Verifier;
  }
  if (!s.issuer) return undefined;
  const verifier = JwtRsaVerifier.create({
    issuer: s.issuer,
    audience: s.audience ?? null,
    jwksUri: s.jwksUri ?? `${s.issuer.replace(/\/+$/, '')}/.well-known/jwks.json`,
  });
  if (s.jwks) verifier.cacheJwks(JSON.parse(s.jwks));
  return verifier as unknown as Verifier;
}

let cached: { key: string; verifier: Verifier | undefined } | undefined;
function verifier(): Verifier | undefined {
  const s = authSettings();
  const key = JSON.stringify(s);
  if (cached?.key !== key) cached = { key, verifier: makeVerifier(s) };
  return cached.verifier;
}

function why(err: unknown): string {
  if (err instanceof JwtExpiredError) return 'The token has expired.';
  if (err instanceof JwtNotBeforeError) return 'The token is not valid yet.';
  if (err instanceof JwtInvalidIssuerError) return 'The token was issued by an issuer this API does not trust.';
  if (err instanceof JwtInvalidAudienceError || err instanceof CognitoJwtInvalidClientIdError) return 'The token was issued for another audience.';
  if (err instanceof JwtInvalidSignatureError || err instanceof KidNotFoundInJwksError) return 'The token signature is not valid.';
  if (err instanceof JwtParseError) return 'The token is malformed.';
  return 'The token could not be verified.';
}

export function rolesFrom(claims: Record<string, unknown>, claim: string): Role | undefined {
  const raw = claims[claim];
  const groups = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? raw.split(/[\s,]+/) : [];
  let best: Role | undefined;
  for (const role of ROLES) if (groups.includes(role)) best = role; // ROLES is in ascending order
  return best;
}

/** What an Authorization header holds, read as WordPress reads it for Basic. */
export type Credentials =
  | { scheme: 'none' }
  | { scheme: 'bearer'; token: string }
  | { scheme: 'basic'; login: string; password: string }
  /** More than one credential (two headers, which API Gateway joins with a comma, or a list). */
  | { scheme: 'several' }
  | { scheme: 'other' };

/**
 * Reads the header. As in WordPress, Basic credentials that do not decode to `login:password`,
 * or have an empty password, are no credentials at all (the caller is anonymous).
 */
export function readCredentials(header: string | undefined): Credentials {
  const value = header?.trim() ?? '';
  if (value === '') return { scheme: 'none' };
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length > 1) return parts.some((p) => /^basic\b/i.test(p)) ? { scheme: 'several' } : { scheme: 'other' };
  const bearer = /^Bearer\s+(\S+)$/i.exec(value);
  if (bearer) return { scheme: 'bearer', token: bearer[1]! };
  const basic = /^Basic(?:\s+(\S*))?$/i.exec(value);
  if (!basic) return { scheme: 'other' };
  const encoded = basic[1] ?? '';
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 === 1) return { scheme: 'none' };
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { scheme: 'none' };
  const password = decoded.slice(colon + 1);
  if (password === '') return { scheme: 'none' };
  return { scheme: 'basic', login: decoded.slice(0, colon), password };
}

/** `email_verified` is a boolean in Cognito's id tokens; some issuers send the string `"true"`. */
const isVerified = (claim: unknown) => claim === true || claim === 'true';

/** Verifies a bearer token: any failure is a 401, never silently anonymous. */
export async function verifyBearer(token: string): Promise<Principal> {
  const v = verifier();
  if (!v) throw unauthorized('This API has no token issuer configured.');
  let claims: Record<string, unknown>;
  try {
    claims = await v.verify(token);
  } catch (err) {
    throw unauthorized(why(err));
  }
  const sub = typeof claims.sub === 'string' ? claims.sub : undefined;
  if (!sub) throw unauthorized('The token has no subject.');
  const username = [claims.username, claims['cognito:username']].find((c): c is string => typeof c === 'string' && c !== '');
  // The e-mail address becomes a login of HTTP Basic (lib/store/credentials.ts), so only one the
  // issuer says it verified counts: anyone may put any address in a user pool's `email` attribute.
  // Cognito's id tokens carry `email_verified` with every `email`; a token with `email` and no
  // `email_verified` comes from an issuer that does not vouch for the address, so it is ignored.
  // (Cognito's access tokens have neither claim: their callers sign in with their username.)
  const email = typeof claims.email === 'string' && claims.email !== '' && isVerified(claims.email_verified) ? claims.email : undefined;
  const issuedAt = typeof claims.iat === 'number' && Number.isFinite(claims.iat) ? claims.iat : undefined;
  return {
    sub,
    role: rolesFrom(claims, authSettings().groupsClaim),
    login: username ?? sub,
    ...(email ? { email } : {}),
    ...(issuedAt !== undefined ? { issuedAt } : {}),
    via: { scheme: 'bearer' },
  };
}
