// The importer's writer on DynamoDB Local: records keep their ids, slugs and dates, the id
// sequences continue after them, a second run writes nothing, a dry run writes nothing, a run
// stopped midway and started again ends as an uninterrupted one, and records gone from the site
// are deleted only when asked.
import { beforeAll, describe, expect, it } from 'vitest';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import type { SitePost, SiteRecord } from '#lib/import/records.js';
import { writeRecords } from '#lib/import/writer.js';
import { getItem } from '#lib/store/reads.js';
import { keys } from '#lib/store/keys.js';
import { readValidator } from '#lib/store/validators.js';
import { capacity } from '#lib/store/db.js';
import { useFreshTable } from '../support/table.js';

useFreshTable('import');
let token: string;
beforeAll(async () => {
  token = await roleToken('editor', 'site-import');
});

const post = (p: Partial<SitePost> & Pick<SitePost, 'kind' | 'id' | 'slug' | 'fields'>): SitePost => ({
  status: 'publish',
  author: 7,
  date: '2026-01-02 10:00:00',
  date_utc: '2026-01-02 10:00:00',
  modified: '2026-02-03 11:00:00',
  modified_utc: '2026-02-03 11:00:00',
  password: '',
  ...p,
});

const site = (): SiteRecord[] => [
  { kind: 'user', id: 7, login: 'ana', name: 'Ana', email: 'ana@example.org', role: 'editor' },
  { kind: 'category', id: 31, name: 'Jazz', slug: 'jazz', description: '', parent: 30 },
  { kind: 'category', id: 30, name: 'Music', slug: 'music', description: 'All music', parent: 0 },
  { kind: 'tag', id: 32, name: 'Outdoor', slug: 'outdoor', description: '', parent: 0 },
  post({ kind: 'venue', id: 500, slug: 'hall', fields: { venue: 'Hall', city: 'Vilnius', geo_lat: 54.68, geo_lng: 25.28 } }),
  // Two venues of one name are two records, as on the site.
  post({ kind: 'venue', id: 501, slug: 'hall-2', fields: { venue: 'Hall', city: 'Kaunas' } }),
  post({ kind: 'organizer', id: 502, slug: 'org', fields: { organizer: 'Org', email: 'org@example.org' } }),
  post({
    kind: 'event',
    id: 900,
    slug: 'gig',
    password: 'pw',
    fields: {
      title: 'Gig',
      start_date: '2027-03-28 01:30:00',
      end_date: '2027-03-28 04:30:00',
      timezone: 'Europe/Vilnius',
      venue: [500, 501],
      organizer: [502],
      categories: [31],
      tags: [32],
      featured: true,
      cost: '15',
    },
  }),
  post({ kind: 'event', id: 905, slug: 'old-gig__trashed', status: 'trash', fields: { title: 'Old gig', start_date: '2027-04-01 10:00:00', end_date: '2027-04-01 11:00:00' } }),
  post({ kind: 'event', id: 903, slug: 'draft-gig', status: 'draft', fields: { title: 'Draft gig', start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 11:00:00' } }),
];

// context=edit: an editor reads a password-protected event without its password only so, as on TEC.
const get = (path: string) => invoke('GET', 'en', path, { token, query: { context: 'edit' } });
const tally = (s: Awaited<ReturnType<typeof writeRecords>>) =>
  Object.fromEntries(Object.entries(s.kinds).map(([k, t]) => [k, `${t.created}/${t.updated}/${t.unchanged}/${t.deleted}`]));

describe('writing site records', () => {
  it('writes nothing on a dry run', async () => {
    const s = await writeRecords(site(), { send: invoke, token, dryRun: true });
    expect(s.failed).toEqual([]);
    expect(s.kinds.event.created).toBe(3);
    expect((await get('/events/900')).status).toBe(404);
  });

  it('stops midway and, run again, ends with every record once, with its id, slug, author and dates', async () => {
    // The first run sees only part of the site (as one killed after a few records).
    const first = await writeRecords(site().slice(0, 6), { send: invoke, token });
    expect(first.failed).toEqual([]);
    const s = await writeRecords(site(), { send: invoke, token });
    expect(s.failed).toEqual([]);
    expect(tally(s)).toMatchObject({ user: '0/0/1/0', category: '0/0/2/0', venue: '0/0/2/0', organizer: '1/0/0/0', event: '3/0/0/0' });
    const e = (await get('/events/900')).body;
    expect(e).toMatchObject({
      id: 900,
      slug: 'gig',
      author: '7',
      date_utc: '2026-01-02 10:00:00',
      modified_utc: '2026-02-03 11:00:00',
      featured: true,
      utc_start_date: '2027-03-27 23:30:00',
    });
    expect(e.venue.map((v: { id: number }) => v.id)).toEqual([500, 501]);
    expect(e.categories.map((c: { id: number; parent: number }) => [c.id, c.parent])).toEqual([[31, 30]]);
    expect((await get('/venues/501')).body).toMatchObject({ id: 501, slug: 'hall-2', city: 'Kaunas' });
    expect((await get('/categories/31')).body).toMatchObject({ id: 31, slug: 'jazz', parent: 30, count: 1 });
    // A trashed event answers 403 as on TEC: its stored record shows it.
    expect((await get('/events/905')).body.code).toBe('event-no-longer-available');
    expect(await getItem(keys.post(905))).toMatchObject({ id: 905, status: 'trash', slug: 'old-gig__trashed', modified_utc: '2026-02-03 11:00:00' });
    expect((await get('/events/903')).body).toMatchObject({ id: 903, status: 'draft' });
  });

  it('continues the id sequences after the highest ids imported', async () => {
    const venue = await invoke('POST', 'en', '/venues', { token, body: { venue: 'New venue' } });
    expect(venue.body.id).toBeGreaterThan(905);
    const tag = await invoke('POST', 'en', '/tags', { token, body: { name: 'New tag' } });
    expect(tag.body.id).toBeGreaterThan(32);
  });

  it('writes nothing on a second run, and only what changed after an edit on the site', async () => {
    expect(tally(await writeRecords(site(), { send: invoke, token }))).toMatchObject({ category: '0/0/2/0', venue: '0/0/2/0', event: '0/0/3/0' });
    const edited = site().map((r) =>
      r.kind === 'event' && r.id === 900 ? { ...r, modified_utc: '2026-03-01 00:00:00', modified: '2026-03-01 00:00:00', fields: { ...r.fields, cost: '20' } } : r,
    );
    const s = await writeRecords(edited, { send: invoke, token });
    expect(tally(s)).toMatchObject({ event: '0/1/2/0', venue: '0/0/2/0' });
    expect((await get('/events/900')).body).toMatchObject({ cost: '$20', modified_utc: '2026-03-01 00:00:00', slug: 'gig' });
  });

  it('clears here a description, excerpt or image cleared on the site', async () => {
    const withTexts = (description: string, excerpt: string, image: string) =>
      site().map((r) => {
        if (r.kind === 'event' && r.id === 900) return { ...r, modified_utc: `2026-04-01 00:00:0${description ? 0 : 1}`, fields: { ...r.fields, description, excerpt, image } };
        if (r.kind === 'venue' && r.id === 500) return { ...r, modified_utc: `2026-04-01 00:00:0${description ? 0 : 1}`, fields: { ...r.fields, description, image } };
        return r;
      });
    expect((await writeRecords(withTexts('<p>Long</p>', 'Short', 'https://img.example/a.png'), { send: invoke, token })).failed).toEqual([]);
    expect((await get('/events/900')).body).toMatchObject({ description: '<p>Long</p>', excerpt: '<p>Short</p>', image: { url: 'https://img.example/a.png' } });
    expect((await get('/venues/500')).body).toMatchObject({ description: '<p>Long</p>', image: { url: 'https://img.example/a.png' } });
    const s = await writeRecords(withTexts('', '', ''), { send: invoke, token });
    expect(s.failed).toEqual([]);
    expect(s.kinds.event.written).toEqual([900]);
    expect((await get('/events/900')).body).toMatchObject({ description: '', excerpt: '', image: false });
    // A venue without them shows neither (as TEC); its stored record holds them empty.
    const venue = (await get('/venues/500')).body;
    expect([venue.description, venue.image, venue.city]).toEqual([undefined, undefined, 'Vilnius']);
    expect(await getItem(keys.post(500))).toMatchObject({ description: '', image: '' });
  });

  it('reports records gone from the site, and deletes them only when asked', async () => {
    const records = site().filter((r) => r.id !== 903);
    const present = { event: new Set([900, 905]) };
    const kept = await writeRecords(records, { send: invoke, token }, present, false);
    expect(kept.kinds.event.missing).toEqual([903]);
    expect((await get('/events/903')).status).toBe(200);
    const gone = await writeRecords(records, { send: invoke, token }, present, true);
    expect(gone.kinds.event.deleted).toBe(1);
    expect((await get('/events/903')).status).toBe(404);
  });

  it('moves the change counter once, after the writes, when asked to (a DynamoDB Local of its own)', async () => {
    const counted = async () => (await readValidator()).stamp.split('.').reduce((n, x) => n + Number(x || 0), 0);
    const changed = (n: number) =>
      site().map((r) => (r.kind === 'event' || r.kind === 'venue' ? { ...r, modified_utc: `2026-05-0${n} 00:00:00`, fields: { ...r.fields, cost: `${n}` } } : r));
    const written = (s: Awaited<ReturnType<typeof writeRecords>>) => s.kinds.venue.written.length + s.kinds.event.written.length;
    // Each imported write moves it (5 posts)…
    let before = await counted();
    expect(written(await writeRecords(changed(1), { send: invoke, token }))).toBe(5);
    expect((await counted()) - before).toBeGreaterThanOrEqual(5);
    // …or, when nothing else reads the table, the run moves it once, and the writes leave out
    // their recent-write items (the import indexes every event itself).
    before = await counted();
    const recent = async () => (await getItem(keys.recentWrite('en', 900)))?.version;
    const recentBefore = await recent();
    expect(recentBefore).toBe((await getItem(keys.post(900)))?.version);
    expect(written(await writeRecords(changed(2), { send: invoke, token, unobserved: true }))).toBe(5);
    expect((await counted()) - before).toBe(1);
    expect(await recent()).toBe(recentBefore);
    expect((await getItem(keys.post(900)))?.version).toBeGreaterThan(Number(recentBefore));
    expect((await get('/events/900')).body.cost).toBe('$2');
  });

  it('creates an imported event with one read and one transaction, and answers its terms as the write left them', async () => {
    expect((await writeRecords(site(), { send: invoke, token })).failed).toEqual([]);
    const create = (id: number, slug: string, status = 'publish') =>
      invoke('POST', 'en', '/events', {
        token,
        body: { title: `Imported ${id}`, start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 11:00:00', categories: [31], tags: [32], author: 7, status },
        imported: { sequence: 'post', id, slug },
      });
    const count = async (path: string) => (await get(path)).body.count as number;
    // The first names its author and credentials for the process; the next reads neither.
    expect((await create(950, 'first')).status).toBe(201);
    const [category, tag] = [await count('/categories/31'), await count('/tags/32')];
    capacity.reset();
    const made = await create(951, 'second');
    expect(made.status).toBe(201);
    // The links' read (the slug is the guard's to settle in the transaction), the transaction, and
    // the move of the change counter.
    expect(capacity.snapshot().commands).toEqual({ BatchGetItemCommand: 1, TransactWriteItemsCommand: 1, UpdateItemCommand: 1 });
    expect(made.body.categories.map((t: { id: number; count: number }) => [t.id, t.count])).toEqual([[31, category + 1]]);
    expect(made.body.tags.map((t: { id: number; count: number }) => [t.id, t.count])).toEqual([[32, tag + 1]]);
    expect([await count('/categories/31'), await count('/tags/32')]).toEqual([category + 1, tag + 1]);
    // A draft counts in no term; a slug taken here takes the first free one.
    const draft = await create(952, 'second', 'draft');
    expect([draft.status, draft.body.slug, draft.body.categories[0].count]).toEqual([201, 'second-2', category + 1]);
    expect(await count('/categories/31')).toBe(category + 1);
  });

  it('tells of each event once its last write in the list is done', async () => {
    const told: number[] = [];
    const twice = site().flatMap((r) => (r.kind === 'event' && r.id === 900 ? [r, { ...r, modified_utc: '2026-06-01 00:00:00', fields: { ...r.fields, cost: '30' } }] : [r]));
    // One at a time: two writes of one record side by side may land in either order.
    const s = await writeRecords(twice, { send: invoke, token, concurrency: 1, settled: (id) => told.push(id) });
    expect(s.failed).toEqual([]);
    expect(told.filter((id) => id === 900)).toEqual([900]);
    expect((await get('/events/900')).body.cost).toBe('$30');
  });
});

// Last: the records it adds would be gone from the site of the tests above.
describe('URLs a site holds that this API refuses', () => {
  it('writes a record whose URL this API refuses whole, that URL empty, and reports it', async () => {
    const hostile = [
      ...site(),
      post({ kind: 'venue', id: 510, slug: 'probe', fields: { venue: 'Probe', website: 'file:///etc/passwd' } }),
      post({ kind: 'organizer', id: 511, slug: 'probe-org', fields: { organizer: 'Probe org', website: 'ssh://x.example' } }),
      post({
        kind: 'event',
        id: 912,
        slug: 'probe-gig',
        fields: {
          title: 'Probe gig',
          start_date: '2027-06-01 10:00:00',
          end_date: '2027-06-01 11:00:00',
          website: 'https://ok.example/\r\nX',
          image: 'ftp://img.example/a.png',
          venue: [510],
        },
      }),
    ];
    const s = await writeRecords(hostile, { send: invoke, token });
    expect(s.failed).toEqual([]);
    expect(s.clearedUrls).toEqual([
      { kind: 'venue', id: 510, field: 'website', value: 'file:///etc/passwd' },
      { kind: 'organizer', id: 511, field: 'website', value: 'ssh://x.example' },
      { kind: 'event', id: 912, field: 'website', value: 'https://ok.example/\r\nX' },
      { kind: 'event', id: 912, field: 'image', value: 'ftp://img.example/a.png' },
    ]);
    expect((await get('/venues/510')).body).toMatchObject({ venue: 'Probe' });
    expect((await get('/venues/510')).body.website).toBeFalsy();
    expect((await get('/organizers/511')).body.website).toBeFalsy();
    const event = (await get('/events/912')).body;
    expect([event.title, event.website, event.image, event.venue.id]).toEqual(['Probe gig', '', false, 510]);
    // A second run finds them as written.
    const again = await writeRecords(hostile, { send: invoke, token });
    expect([again.kinds.venue.written, again.kinds.event.written, again.failed]).toEqual([[], [], []]);
  });
});
