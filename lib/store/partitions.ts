// Named reads of whole partitions (of the table or of an index), typed by what each holds. The
// key condition expressions live here, so that logic names an access pattern and gets its items'
// type without casting what it reads.
import { bySlug, queryAll, query } from './reads.js';
import { INDEXES } from './table.js';
import { bucketRange, keys, slugIndexKey, termKeys } from './keys.js';
import { ofKind, type IdPointer, type LinkItem, type OpenSeriesItem, type SeriesMemberItem, type PostKind, type Taxonomy, type TermItem, type VocabItem } from './items.js';
import type { Lang } from '#lib/runtime/config.js';
import type { Validator } from './validators.js';
import { whileStanding } from './standing-reads.js';

/**
 * The link items of a venue's, organizer's or term's partition (with the attributes asked for, or
 * all), read consistently; undefined when there are more than `limit`.
 */
export async function linkItems<K extends keyof LinkItem = keyof LinkItem>(
  targetPk: string,
  { attributes = [], limit = Infinity }: { attributes?: readonly K[]; limit?: number } = {},
): Promise<Pick<LinkItem, K>[] | undefined> {
  const input = {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': targetPk, ':p': keys.linkPrefix },
    ...(attributes.length
      ? { ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(', '), ExpressionAttributeNames: Object.fromEntries(attributes.map((a, i) => [`#a${i}`, a])) }
      : {}),
    ConsistentRead: true,
  };
  if (!Number.isFinite(limit)) return queryAll<Pick<LinkItem, K>>(input);
  // One item more than the limit tells that there are more, without reading them all.
  const { items } = await query<Pick<LinkItem, K>>({ ...input, Limit: limit + 1 });
  return items.length > limit ? undefined : items;
}

/**
 * The events of the series of `seriesId` (its first event's id), trashed ones included (deleted
 * ones not, unless `gone`: their items are tombstones), read
 * consistently page by page (up to SERIES_MAX_OCCURRENCES items, a few hundred kilobytes).
 */
export const seriesMembers = (seriesId: number, gone = false): Promise<Pick<SeriesMemberItem, 'eventId' | 'utcStart' | 'occurrence' | 'gone'>[]> =>
  queryAll<Pick<SeriesMemberItem, 'eventId' | 'utcStart' | 'occurrence' | 'gone'>>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.seriesMember(seriesId, 0).pk, ':p': keys.seriesMemberPrefix },
    ProjectionExpression: 'eventId, utcStart, occurrence, gone',
    ...(gone ? {} : { FilterExpression: 'attribute_not_exists(gone)' }),
    ConsistentRead: true,
  });

/** The pointers of a place-title partition (records of one kind, language and title key), at most `limit`. */
export async function placeTitlePointers(pk: string, limit: number): Promise<IdPointer[]> {
  const { items } = await query<IdPointer>({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true, Limit: limit });
  return items;
}

/**
 * The words of a language's vocabulary that contain `piece` (their suffixes begin with it), up
 * to `limit` suffix items; `complete` is false when there were more.
 */
export async function vocabularyWords(lang: Lang, piece: string, limit: number, consistent: boolean): Promise<{ words: string[]; complete: boolean }> {
  const { items, last } = await query<Pick<VocabItem, 'word'>>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :piece)',
    ExpressionAttributeValues: { ':pk': keys.vocab(lang, piece, '').pk, ':piece': piece },
    ProjectionExpression: 'word',
    Limit: limit,
    ConsistentRead: consistent,
  });
  return { words: items.map((i) => String(i.word)), complete: !last };
}

/** A month bucket or one of its shards: `n`, and per day `dDD` (a count, or a set of event ids). */
export type CountBucket = { pk: string; sk: string } & Record<string, unknown>;

/**
 * The count buckets (and their shards) of a list partition's months from `utcFrom` to `utcTo`.
 * With the request's change counter (read as it is now), as read while it stood
 * (lib/store/standing-reads.ts): a calendar nobody edits reads its counts once per function.
 */
export function countBuckets(bucketPk: string, utcFrom: string, utcTo: string, counter?: () => Promise<Validator>): Promise<CountBucket[]> {
  const range = bucketRange(utcFrom, utcTo);
  const read = () =>
    queryAll<CountBucket>({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': bucketPk, ':a': range.from, ':b': range.to },
    });
  const key = `buckets|${bucketPk}|${range.from}|${range.to}`;
  return counter
    ? whileStanding(
        key,
        counter().catch(() => undefined),
        read,
        false,
        fewIds,
      )
    : read();
}

/** The most event ids a kept read of count buckets may hold (a search word's buckets list theirs by day). */
const KEPT_BUCKET_IDS = 2_000;

function fewIds(buckets: CountBucket[]): boolean {
  let ids = 0;
  for (const b of buckets) for (const k in b) if (b[k] instanceof Set) ids += (b[k] as Set<unknown>).size;
  return ids <= KEPT_BUCKET_IDS;
}

/** Every term of a language (both taxonomies), from the `terms` index. */
export const languageTerms = (lang: Lang) =>
  queryAll<TermItem>({
    IndexName: INDEXES.terms.indexName,
    KeyConditionExpression: '#p = :p',
    ExpressionAttributeNames: { '#p': INDEXES.terms.partitionKey },
    ExpressionAttributeValues: { ':p': termKeys.partition(lang) },
  });

/** The ids of every record in one partition of the `list` index (`LIST#venue#en#publish`, …). */
export async function listedIds(partition: string): Promise<number[]> {
  const items = await queryAll<{ id: number }>({
    IndexName: INDEXES.list.indexName,
    KeyConditionExpression: '#p = :p',
    ExpressionAttributeNames: { '#p': INDEXES.list.partitionKey },
    ExpressionAttributeValues: { ':p': partition },
    ProjectionExpression: 'id',
  });
  return items.map((i) => Number(i.id));
}

/** The event, venue or organizer of a slug in a language. */
export const postBySlug = async <K extends PostKind>(kind: K, lang: Lang, slug: string) => {
  const found = await bySlug(slugIndexKey(kind, lang, slug));
  return found && 'kind' in found ? ofKind(found, kind) : undefined;
};

/** The category or tag of a slug in a language. */
export const termBySlug = async (taxonomy: Taxonomy, lang: Lang, slug: string): Promise<TermItem | undefined> => {
  const found = await bySlug(slugIndexKey(taxonomy, lang, slug));
  return found && 'taxonomy' in found && found.taxonomy === taxonomy ? found : undefined;
};

/** The series whose rules have no end (keys.openSeries). */
export const openSeriesIds = async (): Promise<number[]> =>
  (
    await queryAll<Pick<OpenSeriesItem, 'seriesId'>>({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.openSeriesPartition },
      ProjectionExpression: 'seriesId',
    })
  ).map((i) => i.seriesId);
