// Shards of a record that many events link at once: a venue, organizer, category or tag.
//
// Every event write that links a record moves its count (a term's `count`, a venue's or
// organizer's `linkedEvents`) and checks, in its transaction, that the record exists, is not in
// the trash and still has the `rev` of the card it copied. DynamoDB cancels transactions that
// name one item at the same time, so a burst of creates that link one record would queue on it
// and fail. Once writes meet on a record, it is split: `shards` and `shardGen` on the record name
// shard items (`<sk>#<gen>#0` … `#63`, in the record's partition) that carry a part of its count
// and a copy of what those checks read (`kind`, `status`, `rev`). An event write that knows the
// record is split then names one shard instead of the record: the one of the count buckets'
// shard it writes (lib/logic/event-writes.ts).
//
// What keeps it exact:
// - the count is the record's own plus its shards', added up by the reads that answer records for
//   an answer (./counted-reads.ts, with `withShardTotals`);
// - every write of the record that changes what the shards copy writes all of them in the same
//   transaction (`shardWrites`), and a delete deletes them, so a check on any shard is a check
//   on the record;
// - splitting bumps the record's `version`, so a whole-record write that read it before retries
//   (and keeps `shards`).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config, type Lang } from '#lib/runtime/config.js';
import { waitAll } from '#lib/runtime/settle.js';
import { db } from './db.js';
import { del, put, StaleItem, transact, type TransactItem } from './transactions.js';
import { getItem, itemKey, query, type ItemKey, type Key } from './reads.js';
import type { AnyPost, TermItem } from './items.js';
import { keys } from './keys.js';
import { backoff, sleep } from './retry.js';

/**
 * Shards per split record, as many as a month's count buckets spread over at most: an event write
 * names the same shard number of each, so two writes meet on a split record only when they meet
 * on their buckets anyway. At 2,000 linking writes a second, about 31 a second each.
 */
export const RECORD_SHARDS = 64;

/** What a shard copies of its record: what event writes check. */
const MIRRORED = ['kind', 'status', 'rev'] as const;

/** How a split record names its shards. */
export interface Split {
  shards: number;
  shardGen: string;
}

type Stored = Key & Partial<Split> & { version?: number; lang?: Lang } & Record<string, unknown>;

/** A record as this module reads it: the attributes splits and shards work with, of whatever kind. */
const stored = (record: object | undefined) => record as Stored | undefined;

/** The records events count on: venues, organizers and terms, under post or term keys. */
type Counted = ItemKey<AnyPost | TermItem>;

/** The attribute a record's events move: a term's published-event count, a place's linked events. */
const counterOf = (key: Key): 'count' | 'linkedEvents' => (key.sk === keys.term(0).sk ? 'count' : 'linkedEvents');

const shardPrefix = (key: Key, gen: string) => `${key.sk}#${gen}#`;

/** Shard `k` of a record split with generation `gen` (k beyond its shards wraps). */
export const shardKey = (key: Key, split: Split, k: number): Key => ({ pk: key.pk, sk: `${shardPrefix(key, split.shardGen)}${k % split.shards}` });

const mirror = (record: Record<string, unknown>) => Object.fromEntries(MIRRORED.filter((a) => record[a] !== undefined).map((a) => [a, record[a]]));

/**
 * The generation of the shards a split of `record` writes: its copied values, so that writers
 * that split the record at once (one per Lambda container) write the same shards, and shards of
 * a split that did not complete never serve another state of the record.
 */
const generationOf = (record: Record<string, unknown>) => `${String(record.rev ?? 0)}.${String(record.status ?? '')}`;

const isHeld = (err: unknown) => (err as { name?: string }).name === 'TransactionConflictException';

/**
 * Splits a record that writes met on, without naming it in a transaction (writes keep meeting on
 * it): the shards of the record's generation are put first (a second writer finds them put), then
 * one conditional update of the record names them, if what they copy is still the record's (its
 * counts and `version` keep moving under the writes that met on it; they need not hold). It bumps
 * `version`, so that a whole-record write that read the record before retries. Bookkeeping: it
 * changes no answer and stays outside the operation's write log. Split places are listed in their
 * language's figures first, for the lists that filter on linked events (lib/logic/lists.ts).
 * True once the record is split.
 */
export async function splitRecord(key: Counted): Promise<boolean> {
  const record = stored(await getItem(key));
  if (!record || record.version === undefined) return false;
  if (record.shards) return true;
  const counter = counterOf(key);
  const copied = mirror(record);
  const split: Split = { shards: RECORD_SHARDS, shardGen: generationOf(record) };
  try {
    const puts = Array.from({ length: RECORD_SHARDS }, (_, k) => put({ ...shardKey(key, split, k), ...copied, [counter]: 0 }));
    await transact(puts, undefined, false);
  } catch (err) {
    // Another writer put this generation's shards (a put's condition failed): they are the same.
    // Any other refusal (throttling among them) wrote none, and the record must not name them.
    if (!(err instanceof StaleItem)) throw err;
  }
  const send = (command: UpdateCommand) => db().send(command);
  if (counter === 'linkedEvents' && record.lang) {
    await send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: keys.langStats(record.lang),
        UpdateExpression: 'ADD #p :id',
        ExpressionAttributeNames: { '#p': 'splitPlaces' },
        ExpressionAttributeValues: { ':id': new Set([Number(record.id)]) },
      }),
    );
  }
  const names: Record<string, string> = { '#s': 'shards', '#g': 'shardGen', '#v': 'version' };
  const values: Record<string, unknown> = { ':n': split.shards, ':g': split.shardGen, ':one': 1 };
  const same = MIRRORED.map((a) => {
    names[`#${a}`] = a;
    if (copied[a] === undefined) return `attribute_not_exists(#${a})`;
    values[`:${a}`] = copied[a];
    return `#${a} = :${a}`;
  });
  const flag = new UpdateCommand({
    TableName: config().tableName,
    Key: key,
    UpdateExpression: 'SET #s = :n, #g = :g, #v = #v + :one',
    ConditionExpression: ['attribute_exists(pk)', 'attribute_not_exists(#s)', ...same].join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
  for (let attempt = 1; ; attempt++) {
    try {
      await send(flag);
      return true;
    } catch (err) {
      // Lost: the record is split already, gone, or no longer what the shards copy. Unless it
      // names this generation, the shards put above are left: no record names them, so nothing
      // reads, counts or writes them, and a split of the same generation would find them as
      // they were put. They are not deleted, because no read can prove that no other writer is
      // about to name them: a record never returns to a generation it left, but a record of the
      // same id can be created again (a create retried with its Idempotency-Key after a delete),
      // starting at its first generation, and a writer that read the old one may still name them.
      if (err instanceof ConditionalCheckFailedException) return !!stored(await getItem(key))?.shards;
      if (!isHeld(err) || attempt >= 8) throw err;
      await sleep(backoff(attempt, 10, 200));
    }
  }
}

/**
 * The shard writes of a record write from `old` to `next` (undefined: deleted), to go in its
 * transaction: the copies of what changed, or the shards' deletes. None for an unsplit record.
 */
export function shardWrites(record: object, next: object | undefined): TransactItem[] {
  const old = record as Stored;
  const n = old.shards ?? 0;
  if (!n) return [];
  const keysOf = Array.from({ length: n }, (_, k) => shardKey(old, { shards: n, shardGen: old.shardGen ?? '' }, k));
  if (!next) return keysOf.map(del);
  const before = mirror(old);
  const after = mirror(next as Record<string, unknown>);
  const changed = MIRRORED.filter((a) => JSON.stringify(before[a]) !== JSON.stringify(after[a]));
  if (!changed.length) return [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  for (const a of changed) {
    names[`#${a}`] = a;
    if (after[a] === undefined) removes.push(`#${a}`);
    else sets.push(`#${a} = :${a}`), (values[`:${a}`] = after[a]);
  }
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean).join(' ');
  return keysOf.map((k) => ({
    Update: {
      TableName: config().tableName,
      Key: k,
      UpdateExpression: expression,
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      ConditionExpression: 'attribute_exists(pk)',
    },
  }));
}

/**
 * The delete of a record, read as `record` (undefined: gone already), with its shards', to go in
 * one transaction. A record is split whenever writes meet on it, also while it is being deleted
 * (its events unlinked one by one): the delete holds only while the record is still split as read,
 * so that a split landing after the read fails it (StaleItem, retried from a new read) rather
 * than leave its shards behind.
 */
export function deleteWithShards(key: Key, record: object | undefined): TransactItem[] {
  if (!record) return [del(key)];
  const split = splitOfRecord(record);
  const condition: { ConditionExpression: string; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> } = split
    ? { ConditionExpression: '#g = :g', ExpressionAttributeNames: { '#g': 'shardGen' }, ExpressionAttributeValues: { ':g': split.shardGen } }
    : { ConditionExpression: 'attribute_not_exists(#s)', ExpressionAttributeNames: { '#s': 'shards' } };
  return [{ Delete: { TableName: config().tableName, Key: { pk: key.pk, sk: key.sk }, ...condition } }, ...shardWrites(record, undefined)];
}

/**
 * Records with their shards' counts added (copies; unsplit records as they are): one consistent
 * Query of each split record's shards.
 */
export async function withShardTotals<T extends object>(records: T[]): Promise<T[]> {
  const split = records.filter((r) => (r as Stored).shards);
  if (!split.length) return records;
  const totals = new Map<string, number>();
  await waitAll(
    split.map(async (r) => {
      const s = r as unknown as Stored;
      const counter = counterOf(s);
      const { items } = await query<Record<string, unknown>>({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': s.pk, ':p': shardPrefix(s, s.shardGen ?? '') },
        ProjectionExpression: '#c',
        ExpressionAttributeNames: { '#c': counter },
        ConsistentRead: true,
      });
      totals.set(
        s.pk,
        items.reduce((sum, i) => sum + Number(i[counter] ?? 0), 0),
      );
    }),
  );
  return records.map((r) => {
    const s = r as unknown as Stored;
    if (!s.shards) return r;
    const counter = counterOf(s);
    return { ...r, [counter]: Number(s[counter] ?? 0) + (totals.get(s.pk) ?? 0) };
  });
}

/** One record with its shards' counts added. */
export const withShardTotal = async <T extends object>(record: T | undefined): Promise<T | undefined> => (record ? (await withShardTotals([record]))[0] : undefined);

/** How a stored record is split, if it is. */
const splitOfRecord = (record: object | undefined): Split | undefined => {
  const r = record as Stored | undefined;
  return r?.shards ? { shards: r.shards, shardGen: r.shardGen ?? '' } : undefined;
};

/** The split records among items read: partition key → how it is split. */
export function splitOf(records: Iterable<object | undefined>): Map<string, Split> {
  const out = new Map<string, Split>();
  for (const r of records) {
    const split = splitOfRecord(r);
    if (split) out.set((r as Stored).pk, split);
  }
  return out;
}

/** Splits of this process in flight, by table and record: writers that meet on a record wait for one. */
const splitting = new Map<string, Promise<boolean>>();

const splitId = (k: Key) => `${config().tableName}|${k.pk}|${k.sk}`;

/**
 * Waits for this process's splits of `records` in flight, if any: a write that names one would
 * only meet the writes it is being split for, and keep the split from landing.
 */
export async function splitsSettled(records: Key[]): Promise<void> {
  const running = records.flatMap((k) => splitting.get(splitId(k)) ?? []);
  if (running.length) await waitAll(running);
}

/**
 * Splits every record among `targets`, the venues, organizers and terms a transaction met others
 * on (failures are left to a later writer).
 */
export async function splitAll(targets: Key[]): Promise<void> {
  await waitAll(
    targets.map((k) => {
      const id = splitId(k);
      let running = splitting.get(id);
      if (!running) {
        running = splitRecord(itemKey(k.pk, k.sk))
          .catch(() => false)
          .finally(() => splitting.delete(id));
        splitting.set(id, running);
      }
      return running;
    }),
  );
}
