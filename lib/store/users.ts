// Users: the integer id of a token subject, allocated the first time a write sees it.
import { config } from '#lib/runtime/config.js';
import { keys } from './keys.js';
import { getItem } from './reads.js';
import { nextId } from './ids.js';
import { bookkeeping, put, transact } from './transactions.js';
import { withRetry } from './retry.js';

/**
 * The integer user id of a token subject, or undefined for a subject never seen: it owns nothing.
 * Reads use this, because a read function may not write (its role has read-only table access).
 */
export async function findUserId(sub: string): Promise<number | undefined> {
  return (await getItem(keys.userBySub(sub)))?.userId;
}

/** The integer user id of a token subject, allocated the first time the subject is seen (writes only). */
export async function userIdOf(sub: string): Promise<number> {
  return withRetry(async () => {
    const existing = await findUserId(sub);
    if (existing !== undefined) return existing;
    const id = await nextId('user');
    // If another request registers this subject first, the retry reads its id.
    await bookkeeping(() => transact([put({ ...keys.userBySub(sub), userId: id }), put({ ...keys.userById(id), sub })]));
    return id;
  });
}

/**
 * User ids known to exist, by table: a user id, once registered, is never removed, so a write
 * that names the same author again needs no read. Only what was found is kept (a missing id is
 * read every time), and the set starts over when full, so it never refuses anything.
 */
const knownUsers = new Set<string>();
const MAX_KNOWN_USERS = 10_000;

export async function userExists(id: number): Promise<boolean> {
  const key = `${config().tableName}|${id}`;
  if (knownUsers.has(key)) return true;
  if ((await getItem(keys.userById(id), false)) === undefined) return false;
  if (knownUsers.size >= MAX_KNOWN_USERS) knownUsers.clear();
  knownUsers.add(key);
  return true;
}

/**
 * Registers a subject under a given user id (a user moved here from another site keeps its id);
 * nothing when the subject has that id already. A subject or id taken otherwise is an error.
 */
export async function registerUser(sub: string, id: number): Promise<'created' | 'unchanged'> {
  const existing = await findUserId(sub);
  if (existing === id) return 'unchanged';
  if (existing !== undefined) throw new Error(`The user ${sub} has id ${existing} here, not ${id}.`);
  const other = await getItem(keys.userById(id), false);
  if (other) throw new Error(`User id ${id} belongs to ${other.sub} here, not ${sub}.`);
  await bookkeeping(() => transact([put({ ...keys.userBySub(sub), userId: id }), put({ ...keys.userById(id), sub })]));
  return 'created';
}
