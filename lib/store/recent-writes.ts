// The events written since the stream consumer indexed them for search. The search index follows
// the table a moment behind (lib/stream/search-trigger.ts); an event's write transaction also puts
// a small item in one of its language's `RECENT#<lang>#<k>` partitions (k from the event id, so that
// the writes of a language spread over several keys), which a search reads whole and applies
// on top of the index: there, an event's record as it is now decides, not the index. The consumer
// (or a backfill, or an import's index) deletes the item once it has indexed that version, so the
// partition holds only the writes not indexed yet (the TTL clears what a stopped consumer leaves on
// AWS; DynamoDB Local applies no TTL).
//
// The partition also holds the language's vocabulary versions (one item, no TTL): a counter per
// group of vocabulary partitions, bumped by the consumer after it adds words there and before it
// forgets the writes it indexed. A search that reads the recent writes reads them too, so that it
// may reuse a vocabulary lookup it made before while its group's counter is unchanged: any word
// added since was added for an event that is either still a recent write (judged by its record)
// or was forgotten after the bump (so the counter changed).
import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Lang } from '#lib/runtime/config.js';
import { config } from '#lib/runtime/config.js';
import { waitAll } from '#lib/runtime/settle.js';
import { db } from './db.js';
import { keys, RECENT_SHARDS, recentPartition } from './keys.js';
import { keyOf, queryAll, type ItemKey } from './reads.js';
import type { AnyPost } from './items.js';
import { TTL_ATTRIBUTE } from './table.js';
import { bumpValidator, type Validator } from './validators.js';
import { whileStanding } from './standing-reads.js';
import type { TransactItem } from './transactions.js';
import { commitAll, type BulkAction, type BulkTarget } from './batch-writes.js';

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
  // A deleted event's record is gone: a search then reads none (an eventually consistent read could still find it).
  const gone = next ? {} : { gone: true };
  return [...langs].map((lang) => ({ Put: { TableName: '', Item: { ...keys.recentWrite(lang, e.id), id: e.id, version, ...gone, [TTL_ATTRIBUTE]: expires } } }));
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

/** How many counters the vocabulary versions item holds (vocabulary partitions share them). */
const VOCAB_GROUPS = 64;
/** The sort key of the vocabulary versions item: after every recent write's (a padded id). */
const VERSIONS_SK = 'VOCAB';
const versionsKey = (lang: Lang) => ({ pk: recentPartition(lang, 0), sk: VERSIONS_SK });

/** The counter of a vocabulary partition (named by its first characters, see `vocabShard`). */
export function vocabGroup(shard: string): string {
  let h = 0;
  for (const c of shard) h = (h * 31 + c.codePointAt(0)!) % VOCAB_GROUPS;
  return `v${h}`;
}

/** What a search reads first: the recent writes of a language, and its vocabulary versions. */
export interface RecentState {
  ids: number[];
  /**
   * Each recent write's record version, or `gone` for a delete: a record read without a
   * consistent read is the write's (or a later one's) when its version is at least that.
   */
  written: Map<number, number | 'gone'>;
  /** Counter by group (`vocabGroup`); a group not there is 0. */
  vocab: Record<string, number>;
}

/**
 * The records of recent writes as they are now, from a read that may not have been consistent
 * (`found`, which holds what it read of them): those not yet at the write's version are read
 * again, consistently (a write a moment ago). A deleted event's record is left out.
 */
export async function caughtUp<T>(written: RecentState['written'], found: Map<string, T>, read: (keys: ItemKey<AnyPost>[]) => Promise<Map<string, AnyPost>>): Promise<void> {
  const behind: ItemKey<AnyPost>[] = [];
  for (const [id, version] of written) {
    const k = keys.post(id);
    const record = found.get(keyOf(k)) as { version?: unknown } | undefined;
    if (version === 'gone') found.delete(keyOf(k));
    else if (!(Number(record?.version) >= version)) behind.push(k);
  }
  if (!behind.length) return;
  const again = await read(behind);
  for (const k of behind) {
    const record = again.get(keyOf(k));
    if (record) found.set(keyOf(k), record as T);
    else found.delete(keyOf(k));
  }
}

/**
 * The events of a language written since the consumer indexed them, and the vocabulary versions.
 * `counter`, the table's change counter (lib/store/validators.ts) read before: while it has not
 * moved, the state read after it last time holds (lib/store/standing-reads.ts). A write moves it
 * after it committed its recent write and before its client hears of it, so a write any caller
 * knows of is in that state; what the consumer did since (a write indexed and forgotten, words
 * added) only keeps a write judged by its record a while longer, which says what the index would
 * (and the words it added are those of the writes still there).
 */
export function recentState(lang: Lang, counter?: Validator): Promise<RecentState> {
  return counter ? whileStanding(`recent|${lang}`, Promise.resolve(counter), () => readRecentState(lang), true) : readRecentState(lang);
}

/** The recent writes and vocabulary versions as stored: every shard, at once. */
async function readRecentState(lang: Lang): Promise<RecentState> {
  const shards = await waitAll(
    Array.from({ length: RECENT_SHARDS }, (_, k) =>
      queryAll<Record<string, unknown>>({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': recentPartition(lang, k) },
        // A write answered a moment ago is in it.
        ConsistentRead: true,
      }),
    ),
  );
  const items = shards.flat();
  const versions = items.find((i) => i.sk === VERSIONS_SK) ?? {};
  const vocab: Record<string, number> = {};
  for (const [name, n] of Object.entries(versions)) if (/^v\d+$/.test(name)) vocab[name] = Number(n);
  const written = new Map<number, number | 'gone'>();
  for (const i of items) if (i.sk !== VERSIONS_SK) written.set(Number(i.id), i.gone === true ? 'gone' : Number(i.version ?? 0));
  return { ids: [...written.keys()], written, vocab };
}

/**
 * After words were added to vocabulary partitions (named by `vocabShard`): their groups' counters
 * go up, and so does the table's change counter, since searches may find more now (and a search
 * keeps what it read of the versions while the change counter stays: `recentState`).
 */
export async function bumpVocabulary(lang: Lang, shards: Iterable<string>, target?: { table: string; client: DynamoDBDocumentClient }): Promise<void> {
  const groups = [...new Set([...shards].map(vocabGroup))];
  if (!groups.length) return;
  const names = Object.fromEntries(groups.map((g) => [`#${g}`, g]));
  await (target?.client ?? db()).send(
    new UpdateCommand({
      TableName: target?.table ?? config().tableName,
      Key: versionsKey(lang),
      UpdateExpression: `ADD ${groups.map((g) => `#${g} :one`).join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
  // After the versions: a search that read the counter's new state reads them new too.
  await bumpValidator(undefined, undefined, undefined, target);
}

/**
 * After indexing an event's `version`: its items go, unless a later write put them again. A missing
 * item passes the guard (its delete does nothing), so that a transaction of many is not refused for it.
 */
export const forgetting = (id: number, langs: Lang[], version: number): BulkAction[] =>
  [...new Set(langs)].map((lang) => ({
    Delete: {
      Key: keys.recentWrite(lang, id),
      ConditionExpression: 'attribute_not_exists(#pk) OR #v <= :v',
      ExpressionAttributeNames: { '#pk': 'pk', '#v': 'version' },
      ExpressionAttributeValues: { ':v': version },
    },
  }));

/** Forgets one event's recent writes as `forgetting` says. */
export async function forgetRecent(id: number, langs: Lang[], version: number, target?: BulkTarget): Promise<void> {
  const actions = forgetting(id, langs, version);
  await commitAll(actions, target ?? { table: config().tableName, client: db() }, actions.length);
}
