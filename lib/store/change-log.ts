// The change log: per language, one entry per committed change of an event, venue, organizer,
// category or tag, appended by the stream consumer (lib/stream/change-log-trigger.ts) and read by
// `GET /changes` (lib/logic/changes.ts). Entries expire with the table's TTL after
// `changeLogDays`.
//
// Keys. A language's entries share one partition (`CHANGES#<lang>`), sorted by their position:
// `<time of the append, ISO 8601 with milliseconds>#<stream sequence number, padded>#<stream
// record id>`. A page "after position P" is then one Query of that partition with a sort-key
// range, reading only the page's entries, whatever the size of the log or of the table. The time
// is the append's, not the commit's: the consumer may lag its writes by seconds (by hours while a
// failing record is retried), and an entry sorted by the commit would land behind positions that
// readers have already passed. Appends of concurrent consumers may still land a moment out of
// order (stamped, then committed a few milliseconds later), so readers stop `changesSettleMs`
// short of now (`settledBound`), and an append that took longer than half of that is appended
// again at a fresh position (harmless: a reader shows each record once per page, as it is now).
//
// Idempotency. Positions hold the append's time, so a redelivered stream record would land at a
// new one: the entry is written in one transaction with a guard item named by the stream record's
// id (`CHLOG#<id>`, put only if absent, expiring after two days: longer than the stream keeps
// records). A redelivery finds the guard and appends nothing.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { config, type Lang } from '#lib/runtime/config.js';
import { db } from './db.js';
import { changeLogPartition, keys } from './keys.js';
import type { ChangeEntryItem, ChangeGuardItem } from './items.js';
import { query } from './reads.js';
import { TTL_ATTRIBUTE } from './table.js';

/** How long a guard is kept: longer than the stream keeps records (24 hours). */
const GUARD_TTL_SECONDS = 2 * 24 * 60 * 60;

/** Sequence numbers are decimal strings of up to 40 digits (DynamoDB Streams). */
const SEQUENCE_DIGITS = 40;

/** What an entry says; its position and expiry are the log's. */
export type ChangeEntry = Pick<ChangeEntryItem, 'kind' | 'id' | 'action' | 'at' | 'wasPublic' | 'changeId'> & { lang: Lang; sequence: string };

/** The position of an entry appended at `now`. */
export const entryPosition = (now: number, sequence: string, changeId: string): string => `${new Date(now).toISOString()}#${sequence.padStart(SEQUENCE_DIGITS, '0')}#${changeId}`;

/** How long the log keeps entries, in milliseconds. */
export const retentionMs = (): number => config().changeLogDays * 86_400_000;

/**
 * The position below which the log is settled at `now`: no entry will be appended there any more.
 * It sorts before every entry appended in its millisecond and after every earlier one.
 */
export const settledBound = (now: number): string => new Date(now - config().changesSettleMs).toISOString();

/** The time (milliseconds) a position stands for. */
export const positionTime = (position: string): number => Date.parse(position.slice(0, 24));

function entryItem(entry: ChangeEntry, position: string, now: number): ChangeEntryItem {
  const { lang, sequence: _, ...said } = entry;
  return { ...keys.changeEntry(lang, position), ...said, [TTL_ATTRIBUTE]: Math.floor(now / 1000) + config().changeLogDays * 86_400 };
}

/**
 * Appends the entry of a change, once per stream record: false when a delivery before this one
 * appended it already. `clock` stands in for the time (tests).
 */
export async function appendChange(entry: ChangeEntry, clock: () => number = Date.now): Promise<boolean> {
  const stamped = clock();
  const position = entryPosition(stamped, entry.sequence, entry.changeId);
  const guard: ChangeGuardItem = { ...keys.changeGuard(entry.changeId), position, [TTL_ATTRIBUTE]: Math.floor(stamped / 1000) + GUARD_TTL_SECONDS };
  const table = config().tableName;
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: table, Item: guard, ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: { TableName: table, Item: entryItem(entry, position, stamped) } },
        ],
      }),
    );
  } catch (err) {
    if (err instanceof TransactionCanceledException && err.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
    throw err;
  }
  // Committed later than readers wait for: a reader may have passed its position already.
  const committed = clock();
  if (committed - stamped > config().changesSettleMs / 2) {
    await db().send(new PutCommand({ TableName: table, Item: entryItem(entry, entryPosition(committed, entry.sequence, entry.changeId), committed) }));
  }
  return true;
}

/**
 * The first `limit` entries after `after` (a position, exclusive) and before `before` (a settled
 * bound, exclusive), in the log's order: one Query. Answers nothing when the range is empty.
 */
export async function readChanges(lang: Lang, after: string, before: string, limit: number): Promise<ChangeEntryItem[]> {
  // The smallest string above every position that starts with `after` ('!' sorts below the
  // characters of a position).
  const from = `${after}!`;
  if (from >= before) return [];
  const { items } = await query<ChangeEntryItem>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': changeLogPartition(lang), ':from': from, ':to': before },
    Limit: limit,
    // Appended a few seconds ago at most: read as committed.
    ConsistentRead: true,
  });
  return items;
}
