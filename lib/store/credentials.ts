// Sign-in data: logins, credential records and application passwords (keys in ./keys.ts). An
// HTTP Basic request reads the login's pointer and then its user's whole credential partition,
// two small consistent reads, so that a revoked password fails at once.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Role } from '#lib/contract/principal.js';
import { config } from '#lib/runtime/config.js';
import { db } from './db.js';
import { ApiError } from '#lib/contract/errors.js';
import { getItem, queryAll } from './reads.js';
import { del, put, StaleItem, transact, type TransactItem } from './transactions.js';
import { keys } from './keys.js';

/** The role a credential record or password holds; `none` for a user without one. */
export type StoredRole = Role | 'none';

export interface CredentialRecord {
  pk: string;
  sk: 'USER';
  sub: string;
  /** The login as the user's token names it (case kept for display). */
  login: string;
  email?: string;
  userId: number;
  /** The role of the user's newest bearer token seen by the API (by its `iat`). */
  role: StoredRole;
  /** That token's `iat` (Unix seconds): a token issued before it cannot change `role`. */
  roleIssuedAt?: number;
}

export interface AppPasswordItem {
  pk: string;
  sk: string;
  uuid: string;
  appId: string;
  name: string;
  /** Unix seconds. */
  created: number;
  lastUsed?: number;
  lastIp?: string;
  hash: string;
  /** The role its user had when it was made. */
  role: StoredRole;
}

export interface Credentials {
  record?: CredentialRecord;
  passwords: AppPasswordItem[];
}

/** The token subject a login (or e-mail) belongs to. */
export async function subOfLogin(login: string): Promise<string | undefined> {
  return (await getItem<{ sub: string }>(keys.login(login)))?.sub;
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
  const items: TransactItem[] = [
    ownLogin(who.login),
    // A newer token's role, stored meanwhile, stands: the create is then a lost race (409, which the client may retry).
    put(record, 'attribute_not_exists(pk) OR attribute_not_exists(roleIssuedAt) OR roleIssuedAt <= :i', { ':i': who.roleIssuedAt }),
    put({ ...keys.appPassword(who.sub, item.uuid), ...item }),
    put({ ...keys.appPasswordName(who.sub, item.name), uuid: item.uuid }),
  ];
  if (who.email && who.email.toLowerCase() !== who.login.toLowerCase()) items.push(ownLogin(who.email));
  for (const it of items) if (it.Put?.ConditionExpression?.includes('#s')) it.Put.ExpressionAttributeNames = { '#s': 'sub' };
  await transact(items, (index) => (index === 0 || index === 4 ? loginTaken() : index === 3 ? duplicateName() : undefined));
}

/** Removes one password and its name guard; undefined when it does not exist (any more). */
export async function deleteAppPassword(sub: string, uuid: string): Promise<AppPasswordItem | undefined> {
  const found = await getItem<AppPasswordItem>(keys.appPassword(sub, uuid));
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

/** How long a container trusts that a user's stored role matches their token. */
const CONFIRMED_MS = 60_000;
/** Per subject, the role last confirmed, the `iat` of the token that showed it, and when. */
const confirmed = new Map<string, { role: StoredRole; issuedAt: number; at: number }>();

/**
 * Carries the role of a user's bearer token to their credential record, so that a role taken
 * away also leaves the user's application passwords (their role is the lower of the two). Only a
 * token at least as new as the one that set the stored role may change it: roles go down with
 * time, and a kept older token cannot raise its user back. A user without passwords has no
 * record and costs one small read (then nothing for a minute).
 */
export async function refreshRole(sub: string, role: StoredRole, issuedAt: number, nowMs = Date.now()): Promise<void> {
  const seen = confirmed.get(sub);
  if (seen?.role === role && seen.issuedAt >= issuedAt && seen.at + CONFIRMED_MS > nowMs) return;
  const out = await db().send(
    new GetCommand({ TableName: config().tableName, Key: keys.credentials(sub), ProjectionExpression: '#r, #i', ExpressionAttributeNames: { '#r': 'role', '#i': 'roleIssuedAt' } }),
  );
  const stored = out.Item as Pick<CredentialRecord, 'role' | 'roleIssuedAt'> | undefined;
  const storedAt = stored?.roleIssuedAt ?? 0;
  // An older token changes nothing; a newer one records its time even when its role is the same.
  if (stored && issuedAt >= storedAt && (stored.role !== role || issuedAt > storedAt)) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: keys.credentials(sub),
          UpdateExpression: 'SET #r = :r, #i = :i',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#i) OR #i <= :i)',
          ExpressionAttributeNames: { '#r': 'role', '#i': 'roleIssuedAt' },
          ExpressionAttributeValues: { ':r': role, ':i': issuedAt },
        }),
      );
    } catch (err) {
      // A newer token got there first: its role stands.
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }
  if (confirmed.size > 10_000) confirmed.clear();
  confirmed.set(sub, { role, issuedAt: Math.max(issuedAt, storedAt), at: nowMs });
}

/**
 * The role a user had on a site moved here, as of `issuedAt` (the import's time, Unix seconds),
 * stored as their credential record's role: their application passwords then hold at most it, as
 * if a token of that role had been issued at that time. A token issued later sets the role again
 * (roles go down with time, or back up by a newer token); an older token, or an older import,
 * changes nothing. False when a newer role was there already.
 */
export async function importRole(who: { sub: string; login: string; userId: number }, role: StoredRole, issuedAt: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: keys.credentials(who.sub),
        UpdateExpression: 'SET #r = :r, #i = :i, #s = :s, #l = if_not_exists(#l, :l), #u = :u',
        ConditionExpression: 'attribute_not_exists(#i) OR #i <= :i',
        ExpressionAttributeNames: { '#r': 'role', '#i': 'roleIssuedAt', '#s': 'sub', '#l': 'login', '#u': 'userId' },
        ExpressionAttributeValues: { ':r': role, ':i': issuedAt, ':s': who.sub, ':l': who.login, ':u': who.userId },
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
