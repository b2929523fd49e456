// Events with many links end to end: no fixed number of categories, tags, organizers or venues
// per event; any mix whose write fits in one transaction is taken, and one that does not is
// refused before anything is written, saying how many links fit (lib/logic/event-room.ts). Term
// counts and the filtered lists' totals stay exact through creates, updates that replace every
// link, trash, restore and delete.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../support/gateway.js';
import { createAsEditor, expectInvalidParams } from '../support/expect.js';

const gw = useGateway({ tablePrefix: 'event-links' });

/**
 * The links a published event's create holds with linked records that exist: the transaction's 100
 * items less 6 of its own (record, slug guard, featured item, the whole list's and the featured
 * list's count buckets, the search's recent write), 3 per link (link item, count bucket, count).
 */
const MOST_IN_CREATE = 31;
/** An update that replaces every link pays 3 per link removed and 3 per link added, less 3 of its own. */
const MOST_REPLACED = 16;

const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);
const day = { start_date: '2031-03-10 10:00:00', end_date: '2031-03-10 12:00:00' };
const window = { start_date: '2031-01-01', end_date: '2031-12-31' };

let venue: number;
let organizers: number[];
let categories: number[];
let tags: number[];

beforeAll(async () => {
  venue = (await createAsEditor(gw, '/venues', { venue: 'Hall of links' })).id;
  organizers = [];
  for (const i of range(10)) organizers.push((await createAsEditor(gw, '/organizers', { organizer: `Organizer ${i}` })).id);
  categories = [];
  for (const i of range(34)) categories.push((await createAsEditor(gw, '/categories', { name: `Category ${i}` })).id);
  tags = [];
  for (const i of range(30)) tags.push((await createAsEditor(gw, '/tags', { name: `Tag ${i}` })).id);
}, 120_000);

const count = async (path: 'categories' | 'tags', id: number): Promise<number> => {
  const res = await gw.api('GET', `/${path}/${id}`, { token: 'editor' });
  expect(res.status, res.text).toBe(200);
  return res.body.count;
};
const counts = (path: 'categories' | 'tags', ids: number[]) => Promise.all(ids.map((id) => count(path, id)));
/** The filtered list's total (its count buckets). */
const listed = async (query: Record<string, string | number>): Promise<number> => {
  const res = await gw.api('GET', '/events', { query: { ...window, ...query }, token: 'editor' });
  expect(res.status, res.text).toBe(200);
  return res.body.total ?? 0;
};
const post = (body: Record<string, unknown>, path = '/events') => gw.api('POST', path, { token: 'editor', body: { title: 'Many links', status: 'publish', ...day, ...body } });
const ids = (list: { id: number }[]) => list.map((x) => x.id);

describe('events with many links', () => {
  it('a create with 11 categories keeps them all, each counted once', async () => {
    const eleven = categories.slice(0, 11);
    const res = await post({ categories: eleven });
    expect(res.status, res.text).toBe(201);
    expect(ids(res.body.categories).sort((a, b) => a - b)).toEqual(eleven);
    expect(await counts('categories', eleven)).toEqual(eleven.map(() => 1));
    expect(await listed({ categories: eleven[10]! })).toBe(1);
    expect((await gw.api('DELETE', `/events/${res.body.id}`, { token: 'editor', query: { force: true } })).status).toBe(200);
    expect(await counts('categories', eleven)).toEqual(eleven.map(() => 0));
  });

  it(`a create with ${MOST_IN_CREATE} links of any mix is taken; one more is refused naming the field and how many fit, with nothing written`, async () => {
    // 1 venue, 10 organizers, 12 categories and 8 tags.
    const cats = categories.slice(0, 12);
    const tagIds = tags.slice(0, MOST_IN_CREATE - 1 - organizers.length - cats.length);
    const full = await post({ venue, organizer: organizers, categories: cats, tags: tagIds });
    expect(full.status, full.text).toBe(201);
    expect(ids(full.body.organizer)).toEqual(organizers);
    expect(ids(full.body.tags).sort((a, b) => a - b)).toEqual(tagIds);
    expect(await counts('tags', tagIds)).toEqual(tagIds.map(() => 1));
    expect(await listed({ organizer: organizers[9]! })).toBe(1);
    expect(await listed({ venue })).toBe(1);

    const before = await listed({});
    // One more tag, named: it would be created with the event, and is not.
    const over = await post({ title: 'One too many', venue, organizer: organizers, categories: cats, tags: [...tagIds, 'A tag too many'] });
    expectInvalidParams(over, 'tags');
    const message = over.body.data.params.tags as string;
    expect(message).toContain(`of its ${MOST_IN_CREATE + 1} links`);
    expect(message).toContain(`the first ${MOST_IN_CREATE} fit in one write`);
    expect(over.body.data.details.tags).toMatchObject({ code: 'rest_too_many_links', data: { links: MOST_IN_CREATE + 1, fit: MOST_IN_CREATE } });
    expect(await listed({})).toBe(before);
    const found = await gw.api('GET', '/tags', { query: { search: 'too many' }, token: 'editor' });
    expect(found.body.tags ?? []).toEqual([]);
    expect(await counts('tags', tagIds)).toEqual(tagIds.map(() => 1));

    // Trash, restore and delete of the fullest event fit, and keep every count exact.
    const id = full.body.id;
    expect((await gw.api('DELETE', `/events/${id}`, { token: 'editor' })).status).toBe(200);
    expect(await counts('categories', cats)).toEqual(cats.map(() => 0));
    expect(await listed({ organizer: organizers[0]! })).toBe(0);
    const restored = await gw.api('POST', `/events/${id}`, { token: 'editor', body: { status: 'publish' } });
    expect(restored.status, restored.text).toBe(200);
    expect(await counts('categories', cats)).toEqual(cats.map(() => 1));
    expect(await counts('tags', tagIds)).toEqual(tagIds.map(() => 1));
    expect(await listed({ categories: cats[0]! })).toBe(1);
    expect((await gw.api('DELETE', `/events/${id}`, { token: 'editor', query: { force: true } })).status).toBe(200);
    expect(await counts('categories', cats)).toEqual(cats.map(() => 0));
    expect(await counts('tags', tagIds)).toEqual(tagIds.map(() => 0));
    expect(await listed({ venue })).toBe(0);
  });

  it('the old per-field caps are gone: 10 categories, 10 tags, 10 organizers and 3 venues is a 400 rest_invalid_param, never rest_too_many_changes', async () => {
    const venues = [venue, (await createAsEditor(gw, '/venues', { venue: 'Second hall' })).id, (await createAsEditor(gw, '/venues', { venue: 'Third hall' })).id];
    const res = await post({ venue: venues, organizer: organizers, categories: categories.slice(0, 10), tags: tags.slice(0, 10) });
    // 33 links: the first 31 fit (venues, organizers, categories, then tags), so the tags are named.
    expectInvalidParams(res, 'tags');
    expect(res.body.data.details.tags.data).toEqual({ status: 400, links: 33, fit: MOST_IN_CREATE });
    // More links than a transaction has items are refused before they are read.
    const huge = await post({ categories: range(101).map((i) => `Never made ${i}`) });
    expectInvalidParams(huge, 'categories');
    expect((await gw.api('GET', '/categories', { query: { search: 'Never made' }, token: 'editor' })).body.categories ?? []).toEqual([]);
  });

  it(`an update that replaces every one of ${MOST_REPLACED} links fits; replacing them with one more is refused, with nothing written`, async () => {
    const first = { venue, organizer: organizers.slice(0, 5), categories: categories.slice(0, 6), tags: tags.slice(0, 4) };
    const second = {
      venue: (await createAsEditor(gw, '/venues', { venue: 'Other hall' })).id,
      organizer: organizers.slice(5, 10),
      categories: categories.slice(6, 12),
      tags: tags.slice(4, 8),
    };
    const created = await post(first);
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    const swapped = await gw.api('POST', `/events/${id}`, { token: 'editor', body: second });
    expect(swapped.status, swapped.text).toBe(200);
    expect(ids(swapped.body.categories).sort((a, b) => a - b)).toEqual(second.categories);
    expect(await counts('categories', first.categories)).toEqual(first.categories.map(() => 0));
    expect(await counts('categories', second.categories)).toEqual(second.categories.map(() => 1));
    expect(await counts('tags', [...first.tags, ...second.tags])).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(await listed({ venue })).toBe(0);
    expect(await listed({ venue: second.venue })).toBe(1);
    expect(await listed({ organizer: organizers[0]! })).toBe(0);
    expect(await listed({ organizer: organizers[9]! })).toBe(1);

    // Back to the first links with one more tag: 17 links replacing 16.
    const more = [...first.tags, tags[8]!];
    const over = await gw.api('POST', `/events/${id}`, { token: 'editor', body: { ...first, tags: more } });
    expectInvalidParams(over, 'tags');
    expect(over.body.data.params.tags).toContain(`the first ${MOST_REPLACED} fit in one write, with the links it removes`);
    const now = await gw.api('GET', `/events/${id}`, { token: 'editor' });
    expect(ids(now.body.categories).sort((a, b) => a - b)).toEqual(second.categories);
    expect(await counts('categories', first.categories)).toEqual(first.categories.map(() => 0));
    expect(await counts('tags', tags.slice(0, 9))).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 0]);
    // In two updates, one that removes and one that adds, it fits.
    expect((await gw.api('POST', `/events/${id}`, { token: 'editor', body: { organizer: [], categories: [], tags: [] } })).status).toBe(200);
    const added = await gw.api('POST', `/events/${id}`, { token: 'editor', body: { ...first, tags: more } });
    expect(added.status, added.text).toBe(200);
    expect(await counts('tags', tags.slice(0, 9))).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 1]);
    expect(await listed({ organizer: organizers[9]! })).toBe(0);
    expect(await listed({ tags: tags[8]! })).toBe(1);
    expect((await gw.api('DELETE', `/events/${id}`, { token: 'editor', query: { force: true } })).status).toBe(200);
    expect(await counts('tags', tags.slice(0, 9))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('a change of status costs a link more each: refused for the fullest draft, saying how many fit, and nothing changes', async () => {
    // 22 categories and 9 tags: a draft's create pays 3 a link, its publication 4 a link kept and 2 a link dropped.
    const cats = categories.slice(12, 34);
    const tagIds = tags.slice(10, 19);
    const draft = await post({ status: 'draft', categories: cats, tags: tagIds });
    expect(draft.status, draft.text).toBe(201);
    const publish = await gw.api('POST', `/events/${draft.body.id}`, { token: 'editor', body: { status: 'publish' } });
    expectInvalidParams(publish, 'categories', 'tags');
    const fit = publish.body.data.details.categories.data.fit as number;
    expect(fit).toBe(15);
    expect((await gw.api('GET', `/events/${draft.body.id}`, { token: 'editor' })).body.status).toBe('draft');
    expect(await counts('categories', cats)).toEqual(cats.map(() => 0));
    const trimmed = await gw.api('POST', `/events/${draft.body.id}`, { token: 'editor', body: { status: 'publish', categories: cats.slice(0, fit), tags: [] } });
    expect(trimmed.status, trimmed.text).toBe(200);
    expect(await counts('categories', cats)).toEqual(cats.map((_, i) => (i < fit ? 1 : 0)));
    expect(await counts('tags', tagIds)).toEqual(tagIds.map(() => 0));
  });
});
