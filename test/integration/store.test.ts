// The store primitives (lib/store/: reads, transactions, ids, slugs, users) and the event write
// transaction (lib/logic/event-writes.ts), directly against DynamoDB Local: no handler, no mock.
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { capacity, db } from '#lib/store/db.js';
import { ApiError, ConflictError } from '#lib/contract/errors.js';
import { eventTransaction } from '#lib/logic/event-writes.js';
import { batchGet, count, getItem, itemKey, keyOf, query, queryAll, type Key } from '#lib/store/reads.js';
import { checkExists, del, put, putIfVersion, transact, type TransactItem } from '#lib/store/transactions.js';
import { nextId } from '#lib/store/ids.js';
import { freeSlug } from '#lib/store/slugs.js';
import { userExists, userIdOf } from '#lib/store/users.js';
import { keys, pad } from '#lib/store/keys.js';
import type { EventItem, LinkItem, TermItem } from '#lib/store/items.js';
import { eventRecord } from '#lib/docs/record-samples.js';
import { tableDescription, useFreshTable } from '../support/table.js';
import { storedItem, storedItems } from '../support/stored.js';

useFreshTable('store');

const tableName = () => config().tableName;

// Nothing here consumes the stream, so the file's table has none: DynamoDB Local would charge every
// request of the run for the stream records it holds (test/support/table.ts).
it('runs on a table without a stream', async () => {
  const table = await tableDescription(tableName());
  expect(table.TableStatus).toBe('ACTIVE');
  expect(table.StreamSpecification?.StreamEnabled ?? false).toBe(false);
});

/** `Put POST#5|POST`, `Update TERM#3|TERM`, …: what a transaction item does, to what. */
function describeItem(item: TransactItem): string {
  if (item.Put) {
    const it = item.Put.Item as Key;
    return `Put ${it.pk}|${it.sk}`;
  }
  if (item.Update) return `Update ${item.Update.Key!.pk}|${item.Update.Key!.sk}`;
  if (item.Delete) return `Delete ${item.Delete.Key!.pk}|${item.Delete.Key!.sk}`;
  if (item.ConditionCheck) return `ConditionCheck ${item.ConditionCheck.Key!.pk}|${item.ConditionCheck.Key!.sk}`;
  return 'unknown';
}

/** The link items of an event across the given partitions. */
async function linksOf(eventId: number, partitions: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const pk of partitions) {
    const items = await queryAll<LinkItem>({
      KeyConditionExpression: 'pk = :pk AND sk = :sk',
      ExpressionAttributeValues: { ':pk': pk, ':sk': `EVENT#${pad(eventId)}` },
    });
    for (const i of items) found.push(i.pk);
  }
  return found.sort();
}

async function makeTerm(taxonomy: 'category' | 'tag', name: string): Promise<TermItem> {
  const id = await nextId('term');
  const term: TermItem = {
    ...keys.term(id),
    id,
    taxonomy,
    lang: 'en',
    name,
    slug: `${name.toLowerCase()}-${id}`,
    description: '',
    parent: 0,
    count: 0,
    version: 1,
  };
  await transact([put(term)]);
  return term;
}

async function makePlace(kind: 'venue' | 'organizer', name: string): Promise<number> {
  const id = await nextId('post');
  await transact([
    put({
      ...keys.post(id),
      id,
      kind,
      lang: 'en',
      status: 'publish',
      slug: `${name.toLowerCase()}-${id}`,
      title: name,
      version: 1,
    }),
  ]);
  return id;
}

const countOf = async (id: number) => (await storedItem<TermItem>(keys.term(id)))!.count;

const DATE = '2030-01-01 00:00:00';
const makeEvent = (id: number, over: Partial<EventItem> = {}): EventItem =>
  eventRecord({ id, date: DATE, date_utc: DATE, modified: DATE, modified_utc: DATE, start: '2030-06-01 10:00:00', end: '2030-06-01 12:00:00', ...over });

/** Runs an event transaction as the logic does: failed conditions mapped through `meaning`. */
async function commit(old: EventItem | undefined, next: EventItem | undefined): Promise<void> {
  const tx = eventTransaction(old, next, tableName());
  await transact(tx.items, (i) => tx.meaning.get(i)?.());
}

describe('nextId', () => {
  it('gives 50 concurrent callers 50 distinct consecutive integers', async () => {
    const ids = await Promise.all(Array.from({ length: 50 }, () => nextId('post')));
    expect(new Set(ids).size).toBe(50);
    const sorted = [...ids].sort((a, b) => a - b);
    expect(sorted[0]).toBeGreaterThanOrEqual(1);
    expect(sorted).toEqual(Array.from({ length: 50 }, (_, i) => sorted[0]! + i));
    // And the sequence carries on after them.
    expect(await nextId('post')).toBe(sorted[49]! + 1);
  });

  it('keeps the post and term sequences independent', async () => {
    const term1 = await nextId('term');
    const posts = await Promise.all(Array.from({ length: 20 }, () => nextId('post')));
    const term2 = await nextId('term');
    expect(term2).toBe(term1 + 1);
    const post = await nextId('post');
    expect(post).toBe(Math.max(...posts) + 1);
    // Concurrent calls on both sequences do not interleave.
    const [terms, morePosts] = await Promise.all([Promise.all(Array.from({ length: 10 }, () => nextId('term'))), Promise.all(Array.from({ length: 10 }, () => nextId('post')))]);
    expect([...terms].sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => term2 + 1 + i));
    expect([...morePosts].sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => post + 1 + i));
  });

  it('reserves a block of n ids', async () => {
    const first = await nextId('term', 5);
    expect(await nextId('term')).toBe(first + 5);
  });
});

describe('freeSlug', () => {
  it('returns the wanted slug, then -2 once a guard holds it; the owner keeps its own', async () => {
    expect(await freeSlug('venue', 'en', 'main-hall')).toBe('main-hall');
    await transact([put({ ...keys.slugGuard('venue', 'en', 'main-hall'), id: 7001 })]);
    expect(await freeSlug('venue', 'en', 'main-hall')).toBe('main-hall-2');
    expect(await freeSlug('venue', 'en', 'main-hall', 7001)).toBe('main-hall');
    expect(await freeSlug('venue', 'en', 'main-hall', 7002)).toBe('main-hall-2');
    await transact([put({ ...keys.slugGuard('venue', 'en', 'main-hall-2'), id: 7002 })]);
    expect(await freeSlug('venue', 'en', 'main-hall')).toBe('main-hall-3');
    expect(await freeSlug('venue', 'en', 'main-hall', 7002)).toBe('main-hall-2');
  });

  it('keeps guards per (kind, language)', async () => {
    await transact([put({ ...keys.slugGuard('organizer', 'en', 'shared'), id: 7100 })]);
    expect(await freeSlug('organizer', 'en', 'shared')).toBe('shared-2');
    expect(await freeSlug('organizer', 'lt', 'shared')).toBe('shared');
    expect(await freeSlug('venue', 'en', 'shared')).toBe('shared');
    expect(await freeSlug('event', 'en', 'shared')).toBe('shared');
    expect(await freeSlug('category', 'en', 'shared')).toBe('shared');
  });

  it('looks past the first batch of ten candidates', async () => {
    const taken = ['busy', ...Array.from({ length: 11 }, (_, i) => `busy-${i + 2}`)];
    await transact(taken.map((s, i) => put({ ...keys.slugGuard('tag', 'en', s), id: 7200 + i })));
    expect(await freeSlug('tag', 'en', 'busy')).toBe('busy-13');
  });
});

describe('transact', () => {
  it('writes nothing when its last item fails its condition, and maps the failure through onFailed', async () => {
    const a = { pk: 'TX#a', sk: 'X', v: 1 };
    const b = { pk: 'TX#b', sk: 'X', v: 1 };
    const missing = { pk: 'TX#missing', sk: 'X' };
    const seen: number[] = [];
    const failure = new Error('the last item failed');
    await expect(
      transact([put(a), put(b), checkExists(missing)], (i) => {
        seen.push(i);
        return failure;
      }),
    ).rejects.toBe(failure);
    expect(seen).toEqual([2]);
    expect(await storedItem({ pk: a.pk, sk: a.sk })).toBeUndefined();
    expect(await storedItem({ pk: b.pk, sk: b.sk })).toBeUndefined();

    // Without a mapping, a failed condition is a ConflictError.
    await expect(transact([put(a), checkExists(missing)], () => undefined)).rejects.toBeInstanceOf(ConflictError);
    await expect(transact([put(a), checkExists(missing)])).rejects.toBeInstanceOf(ConflictError);
    expect(await storedItem({ pk: a.pk, sk: a.sk })).toBeUndefined();

    // The same items with a passing condition are all written.
    await transact([put({ ...missing })]);
    await transact([put(a), put(b), checkExists(missing)]);
    expect(await storedItem({ pk: a.pk, sk: a.sk })).toEqual(a);
    expect(await storedItem({ pk: b.pk, sk: b.sk })).toEqual(b);
  });

  it('reports the index of the item that failed, not the first item', async () => {
    await transact([put({ pk: 'TX#exists', sk: 'X' })]);
    const seen: number[] = [];
    await expect(
      transact([put({ pk: 'TX#c', sk: 'X' }), put({ pk: 'TX#exists', sk: 'X' }), put({ pk: 'TX#d', sk: 'X' })], (i) => {
        seen.push(i);
        return new ApiError(400, 'taken', 'taken');
      }),
    ).rejects.toMatchObject({ status: 400, code: 'taken' });
    expect(seen).toEqual([1]);
    expect(await storedItem({ pk: 'TX#c', sk: 'X' })).toBeUndefined();
    expect(await storedItem({ pk: 'TX#d', sk: 'X' })).toBeUndefined();
  });

  it('throws ConflictError on a version mismatch (putIfVersion) and keeps the stored version', async () => {
    const key = { pk: 'TX#versioned', sk: 'X' };
    await transact([put({ ...key, version: 1, note: 'first' })]);
    const second = { ...key, version: 2, note: 'second' };
    const stale = { ...key, version: 3, note: 'stale' };
    await transact([putIfVersion(second, 1)]);
    await expect(transact([putIfVersion(stale, 1)])).rejects.toBeInstanceOf(ConflictError);
    expect(await storedItem(key)).toEqual({ ...key, version: 2, note: 'second' });
    // A stale write with other items writes none of them.
    const other = { pk: 'TX#with-stale', sk: 'X' };
    await expect(transact([put(other), putIfVersion({ ...key, version: 3 }, 1)])).rejects.toBeInstanceOf(ConflictError);
    expect(await storedItem(other)).toBeUndefined();
  });

  it('refuses more than 100 items before calling DynamoDB', async () => {
    const items = Array.from({ length: 101 }, (_, i) => put({ pk: `TX#many#${i}`, sk: 'X' }));
    await expect(transact(items)).rejects.toThrow(/at most 100/);
    expect(await storedItem({ pk: 'TX#many#0', sk: 'X' })).toBeUndefined();
  });
});

describe('batchGet', () => {
  it('returns every item of more than 100 keys (and ignores missing and repeated keys)', async () => {
    const stored = Array.from({ length: 230 }, (_, i) => ({ pk: `BG#${i}`, sk: 'X', n: i }));
    for (let i = 0; i < stored.length; i += 50) await transact(stored.slice(i, i + 50).map((s) => put(s)));
    const wanted: Key[] = [
      ...stored.map(({ pk, sk }) => ({ pk, sk })),
      ...Array.from({ length: 20 }, (_, i) => ({ pk: `BG#missing#${i}`, sk: 'X' })),
      ...stored.slice(0, 30).map(({ pk, sk }) => ({ pk, sk })),
    ];
    capacity.reset();
    const found = await storedItems<{ pk: string; sk: string; n: number }>(wanted);
    expect(found.size).toBe(230);
    for (const s of stored) expect(found.get(keyOf(s))?.n).toBe(s.n);
    // 250 distinct keys: three requests of at most 100 (the tally names the low-level commands).
    expect(capacity.snapshot().requests).toBe(3);
    expect(capacity.snapshot().commands).toEqual({ BatchGetItemCommand: 3 });
  });

  it('makes no request for no keys', async () => {
    capacity.reset();
    expect((await storedItems([])).size).toBe(0);
    expect(capacity.snapshot().requests).toBe(0);
  });
});

describe('reads over the plain client', () => {
  // Every kind of value a record holds, as the document client writes it.
  const rich = (i: number) => ({
    pk: 'PLAIN#reads',
    sk: `item#${i}`,
    title: `Plain ${i}`,
    empty: '',
    n: i,
    big: 2 ** 52 + i,
    ratio: i / 4,
    on: i % 2 === 0,
    none: null,
    list: [1, 'two', { three: [3] }],
    map: { nested: { deep: 'yes', n: -(i + 1) } },
    tags: new Set(['a', `b${i}`]),
  });
  beforeAll(async () => {
    await transact(Array.from({ length: 5 }, (_, i) => put(rich(i))));
  });

  it('answers what the document client answers: by key, in a batch and in a query', async () => {
    for (let i = 0; i < 5; i++) {
      const key = { pk: 'PLAIN#reads', sk: `item#${i}` };
      const doc = (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
      expect(doc).toEqual(rich(i));
      expect(await getItem(itemKey(key.pk, key.sk))).toEqual(doc);
      expect((await batchGet([itemKey(key.pk, key.sk)], true)).get(keyOf(key))).toEqual(doc);
    }
    const input = { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :s)', ExpressionAttributeValues: { ':pk': 'PLAIN#reads', ':s': 'item#' }, ConsistentRead: true };
    const doc = await db().send(new QueryCommand({ TableName: tableName(), ...input }));
    expect((await query(input)).items).toEqual(doc.Items);
    expect(await getItem(itemKey('PLAIN#reads', 'missing'))).toBeUndefined();
  });

  it('follows pages through the last key, and counts across them', async () => {
    const input = { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'PLAIN#reads' }, ConsistentRead: true, Limit: 2 };
    const first = await query<{ sk: string }>(input);
    expect(first.items.map((i) => i.sk)).toEqual(['item#0', 'item#1']);
    expect(first.last).toEqual({ pk: 'PLAIN#reads', sk: 'item#1' });
    const all = await queryAll<{ sk: string }>(input);
    expect(all.map((i) => i.sk)).toEqual(['item#0', 'item#1', 'item#2', 'item#3', 'item#4']);
    capacity.reset();
    expect(await count(input)).toBe(5);
    expect(capacity.snapshot().commands).toEqual({ QueryCommand: 3 });
  });

  it("passes a middleware added to the shared client's stack after a read, until it is removed", async () => {
    const key = itemKey('PLAIN#reads', 'item#0');
    await getItem(key);
    const seen: string[] = [];
    db().middlewareStack.add(
      (next, context) => async (args) => {
        seen.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: 'plainReadsSeen' },
    );
    try {
      await getItem(key);
      await query({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'PLAIN#reads' } });
    } finally {
      db().middlewareStack.remove('plainReadsSeen');
    }
    await getItem(key);
    expect(seen).toEqual(['GetItemCommand', 'QueryCommand']);
  });
});

describe('users', () => {
  it('gives one subject one id, and different subjects different ids', async () => {
    const a = await userIdOf('sub-a');
    const b = await userIdOf('sub-b');
    expect(a).not.toBe(b);
    expect(await userIdOf('sub-a')).toBe(a);
    expect(await userIdOf('sub-b')).toBe(b);
    expect(await userExists(a)).toBe(true);
    expect(await userExists(b)).toBe(true);
    expect(await userExists(Math.max(a, b) + 1000)).toBe(false);
  });

  it('allocates one id when 10 requests see a new subject at once', async () => {
    const ids = await Promise.all(Array.from({ length: 10 }, () => userIdOf('sub-concurrent')));
    expect(new Set(ids).size).toBe(1);
    expect(await userIdOf('sub-concurrent')).toBe(ids[0]);
    expect(await userExists(ids[0]!)).toBe(true);
    // The id maps back to the subject.
    expect(await storedItem<{ sub: string }>(keys.userById(ids[0]!))).toMatchObject({ sub: 'sub-concurrent' });
  });

  it('gives 10 new subjects at once 10 distinct ids', async () => {
    const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => userIdOf(`sub-many-${i}`)));
    expect(new Set(ids).size).toBe(10);
  });
});

describe('eventTransaction', () => {
  let venue: number;
  let organizer: number;
  let cat1: TermItem;
  let cat2: TermItem;
  let cat3: TermItem;
  let tag: TermItem;

  beforeAll(async () => {
    venue = await makePlace('venue', 'Hall');
    organizer = await makePlace('organizer', 'Org');
    cat1 = await makeTerm('category', 'One');
    cat2 = await makeTerm('category', 'Two');
    cat3 = await makeTerm('category', 'Three');
    tag = await makeTerm('tag', 'Tagged');
  });

  it('creates the record, its slug guard, one link per linked record and, when published, term counts', async () => {
    const id = await nextId('post');
    const e = makeEvent(id, { venues: [venue], organizers: [organizer], categories: [cat1.id], tags: [tag.id] });
    const before = { cat1: await countOf(cat1.id), tag: await countOf(tag.id) };
    const tx = eventTransaction(undefined, e, tableName());
    const described = tx.items.map(describeItem);
    const link = (pk: string) => `Put ${pk}|EVENT#${pad(id)}`;
    expect(described).toEqual(
      expect.arrayContaining([
        `Put POST#${id}|POST`,
        `Put SLUG#event#en#${e.slug}|SLUG`,
        link(`POST#${venue}`),
        link(`POST#${organizer}`),
        link(`TERM#${cat1.id}`),
        link(`TERM#${tag.id}`),
        `Update TERM#${cat1.id}|TERM`,
        `Update TERM#${tag.id}|TERM`,
      ]),
    );
    // Exactly one link per linked record, one count update per term, and nothing on the terms besides.
    expect(described.filter((d) => d.endsWith(`|EVENT#${pad(id)}`))).toHaveLength(4);
    expect(described.filter((d) => d.startsWith('Update TERM#'))).toHaveLength(2);
    expect(described.filter((d) => d.includes('TERM#') && !d.includes('EVENT#'))).toHaveLength(2);
    // The venue's and organizer's linked-event counts, and one count bucket per list it joins
    // (the whole list, featured#0, and the four link lists).
    expect(described).toEqual(expect.arrayContaining([`Update POST#${venue}|POST`, `Update POST#${organizer}|POST`]));
    expect(described.filter((d) => d.startsWith('Update COUNT#'))).toHaveLength(6);
    for (const item of tx.items) expect((item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck)!.TableName).toBe(tableName());

    await transact(tx.items, (i) => tx.meaning.get(i)?.());
    const stored = await storedItem<EventItem>(keys.post(id));
    expect(stored).toMatchObject({ id, status: 'publish', slug: e.slug, version: 1 });
    expect(stored!.gsi1pk).toBe(`event#en#${e.slug}`);
    expect(await storedItem<{ id: number }>(keys.slugGuard('event', 'en', e.slug))).toMatchObject({ id });
    expect(await linksOf(id, [`POST#${venue}`, `POST#${organizer}`, `TERM#${cat1.id}`, `TERM#${tag.id}`])).toHaveLength(4);
    const venueLink = await storedItem<LinkItem>(keys.link(`POST#${venue}`, id));
    expect(venueLink).toMatchObject({ eventId: id, lang: 'en', status: 'publish', utcStart: e.utcStart, utcEnd: e.utcEnd });
    expect(await countOf(cat1.id)).toBe(before.cat1 + 1);
    expect(await countOf(tag.id)).toBe(before.tag + 1);
  });

  it('does not count the terms of an unpublished event (but still checks they exist)', async () => {
    const id = await nextId('post');
    const e = makeEvent(id, { status: 'draft', categories: [cat2.id], tags: [tag.id] });
    const before = { cat2: await countOf(cat2.id), tag: await countOf(tag.id) };
    const tx = eventTransaction(undefined, e, tableName());
    const described = tx.items.map(describeItem);
    expect(described.filter((d) => d.startsWith('Update TERM#'))).toEqual([]);
    expect(described).toEqual(expect.arrayContaining([`ConditionCheck TERM#${cat2.id}|TERM`, `ConditionCheck TERM#${tag.id}|TERM`]));
    expect(described.filter((d) => d.endsWith(`|EVENT#${pad(id)}`))).toHaveLength(2);

    await transact(tx.items, (i) => tx.meaning.get(i)?.());
    expect(await storedItem(keys.post(id))).toBeDefined();
    expect(await countOf(cat2.id)).toBe(before.cat2);
    expect(await countOf(tag.id)).toBe(before.tag);

    // Publishing it later counts its terms once, and rewrites its links with the new status.
    const published = { ...e, status: 'publish', version: 2 };
    await commit(e, published);
    expect(await countOf(cat2.id)).toBe(before.cat2 + 1);
    expect(await countOf(tag.id)).toBe(before.tag + 1);
    expect(await storedItem<LinkItem>(keys.link(`TERM#${cat2.id}`, id))).toMatchObject({ status: 'publish' });
    // And unpublishing uncounts them.
    await commit(published, { ...published, status: 'draft', version: 3 });
    expect(await countOf(cat2.id)).toBe(before.cat2);
    expect(await countOf(tag.id)).toBe(before.tag);
  });

  it('moves counts and links when an update changes the terms', async () => {
    const id = await nextId('post');
    const v1 = makeEvent(id, { categories: [cat1.id, cat2.id] });
    await commit(undefined, v1);
    const before = { cat1: await countOf(cat1.id), cat2: await countOf(cat2.id), cat3: await countOf(cat3.id) };

    const v2 = { ...v1, categories: [cat2.id, cat3.id], version: 2 };
    const described = eventTransaction(v1, v2, tableName()).items.map(describeItem);
    // The unchanged term is not touched; the slug guard is not rewritten.
    expect(described.some((d) => d.startsWith(`Update TERM#${cat2.id}|`))).toBe(false);
    expect(described.some((d) => d.includes('SLUG#'))).toBe(false);
    await commit(v1, v2);

    expect(await countOf(cat1.id)).toBe(before.cat1 - 1);
    expect(await countOf(cat2.id)).toBe(before.cat2);
    expect(await countOf(cat3.id)).toBe(before.cat3 + 1);
    expect(await linksOf(id, [`TERM#${cat1.id}`, `TERM#${cat2.id}`, `TERM#${cat3.id}`])).toEqual([`TERM#${cat2.id}`, `TERM#${cat3.id}`].sort());
    expect((await storedItem<EventItem>(keys.post(id)))!.categories).toEqual([cat2.id, cat3.id]);

    // Deleting the event uncounts and unlinks everything, and frees its slug.
    await commit(v2, undefined);
    expect(await storedItem(keys.post(id))).toBeUndefined();
    expect(await storedItem(keys.slugGuard('event', 'en', v1.slug))).toBeUndefined();
    expect(await countOf(cat2.id)).toBe(before.cat2 - 1);
    expect(await countOf(cat3.id)).toBe(before.cat3);
    expect(await linksOf(id, [`TERM#${cat2.id}`, `TERM#${cat3.id}`])).toEqual([]);
  });

  it('moves the slug guard when the slug changes', async () => {
    const id = await nextId('post');
    const v1 = makeEvent(id);
    await commit(undefined, v1);
    const v2 = { ...v1, slug: `renamed-${id}`, version: 2 };
    await commit(v1, v2);
    expect(await storedItem(keys.slugGuard('event', 'en', v1.slug))).toBeUndefined();
    expect(await storedItem<{ id: number }>(keys.slugGuard('event', 'en', v2.slug))).toMatchObject({ id });
  });

  it('lets exactly one of two concurrent updates from the same read version win', async () => {
    const id = await nextId('post');
    const v1 = makeEvent(id, { categories: [cat1.id] });
    await commit(undefined, v1);
    const before = { cat1: await countOf(cat1.id), cat2: await countOf(cat2.id), cat3: await countOf(cat3.id) };

    const a = { ...v1, title: 'A', categories: [cat2.id], version: 2 };
    const b = { ...v1, title: 'B', categories: [cat3.id], version: 2 };
    const results = await Promise.allSettled([commit(v1, a), commit(v1, b)]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toBeInstanceOf(ConflictError);

    const winner = results[0]!.status === 'fulfilled' ? a : b;
    const loser = winner === a ? b : a;
    const stored = await storedItem<EventItem>(keys.post(id));
    expect(stored).toMatchObject({ title: winner.title, categories: winner.categories, version: 2 });
    // Only the winner's term moves happened.
    expect(await countOf(cat1.id)).toBe(before.cat1 - 1);
    expect(await countOf(winner.categories[0]!)).toBe((winner === a ? before.cat2 : before.cat3) + 1);
    expect(await countOf(loser.categories[0]!)).toBe(loser === a ? before.cat2 : before.cat3);
    expect(await linksOf(id, [`TERM#${cat1.id}`, `TERM#${cat2.id}`, `TERM#${cat3.id}`])).toEqual([`TERM#${winner.categories[0]}`]);

    // The loser retried from the stored version succeeds.
    await commit(stored!, { ...stored!, title: 'C', version: 3 });
    expect(await storedItem<EventItem>(keys.post(id))).toMatchObject({ title: 'C', version: 3 });
  });

  it('fails the whole transaction when a linked term was deleted (published event)', async () => {
    const gone = await makeTerm('category', 'Gone');
    await transact([del(keys.term(gone.id))]);
    const id = await nextId('post');
    const e = makeEvent(id, { venues: [venue], categories: [cat1.id, gone.id] });
    const before = await countOf(cat1.id);
    await expect(commit(undefined, e)).rejects.toMatchObject({ status: 400, code: 'invalid-linked-post-id' });
    expect(await storedItem(keys.post(id))).toBeUndefined();
    expect(await storedItem(keys.slugGuard('event', 'en', e.slug))).toBeUndefined();
    expect(await linksOf(id, [`POST#${venue}`, `TERM#${cat1.id}`, `TERM#${gone.id}`])).toEqual([]);
    expect(await countOf(cat1.id)).toBe(before);
    // The count update did not recreate the deleted term.
    expect(await storedItem(keys.term(gone.id))).toBeUndefined();
  });

  it('fails the whole transaction when a linked term was deleted (draft event)', async () => {
    const gone = await makeTerm('tag', 'GoneTag');
    await transact([del(keys.term(gone.id))]);
    const id = await nextId('post');
    const e = makeEvent(id, { status: 'draft', organizers: [organizer], tags: [gone.id] });
    await expect(commit(undefined, e)).rejects.toMatchObject({ status: 400, code: 'invalid-linked-post-id' });
    expect(await storedItem(keys.post(id))).toBeUndefined();
    expect(await storedItem(keys.slugGuard('event', 'en', e.slug))).toBeUndefined();
    expect(await linksOf(id, [`POST#${organizer}`, `TERM#${gone.id}`])).toEqual([]);
  });

  it('fails an update that adds a deleted term, leaving the stored event as it was', async () => {
    const id = await nextId('post');
    const v1 = makeEvent(id, { categories: [cat1.id] });
    await commit(undefined, v1);
    const before = await countOf(cat1.id);
    const gone = await makeTerm('category', 'GoneLater');
    await transact([del(keys.term(gone.id))]);
    const v2 = { ...v1, title: 'changed', categories: [gone.id], version: 2 };
    await expect(commit(v1, v2)).rejects.toMatchObject({ status: 400, code: 'invalid-linked-post-id' });
    expect(await storedItem<EventItem>(keys.post(id))).toMatchObject({ title: v1.title, categories: [cat1.id], version: 1 });
    expect(await countOf(cat1.id)).toBe(before);
    expect(await linksOf(id, [`TERM#${cat1.id}`, `TERM#${gone.id}`])).toEqual([`TERM#${cat1.id}`]);
  });

  it('fails when a linked venue is gone or is not a venue', async () => {
    const id = await nextId('post');
    const missingVenue = await nextId('post');
    await expect(commit(undefined, makeEvent(id, { venues: [missingVenue] }))).rejects.toMatchObject({ code: 'invalid-linked-post-id' });
    await expect(commit(undefined, makeEvent(id, { venues: [organizer] }))).rejects.toMatchObject({ code: 'invalid-linked-post-id' });
    expect(await storedItem(keys.post(id))).toBeUndefined();
  });

  it('refuses a second event with a slug another event holds', async () => {
    const first = makeEvent(await nextId('post'), { slug: 'same-slug' });
    await commit(undefined, first);
    const second = makeEvent(await nextId('post'), { slug: 'same-slug' });
    await expect(commit(undefined, second)).rejects.toBeInstanceOf(ConflictError);
    expect(await storedItem(keys.post(second.id))).toBeUndefined();
    expect(await storedItem<{ id: number }>(keys.slugGuard('event', 'en', 'same-slug'))).toMatchObject({ id: first.id });
  });
});
