// The change log and GET /changes end to end: writes through the real handlers into DynamoDB
// Local, the local poller running the real stream consumer (its change-log trigger appending the
// entries), and the reads through the real handler. Nothing about the stream or the table is
// mocked; waits are bounded polls and the log's settling time, never timings asserted.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { config, type Lang } from '#lib/runtime/config.js';
import { makeCursor } from '#lib/domain/sync-cursor.js';
import { invoke } from '#lib/local/invoke.js';
import { withLogWriter } from '#lib/observe/logger.js';
import { cursorKey } from '#lib/logic/changes.js';
import { appendChange, entryPosition } from '#lib/store/change-log.js';
import { db } from '#lib/store/db.js';
import { changeLogPartition, keys } from '#lib/store/keys.js';
import type { ChangeEntryItem } from '#lib/store/items.js';
import { TTL_ATTRIBUTE } from '#lib/store/table.js';
import { handler as consumer } from '../../functions/stream/consumer.js';
import { fakeContext } from '../support/lambda.js';
import { useStreamPoller } from '../support/stream.js';
import { useFreshTable } from '../support/table.js';
import { useEnv } from '../support/env.js';
import { roleToken } from '../support/tokens.js';

// Short, so that the tests wait little for entries to settle; long enough that DynamoDB Local's
// slowest appends are not appended twice.
const SETTLE_MS = 1000;
useEnv('CHANGES_SETTLE_MS', String(SETTLE_MS));

useFreshTable('changes', { stream: true });
const stream = useStreamPoller();

let editor: string;
let author: string;
beforeAll(async () => {
  editor = await roleToken('editor', 'changes-editor');
  author = await roleToken('author', 'changes-author');
});

const tomorrow = (hour: number) => {
  const d = new Date(Date.now() + 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString().slice(0, 19).replace('T', ' ');
};

async function ok(method: string, path: string, body?: unknown, opts: { query?: Record<string, string | number>; lang?: Lang; token?: string } = {}): Promise<any> {
  const res = await invoke(method, opts.lang ?? 'en', path, { body, query: opts.query, token: opts.token ?? editor });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

const changes = (query: Record<string, string | number> = {}, opts: { token?: string; lang?: Lang } = {}) =>
  invoke('GET', opts.lang ?? 'en', '/changes', { query, token: opts.token });

/**
 * A cursor for now, as a client takes it before listing everything. The writes of earlier tests
 * settle first: a cursor stands a settling time before now, so their last changes would follow it.
 */
async function cursorNow(opts: { token?: string; lang?: Lang } = {}): Promise<string> {
  await settled();
  const res = await changes({}, opts);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ changes: [], next: expect.any(String), more: false });
  return res.body.next;
}

/** Until the consumer has handled every write so far and the log has settled past them. */
async function settled(): Promise<void> {
  await stream.drain();
  await new Promise((ok) => setTimeout(ok, SETTLE_MS + 50));
}

/** Every page after `since`, followed while `more` says so. */
async function follow(since: string, opts: { token?: string; lang?: Lang; perPage?: number } = {}) {
  const pages: { changes: any[]; next: string; more: boolean }[] = [];
  for (let cursor = since; ; ) {
    const res = await changes({ since: cursor, ...(opts.perPage ? { per_page: opts.perPage } : {}) }, opts);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body);
    cursor = res.body.next;
    if (!res.body.more) return { pages, changes: pages.flatMap((p) => p.changes), next: cursor };
    expect(pages.length).toBeLessThan(100);
  }
}

/** The log's entries about one record, in the log's order. */
async function entriesOf(kind: string, id: number, lang: Lang = 'en'): Promise<ChangeEntryItem[]> {
  const out = await db().send(
    new QueryCommand({ TableName: config().tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': changeLogPartition(lang) }, ConsistentRead: true }),
  );
  return ((out.Items ?? []) as ChangeEntryItem[]).filter((e) => e.kind === kind && e.id === id);
}
/**
 * The actions of the changes of one record, one per committed change: an append that took long
 * is appended again at a later position (docs/change-feed.md), with the same change id.
 */
const actionsOf = async (kind: string, id: number, lang?: Lang) => {
  const seen = new Set<string>();
  return (await entriesOf(kind, id, lang)).filter((e) => !seen.has(e.changeId) && seen.add(e.changeId)).map((e) => e.action);
};

const find = (list: any[], type: string, id: number) => list.filter((c) => c.type === type && c.id === id);

describe('the change log', () => {
  it('has one entry per committed create, update, trash, restore and delete of every kind, none for bookkeeping', async () => {
    const category = await ok('POST', '/categories', { name: 'Log Jazz' });
    const tag = await ok('POST', '/tags', { name: 'log-outdoor' });
    const venue = await ok('POST', '/venues', { venue: 'Log Hall' });
    const organizer = await ok('POST', '/organizers', { organizer: 'Log Org' });
    const event = await ok('POST', '/events', {
      title: 'Log Concert',
      start_date: tomorrow(18),
      end_date: tomorrow(20),
      venue: venue.id,
      organizer: [organizer.id],
      categories: [category.id],
      tags: [tag.id],
    });
    await ok('POST', `/categories/${category.id}`, { description: 'Live' });
    await ok('POST', `/tags/${tag.id}`, { description: 'Open air' });
    // Rewrites the venue's card in the event: bookkeeping of the event, not an edit.
    await ok('POST', `/venues/${venue.id}`, { city: 'Kaunas' });
    await ok('POST', `/organizers/${organizer.id}`, { phone: '123' });
    await ok('POST', `/events/${event.id}`, { title: 'Log Concert, moved' });
    await ok('DELETE', `/events/${event.id}`);
    await ok('POST', `/events/${event.id}`, { status: 'publish' });
    await ok('DELETE', `/events/${event.id}`, undefined, { query: { force: 'true' } });
    await ok('DELETE', `/venues/${venue.id}`);
    await ok('DELETE', `/categories/${category.id}`, undefined, { query: { force: 'true' } });
    await ok('DELETE', `/tags/${tag.id}`, undefined, { query: { force: 'true' } });
    await stream.drain();

    expect(await actionsOf('category', category.id)).toEqual(['create', 'update', 'delete']);
    expect(await actionsOf('tag', tag.id)).toEqual(['create', 'update', 'delete']);
    expect(await actionsOf('venue', venue.id)).toEqual(['create', 'update', 'trash']);
    expect(await actionsOf('organizer', organizer.id)).toEqual(['create', 'update']);
    expect(await actionsOf('event', event.id)).toEqual(['create', 'update', 'trash', 'restore', 'delete']);

    const [first] = await entriesOf('event', event.id);
    const days = config().changeLogDays;
    expect(first).toMatchObject({ kind: 'event', id: event.id, action: 'create', at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), wasPublic: false });
    // Kept for the configured days by the table's TTL.
    const expires = first![TTL_ATTRIBUTE] * 1000;
    expect(Math.abs(expires - (Date.parse(first!.sk.slice(0, 24)) + days * 86_400_000))).toBeLessThan(2000);
    expect(stream.poller.deadLetters).toEqual([]);
  }, 60_000);

  it('appends nothing when a batch is delivered again', async () => {
    const venue = await ok('POST', '/venues', { venue: 'Redelivered Log Hall' });
    await ok('POST', `/venues/${venue.id}`, { city: 'Riga' });
    await stream.drain();
    const before = await entriesOf('venue', venue.id);
    expect(before.map((e) => e.action)).toEqual(['create', 'update']);
    const delivered = stream.poller.invocations.filter((i) => i.event.Records.some((r) => r.dynamodb?.Keys?.pk?.S === keys.post(venue.id).pk));
    expect(delivered.length).toBeGreaterThan(0);
    for (const { event } of delivered) {
      expect(
        await withLogWriter(
          () => undefined,
          () => consumer(event, fakeContext()),
        ),
      ).toEqual({ batchItemFailures: [] });
    }
    expect(await entriesOf('venue', venue.id)).toEqual(before);
  });

  it('appends a change once, whenever it is delivered again, and again at a new position when its append was late', async () => {
    const entry = {
      lang: 'lt' as const,
      kind: 'tag' as const,
      id: 999_001,
      action: 'update' as const,
      at: new Date().toISOString(),
      wasPublic: true,
      changeId: 'test-once',
      sequence: '42',
    };
    expect(await appendChange(entry)).toBe(true);
    expect(await appendChange(entry)).toBe(false);
    expect(await entriesOf('tag', 999_001, 'lt')).toHaveLength(1);
    // A commit that came later than readers wait for: the entry is also appended at the later time.
    let t = Date.now();
    const slow = () => (t += SETTLE_MS);
    expect(await appendChange({ ...entry, id: 999_002, changeId: 'test-late' }, slow)).toBe(true);
    const late = await entriesOf('tag', 999_002, 'lt');
    expect(late.map((e) => e.sk)).toEqual([entryPosition(t - SETTLE_MS, '42', 'test-late'), entryPosition(t, '42', 'test-late')]);
  });
});

describe('GET /changes', () => {
  it('answers no changes and a cursor without since, and the changes after a cursor, each record as GET by id answers it', async () => {
    const since = await cursorNow();
    const category = await ok('POST', '/categories', { name: 'Sync Jazz' });
    const venue = await ok('POST', '/venues', { venue: 'Sync Hall', city: 'Vilnius' });
    const event = await ok('POST', '/events', { title: 'Sync Concert', start_date: tomorrow(18), end_date: tomorrow(20), venue: venue.id, categories: [category.id] });
    await settled();

    for (const token of [undefined, editor]) {
      const { changes: all } = await follow(since, { token });
      // Changes of different records come in the order of their appends (docs/change-feed.md).
      expect(all.map((c) => [c.type, c.id, c.action]).sort()).toEqual([
        ['category', category.id, 'create'],
        ['event', event.id, 'create'],
        ['venue', venue.id, 'create'],
      ]);
      for (const [c, path] of [
        [find(all, 'category', category.id)[0], `/categories/${category.id}`],
        [find(all, 'venue', venue.id)[0], `/venues/${venue.id}`],
        [find(all, 'event', event.id)[0], `/events/${event.id}`],
      ] as const) {
        expect(Object.keys(c)).toEqual(['type', 'id', 'modified_utc', 'action', 'record']);
        expect(c.modified_utc).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
        const read = await invoke('GET', 'en', path, { token });
        expect(c.record).toEqual(read.body);
      }
    }
  });

  it('pages with more and next, in the log order, and shows a record changed several times on a page once, with its latest state', async () => {
    const since = await cursorNow({ token: editor });
    const tags = [];
    for (let i = 0; i < 5; i++) tags.push(await ok('POST', '/tags', { name: `sync-page-${i}` }));
    await ok('POST', `/tags/${tags[0].id}`, { description: 'changed' });
    await settled();

    // Six entries, pages of two: the first tag's create and update fall on different pages. The log
    // orders changes of different records by their append, and an append that took long is
    // appended again (docs/change-feed.md): pages are compared by what they hold.
    const pair = (c: { id: number; action: string }) => `${c.id} ${c.action}`;
    const expected = [...tags.map((t) => `${t.id} create`), `${tags[0].id} update`].sort();
    const paged = await follow(since, { token: editor, perPage: 2 });
    expect(paged.pages.length).toBeGreaterThanOrEqual(3);
    for (const p of paged.pages.slice(0, -1)) expect([p.changes.length, p.more]).toEqual([2, true]);
    expect(paged.pages.at(-1)!.more).toBe(false);
    expect([...new Set(paged.changes.map(pair))].sort()).toEqual(expected);
    // A record's changes in their order.
    const first = paged.changes.map(pair);
    expect(first.indexOf(`${tags[0].id} update`)).toBeGreaterThan(first.indexOf(`${tags[0].id} create`));
    // On one page: each record once, with its latest change, as it is now.
    const whole = await follow(since, { token: editor });
    expect(whole.pages).toHaveLength(1);
    expect(whole.changes.map(pair).sort()).toEqual([...tags.slice(1).map((t) => `${t.id} create`), `${tags[0].id} update`].sort());
    expect(find(whole.changes, 'tag', tags[0].id)[0].record.description).toBe('changed');
    // Nothing after the end, and the cursor then stays usable.
    const after = await changes({ since: whole.next }, { token: editor });
    expect(after.body).toMatchObject({ changes: [], more: false });
  });

  it('takes per_page from 1 to 1,000, and refuses others', async () => {
    const since = await cursorNow();
    for (const bad of [0, 1001, 'x', -1]) {
      const res = await changes({ since, per_page: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { per_page: expect.any(String) } } });
    }
    for (const good of [1, 1000]) expect((await changes({ since, per_page: good })).status).toBe(200);
  });

  it('shows anonymous callers published records only, and a record they can no longer read as deleted; editors everything', async () => {
    const since = await cursorNow();
    const event = (title: string, more: Record<string, unknown> = {}) => ok('POST', '/events', { title, start_date: tomorrow(10), end_date: tomorrow(11), ...more });
    const published = await event('Vis Published');
    const draft = await event('Vis Draft', { status: 'draft' });
    const drafted = await event('Vis Drafted');
    const trashed = await event('Vis Trashed');
    const locked = await event('Vis Locked');
    const gone = await event('Vis Gone');
    const organizer = await ok('POST', '/organizers', { organizer: 'Vis Org' });
    const byAuthor = await ok('POST', '/events', { title: 'Vis Author Draft', start_date: tomorrow(10), end_date: tomorrow(11), status: 'draft' }, { token: author });
    // Each goes through a page as published first, then changes.
    await settled();
    const middle = (await follow(since)).next;
    await ok('POST', `/events/${drafted.id}`, { status: 'draft' });
    await ok('DELETE', `/events/${trashed.id}`);
    await ok('POST', `/events/${locked.id}`, { password: 'secret' });
    await ok('DELETE', `/events/${gone.id}`, undefined, { query: { force: 'true' } });
    await ok('POST', `/organizers/${organizer.id}`, { status: 'draft' });
    await settled();

    const anonymous = (await follow(middle)).changes;
    // Changes of different records come in the order the consumer appended them, which may
    // differ from the order of their commits (docs/change-feed.md): compared by record.
    const shown = (list: any[]) => list.map((c) => [c.type, c.id, c.action, 'record' in c]).sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1]));
    expect(shown(anonymous)).toEqual([
      ['event', drafted.id, 'delete', false],
      ['event', trashed.id, 'delete', false],
      ['event', locked.id, 'delete', false],
      ['event', gone.id, 'delete', false],
      ['organizer', organizer.id, 'delete', false],
    ]);
    const theEditor = (await follow(middle, { token: editor })).changes;
    expect(shown(theEditor)).toEqual([
      ['event', drafted.id, 'update', true],
      ['event', trashed.id, 'trash', false],
      ['event', locked.id, 'update', true],
      ['event', gone.id, 'delete', false],
      ['organizer', organizer.id, 'update', true],
    ]);
    expect(find(theEditor, 'event', locked.id)[0].record).toEqual((await invoke('GET', 'en', `/events/${locked.id}`, { token: editor, query: { context: 'edit' } })).body);

    // From the start: the draft never reached anonymous callers, so nothing is taken back.
    const fromStart = (await follow(since)).changes;
    expect(find(fromStart, 'event', draft.id)).toEqual([]);
    expect(find(fromStart, 'event', byAuthor.id)).toEqual([]);
    expect(find(fromStart, 'event', published.id)).toEqual([expect.objectContaining({ action: 'create', record: expect.objectContaining({ id: published.id }) })]);
    const editorFromStart = (await follow(since, { token: editor })).changes;
    expect(find(editorFromStart, 'event', draft.id)).toEqual([expect.objectContaining({ action: 'create', record: expect.objectContaining({ status: 'draft' }) })]);
    // An author sees their own draft, and another's unpublished record as deleted.
    const authorFromStart = (await follow(since, { token: author })).changes;
    expect(find(authorFromStart, 'event', byAuthor.id)).toEqual([expect.objectContaining({ action: 'create', record: expect.objectContaining({ status: 'draft' }) })]);
    expect(find(authorFromStart, 'event', draft.id)).toEqual([expect.objectContaining({ action: 'delete' })]);
    expect(find(authorFromStart, 'event', draft.id)[0].record).toBeUndefined();
  }, 60_000);

  it('answers 410 rest_cursor_expired for a cursor past the retention, of another key or of another language, and 400 for what is no cursor', async () => {
    const key = await cursorKey();
    const days = config().changeLogDays;
    const old = new Date(Date.now() - (days + 1) * 86_400_000).toISOString();
    const recent = new Date(Date.now() - (days - 1) * 86_400_000).toISOString();
    const expired = makeCursor(`en|${old}`, Date.parse(old), key);
    const foreign = makeCursor(`en|${recent}`, Date.parse(recent), Buffer.from('the key of another deployment'));
    const ru = await cursorNow({ lang: 'ru' });
    for (const since of [expired, foreign, ru]) {
      const res = await changes({ since });
      expect(res.status).toBe(410);
      expect(res.body).toEqual({ code: 'rest_cursor_expired', message: expect.stringContaining(`${days} days`), data: { status: 410 } });
    }
    // Within the retention, the same cursor made with this API's key is followed.
    expect((await changes({ since: makeCursor(`en|${recent}`, Date.parse(recent), key) })).status).toBe(200);
    for (const since of ['abc', 'a.b.c', '', `${ru}x.y`]) {
      const res = await changes({ since });
      expect(res.status, since).toBe(400);
      expect(res.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { since: expect.any(String) } } });
    }
  });

  it("keeps each language's log apart, and serves the default language under /wp-json", async () => {
    const en = await cursorNow();
    const ru = await cursorNow({ lang: 'ru' });
    const wp = await cursorNow({ lang: 'wp-json' as Lang });
    const russian = await ok('POST', '/tags', { name: 'синхронизация' }, { lang: 'ru' });
    const english = await ok('POST', '/tags', { name: 'sync-language' });
    await settled();
    expect((await follow(ru, { lang: 'ru' })).changes.map((c) => c.id)).toEqual([russian.id]);
    expect((await follow(en)).changes.map((c) => c.id)).toEqual([english.id]);
    // /wp-json serves en: its cursors are en's.
    expect((await follow(wp, { lang: 'wp-json' as Lang })).changes.map((c) => c.id)).toEqual([english.id]);
    expect((await follow(en, { lang: 'wp-json' as Lang })).changes.map((c) => c.id)).toEqual([english.id]);
  });
});
