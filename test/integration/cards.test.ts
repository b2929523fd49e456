// Events carry cards of their venues and organizers (lib/logic/cards.ts) and read their terms
// in one Query when that is cheaper. These tests check that what events show stays current
// through edits, races and records written before cards existed, and what each read costs.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { capacity, db } from '#lib/store/db.js';
import { ConflictError } from '#lib/contract/errors.js';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { refreshCards, REQUEST_FAN_OUT } from '#lib/logic/cards.js';
import { eventTransaction } from '#lib/logic/event-writes.js';
import { inNameOrder } from '#lib/domain/term-order.js';
import { transact } from '#lib/store/transactions.js';
import { keys } from '#lib/store/keys.js';
import type { EventItem, VenueItem } from '#lib/store/items.js';
import { itemBytes, readStats } from '#lib/store/stats.js';
import { useStreamPoller } from '../support/stream.js';
import { useFreshTable } from '../support/table.js';
import { storedItem } from '../support/stored.js';

let editorToken: string;
beforeAll(async () => {
  editorToken = await roleToken('editor', 'cards-editor');
});

const call = (method: string, path: string, body?: unknown, query?: Record<string, string | number>) => invoke(method, 'en', path, { body, query, token: editorToken });

async function created(path: string, body: Record<string, unknown>): Promise<any> {
  const res = await call('POST', path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const tomorrow = (hour: number) => {
  const d = new Date(Date.now() + 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString().slice(0, 19).replace('T', ' ');
};

const event = (title: string, extra: Record<string, unknown> = {}) => created('/events', { title, start_date: tomorrow(10), end_date: tomorrow(12), ...extra });

const stored = async (id: number) => (await storedItem<EventItem>(keys.post(id)))!;

describe('venue and organizer cards', () => {
  useFreshTable('cards');

  it('shows a venue or organizer edit in every linked event, by id, by slug and in lists', async () => {
    const venue = await created('/venues', { venue: 'Old Hall', city: 'Vilnius' });
    const organizer = await created('/organizers', { organizer: 'Old Org', email: 'a@example.com' });
    // More events than one round of rewrites (16 at a time).
    const events: any[] = [];
    for (let i = 1; i <= 20; i++) events.push(await event(`Cards ${i}`, { venue: venue.id, organizer: [organizer.id] }));
    expect((await stored(events[0].id)).cards?.[venue.id]).toMatchObject({ title: 'Old Hall', city: 'Vilnius', rev: 1 });

    expect((await call('POST', `/venues/${venue.id}`, { venue: 'New Hall', city: 'Kaunas' })).status).toBe(200);
    expect((await call('POST', `/organizers/${organizer.id}`, { organizer: 'New Org' })).status).toBe(200);

    for (const e of events) {
      const byId = await call('GET', `/events/${e.id}`);
      expect(byId.body.venue).toMatchObject({ id: venue.id, venue: 'New Hall', city: 'Kaunas' });
      expect(byId.body.organizer).toMatchObject([{ id: organizer.id, organizer: 'New Org', email: 'a@example.com' }]);
      const bySlug = await call('GET', `/events/by-slug/${e.slug}`);
      expect(bySlug.body.venue.venue).toBe('New Hall');
    }
    const list = await call('GET', '/events', undefined, { per_page: 20 });
    expect(list.body.events.map((e: any) => [e.venue.venue, e.organizer[0].organizer])).toEqual(Array(20).fill(['New Hall', 'New Org']));
    // The card is the venue as its own endpoint shows it.
    const own = await call('GET', `/venues/${venue.id}`);
    const { json_ld: _, ...shown } = own.body;
    expect((await call('GET', '/events', undefined, { per_page: 1 })).body.events[0].venue).toEqual(shown);
  });

  it('presents a page of events without reading their venues or organizers', async () => {
    const venue = await created('/venues', { venue: 'Quiet Hall' });
    const organizer = await created('/organizers', { organizer: 'Quiet Org' });
    const e = await event('No terms', { venue: venue.id, organizer: organizer.id });
    capacity.reset();
    const res = await call('GET', `/events/${e.id}`);
    expect(res.body.venue.venue).toBe('Quiet Hall');
    // The record alone: one GetItem (and the table's change counter beside it), no batch read of linked records.
    expect(capacity.snapshot().commands).toEqual({ GetItemCommand: 1, QueryCommand: 1 });
    // A page: one batch read of its events (the 20 linked events of another test are on it), and
    // none of their venues or organizers.
    capacity.reset();
    const page = await call('GET', '/events', undefined, { per_page: 30 });
    expect(page.body.events.filter((x: any) => !Array.isArray(x.venue)).length).toBeGreaterThanOrEqual(21);
    expect(capacity.snapshot().commands.BatchGetItemCommand).toBe(1);
  });

  it('drops the card with the link when the venue or organizer is trashed or deleted', async () => {
    const venue = await created('/venues', { venue: 'Short-lived Hall' });
    const organizers = [await created('/organizers', { organizer: 'Short-lived Org' }), await created('/organizers', { organizer: 'Deleted Org' })];
    const e = await event('Loses its links', { venue: venue.id, organizer: organizers.map((o) => o.id) });
    expect(
      Object.keys((await stored(e.id)).cards!)
        .map(Number)
        .sort(),
    ).toEqual([venue.id, ...organizers.map((o) => o.id)].sort());
    expect((await call('DELETE', `/venues/${venue.id}`)).status).toBe(200);
    expect((await call('DELETE', `/organizers/${organizers[0].id}`)).status).toBe(200);
    const gone = await call('DELETE', `/organizers/${organizers[1].id}`, undefined, { force: 'true' });
    // A permanent delete answers with the record as it was.
    expect(gone.body).toMatchObject({ id: organizers[1].id, status: 'publish', organizer: 'Deleted Org' });
    expect(await storedItem(keys.post(organizers[1].id))).toBeUndefined();
    const after = await stored(e.id);
    expect(after.venues).toEqual([]);
    expect(after.organizers).toEqual([]);
    expect(after.cards).toEqual({});
    const shown = await call('GET', `/events/${e.id}`);
    expect([shown.body.venue, shown.body.organizer]).toEqual([[], []]);
    // Trashed first: no event can link it any more.
    const relink = await call('POST', `/events/${e.id}`, { venue: venue.id });
    expect(relink.status).toBe(400);
  });

  it('drops the card when an event update unlinks the venue, and cards an inline venue', async () => {
    const venue = await created('/venues', { venue: 'Dropped Hall' });
    const e = await event('Changes venue', { venue: venue.id });
    const res = await call('POST', `/events/${e.id}`, { venue: { venue: 'Inline Hall', city: 'Riga' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await stored(e.id);
    expect(after.venues).toEqual([res.body.venue.id]);
    expect(after.cards).toEqual({ [res.body.venue.id]: expect.objectContaining({ title: 'Inline Hall', city: 'Riga', rev: 1, kind: 'venue' }) });
    expect(after.cards![res.body.venue.id]).not.toHaveProperty('pk');
    expect(after.cards![res.body.venue.id]).not.toHaveProperty('version');
  });

  it('refuses to commit a card older than its record, so a racing write retries', async () => {
    const venue = await created('/venues', { venue: 'Racing Hall' });
    const stale = (await storedItem<VenueItem>(keys.post(venue.id)))!;
    expect((await call('POST', `/venues/${venue.id}`, { venue: 'Racing Hall, renamed' })).status).toBe(200);
    const e = await event('Racer');
    const old = await stored(e.id);
    // The write read the venue before its rename: its card has the old rev.
    const next: EventItem = { ...old, venues: [venue.id], cards: { [venue.id]: { ...stale, rev: stale.rev } as never }, version: old.version + 1 };
    const tx = eventTransaction(old, next, config().tableName);
    await expect(transact(tx.items, (i) => tx.meaning.get(i)?.())).rejects.toBeInstanceOf(ConflictError);
    expect((await stored(e.id)).venues).toEqual([]);
    // With the current record read, the same write commits.
    const fresh = (await storedItem<VenueItem>(keys.post(venue.id)))!;
    const ok = eventTransaction(old, { ...next, cards: { [venue.id]: { ...fresh } as never } }, config().tableName);
    await transact(ok.items, (i) => ok.meaning.get(i)?.());
    expect((await call('GET', `/events/${e.id}`)).body.venue.venue).toBe('Racing Hall, renamed');
  });

  it('never puts an older card over a newer one, and bumps the event version when it writes one', async () => {
    const venue = await created('/venues', { venue: 'Version Hall' });
    const e = await event('Versioned', { venue: venue.id });
    const v1 = (await storedItem<VenueItem>(keys.post(venue.id)))!;
    const beforeEdit = await stored(e.id);
    expect((await call('POST', `/venues/${venue.id}`, { venue: 'Version Hall 2' })).status).toBe(200);
    const afterEdit = await stored(e.id);
    expect(afterEdit.cards?.[venue.id]?.title).toBe('Version Hall 2');
    expect(afterEdit.version).toBe(beforeEdit.version + 1);
    // A late rewrite with the first revision (an edit's fan-out that lost the race) changes nothing.
    expect(await refreshCards(v1)).toBe(0);
    const afterLate = await stored(e.id);
    expect(afterLate.cards?.[venue.id]?.title).toBe('Version Hall 2');
    expect(afterLate.version).toBe(afterEdit.version);
    // The edit's rewrite bumped the version: a write that read the event before it must retry.
    const tx = eventTransaction(beforeEdit, { ...beforeEdit, title: 'Clobber', version: beforeEdit.version + 1 }, config().tableName);
    await expect(transact(tx.items)).rejects.toBeInstanceOf(ConflictError);
    expect((await stored(e.id)).cards?.[venue.id]?.title).toBe('Version Hall 2');
  });

  it('keeps showing venues of events written before cards existed, and an edit leaves them alone', async () => {
    const venue = await created('/venues', { venue: 'Legacy Hall' });
    const e = await event('Legacy', { venue: venue.id });
    const { cards: _, ...legacy } = await stored(e.id);
    await db().send(new PutCommand({ TableName: config().tableName, Item: legacy }));
    expect((await call('GET', `/events/${e.id}`)).body.venue.venue).toBe('Legacy Hall');
    expect((await call('POST', `/venues/${venue.id}`, { venue: 'Legacy Hall 2' })).status).toBe(200);
    expect((await stored(e.id)).cards).toBeUndefined();
    // Read live, so the edit shows anyway.
    expect((await call('GET', `/events/${e.id}`)).body.venue.venue).toBe('Legacy Hall 2');
    const list = await call('GET', '/events', undefined, { per_page: 50 });
    expect(list.body.events.find((x: any) => x.id === e.id).venue.venue).toBe('Legacy Hall 2');
  });

  it('updates an event written before cards existed whose venue has no revision either', async () => {
    const venue = await created('/venues', { venue: 'Old Style Hall' });
    const e = await event('Old style', { venue: venue.id });
    const { rev: _r, ...oldVenue } = (await storedItem<VenueItem>(keys.post(venue.id)))!;
    const { cards: _c, ...oldEvent } = await stored(e.id);
    await db().send(new PutCommand({ TableName: config().tableName, Item: oldVenue }));
    await db().send(new PutCommand({ TableName: config().tableName, Item: oldEvent }));
    // The client sends the same venue again, as form clients do.
    const res = await call('POST', `/events/${e.id}`, { title: 'Old style, edited', venue: venue.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await stored(e.id)).cards?.[venue.id]).toMatchObject({ title: 'Old Style Hall' });
    expect((await stored(e.id)).cards?.[venue.id]).not.toHaveProperty('rev');
  });

  it('copies no card of a venue too large for one, and shows it all the same', async () => {
    const long = 'A long description. '.repeat(300);
    const venue = await created('/venues', { venue: 'Big Hall', description: long });
    const e = await event('Big venue', { venue: venue.id });
    expect((await stored(e.id)).cards).toEqual({});
    expect((await call('GET', `/events/${e.id}`)).body.venue.description).toContain('A long description.');
    // An edit that makes a small venue large removes its cards.
    const small = await created('/venues', { venue: 'Growing Hall' });
    const e2 = await event('Growing venue', { venue: small.id });
    expect((await stored(e2.id)).cards?.[small.id]).toBeDefined();
    expect((await call('POST', `/venues/${small.id}`, { description: long })).status).toBe(200);
    expect((await stored(e2.id)).cards).toEqual({});
    expect((await call('GET', `/events/${e2.id}`)).body.venue.description).toContain('A long description.');
  });

  it("ends with every card at the venue's last revision when edits and event writes race", async () => {
    const venue = await created('/venues', { venue: 'Busy Hall r0' });
    const events: any[] = [];
    for (let i = 0; i < 8; i++) events.push(await event(`Busy ${i}`, i % 2 ? { venue: venue.id } : {}));
    const edits = [1, 2, 3, 4].map((r) => call('POST', `/venues/${venue.id}`, { venue: `Busy Hall r${r}` }));
    // Half the events link the venue meanwhile, the other half are edited naming it again.
    const writes = events.map((e, i) => call('POST', `/events/${e.id}`, { title: `Busy ${i} edited`, venue: venue.id }));
    const answers = await Promise.all([...edits, ...writes]);
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const last = (await storedItem<VenueItem>(keys.post(venue.id)))!;
    for (const e of events) {
      const card = (await stored(e.id)).cards?.[venue.id];
      expect(card, `event ${e.id}`).toMatchObject({ rev: last.rev, title: last.title });
    }
  });

  it('takes a newer card when an event update names the venue again', async () => {
    const venue = await created('/venues', { venue: 'Heal Hall' });
    const e = await event('Heals', { venue: venue.id });
    // A card left behind (as if an edit's rewrite had been cut short).
    const behind = await stored(e.id);
    await db().send(new PutCommand({ TableName: config().tableName, Item: { ...behind, cards: { [venue.id]: { ...behind.cards![venue.id]!, title: 'Stale', rev: 0 } } } }));
    expect((await call('GET', `/events/${e.id}`)).body.venue.venue).toBe('Stale');
    expect((await call('POST', `/events/${e.id}`, { venue: venue.id })).status).toBe(200);
    expect((await call('GET', `/events/${e.id}`)).body.venue.venue).toBe('Heal Hall');
  });
});

describe('terms of a page of events', () => {
  useFreshTable('cards-terms');

  it('keeps the size of the language terms as terms are created, renamed and deleted', async () => {
    const start = (await readStats('en')).termBytes ?? 0;
    const cat = await created('/categories', { name: 'Sized' });
    const item = (await storedItem(keys.term(cat.id)))!;
    expect((await readStats('en')).termBytes).toBe(start + itemBytes(item));
    expect((await call('POST', `/categories/${cat.id}`, { name: 'Sized and renamed', description: 'Longer now' })).status).toBe(200);
    const renamed = (await storedItem(keys.term(cat.id)))!;
    expect((await readStats('en')).termBytes).toBe(start + itemBytes(renamed));
    // Terms created inside an event write count too.
    await event('Makes terms', { tags: ['brand-new-tag', 'another-new-tag'] });
    const grown = (await readStats('en')).termBytes!;
    expect(grown).toBeGreaterThan(start + itemBytes(renamed) + 200);
    expect((await call('DELETE', `/categories/${cat.id}`, undefined, { force: 'true' })).status).toBe(200);
    expect((await readStats('en')).termBytes).toBe(grown - itemBytes(renamed));
  });

  it('reads the terms of a page with its events in one batch read, with their live counts', async () => {
    const cats = await Promise.all(['Alpha', 'Beta', 'Gamma', 'Delta'].map((name) => created('/categories', { name })));
    const tags = await Promise.all(['one', 'two', 'three', 'four', 'five', 'six'].map((name) => created('/tags', { name })));
    for (let i = 0; i < 6; i++) {
      await event(`Termed ${i}`, { categories: [cats[i % 4].id, cats[(i + 1) % 4].id], tags: [tags[i].id, tags[(i + 2) % 6].id] });
    }
    capacity.reset();
    const page = await call('GET', '/events', undefined, { per_page: 6 });
    const used = capacity.snapshot();
    expect(page.body.events).toHaveLength(6);
    // Every event's terms, by name as TEC orders them, with their live counts.
    for (const e of page.body.events) {
      const record = await stored(e.id);
      for (const [field, ids] of [
        ['categories', record.categories],
        ['tags', record.tags],
      ] as const) {
        const shown = e[field] as { id: number; name: string }[];
        expect(shown.map((t) => t.id).sort()).toEqual([...ids].sort());
        expect(shown.map((t) => t.id)).toEqual(inNameOrder(shown).map((t) => t.id));
      }
      for (const t of [...e.categories, ...e.tags]) expect(t.count).toBe((await storedItem<{ count: number }>(keys.term(t.id)))!.count);
    }
    expect(page.body.events.flatMap((e: any) => e.tags).length).toBeGreaterThanOrEqual(10);
    // The events and their terms: one batch read, and no Query of the terms index.
    expect(used.commands.BatchGetItemCommand).toBe(1);
    expect(used.commands.GetItemCommand).toBeUndefined();

    // Other lists (here `include`) read the terms by what STATS says reads less: the language's
    // whole `terms` partition in one Query when the terms are small together…
    const include = { include: page.body.events.map((e: any) => e.id).join(','), per_page: 6 };
    capacity.reset();
    const viaQuery = await call('GET', '/events', undefined, include);
    const queried = capacity.snapshot();
    // (The other Query is the table's change counter, which every list reads first: lib/http/revalidate.ts.)
    expect(queried.commands.QueryCommand).toBe(2);
    expect(viaQuery.body.events).toEqual(page.body.events);

    // …only its own terms, one by one, when they are large together.
    await db().send(new PutCommand({ TableName: config().tableName, Item: { ...keys.langStats('en'), ...(await readStats('en')), termBytes: 10_000_000 } }));
    capacity.reset();
    const viaBatch = await call('GET', '/events', undefined, include);
    const batched = capacity.snapshot();
    expect(batched.commands.BatchGetItemCommand).toBe(2);
    expect(batched.commands.QueryCommand).toBe(1);
    expect(batched.read).toBeGreaterThan(queried.read);
    expect(viaBatch.body).toEqual(viaQuery.body);

    // A term the index does not show (yet) is read directly, not left out.
    await db().send(new PutCommand({ TableName: config().tableName, Item: { ...keys.langStats('en'), ...(await readStats('en')), termBytes: 100 } }));
    const { gsi3pk: _p, gsi3sk: _s, ...unindexed } = (await storedItem<Record<string, unknown>>(keys.term(tags[0].id)))!;
    await db().send(new PutCommand({ TableName: config().tableName, Item: unindexed }));
    capacity.reset();
    const lagging = await call('GET', '/events', undefined, include);
    expect(capacity.snapshot().commands.BatchGetItemCommand).toBe(2);
    expect(lagging.body).toEqual(viaQuery.body);
  });
});

describe('many linked events: the request answers after its own write, the stream consumer does the rest', () => {
  useFreshTable('cards-many', { stream: true });
  const stream = useStreamPoller();
  const MANY = REQUEST_FAN_OUT + 5;

  const linkedTo = async (field: 'venues' | 'categories', id: number, ids: number[]) => (await Promise.all(ids.map(stored))).filter((e) => e[field].includes(id)).length;

  it('rewrites every card after an edit, and unlinks every event after a trash, a delete or a term delete', async () => {
    const venue = await created('/venues', { venue: 'Crowded Hall' });
    const category = await created('/categories', { name: 'Crowded' });
    const ids: number[] = [];
    for (let i = 0; i < MANY; i++) ids.push((await event(`Crowd ${i}`, { venue: venue.id, categories: [category.id] })).id);
    await stream.drain(120_000);

    // More linked events than a request rewrites: the edit's own request leaves the cards alone,
    // and reads no more than the edit of a venue without events (it does not read every link).
    await stream.poller.pause();
    const empty = await created('/venues', { venue: 'Empty Hall' });
    capacity.reset();
    expect((await call('PATCH', `/venues/${empty.id}`, { address: 'Nowhere 0' })).status).toBe(200);
    const alone = capacity.snapshot();
    capacity.reset();
    const edit = await call('PATCH', `/venues/${venue.id}`, { address: 'New Street 1' });
    const crowded = capacity.snapshot();
    expect(edit.status).toBe(200);
    expect(crowded.commands).toEqual(alone.commands);
    expect(crowded.requests).toBe(alone.requests);
    const rev = (await storedItem<VenueItem>(keys.post(venue.id)))!.rev!;
    const cardRevs = async () => (await Promise.all(ids.map(stored))).map((e) => e.cards?.[String(venue.id)]?.rev);
    expect((await cardRevs()).filter((r) => r === rev)).toHaveLength(0);
    // The consumer rewrites them all.
    stream.poller.resume();
    await stream.drain(120_000);
    expect(new Set(await cardRevs())).toEqual(new Set([rev]));
    const listed = await call('GET', '/events', undefined, { venue: venue.id, per_page: 50 });
    expect(listed.body.events.map((e: { venue: { address: string } }) => e.venue.address)).toEqual(Array(MANY).fill('New Street 1'));

    // A trash unlinks them, through the consumer too.
    await stream.poller.pause();
    expect((await call('DELETE', `/venues/${venue.id}`)).status).toBe(200);
    expect(await linkedTo('venues', venue.id, ids)).toBe(MANY);
    stream.poller.resume();
    await stream.drain(120_000);
    expect(await linkedTo('venues', venue.id, ids)).toBe(0);
    expect((await Promise.all(ids.map(stored))).every((e) => e.cards?.[String(venue.id)] === undefined)).toBe(true);

    // And a permanent delete, which removes the venue's record before its events are unlinked.
    const doomed = await created('/venues', { venue: 'Doomed Hall' });
    for (const id of ids) expect((await call('PATCH', `/events/${id}`, { venue: doomed.id })).status).toBe(200);
    await stream.drain(120_000);
    await stream.poller.pause();
    expect((await call('DELETE', `/venues/${doomed.id}`, undefined, { force: 'true' })).status).toBe(200);
    expect(await storedItem(keys.post(doomed.id))).toBeUndefined();
    expect(await linkedTo('venues', doomed.id, ids)).toBe(MANY);
    stream.poller.resume();
    await stream.drain(120_000);
    expect(await linkedTo('venues', doomed.id, ids)).toBe(0);

    // So does a category's delete.
    await stream.poller.pause();
    expect((await call('DELETE', `/categories/${category.id}`, { force: true })).status).toBe(200);
    expect(await linkedTo('categories', category.id, ids)).toBe(MANY);
    stream.poller.resume();
    await stream.drain(120_000);
    expect(await linkedTo('categories', category.id, ids)).toBe(0);
    expect(stream.poller.deadLetters).toEqual([]);
  }, 300_000);

  it('still rewrites a few linked events in the request itself (read your own edit)', async () => {
    const venue = await created('/venues', { venue: 'Quiet Hall' });
    const e = await event('Quiet night', { venue: venue.id });
    await stream.drain(60_000);
    await stream.poller.pause();
    try {
      expect((await call('PATCH', `/venues/${venue.id}`, { address: 'Side Street 2' })).status).toBe(200);
      expect((await call('GET', `/events/${e.id}`)).body.venue.address).toBe('Side Street 2');
    } finally {
      stream.poller.resume();
    }
  });
});
