// Users: the integer id of a token subject, allocated the first time a write sees it.
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
  return (await getItem<{ userId: number }>(keys.userBySub(sub)))?.userId;
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

export async function userExists(id: number): Promise<boolean> {
  return (await getItem(keys.userById(id), false)) !== undefined;
}
