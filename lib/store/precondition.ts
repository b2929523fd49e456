// A write's `If-Match` (lib/http/conditional.ts), held for the request: the record the write names is
// checked when it is read (`matchRecord`), and the first write of that record in the request is
// made conditional on the version that was checked, so that a change made in between by another
// request fails the write with 412 instead of being overwritten.
import { parseTags, preconditionFailed, requireMatch } from '#lib/contract/revision.js';
import { scopedValue } from '#lib/runtime/scope.js';

interface Expectation {
  header: string;
  /** The record read and checked, until its first write. */
  pending?: { pk: string; sk: string; version: number };
}

const scope = scopedValue<Expectation>('if-match');

/** Runs a write with the request's `If-Match` (none: nothing is checked). */
export function withIfMatch<T>(header: string | undefined, fn: () => T): T {
  return header === undefined ? fn() : scope.run({ header }, fn);
}

/** The record a write is about to change, as it was just read: 412 unless `If-Match` names it. */
export function matchRecord(item: { pk: string; sk: string; id: number; version: number }): void {
  const s = scope.get();
  if (!s) return;
  requireMatch(s.header, item);
  if (!parseTags(s.header).any) s.pending = { pk: item.pk, sk: item.sk, version: item.version };
}

type Keyed = { TableName?: string; Key?: Record<string, unknown>; Item?: Record<string, unknown>; ConditionExpression?: string; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> };

/** Adds the version condition to a write of the pending record; its table when it did. */
function condition(write: Keyed | undefined, pending: NonNullable<Expectation['pending']>): string | undefined {
  const key = write?.Key ?? write?.Item;
  if (!write || key?.pk !== pending.pk || key?.sk !== pending.sk) return undefined;
  write.ConditionExpression = write.ConditionExpression ? `(${write.ConditionExpression}) AND #ifMatchVersion = :ifMatchVersion` : '#ifMatchVersion = :ifMatchVersion';
  write.ExpressionAttributeNames = { ...write.ExpressionAttributeNames, '#ifMatchVersion': 'version' };
  write.ExpressionAttributeValues = { ...write.ExpressionAttributeValues, ':ifMatchVersion': pending.version };
  return write.TableName;
}

// The document client runs its commands as the client's own (UpdateCommand as UpdateItemCommand).
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand']);

/**
 * For the document client's middleware (lib/store/db.ts): conditions the request's first write of the
 * checked record. Returns what to do once the write is sent: on success the condition is spent;
 * on failure `stillCurrent` tells whether the record kept its version (another condition failed,
 * and the write's own handling applies) or not (412).
 */
export function conditionWrite(
  command: string,
  input: Record<string, unknown>,
): { tableName: string; key: { pk: string; sk: string }; version: number; settle(ok: boolean, current?: number): void } | undefined {
  const s = scope.get();
  const pending = s?.pending;
  if (!s || !pending) return undefined;
  let table: string | undefined;
  if (WRITES.has(command)) table = condition(input as Keyed, pending);
  else if (command === 'TransactWriteItemsCommand') {
    for (const t of (input.TransactItems ?? []) as { Put?: Keyed; Update?: Keyed; Delete?: Keyed }[]) {
      table = condition(t.Put, pending) ?? condition(t.Update, pending) ?? condition(t.Delete, pending) ?? table;
    }
  }
  if (table === undefined) return undefined;
  return {
    tableName: table,
    key: { pk: pending.pk, sk: pending.sk },
    version: pending.version,
    settle(ok, current) {
      if (ok) s.pending = undefined;
      else if (current !== pending.version) throw preconditionFailed();
    },
  };
}
