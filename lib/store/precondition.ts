// A write's `If-Match` (lib/http/conditional.ts), once the logic has checked it against the record
// it read (`requireMatch`, lib/contract/revision.ts): the request's first write of that record
// carries the version that was checked, so that a change made in between by another request fails
// the write with 412 instead of being overwritten. Retries of that write carry it too: a retry
// that reads the record again cannot take a newer version for the checked one.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError, ConflictError } from '#lib/contract/errors.js';
import { parseTags, preconditionFailed } from '#lib/contract/revision.js';
import { config } from '#lib/runtime/config.js';
import { db } from './db.js';
import type { Key } from './reads.js';
import type { TransactItem } from './transactions.js';

type Write = { ConditionExpression?: string; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> };

/** The record a write's `If-Match` was checked against, and the version its write must still find. */
export interface Checked {
  key: Key;
  version: number;
}

/**
 * What the write of `record` must still find, once `requireMatch` held for it: nothing without
 * `If-Match`, nor for `*` (any version: the record existed when it was read).
 */
export function checked(ifMatch: string | undefined, record: Key & { version: number }): Checked | undefined {
  if (ifMatch === undefined || parseTags(ifMatch).any) return undefined;
  return { key: { pk: record.pk, sk: record.sk }, version: record.version };
}

/** Adds to a write (an UpdateItem's input, or a transaction's Put, Update or Delete) the checked version. */
export function requireVersion<W extends Write>(write: W, check: Checked | undefined): W {
  if (!check) return write;
  const w: Write = write;
  w.ConditionExpression = w.ConditionExpression ? `(${w.ConditionExpression}) AND #ifMatchVersion = :ifMatchVersion` : '#ifMatchVersion = :ifMatchVersion';
  w.ExpressionAttributeNames = { ...w.ExpressionAttributeNames, '#ifMatchVersion': 'version' };
  w.ExpressionAttributeValues = { ...w.ExpressionAttributeValues, ':ifMatchVersion': check.version };
  return write;
}

/** A write refused by one of its conditions (the checked version among them), as the store reports it. */
const conditionFailed = (err: unknown) => err instanceof ConflictError || err instanceof ConditionalCheckFailedException || err instanceof ApiError;

/**
 * Runs the write that carries the checked version. When one of its conditions fails, the record
 * says which: with another version (or none) it was changed since it was checked, which is 412;
 * with the checked one, another condition of the write failed, and the write's own error stands.
 * Any other failure (an outcome not known in time, an error of the service) stands as it is: the
 * write may even have moved the version itself.
 */
export async function settleChecked<T>(check: Checked | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!check || !conditionFailed(err)) throw err;
    const now = await db().send(new GetCommand({ TableName: config().tableName, Key: check.key, ConsistentRead: true }));
    if (now.Item?.version !== check.version) throw preconditionFailed();
    throw err;
  }
}

/**
 * Runs `write`, the transaction of `items`, with the checked record's write among them carrying
 * the checked version (`settleChecked`). Whether one did: a transaction that does not write the
 * checked record leaves its version to the request's next write of it.
 */
export async function writeChecked(items: TransactItem[], check: Checked | undefined, write: () => Promise<void>): Promise<boolean> {
  const carrier =
    check &&
    items
      .map((t) => t.Put ?? t.Update ?? t.Delete)
      .find((w) => {
        const key = w && ('Key' in w ? w.Key : w.Item);
        return key?.pk === check.key.pk && key?.sk === check.key.sk;
      });
  if (!carrier) {
    await write();
    return false;
  }
  requireVersion(carrier, check);
  await settleChecked(check, write);
  return true;
}
