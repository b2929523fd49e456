// The search index of events written before the stream consumer kept it: `backfillSearch` indexes
// them as the consumer would, idempotently. The gateway here runs without the consumer, so the
// creates leave the index empty; their recent-write items are removed too, as on a table that
// predates both.
import { DeleteCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { localClient } from '#lib/local/dynamo.js';
import { backfillSearch, indexAlong, indexEvents } from '#lib/stream/backfill.js';
import { useGateway } from '../support/gateway.js';
import { createAsEditor } from '../support/expect.js';
import { dynamoEndpoint } from '../support/table.js';
import { keys, RECENT_SHARDS, recentPartition } from '#lib/store/keys.js';
import { getItem } from '#lib/store/reads.js';
import { ofKind } from '#lib/store/items.js';
import { indexNew } from '#lib/stream/search-trigger.js';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { bumpValidator } from '#lib/store/validators.js';

const gw = useGateway();
const at = (days: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} 10:00:00`;

const search = async (word: string, editor = false) => {
  const res = await gw.api('GET', '/events', { query: { search: word, ...(editor ? { status: 'any' } : {}) }, token: editor ? 'editor' : undefined });
  expect(res.status, res.text).toBe(200);
  return { titles: (res.body.events as { title: string }[]).map((e) => e.title).sort(), total: res.body.total as number };
};

/** The recent-write items of the events (in English), and a client of the table. */
async function recentItems(): Promise<{ client: DynamoDBDocumentClient; recent: Record<string, any>[] }> {
  const client = DynamoDBDocumentClient.from(localClient(await dynamoEndpoint()), { marshallOptions: { removeUndefinedValues: true } });
  const recent = [];
  for (let k = 0; k < RECENT_SHARDS; k++) {
    const out = await client.send(new QueryCommand({ TableName: gw.table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': recentPartition('en', k) } }));
    // Events' items; the vocabulary's versions, which a backfill moved, share the partitions.
    recent.push(...(out.Items ?? []).filter((i) => i.id !== undefined));
  }
  return { client, recent };
}

/**
 * Removes the recent-write items of the events written (one for each of `ids`), as on a table older
 * than the index, and answers a client of the table.
 */
async function forgetRecent(ids: number[]): Promise<DynamoDBDocumentClient> {
  const { client, recent } = await recentItems();
  // One item per event.
  expect(recent.map((i) => Number(i.id)).sort()).toEqual(ids.toSorted());
  for (const item of recent) await client.send(new DeleteCommand({ TableName: gw.table, Key: { pk: item.pk, sk: item.sk } }));
  // A search keeps what it read of them while the table's change counter stays, as it does
  // unless something writes: removed by hand here, the counter moves as a write would move it.
  await bumpValidator(undefined, undefined, undefined, { table: gw.table, client });
  return client;
}

describe('backfillSearch', () => {
  it('indexes every event once, as the consumer does, and changes nothing when run again', async () => {
    const night = await createAsEditor(gw, '/events', { title: 'Backfilled jazz night', start_date: at(3), end_date: at(3), status: 'publish' });
    const rock = await createAsEditor(gw, '/events', {
      title: 'Backfilled rock',
      description: 'No jazz in the title, but here',
      start_date: at(4),
      end_date: at(4),
      status: 'publish',
    });
    const draft = await createAsEditor(gw, '/events', { title: 'Backfilled jazz draft', start_date: at(5), end_date: at(5), status: 'draft' });
    const trashed = await createAsEditor(gw, '/events', { title: 'Backfilled jazz, trashed', start_date: at(6), end_date: at(6), status: 'publish' });
    expect((await gw.api('DELETE', `/events/${trashed.id}`, { token: 'editor' })).status).toBe(200);
    // Searches see the events written since the index caught up, by their records.
    expect(await search('jazz')).toEqual({ titles: ['Backfilled jazz night', 'Backfilled rock'], total: 2 });
    const client = await forgetRecent([night.id, rock.id, draft.id, trashed.id]);
    // Without them, as on a table older than the index, nothing consumed the stream: the index is empty.
    expect(await search('jazz')).toEqual({ titles: [], total: 0 });

    const seen: number[] = [];
    const first = await backfillSearch({ target: { table: gw.table, client }, segments: 2, progress: ({ events }) => seen.push(events) });
    expect(first.events).toBe(4);
    expect(first.scanned).toBeGreaterThan(4);
    expect(seen.at(-1)).toBe(4);

    const want = { titles: ['Backfilled jazz night', 'Backfilled rock'], total: 2 };
    expect(await search('jazz')).toEqual(want);
    expect(await search('jazz', true)).toEqual({ titles: ['Backfilled jazz draft', 'Backfilled jazz night', 'Backfilled rock'], total: 3 });
    expect(await search('night')).toEqual({ titles: ['Backfilled jazz night'], total: 1 });
    // The vocabulary: every suffix of every word, once per word however many events have it.
    const vocab = async (pk: string) =>
      ((await client.send(new QueryCommand({ TableName: gw.table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }))).Items ?? []).map((i) => i.sk);
    expect(await vocab('VOCAB#en#ja')).toEqual(['jazz#jazz']);
    expect(await vocab('VOCAB#en#az')).toEqual(['azz#jazz']);
    expect(await vocab('VOCAB#en#zz')).toEqual(['zz#jazz']);
    expect(await vocab('VOCAB#en#ck')).toEqual(['ck#rock', 'ckfilled#backfilled']);
    // Parts of words, through the vocabulary the backfill wrote.
    expect(await search('azz')).toEqual(want);
    expect(await search('ROC')).toEqual({ titles: ['Backfilled rock'], total: 1 });
    expect(await search('ackfill')).toEqual({ titles: ['Backfilled jazz night', 'Backfilled rock'], total: 2 });
    expect(await search('azz igh')).toEqual({ titles: ['Backfilled jazz night'], total: 1 });

    // Again: the same index, the same totals (day buckets hold sets of ids, not counters).
    expect((await backfillSearch({ target: { table: gw.table, client } })).events).toBe(4);
    expect(await search('jazz')).toEqual(want);
    expect(await search('jazz', true)).toMatchObject({ total: 3 });
  });

  it('indexes the events of given ids (an import knows what it wrote), skipping ids of no event', async () => {
    const a = await createAsEditor(gw, '/events', { title: 'Imported bluegrass', start_date: at(7), end_date: at(7), status: 'publish' });
    const b = await createAsEditor(gw, '/events', { title: 'Imported bluegrass, later', start_date: at(8), end_date: at(8), status: 'publish' });
    const c = await createAsEditor(gw, '/events', { title: 'Imported bluegrass, not given', start_date: at(9), end_date: at(9), status: 'publish' });
    const venue = await createAsEditor(gw, '/venues', { venue: 'Bluegrass hall' });
    await forgetRecent([a.id, b.id, c.id]);
    expect(await search('bluegrass')).toEqual({ titles: [], total: 0 });
    const done: number[] = [];
    expect(await indexEvents([a.id, b.id, venue.id, 999_999], (n) => done.push(n))).toBe(2);
    expect(done).toEqual([2]);
    expect(await search('bluegrass')).toEqual({ titles: ['Imported bluegrass', 'Imported bluegrass, later'], total: 2 });
  });

  it('forgets the recent writes of the events it indexed, up to the versions it indexed', async () => {
    const a = await createAsEditor(gw, '/events', { title: 'Recent fiddle', start_date: at(10), end_date: at(10), status: 'publish' });
    const b = await createAsEditor(gw, '/events', { title: 'Recent fiddle, changed', start_date: at(11), end_date: at(11), status: 'publish' });
    const ids = async () => (await recentItems()).recent.map((i) => Number(i.id)).filter((id) => id === a.id || id === b.id);
    expect((await ids()).sort()).toEqual([a.id, b.id].sort());
    // b changes after the version an index was given: its recent write stays, a's goes.
    expect((await gw.api('POST', `/events/${b.id}`, { body: { description: 'Later words' }, token: 'editor' })).status).toBe(200);
    const recordOfA = (await getItem(keys.post(a.id)))!;
    const staleB = { ...(await getItem(keys.post(b.id)))!, version: 1 };
    await indexNew(
      [recordOfA, staleB].map((r) => ofKind(r, 'event')!),
      { table: config().tableName, client: db() },
    );
    expect(await ids()).toEqual([b.id]);
    // Indexed as it is now, b's goes too; searches find both through the index.
    expect(await indexEvents([b.id])).toBe(1);
    expect(await ids()).toEqual([]);
    expect(await search('fiddle')).toEqual({ titles: ['Recent fiddle', 'Recent fiddle, changed'], total: 2 });
  });

  it('indexes events as an import writes them, a chunk at a time, and the rest when it is done', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createAsEditor(gw, '/events', { title: `Along mandolin ${i}`, start_date: at(14 + i), end_date: at(14 + i), status: 'publish' }));
    await forgetRecent(made.map((e) => e.id));
    const along = indexAlong('transaction', 2);
    // Told twice, indexed once; the fifth waits for the finish, with an id told only then.
    for (const e of [...made.slice(0, 4), made[0]!]) along.add(e.id);
    await expect.poll(() => along.indexed).toBe(4);
    expect(await search('mandolin')).toMatchObject({ total: 4 });
    expect(await along.finish([made[0]!.id, made[4]!.id])).toBe(5);
    expect(await search('mandolin')).toMatchObject({ total: 5 });
  });

  it('indexes the same in transactions (an import into DynamoDB Local), a stale version kept', async () => {
    const a = await createAsEditor(gw, '/events', { title: 'Committed banjo', start_date: at(12), end_date: at(12), status: 'publish' });
    const b = await createAsEditor(gw, '/events', { title: 'Committed banjo, changed', start_date: at(13), end_date: at(13), status: 'publish' });
    const ids = async () => (await recentItems()).recent.map((i) => Number(i.id)).filter((id) => id === a.id || id === b.id);
    expect((await gw.api('POST', `/events/${b.id}`, { body: { description: 'Later words' }, token: 'editor' })).status).toBe(200);
    const staleB = { ...(await getItem(keys.post(b.id)))!, version: 1 };
    await indexNew(
      [(await getItem(keys.post(a.id)))!, staleB].map((r) => ofKind(r, 'event')!),
      { table: config().tableName, client: db(), commits: 'transaction' },
    );
    // b's guard failed, so its transaction was written one by one: a's went, b's stayed.
    expect(await ids()).toEqual([b.id]);
    expect(await indexEvents([b.id], undefined, 'transaction')).toBe(1);
    expect(await ids()).toEqual([]);
    expect(await search('banjo')).toEqual({ titles: ['Committed banjo', 'Committed banjo, changed'], total: 2 });
  });
});
