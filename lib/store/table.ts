// The table definition: the one place that names the key attributes, the indexes and their
// projections. The CDK stack builds its TableV2 from this, and the local runtime and the tests
// create the same table in DynamoDB Local from it.
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

export const KEY = { pk: 'pk', sk: 'sk' } as const;

/**
 * The table's change stream: every committed write with the item before and after it, read by
 * the one stream consumer (functions/stream/consumer.ts) that derives the other views.
 */
export const STREAM_VIEW_TYPE = 'NEW_AND_OLD_IMAGES' as const;

/**
 * The TTL attribute (epoch seconds): items that carry it are deleted by DynamoDB some time after
 * it passes. Only bookkeeping items use it (the change feed's markers, lib/stream/feed-trigger.ts, and the
 * records of retried creates, lib/http/idempotency.ts).
 */
export const TTL_ATTRIBUTE = 'expiresAt';

export interface IndexDefinition {
  indexName: string;
  partitionKey: string;
  sortKey?: string;
  /** `ALL`, `KEYS_ONLY`, or the non-key attributes to project. */
  projection: 'ALL' | 'KEYS_ONLY' | readonly string[];
}

/**
 * - `bySlug`: one partition per (kind, language, slug); the whole record is projected so that a
 *   by-slug read costs one request.
 * - `list`: ordered listings. Events sort by UTC start, venues and organizers by publish date,
 *   terms by name. Keys only (plus what list filters must see), so that skipping to a page reads
 *   small items, and the page's records are then fetched in one batch.
 * - `terms`: every category and tag of a language in one partition, ordered by taxonomy and name,
 *   whole. Terms are few and small, so presenting a page of events reads all the terms it names
 *   in one Query (a fraction of a capacity unit) instead of one item each; the term lists read
 *   it too.
 */
export const INDEXES = {
  bySlug: { indexName: 'gsi1', partitionKey: 'gsi1pk', projection: 'ALL' },
  list: {
    indexName: 'gsi2',
    partitionKey: 'gsi2pk',
    sortKey: 'gsi2sk',
    // `count` and `slug` served the term lists, which moved to `terms`; a projection cannot change
    // in place, so they stay rather than rebuild the index.
    projection: ['id', 'author', 'utcEnd', 'count', 'parent', 'slug', 'venues', 'organizers', 'categories', 'tags', 'featured', 'linkedEvents'],
  },
  terms: { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: 'ALL' },
} as const satisfies Record<string, IndexDefinition>;

/** The CreateTable input for DynamoDB Local (on AWS the stack builds the same from INDEXES), with the stream on. */
export function createTableInput(tableName: string): CreateTableCommandInput {
  const attributes = new Set<string>([KEY.pk, KEY.sk]);
  for (const index of Object.values(INDEXES)) {
    attributes.add(index.partitionKey);
    if ('sortKey' in index) attributes.add(index.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: KEY.pk, KeyType: 'HASH' },
      { AttributeName: KEY.sk, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: Object.values(INDEXES).map((index: IndexDefinition) => ({
      IndexName: index.indexName,
      KeySchema: [{ AttributeName: index.partitionKey, KeyType: 'HASH' as const }, ...(index.sortKey ? [{ AttributeName: index.sortKey, KeyType: 'RANGE' as const }] : [])],
      Projection: typeof index.projection === 'string' ? { ProjectionType: index.projection } : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.projection] },
    })),
    // CreateTable cannot turn TTL on: ensureTable (lib/local/dynamo.ts) does it right after.
    StreamSpecification: { StreamEnabled: true, StreamViewType: STREAM_VIEW_TYPE },
  };
}
