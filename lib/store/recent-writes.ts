// The events written since the stream consumer indexed them for search. The search index follows
// the table a moment behind (lib/stream/search-trigger.ts); an event's write transaction also puts
// a small item in one of its language's `RECENT#<lang>#<k>` partitions (k from the event id, so that
// the writes of a language spread over several keys), which a search reads whole and applies
// on top of the index: there, an event's record as it is now decides, not the index. The consumer
// deletes the item once it has indexed that version, so the partition holds only the writes it has
// not caught up with (the TTL clears what a stopped consumer leaves).
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Lang } from '#lib/runtime/config.js';
import { config } from '#lib/runtime/config.js';
import { waitAll } from '#lib/runtime/settle.js';
import { db } from './db.js';
import { keys, RECENT_SHARDS, recentPartition } from './keys.js';
import { queryAll } from './reads.js';
import { TTL_ATTRIBUTE } from './table.js';
import type { TransactItem } from './transactions.js';

/** A day: longer than any lag of a running consumer. */
const KEEP_SECONDS = 86_400;

interface Written {
  id: number;
  lang: Lang;
  version: number;
}

/** The items an event's write transaction adds: one per language the event was or is in. */
export function recentWrites(old: Written | undefined, next: Written | undefined): TransactItem[] {
  const e = (next ?? old)!;
  // The record's version after this write: the consumer forgets the item once it indexed it.
  const version = next ? (old?.version ?? 0) + 1 : e.version;
  const expires = Math.floor(Date.now() / 1000) + KEEP_SECONDS;
  const langs = new Set([old?.lang, next?.lang].filter((l): l is Lang => l !== undefined));
  return [...langs].map((lang) => ({ Put: { TableName: '', Item: { ...keys.recentWrite(lang, e.id), id: e.id, version, [TTL_ATTRIBUTE]: expires } } }));
}

/**
 * The item of a write that changed only an event's record, in one UpdateItem of its own (so not in
 * a transaction): put once the update answered `after`, before the client is answered. Should the
 * consumer have indexed that version already, the item stays until a later version is indexed or
 * its TTL: meanwhile searches judge the event by its record, which says the same.
 */
export async function noteRecentWrite(after: Written): Promise<void> {
  const expires = Math.floor(Date.now() / 1000) + KEEP_SECONDS;
  await db().send(
    new PutCommand({ TableName: config().tableName, Item: { ...keys.recentWrite(after.lang, after.id), id: after.id, version: after.version, [TTL_ATTRIBUTE]: expires } }),
  );
}

/** The ids of the events of a language written since the consumer indexed them: every shard, at once. */
export async function recentIds(lang: Lang): Promise<number[]> {
  const shards = await waitAll(
    Array.from({ length: RECENT_SHARDS }, (_, k) =>
      queryAll<{ id: number }>({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': recentPartition(lang, k) },
        ProjectionExpression: 'id',
        // A write answered a moment ago is in it.
        ConsistentRead: true,
      }),
    ),
  );
  return [...new Set(shards.flat().map((i) => Number(i.id)))];
}

/** After indexing an event's `version`: its items go, unless a later write put them again. */
export async function forgetRecent(id: number, langs: Lang[], version: number, target?: { table: string; client: ReturnType<typeof db> }): Promise<void> {
  const table = target?.table ?? config().tableName;
  const client = target?.client ?? db();
  await waitAll(
    [...new Set(langs)].map((lang) =>
      client
        .send(
          new DeleteCommand({
            TableName: table,
            Key: keys.recentWrite(lang, id),
            ConditionExpression: '#v <= :v',
            ExpressionAttributeNames: { '#v': 'version' },
            ExpressionAttributeValues: { ':v': version },
          }),
        )
        .catch((err: unknown) => {
          if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
        }),
    ),
  );
}
