// Sign-in data: logins, credential records and application passwords (keys in ./keys.ts). An
// HTTP Basic request reads the login's pointer and then its user's whole credential partition,
// two small consistent reads, so that a revoked password fails at once.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ROLES } from '#lib/contract/principal.js';
import { config } from '#lib/runtime/config.js';
import { db } from './db.js';
import { ApiError } from '#lib/contract/errors.js';
import { getItem, queryAll } from './reads.js';
import { del, put, StaleItem, transact, type TransactItem } from './transactions.js';
import { keys } from './keys.js';
import type { AppPasswordItem, CredentialRecord, StoredRole } from './items.js';

export type { AppPasswordItem, CredentialRecord, StoredRole } from './items.js';

/** A role and the `iat` of the token (or import) that showed it. */
export interface RoleStamp {
  role: StoredRole;
  issuedAt: number;
}

const rank = (r: StoredRole) => (r === 'none' ? -1 : ROLES.indexOf(r));
/** The lower of two roles. */
export const lowerStored = (a: StoredRole, b: StoredRole): StoredRole => (rank(a) <= rank(b) ? a : b);

/**
 * The role a user's record holds once a token is seen: the newer token's, and of two issued in
 * the same second (which cannot be told apart) the lower, so that a kept token can never raise
 * its user back however close to the demotion it was issued.
 */
export function standingRole(stored: RoleStamp | undefined, seen: RoleStamp): RoleStamp {
  if (!stored || seen.issuedAt > stored.issuedAt) return seen;
  if (seen.issuedAt < stored.issuedAt) return stored;
  return { role: lowerStored(stored.role, seen.role), issuedAt: stored.issuedAt };
}

const sameStamp = (a: RoleStamp, b: RoleStamp) => a.role === b.role && a.issuedAt === b.issuedAt;

/** A record's stamp; none for a record that never had one (any token's role then stands). */
function stampOf(record: Pick<CredentialRecord, 'role' | 'roleIssuedAt'> | undefined): RoleStamp | undefined {
  return record && typeof record.roleIssuedAt === 'number' ? { role: record.role, issuedAt: record.roleIssuedAt } : undefined;
}

/**
 * The role of a password a token makes (never above the newest token's role) and the stamp its
 * user's record then holds.
 */
export function roleOfNewPassword(stored: Pick<CredentialRecord, 'role' | 'roleIssuedAt'> | undefined, token: RoleStamp): { password: StoredRole; record: RoleStamp } {
  const record = standingRole(stampOf(stored), token);
  return { password: lowerStored(token.role, record.role), record };
}

/**
 * The condition under which writing `stamp` to a record keeps standingRole's order: the stored
 * stamp is older, or of the same second with a role no lower (a write that lost a race to a newer
 * or lower stamp then fails instead of undoing it). `#r` and `#i` name `role` and `roleIssuedAt`.
 */
function notNewerThan(stamp: RoleStamp): { condition: string; values: Record<string, unknown> } {
  const atLeast = (['none', ...ROLES] as StoredRole[]).filter((r) => rank(r) >= rank(stamp.role));
  const names = atLeast.map((_, i) => `:ra${i}`);
  return {
    condition: `attribute_not_exists(#i) OR #i < :i OR (#i = :i AND #r IN (${names.join(', ')}))`,
    values: { ':i': stamp.issuedAt, ...Object.fromEntries(atLeast.map((r, i) => [names[i], r])) },
  };
}

export interface Credentials {
  record?: CredentialRecord;
  passwords: AppPasswordItem[];
}

/** The token subject a login (or e-mail) belongs to. */
export async function subOfLogin(login: string): Promise<string | undefined> {
  return (await getItem(keys.login(login)))?.sub;
}

/** A user's credential record and passwords, in one consistent Query. */
export async function readCredentials(sub: string): Promise<Credentials> {
  const items = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.credentials(sub).pk },
    ConsistentRead: true,
  });
  const out: Credentials = { passwords: [] };
  for (const item of items) {
    if (item.sk === 'USER') out.record = item as unknown as CredentialRecord;
    else if (String(item.sk).startsWith(keys.appPasswordPrefix)) out.passwords.push(item as unknown as AppPasswordItem);
  }
  out.passwords.sort((a, b) => a.created - b.created || a.uuid.localeCompare(b.uuid));
  return out;
}

export const loginTaken = () => new ApiError(409, 'rest_login_taken', 'This login belongs to another user; sign in with a token of that user.');
export const duplicateName = () => new ApiError(409, 'application_password_duplicate_name', 'Each application name should be unique.');

/**
 * Registers the user's login (and e-mail) and stores a new password, all or nothing. A login that
 * already points to another subject, or a name the user already gave a password, fails the
 * whole write.
 */
export async function createAppPassword(
  who: { sub: string; login: string; email?: string; userId: number; role: StoredRole; roleIssuedAt: number },
  item: Omit<AppPasswordItem, 'pk' | 'sk'>,
): Promise<void> {
  const record: CredentialRecord = {
    ...keys.credentials(who.sub),
    sk: 'USER',
    sub: who.sub,
    login: who.login,
    userId: who.userId,
    role: who.role,
    roleIssuedAt: who.roleIssuedAt,
    ...(who.email ? { email: who.email } : {}),
  };
  const ownLogin = (login: string): TransactItem => put({ ...keys.login(login), sub: who.sub }, 'attribute_not_exists(pk) OR #s = :s', { ':s': who.sub });
  // A newer (or same-second lower) role, stored meanwhile, stands: the create is then a lost race (409, which the client may retry).
  const guard = notNewerThan({ role: who.role, issuedAt: who.roleIssuedAt });
  const recordPut = put(record, `attribute_not_exists(pk) OR ${guard.condition}`, guard.values);
  recordPut.Put!.ExpressionAttributeNames = { '#r': 'role', '#i': 'roleIssuedAt' };
  const items: TransactItem[] = [
    ownLogin(who.login),
    recordPut,
    put({ ...keys.appPassword(who.sub, item.uuid), ...item }),
    put({ ...keys.appPasswordName(who.sub, item.name), uuid: item.uuid }),
  ];
  if (who.email && who.email.toLowerCase() !== who.login.toLowerCase()) items.push(ownLogin(who.email));
  for (const it of items) if (it.Put?.ConditionExpression?.includes('#s')) it.Put.ExpressionAttributeNames = { '#s': 'sub' };
  await transact(items, (index) => (index === 0 || index === 4 ? loginTaken() : index === 3 ? duplicateName() : undefined));
}

/** Removes one password and its name guard; undefined when it does not exist (any more). */
export async function deleteAppPassword(sub: string, uuid: string): Promise<AppPasswordItem | undefined> {
  const found = await getItem(keys.appPassword(sub, uuid));
  if (!found) return undefined;
  try {
    await transact([{ Delete: { ...del(keys.appPassword(sub, uuid)).Delete!, ConditionExpression: 'attribute_exists(pk)' } }, del(keys.appPasswordName(sub, found.name))]);
  } catch (err) {
    // Revoked by another request in between: it is gone either way.
    if (err instanceof StaleItem) return undefined;
    throw err;
  }
  return found;
}

/** Removes every password of a user; returns how many there were. */
export async function deleteAllAppPasswords(sub: string): Promise<number> {
  const { passwords } = await readCredentials(sub);
  // Two items per password; a transaction holds 100.
  for (let i = 0; i < passwords.length; i += 50) {
    const chunk = passwords.slice(i, i + 50);
    await transact(chunk.flatMap((p) => [del(keys.appPassword(sub, p.uuid)), del(keys.appPasswordName(sub, p.name))]));
  }
  return passwords.length;
}

const DAY_S = 86_400;

/**
 * Notes a password's use, as WordPress does: at most once a day from the same address. A
 * password revoked meanwhile is left alone.
 */
export async function recordUse(sub: string, item: AppPasswordItem, nowS: number, ip: string | undefined): Promise<void> {
  if (item.lastUsed !== undefined && item.lastUsed + DAY_S > nowS && item.lastIp === ip) return;
  try {
    await db().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: keys.appPassword(sub, item.uuid),
        UpdateExpression: ip ? 'SET lastUsed = :t, lastIp = :ip' : 'SET lastUsed = :t',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':t': nowS, ...(ip ? { ':ip': ip } : {}) },
      }),
    );
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
}

/** How long a container trusts that a user's stored role is at least as new as their token. */
const CONFIRMED_MS = 60_000;
/** Per subject, the stamp last read or written, and when. */
const confirmed = new Map<string, RoleStamp & { at: number }>();

/**
 * Carries the role of a user's bearer token to their credential record, so that a role taken
 * away also leaves the user's application passwords (their role is the lower of the two). The
 * record is made by the first token seen, password or not: a token kept from before a demotion
 * could otherwise make a password with the old role. Only a newer token changes the stored role
 * (standingRole): roles go down with time, and a kept older token cannot raise its user back.
 * It costs one small read per user and container a minute, and a write only when the stamp
 * changes (a new token, a user's first).
 */
export async function refreshRole(sub: string, role: StoredRole, issuedAt: number, nowMs = Date.now()): Promise<void> {
  const seen: RoleStamp = { role, issuedAt };
  const known = confirmed.get(sub);
  // Stored stamps only move on in standingRole's order: one this token would not change stays so.
  if (known && known.at + CONFIRMED_MS > nowMs && sameStamp(standingRole(known, seen), known)) return;
  const out = await db().send(
    new GetCommand({ TableName: config().tableName, Key: keys.credentials(sub), ProjectionExpression: '#r, #i', ExpressionAttributeNames: { '#r': 'role', '#i': 'roleIssuedAt' } }),
  );
  const stored = stampOf(out.Item as Pick<CredentialRecord, 'role' | 'roleIssuedAt'> | undefined);
  const standing = standingRole(stored, seen);
  if (!stored || !sameStamp(standing, stored)) {
    const guard = notNewerThan(standing);
    try {
      await db().send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: keys.credentials(sub),
          UpdateExpression: 'SET #r = :r, #i = :i, #s = :s',
          ConditionExpression: guard.condition,
          ExpressionAttributeNames: { '#r': 'role', '#i': 'roleIssuedAt', '#s': 'sub' },
          ExpressionAttributeValues: { ...guard.values, ':r': standing.role, ':s': sub },
        }),
      );
    } catch (err) {
      // A newer token got there first: its role stands, and the next request reads it.
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      confirmed.delete(sub);
      return;
    }
  }
  if (confirmed.size > 10_000) confirmed.clear();
  confirmed.set(sub, { ...standing, at: nowMs });
}

/**
 * The role a user had on a site moved here, as of `issuedAt` (the import's time, Unix seconds),
 * stored as their credential record's role: their application passwords then hold at most it, as
 * if a token of that role had been issued at that time. A token issued later sets the role again
 * (roles go down with time, or back up by a newer token); an older token, or an older import,
 * changes nothing, nor does one of the same second with a higher role (standingRole). False when a newer role was there already.
 */
export async function importRole(who: { sub: string; login: string; userId: number }, role: StoredRole, issuedAt: number): Promise<boolean> {
  const guard = notNewerThan({ role, issuedAt });
  try {
    await db().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: keys.credentials(who.sub),
        UpdateExpression: 'SET #r = :r, #i = :i, #s = :s, #l = if_not_exists(#l, :l), #u = :u',
        ConditionExpression: guard.condition,
        ExpressionAttributeNames: { '#r': 'role', '#i': 'roleIssuedAt', '#s': 'sub', '#l': 'login', '#u': 'userId' },
        ExpressionAttributeValues: { ...guard.values, ':r': role, ':s': who.sub, ':l': who.login, ':u': who.userId },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** Forgets the confirmations above (tests that change a user's role within a minute). */
export function forgetConfirmedRoles(): void {
  confirmed.clear();
}
