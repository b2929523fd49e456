// Brings a table kept by an older version of this project (`npm start` keeps its data in
// .local/dynamodb) up to the table definition: adds the indexes it lacks, then moves the data those
// indexes need; upgradeStream turns on the change stream and TTL. Idempotent; a table that is
// already current costs two DescribeTable, one DescribeTimeToLive and one Query.
// It scans, which is fine for a one-off upgrade of local data and never happens in a request.
import { DescribeTableCommand, DescribeTimeToLiveCommand, UpdateTableCommand, UpdateTimeToLiveCommand, type DynamoDBClient, type TableDescription } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { indexedTerm } from '#lib/logic/common.js';
import { keys } from '#lib/store/keys.js';
import type { TermItem } from '#lib/store/items.js';
import { itemBytes } from '#lib/store/stats.js';
import { createTableInput, STREAM_VIEW_TYPE, TTL_ATTRIBUTE } from '#lib/store/table.js';

export interface Upgrade {
  /** Index names created. */
  indexes: string[];
  /** Terms moved to the `terms` index. */
  terms: number;
}

export async function upgradeTable(client: DynamoDBClient, tableName: string, waitForActive: (c: DynamoDBClient, t: string) => Promise<void>): Promise<Upgrade> {
  const wanted = createTableInput(tableName);
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const have = new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  const indexes: string[] = [];
  // One index per UpdateTable, as DynamoDB requires.
  for (const index of wanted.GlobalSecondaryIndexes ?? []) {
    if (have.has(index.IndexName)) continue;
    const names = new Set(index.KeySchema!.map((k) => k.AttributeName));
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: wanted.AttributeDefinitions!.filter((a) => names.has(a.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } }],
      }),
    );
    await waitForActive(client, tableName);
    indexes.push(index.IndexName!);
  }
  const doc = DynamoDBDocumentClient.from(client);
  const terms = indexes.includes('gsi3') ? await moveTerms(doc, tableName) : 0;
  await moveStats(doc, tableName);
  return { indexes, terms };
}

/**
 * Turns on the change stream with both images, and TTL; returns what it turned on. A stream of
 * another view type cannot be changed in place: it is turned off first (its records are lost,
 * which a local table can afford).
 */
export async function upgradeStream(
  client: DynamoDBClient,
  tableName: string,
  waitForActive: (c: DynamoDBClient, t: string) => Promise<void>,
): Promise<{ stream: boolean; ttl: boolean }> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const stream = await ensureStream(client, tableName, Table, waitForActive);
  const ttl = await ensureTimeToLive(client, tableName);
  return { stream, ttl };
}

async function ensureStream(
  client: DynamoDBClient,
  tableName: string,
  table: TableDescription | undefined,
  waitForActive: (c: DynamoDBClient, t: string) => Promise<void>,
): Promise<boolean> {
  const spec = table?.StreamSpecification;
  if (spec?.StreamEnabled && spec.StreamViewType === STREAM_VIEW_TYPE) return false;
  if (spec?.StreamEnabled) {
    await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: false } }));
    await waitForActive(client, tableName);
  }
  await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: true, StreamViewType: STREAM_VIEW_TYPE } }));
  await waitForActive(client, tableName);
  return true;
}

/** Turns on TTL on TTL_ATTRIBUTE unless it is on (CreateTable cannot do it). Returns true when it did. */
export async function ensureTimeToLive(client: DynamoDBClient, tableName: string): Promise<boolean> {
  const { TimeToLiveDescription: ttl } = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  if (ttl?.AttributeName === TTL_ATTRIBUTE && (ttl.TimeToLiveStatus === 'ENABLED' || ttl.TimeToLiveStatus === 'ENABLING')) return false;
  await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { Enabled: true, AttributeName: TTL_ATTRIBUTE } }));
  return true;
}

/** Terms listed by `gsi2` before move to `gsi3`, and each language's term size is counted. */
async function moveTerms(doc: DynamoDBDocumentClient, tableName: string): Promise<number> {
  const bytes = new Map<string, number>();
  let moved = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'begins_with(pk, :t) AND sk = :t',
        ExpressionAttributeValues: { ':t': 'TERM' },
        ExclusiveStartKey: start,
      }),
    );
    for (const old of (out.Items ?? []) as TermItem[]) {
      const { gsi2pk: _a, gsi2sk: _b, ...rest } = old as TermItem & { gsi2pk?: string; gsi2sk?: string };
      const term = indexedTerm(rest);
      await doc.send(new PutCommand({ TableName: tableName, Item: term }));
      bytes.set(term.lang, (bytes.get(term.lang) ?? 0) + itemBytes(term));
      moved++;
    }
    start = out.LastEvaluatedKey;
  } while (start);
  for (const [lang, n] of bytes) {
    await doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.langStats(lang as TermItem['lang']),
        UpdateExpression: 'SET termBytes = :n',
        ExpressionAttributeValues: { ':n': n },
      }),
    );
  }
  return moved;
}

/** The longest event duration per language moved from its former item. */
async function moveStats(doc: DynamoDBDocumentClient, tableName: string): Promise<void> {
  const old = await doc.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'STATS#duration' } }));
  for (const item of old.Items ?? []) {
    await doc
      .send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.langStats(item.sk),
          UpdateExpression: 'SET #s = :s',
          ConditionExpression: 'attribute_not_exists(#s) OR #s < :s',
          ExpressionAttributeNames: { '#s': 'seconds' },
          ExpressionAttributeValues: { ':s': item.seconds },
        }),
      )
      .catch((err: Error) => {
        if (err.name !== 'ConditionalCheckFailedException') throw err;
      });
    await doc.send(new DeleteCommand({ TableName: tableName, Key: { pk: item.pk, sk: item.sk } }));
  }
}
