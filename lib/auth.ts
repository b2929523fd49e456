// Bearer-token authentication (DESIGN §5). Every handler verifies the token itself, so that
// 401/403 keep the WordPress envelope and local runs behave exactly like AWS. The JWKS is cached
// at module scope, across invocations of a warm Lambda.
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
import { unauthorized } from './errors.js';

export const ROLES = ['contributor', 'author', 'editor'] as const;
export type Role = (typeof ROLES)[number];

export interface Principal {
  /** The token subject: one subject is one user. */
  sub: string;
  /** The highest role among the token's groups, or undefined for a user with none of them. */
  role: Role | undefined;
}

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
  if (err instanceof JwtInvalidAudienceError || err instanceof CognitoJwtInvalidClientIdError)
    return 'The token was issued for another audience.';
  if (err instanceof JwtInvalidSignatureError || err instanceof KidNotFoundInJwksError)
    return 'The token signature is not valid.';
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

/**
 * The caller, from the Authorization header: undefined when there is none (anonymous).
 * A header that is present but not a valid bearer token is a 401, never silently anonymous.
 */
export async function authenticate(header: string | undefined): Promise<Principal | undefined> {
  if (header === undefined || header.trim() === '') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  if (!m) throw unauthorized('The Authorization header must be "Bearer <token>".');
  const v = verifier();
  if (!v) throw unauthorized('This API has no token issuer configured.');
  let claims: Record<string, unknown>;
  try {
    claims = await v.verify(m[1]!);
  } catch (err) {
    throw unauthorized(why(err));
  }
  const sub = typeof claims.sub === 'string' ? claims.sub : undefined;
  if (!sub) throw unauthorized('The token has no subject.');
  return { sub, role: rolesFrom(claims, authSettings().groupsClaim) };
}
