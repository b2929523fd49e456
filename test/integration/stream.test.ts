// The table stream end to end: writes through the real handlers and store into DynamoDB Local,
// the local poller reading its stream, and the real consumer with the real triggers publishing
// the change feed to the local bus. Nothing about the stream or the table is mocked; waits are
// bounded polls (drain, waitFor), never timings.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { roleToken } from '../support/tokens.js';
import { ensureTable, localClient, waitForActive } from '#lib/local/dynamo.js';
import { invoke } from '#lib/local/invoke.js';
import { withLogWriter } from '#lib/observe/logger.js';
import type { LocalBusEvent } from '#lib/local/bus.js';
import { startStreamPoller } from '#lib/local/stream.js';
import { putIfVersion, transact } from '#lib/store/transactions.js';
import { keys } from '#lib/store/keys.js';
import type { TermItem } from '#lib/store/items.js';
import type { Change } from '#lib/stream/change.js';
import { feedMarkerKey } from '#lib/stream/feed-trigger.js';
import { registerTrigger } from '#lib/stream/triggers.js';
import { createTableInput, STREAM_VIEW_TYPE, TTL_ATTRIBUTE } from '#lib/store/table.js';
import { handler as consumer } from '../../functions/stream/consumer.js';
import { fakeContext } from '../support/lambda.js';
import { useStreamPoller, waitFor } from '../support/stream.js';
import { dynamoEndpoint, tableDescription, uniqueTableName, useFreshTable } from '../support/table.js';
import { storedItem } from '../support/stored.js';

useFreshTable('stream', { stream: true });
const stream = useStreamPoller({ maxRetries: 2 });

let token: string;
beforeAll(async () => {
  token = await roleToken('editor', 'stream-editor');
});

const call = async (method: string, path: string, body?: unknown, query?: Record<string, string | number>) => {
  const res = await invoke(method, 'en', path, { body, query, token });
  return res;
};

async function ok(method: string, path: string, body?: unknown, query?: Record<string, string | number>): Promise<any> {
  const res = await call(method, path, body, query);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

const tomorrow = (hour: number) => {
  const d = new Date(Date.now() + 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString().slice(0, 19).replace('T', ' ');
};

/** The feed events about one record, oldest first. */
const feedOf = (kind: string, id: number): LocalBusEvent[] => stream.bus.events.filter((e) => e.detail.kind === kind && e.detail.id === id);
const typesOf = (kind: string, id: number) => feedOf(kind, id).map((e) => e['detail-type']);
const seq = (r: DynamoDBRecord) => r.dynamodb!.SequenceNumber!;
const pkOf = (r: DynamoDBRecord) => r.dynamodb!.Keys!.pk!.S!;

describe('the change feed', () => {
  it('publishes exactly one event per committed create, update, trash, restore and delete of every kind', async () => {
    const category = await ok('POST', '/categories', { name: 'Stream Jazz' });
    const tag = await ok('POST', '/tags', { name: 'stream-outdoor' });
    const venue = await ok('POST', '/venues', { venue: 'Stream Hall', city: 'Vilnius' });
    const organizer = await ok('POST', '/organizers', { organizer: 'Stream Org' });
    const event = await ok('POST', '/events', {
      title: 'Stream Concert',
      start_date: tomorrow(18),
      end_date: tomorrow(20),
      venue: venue.id,
      organizer: [organizer.id],
      categories: [category.id],
      tags: [tag.id],
    });
    // Linking bumped the term counts and the venue's linked events: bookkeeping, not edits.
    await stream.drain();
    expect(typesOf('category', category.id)).toEqual(['category.created']);
    expect(typesOf('venue', venue.id)).toEqual(['venue.created']);

    await ok('POST', `/categories/${category.id}`, { description: 'Live' });
    await ok('POST', `/tags/${tag.id}`, { description: 'Open air' });
    // Rewrites the venue's card in the event: the event publishes nothing for it.
    await ok('POST', `/venues/${venue.id}`, { city: 'Kaunas' });
    await ok('POST', `/organizers/${organizer.id}`, { phone: '123' });
    await ok('POST', `/events/${event.id}`, { title: 'Stream Concert, moved' });

    await ok('DELETE', `/events/${event.id}`);
    await ok('POST', `/events/${event.id}`, { status: 'publish' });
    await ok('DELETE', `/events/${event.id}`, undefined, { force: 'true' });
    for (const [path, id] of [
      ['/venues', venue.id],
      ['/organizers', organizer.id],
    ] as const) {
      await ok('DELETE', `${path}/${id}`);
      await ok('POST', `${path}/${id}`, { status: 'publish' });
      // A forced delete of a published place trashes it first: two committed writes.
      await ok('DELETE', `${path}/${id}`, undefined, { force: 'true' });
    }
    await ok('DELETE', `/categories/${category.id}`, undefined, { force: 'true' });
    await ok('DELETE', `/tags/${tag.id}`, undefined, { force: 'true' });
    await stream.drain();

    const term = ['created', 'updated', 'deleted'];
    const post = ['created', 'updated', 'trashed', 'restored', 'deleted'];
    const place = ['created', 'updated', 'trashed', 'restored', 'trashed', 'deleted'];
    expect(typesOf('category', category.id)).toEqual(term.map((a) => `category.${a}`));
    expect(typesOf('tag', tag.id)).toEqual(term.map((a) => `tag.${a}`));
    expect(typesOf('event', event.id)).toEqual(post.map((a) => `event.${a}`));
    expect(typesOf('venue', venue.id)).toEqual(place.map((a) => `venue.${a}`));
    expect(typesOf('organizer', organizer.id)).toEqual(place.map((a) => `organizer.${a}`));

    const all = [...feedOf('category', category.id), ...feedOf('tag', tag.id), ...feedOf('event', event.id), ...feedOf('venue', venue.id), ...feedOf('organizer', organizer.id)];
    expect(new Set(all.map((e) => e.detail.changeId)).size).toBe(all.length);
    for (const e of all) {
      expect(e.source).toBe('event-calendar');
      expect(e.detail).toEqual({
        kind: e['detail-type'].split('.')[0],
        id: expect.any(Number),
        lang: 'en',
        action: expect.any(String),
        revision: expect.any(Number),
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        changeId: expect.any(String),
      });
    }
    // Revisions follow the record's version; a delete carries the last one.
    const revisions = feedOf('event', event.id).map((e) => e.detail.revision);
    expect(revisions[0]).toBe(1);
    for (let i = 1; i < revisions.length - 1; i++) expect(revisions[i]).toBeGreaterThan(revisions[i - 1]!);
    expect(revisions.at(-1)).toBe(revisions.at(-2));
    // Every claim was marked published.
    const marker = await storedItem<Record<string, unknown>>(feedMarkerKey(all[0]!.detail.changeId));
    expect(marker).toMatchObject({ state: 'published', busEventId: all[0]!.id, [TTL_ATTRIBUTE]: expect.any(Number) });
    expect(stream.poller.deadLetters).toEqual([]);
  });

  it('publishes nothing for writes that fail', async () => {
    const tag = await ok('POST', '/tags', { name: 'stream-failures' });
    await stream.drain();
    const before = stream.bus.events.length;

    // Refused by validation before anything is written.
    expect((await call('POST', '/events', { start_date: tomorrow(9), end_date: tomorrow(10) })).status).toBe(400);
    expect((await call('POST', '/tags', { name: 'stream-failures' })).status).toBe(400);
    // A write whose condition fails in DynamoDB: a stale version.
    const stored = (await storedItem<TermItem>(keys.term(tag.id)))!;
    const stale: TermItem = { ...stored, description: 'lost', version: stored.version + 1 };
    await expect(transact([putIfVersion(stale, stored.version - 1)])).rejects.toThrow();
    // A second delete of a deleted record.
    const gone = await ok('POST', '/tags', { name: 'stream-gone' });
    await ok('DELETE', `/tags/${gone.id}`, undefined, { force: 'true' });
    expect((await call('DELETE', `/tags/${gone.id}`, undefined, { force: 'true' })).status).toBe(400);

    await stream.drain();
    expect(stream.bus.events.slice(before).map((e) => [e['detail-type'], e.detail.id])).toEqual([
      ['tag.created', gone.id],
      ['tag.deleted', gone.id],
    ]);
    expect(typesOf('tag', tag.id)).toEqual(['tag.created']);
  });

  it('does not publish twice when a batch is delivered again', async () => {
    const venue = await ok('POST', '/venues', { venue: 'Redelivered Hall' });
    await ok('POST', `/venues/${venue.id}`, { city: 'Riga' });
    await stream.drain();
    expect(typesOf('venue', venue.id)).toEqual(['venue.created', 'venue.updated']);
    const delivered = stream.poller.invocations.filter((i) => i.event.Records.some((r) => pkOf(r) === keys.post(venue.id).pk));
    expect(delivered.length).toBeGreaterThan(0);

    for (const { event } of delivered) {
      const again = await withLogWriter(
        (json) => stream.logs.push(JSON.parse(json)),
        () => consumer(event, fakeContext()),
      );
      expect(again).toEqual({ batchItemFailures: [] });
    }
    await stream.drain();
    expect(typesOf('venue', venue.id)).toEqual(['venue.created', 'venue.updated']);
  });

  it('publishes a change once when publishing failed after the claim', async () => {
    stream.bus.failNext(1);
    const tag = await ok('POST', '/tags', { name: 'stream-bus-down' });
    await stream.drain();
    expect(typesOf('tag', tag.id)).toEqual(['tag.created']);
    const tries = stream.poller.invocations.filter((i) => i.event.Records.some((r) => pkOf(r) === keys.term(tag.id).pk));
    // The first delivery failed on this record (claimed, not published); the second published it.
    expect(tries.length).toBe(2);
    const record = tries[0]!.event.Records.find((r) => pkOf(r) === keys.term(tag.id).pk)!;
    expect(tries[0]!.response).toEqual({ batchItemFailures: [{ itemIdentifier: seq(record) }] });
    expect(tries[1]!.response).toEqual({ batchItemFailures: [] });
    const marker = (await db().send(new GetCommand({ TableName: config().tableName, Key: feedMarkerKey(record.eventID!), ConsistentRead: true }))).Item;
    expect(marker).toMatchObject({ state: 'published', detailType: 'tag.created' });
  });
});

describe('the fixture batch', () => {
  it('runs through the consumer: one event per change, none for helper items or bookkeeping, none when run again', async () => {
    const fixture = JSON.parse(readFileSync(new URL('../../events-fixtures/stream.consumer.json', import.meta.url), 'utf8')) as DynamoDBStreamEvent;
    const ids = new Set(fixture.Records.map((r) => r.eventID));
    const published = () => stream.bus.events.filter((e) => ids.has(e.detail.changeId)).map((e) => e['detail-type']);
    const run = () =>
      withLogWriter(
        (json) => stream.logs.push(JSON.parse(json)),
        () => consumer(fixture, fakeContext()),
      );
    expect(await run()).toEqual({ batchItemFailures: [] });
    // In order per record; different records are handled side by side.
    expect(published().filter((t) => t.startsWith('category.'))).toEqual(['category.created']);
    expect(published().filter((t) => t.startsWith('venue.'))).toEqual(['venue.created', 'venue.updated', 'venue.trashed', 'venue.deleted']);
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(published()).toHaveLength(5);
  });
});

describe('failures', () => {
  it('reports the first failed record, retries it with the rest of the batch, then dead-letters it', async () => {
    const applied: string[] = [];
    const poisoned = (c: Change) => c.kind === 'organizer' && String(c.new?.title ?? '').startsWith('Poison');
    const unregister = registerTrigger({
      id: 'test-poison',
      wants: (c) => c.kind === 'organizer' && c.action === 'create',
      async apply(c) {
        applied.push(String(c.new?.title));
        if (poisoned(c)) throw new Error('poisoned on purpose');
      },
    });
    try {
      // Paused, so that the three creates arrive in one batch.
      await stream.poller.pause();
      const first = await ok('POST', '/organizers', { organizer: 'Before Poison Org' });
      const poison = await ok('POST', '/organizers', { organizer: 'Poison Org' });
      const after = await ok('POST', '/organizers', { organizer: 'After Poison Org' });
      stream.poller.resume();
      await waitFor(() => stream.poller.deadLetters.length > 0, 'the poisoned record is dead-lettered');
      await stream.drain();

      const pks = [first, poison, after].map((o) => keys.post(o.id).pk);
      const mine = stream.poller.invocations.filter((i) => i.event.Records.some((r) => pks.includes(pkOf(r))));
      const [batch, ...retries] = mine;
      expect(batch!.event.Records.map(pkOf)).toEqual(pks);
      const poisonRecord = batch!.event.Records[1]!;
      expect(batch!.response).toEqual({ batchItemFailures: [{ itemIdentifier: seq(poisonRecord) }] });
      // Retried from the failed record, in order; the record before it counted as done.
      expect(retries.slice(0, 2).map((i) => i.event.Records.map(pkOf))).toEqual([pks.slice(1), pks.slice(1)]);
      for (const retry of retries.slice(0, 2)) expect(retry.response).toEqual({ batchItemFailures: [{ itemIdentifier: seq(poisonRecord) }] });
      // Then the rest goes on without it.
      expect(retries.slice(2).map((i) => i.event.Records.map(pkOf))).toEqual([[pks[2]]]);
      expect(retries[2]!.response).toEqual({ batchItemFailures: [] });

      expect(applied.filter((t) => t === 'Before Poison Org')).toHaveLength(1);
      expect(applied.filter((t) => t === 'Poison Org')).toHaveLength(3);
      expect(applied.filter((t) => t === 'After Poison Org').length).toBeGreaterThanOrEqual(1);
      expect(stream.poller.deadLetters).toHaveLength(1);
      expect(stream.poller.deadLetters[0]).toMatchObject({
        requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 3 },
        DDBStreamBatchInfo: { startSequenceNumber: seq(poisonRecord), endSequenceNumber: seq(poisonRecord), batchSize: 1, streamArn: stream.poller.streamArn },
        record: { eventID: poisonRecord.eventID },
      });
      expect(stream.lines.some((l) => l.includes('dead letter') && l.includes(keys.post(poison.id).pk))).toBe(true);
      const errors = stream.logs.filter((l) => l.message === 'stream trigger failed' && l.trigger === 'test-poison');
      expect(errors).toHaveLength(3);
      expect(errors[0]).toMatchObject({ level: 'ERROR', sequence: seq(poisonRecord), change: { kind: 'organizer', id: poison.id, action: 'create' } });
      // The feed trigger succeeded for every record: each published once, the poisoned one too.
      for (const o of [first, poison, after]) expect(typesOf('organizer', o.id)).toEqual(['organizer.created']);
      const batchLines = stream.logs.filter((l) => l.message === 'stream batch' && l.failed_sequence === seq(poisonRecord));
      expect(batchLines.length).toBe(3);
      expect(batchLines[0]).toMatchObject({ records: 3, processed: 1, changes: 3, operation: 'stream.consumer' });
    } finally {
      stream.poller.resume();
      unregister();
    }
  });
});

describe('the local stream', () => {
  it('resumes after its checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stream-checkpoint-'));
    const file = join(dir, 'checkpoint.json');
    const seen: string[] = [];
    const start = () =>
      startStreamPoller({
        endpoint: process.env.DYNAMODB_ENDPOINT,
        checkpointFile: file,
        idleMs: 50,
        log: () => undefined,
        handler: async (event) => {
          seen.push(...event.Records.map(seq));
          return { batchItemFailures: [] };
        },
      });
    try {
      const first = await start();
      await first.drain();
      await first.stop();
      const count = seen.length;
      expect(count).toBeGreaterThan(0);
      const tag = await ok('POST', '/tags', { name: 'stream-checkpoint' });
      const second = await start();
      await second.drain();
      await second.stop();
      // Only what came after the checkpoint.
      expect(seen.length).toBe(count + 1);
      expect(new Set(seen).size).toBe(seen.length);
      await stream.drain();
      expect(typesOf('tag', tag.id)).toEqual(['tag.created']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives this file's table the stream its consumer reads", async () => {
    expect((await tableDescription(config().tableName)).StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: STREAM_VIEW_TYPE });
  });

  it('with stream: false, makes a table with TTL and no stream, and leaves an existing one without it', async () => {
    const name = uniqueTableName('stream-off');
    const client = localClient(await dynamoEndpoint());
    const tableNow = () => tableDescription(name);
    try {
      expect(await ensureTable(name, await dynamoEndpoint(), { stream: false })).toBe(true);
      expect((await tableNow()).StreamSpecification?.StreamEnabled ?? false).toBe(false);
      const { TimeToLiveDescription } = await client.send(new DescribeTimeToLiveCommand({ TableName: name }));
      expect(TimeToLiveDescription).toMatchObject({ AttributeName: TTL_ATTRIBUTE, TimeToLiveStatus: 'ENABLED' });
      expect(await ensureTable(name, await dynamoEndpoint(), { stream: false })).toBe(false);
      expect((await tableNow()).StreamSpecification?.StreamEnabled ?? false).toBe(false);
      // Without the option, the same table is upgraded to the definition: its stream is turned on.
      expect(await ensureTable(name, await dynamoEndpoint())).toBe(false);
      expect((await tableNow()).StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: STREAM_VIEW_TYPE });
    } finally {
      await client.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined);
      client.destroy();
    }
  });

  it('turns the stream and TTL on for a table made before them', async () => {
    const name = uniqueTableName('stream-upgrade');
    const client = localClient(await dynamoEndpoint());
    try {
      const { StreamSpecification: _, ...old } = createTableInput(name);
      await client.send(new CreateTableCommand(old));
      await waitForActive(client, name);
      expect((await client.send(new DescribeTableCommand({ TableName: name }))).Table!.StreamSpecification?.StreamEnabled ?? false).toBe(false);
      // An event written by an older version: no search entries.
      const doc = DynamoDBDocumentClient.from(client);
      const event = {
        ...keys.post(901),
        id: 901,
        kind: 'event',
        lang: 'en',
        status: 'publish',
        title: 'Upgraded saxophone',
        description: '',
        excerpt: '',
        author: 1,
        utcStart: '2031-05-01 10:00:00',
        utcEnd: '2031-05-01 11:00:00',
        venues: [],
        organizers: [],
        categories: [],
        tags: [],
        featured: false,
        parent: 0,
      };
      await doc.send(new PutCommand({ TableName: name, Item: event }));
      expect(await ensureTable(name, await dynamoEndpoint())).toBe(false);
      // Turning the stream on indexed it for search, as the consumer indexes new events.
      expect((await doc.send(new GetCommand({ TableName: name, Key: keys.word(901, 'saxophone') }))).Item).toMatchObject({
        id: 901,
        gsi2pk: expect.stringContaining('word#saxophone'),
      });
      const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
      expect(Table!.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: STREAM_VIEW_TYPE });
      expect(Table!.LatestStreamArn).toBeTruthy();
      const { TimeToLiveDescription } = await client.send(new DescribeTimeToLiveCommand({ TableName: name }));
      expect(TimeToLiveDescription).toMatchObject({ AttributeName: TTL_ATTRIBUTE, TimeToLiveStatus: 'ENABLED' });
    } finally {
      await client.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined);
      client.destroy();
    }
  });
});

afterAll(() => {
  expect(stream.lines.filter((l) => l.includes('polling') && l.includes('failed'))).toEqual([]);
});
