// Who the caller is, from the Authorization header: a bearer token (verified in lib/auth/tokens.ts) or
// HTTP Basic with an application password, checked as WordPress checks it. A bearer token also
// carries its role to the user's credential record, so that passwords never outrank their user.
import { readCredentials as readHeader, verifyBearer } from './tokens.js';
import type { Principal, Role } from '#lib/contract/principal.js';
import { hashesEqual, hashPassword } from './app-passwords.js';
import { passwordKey } from './app-password-key.js';
import { ApiError, unauthorized } from '#lib/contract/errors.js';
import { logError } from '#lib/observe/log.js';
import { lowerStored, readCredentials, recordUse, refreshRole, subOfLogin, type StoredRole } from '#lib/store/credentials.js';
import { waitAll } from '#lib/runtime/settle.js';

export const signInErrors = {
  invalidUsername: () => new ApiError(401, 'invalid_username', '<strong>Error:</strong> Unknown username. Check again or try your email address.'),
  incorrectPassword: () => new ApiError(401, 'incorrect_password', 'The provided password is an invalid application password.'),
};

/** The lower of two roles: a password keeps its role only while its user still has it. */
export function lowerRole(a: StoredRole, b: StoredRole): Role | undefined {
  const low = lowerStored(a, b);
  return low === 'none' ? undefined : low;
}

export interface RequestFacts {
  /** The caller's address, recorded as a password's `last_ip`. */
  ip?: string;
  now: Date;
}

/**
 * Takes a bearer token's role refresh (below) to run beside the request, which awaits it before
 * answering; a failure is then logged, not answered. Without one, the refresh is done before the
 * caller is identified. A read passes one: nothing it answers depends on the refresh.
 */
export type Aside = (task: Promise<void>) => void;

/** The caller, or undefined for an anonymous request. Bad credentials are a 401. */
export async function identify(header: string | undefined, facts: RequestFacts, aside?: Aside): Promise<Principal | undefined> {
  const c = readHeader(header);
  switch (c.scheme) {
    case 'none':
      return undefined;
    case 'other':
      throw unauthorized('The Authorization header must be "Bearer <token>" or "Basic <login:application password>".');
    case 'several':
      throw signInErrors.incorrectPassword();
    case 'bearer': {
      const principal = await verifyBearer(c.token);
      const refresh = () => refreshRole(principal.sub, principal.role ?? 'none', principal.issuedAt ?? 0, facts.now.getTime());
      if (aside) aside(refresh().catch((err: unknown) => logError(err, "Could not carry the token's role to the user's credential record")));
      else await refresh();
      return principal;
    }
    case 'basic':
      return withAppPassword(c.login, c.password, facts);
  }
}

/** Longer logins name nobody: WordPress's are at most 60 characters, e-mail addresses 254. */
export const MAX_LOGIN_BYTES = 254;

async function withAppPassword(login: string, password: string, facts: RequestFacts): Promise<Principal> {
  if (login === '' || Buffer.byteLength(login) > MAX_LOGIN_BYTES) throw signInErrors.invalidUsername();
  const sub = await subOfLogin(login);
  if (!sub) throw signInErrors.invalidUsername();
  const [key, credentials] = await waitAll([passwordKey(), readCredentials(sub)]);
  const presented = hashPassword(key, password);
  // Every stored hash is compared, so the time does not tell which one matched.
  let match: (typeof credentials.passwords)[number] | undefined;
  for (const item of credentials.passwords) if (hashesEqual(presented, item.hash) && !match) match = item;
  const record = credentials.record;
  if (!match || !record) throw signInErrors.incorrectPassword();
  // Before the request runs, as WordPress records it: the request itself may list the password.
  await recordUse(sub, match, Math.floor(facts.now.getTime() / 1000), facts.ip);
  return {
    sub,
    role: lowerRole(match.role, record.role),
    login: record.login ?? sub,
    ...(record.email ? { email: record.email } : {}),
    via: { scheme: 'basic', appPassword: match.uuid },
  };
}

/**
 * The `WWW-Authenticate` of a 401: the schemes this API takes. Basic is named only to a request
 * that tried it, because a Basic challenge makes browsers open a sign-in dialog for any script's
 * request (the /docs page's, a calendar widget's) that only lacked a bearer token.
 */
export function challengeFor(header: string | undefined): string {
  const triedBasic = /(?:^|,)\s*basic\b/i.test(header ?? '');
  return triedBasic ? 'Basic realm="Event Calendar API", charset="UTF-8", Bearer' : 'Bearer';
}
