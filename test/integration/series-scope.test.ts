// Writes by `scope` to the events of a series, on DynamoDB Local with the real stream consumer:
// deleting one event, it and the following ones (the series ends before it), or all of them, and
// editing all of them; an event of no series takes any scope alone.
import { beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#lib/local/invoke.js';
import { keys } from '#lib/store/keys.js';
import type { EventItem } from '#lib/store/items.js';
import { roleToken } from '../support/tokens.js';
import { useStreamPoller, waitFor } from '../support/stream.js';
import { useFreshTable } from '../support/table.js';
import { storedItem } from '../support/stored.js';
import { DRAIN_MS, EVERY_DATE, seriesEvents, TEST_MS } from '../support/series.js';
import { expandCalendar } from '../support/ical.js';
import { advanceSeries, changeRules } from '#lib/store/series-progress.js';
import { seriesMembers } from '#lib/store/partitions.js';
import { IDEMPOTENCY_PARTITION } from '#lib/store/create-ids.js';
import { deleteAll } from '#lib/store/batch-writes.js';
import { queryAll, type Key } from '#lib/store/reads.js';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';

// Small chunks (a setting, default 50), so that a series of a few events spans several consumer calls.
process.env.SERIES_CHUNK = '4';

let editor: string;
beforeAll(async () => {
  editor = await roleToken('editor', 'scope-editor');
});

type Opts = { body?: unknown; query?: Record<string, string | number>; timeoutSeconds?: number };
const call = (method: string, path: string, opts: Opts = {}) => invoke(method, 'en', path, { ...opts, token: editor });

async function created(body: Record<string, unknown>): Promise<any> {
  const res = await call('POST', '/events', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** The listed events of the series of `first`, oldest first. */
const listed = (first: number): Promise<any[]> => seriesEvents(first, (page) => call('GET', '/events', { query: { ...EVERY_DATE, page } }));

/** A weekly series of `count` events from a Tuesday at 19:00 in Vilnius, written whole. */
async function weekly(title: string, start: string, count = 8, extra: Record<string, unknown> = {}): Promise<any[]> {
  const first = await created({
    title,
    start_date: `${start} 19:00:00`,
    end_date: `${start} 21:00:00`,
    timezone: 'Europe/Vilnius',
    recurrence: [`RRULE:FREQ=WEEKLY;COUNT=${count}`],
    ...extra,
  });
  await stream.drain(DRAIN_MS);
  const all = await listed(first.id);
  expect(all.length).toBe(count);
  return all;
}

/** How GET by id answers an event trashed, or deleted, on its own: the answers a scope must match. */
async function reference(force: boolean): Promise<{ status: number; code?: string }> {
  const single = await created({ title: `Reference ${force}`, start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' });
  expect((await call('DELETE', `/events/${single.id}`, { query: { force: String(force) } })).status).toBe(200);
  const res = await call('GET', `/events/${single.id}`);
  return { status: res.status, code: (res.body as { code?: string }).code };
}

async function answered(id: number): Promise<{ status: number; code?: string }> {
  const res = await call('GET', `/events/${id}`);
  return { status: res.status, code: (res.body as { code?: string }).code };
}

/**
 * A write with a deadline of 3 s, which leaves most of a series to the stream consumer; sent again
 * with 30 s when a loaded machine could not finish even its own write in time (503: its outcome
 * unknown or the function busy, which a client settles by sending it again).
 */
async function shortThenLong(send: (timeoutSeconds: number) => ReturnType<typeof call>): ReturnType<typeof call> {
  const first = await send(3);
  return first.status === 503 ? send(30) : first;
}

/**
 * Forgets every create key, as a day does (IDEMPOTENCY_SECONDS): the writer of a series' occurrences
 * then knows the events it wrote by their dates alone.
 */
async function forgetCreateKeys(): Promise<void> {
  const kept = await queryAll<Key>({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': IDEMPOTENCY_PARTITION }, ProjectionExpression: 'pk, sk' });
  expect(kept.length).toBeGreaterThan(0);
  await deleteAll(kept, { table: config().tableName, client: db() }, 8);
}

/**
 * The feed of a window and the list of the same window: the feed holds each of `rules` and
 * expands (ical.js) to exactly the listed events, by start and title.
 */
async function expectFeedAsList(window: { start_date: string; end_date: string }, rules: string[]): Promise<void> {
  const [feed, list] = await Promise.all([call('GET', '/events', { query: { ...window, ical: 1 } }), call('GET', '/events', { query: { ...window, per_page: 50 } })]);
  for (const rule of rules) expect(feed.body).toContain(`\r\n${rule}\r\n`);
  const shown = expandCalendar(feed.body as string).map((o) => [new Date(o.start * 1000).toISOString(), o.summary]);
  const events = ((list.body as { events?: any[] }).events ?? []).map((e) => [`${e.utc_start_date.replace(' ', 'T')}.000Z`, e.title]);
  expect(shown.sort()).toEqual(events.sort());
}

let stream: ReturnType<typeof useStreamPoller>;

describe('writes by scope to the events of a series', () => {
  useFreshTable('series-scope', { stream: true });
  stream = useStreamPoller();

  it('deletes one event alone by default, and the consumer never writes it again', { timeout: TEST_MS }, async () => {
    const all = await weekly('Alone', '2028-01-04');
    const [first, , , gone, , deleted] = all;
    expect((await call('DELETE', `/events/${gone.id}`)).status).toBe(200);
    expect((await call('DELETE', `/events/${deleted.id}`, { query: { scope: 'this', force: 'true' } })).status).toBe(200);
    // A change of the first event brings the series' trigger: it writes nothing the series made already.
    expect((await call('POST', `/events/${first.id}`, { body: { excerpt: 'Touched' } })).status).toBe(200);
    await stream.drain(DRAIN_MS);
    // Even a chunk written again from the start (a change delivered again before its progress was
    // recorded) finds the deleted occurrence deleted and the trashed one trashed.
    expect(await advanceSeries(first.id, 8, 1, 8)).toBe(true);
    await stream.drain(DRAIN_MS);
    const left = await listed(first.id);
    expect(left.map((e) => e.id)).toEqual(all.filter((e) => e.id !== gone.id && e.id !== deleted.id).map((e) => e.id));
    expect(await answered(gone.id)).toEqual(await reference(false));
    expect(await answered(deleted.id)).toEqual(await reference(true));
    expect((await storedItem<EventItem>(keys.post(first.id)))?.series).toMatchObject({ total: 8, made: 8 });
  });

  it('deletes an event and the following ones: the earlier keep their ids and take the shortened rule', { timeout: TEST_MS }, async () => {
    const all = await weekly('Following', '2028-03-07', 8, { categories: ['Scoped'] });
    const cut = all[5];
    const res = await call('DELETE', `/events/${cut.id}`, { query: { scope: 'following' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: cut.id, status: 'trash' });
    await stream.drain(DRAIN_MS);
    const left = await listed(all[0].id);
    expect(left.map((e) => e.id)).toEqual(all.slice(0, 5).map((e) => e.id));
    // 7 March to 4 April at 19:00 in Vilnius: the last is in summer time, 16:00 UTC.
    const rule = ['RRULE:FREQ=WEEKLY;UNTIL=20280404T160000Z'];
    for (const e of left) expect(e.recurrence).toEqual(rule);
    const trashed = await reference(false);
    for (const e of all.slice(5)) expect(await answered(e.id)).toEqual(trashed);
    const first = await storedItem<EventItem>(keys.post(all[0].id));
    expect(first?.series).toMatchObject({ total: 5, stop: { from: cut.utc_start_date, mode: 'trash' } });
    // No occurrence is written past the end, whatever changes the first event.
    expect((await call('POST', `/events/${all[0].id}`, { body: { excerpt: 'Touched' } })).status).toBe(200);
    await stream.drain(DRAIN_MS);
    expect((await listed(all[0].id)).length).toBe(5);
    const cats = (await call('GET', '/categories', { query: { search: 'Scoped' } })).body as { categories: { count: number }[] };
    expect(cats.categories[0]!.count).toBe(5);
  });

  it('ends a series still being written before the occurrence deleted with its following ones', { timeout: TEST_MS }, async () => {
    const first = await created({ title: 'Cut early', start_date: '2029-01-01 10:00:00', end_date: '2029-01-01 11:00:00', recurrence: ['RRULE:FREQ=DAILY;COUNT=30'] });
    // Cut from the second event (by date) as soon as it exists, while the consumer goes on writing
    // the others: a chunk writes several at once, so a later one may be listed before it.
    let second: any;
    const isSecond = (e: any) => e.start_date === '2029-01-02 10:00:00';
    await waitFor(async () => !!(second = (await listed(first.id)).find(isSecond)), 'the second occurrence is written', 60_000);
    const res = await call('DELETE', `/events/${second.id}`, { query: { scope: 'following', force: 'true' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await stream.drain(DRAIN_MS);
    const left = await listed(first.id);
    expect(
      left.map((e) => e.id),
      `left after cutting at ${second.id}: ${JSON.stringify(left.map((e) => [e.id, e.start_date]))}; first: ${JSON.stringify((await storedItem<EventItem>(keys.post(first.id)))?.series)}`,
    ).toEqual([first.id]);
    expect(left[0].recurrence).toEqual(['RRULE:FREQ=DAILY;UNTIL=20290101T100000Z']);
    expect(await answered(second.id)).toEqual(await reference(true));
    expect((await storedItem<EventItem>(keys.post(first.id)))?.series).toMatchObject({ total: 1, stop: { mode: 'delete' } });
  });

  it('deletes all events of a series for good, from any of them', { timeout: TEST_MS }, async () => {
    const all = await weekly('Everything', '2028-06-06', 8, { tags: ['Doomed'] });
    const res = await call('DELETE', `/events/${all[7].id}`, { query: { scope: 'all', force: 'true' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await stream.drain(DRAIN_MS);
    expect(await listed(all[0].id)).toEqual([]);
    const deleted = await reference(true);
    for (const e of all) expect(await answered(e.id)).toEqual(deleted);
    expect(await storedItem(keys.post(all[0].id))).toBeUndefined();
    // The series' partition holds no event: none is left behind (tombstones only, which stop a re-creation).
    expect(await seriesMembers(all[0].id)).toEqual([]);
    expect(await storedItem(keys.seriesMember(all[0].id, all[3].id))).toMatchObject({ gone: true });
  });

  it('trashes all events of a series, past what the request has time for, and the series writes no more', { timeout: TEST_MS }, async () => {
    const first = await created({ title: 'Trash them', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00', recurrence: ['RRULE:FREQ=DAILY;COUNT=20'] });
    await stream.drain(DRAIN_MS);
    const all = await listed(first.id);
    expect(all.length).toBe(20);
    // A short deadline: the request trashes what it can, the stream consumer the rest.
    const res = await shortThenLong((timeoutSeconds) => call('DELETE', `/events/${all[10].id}`, { query: { scope: 'all' }, body: {}, timeoutSeconds }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: all[10].id, status: 'trash' });
    await stream.drain(DRAIN_MS);
    expect(await listed(first.id)).toEqual([]);
    const trashed = await reference(false);
    for (const e of all) expect(await answered(e.id)).toEqual(trashed);
    expect((await storedItem<EventItem>(keys.post(first.id)))?.status).toBe('trash');
  });

  it('deletes a series by the slug of one of its events', { timeout: TEST_MS }, async () => {
    const all = await weekly('By slug', '2033-05-03', 4);
    const res = await call('DELETE', `/events/by-slug/${all[2].slug}`, { query: { scope: 'all' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await stream.drain(DRAIN_MS);
    expect(await listed(all[0].id)).toEqual([]);
    const trashed = await reference(false);
    for (const e of all) expect(await answered(e.id)).toEqual(trashed);
    expect((await storedItem<EventItem>(keys.post(all[0].id)))?.status).toBe('trash');
  });

  it('edits all events of a series; an event edited alone keeps what this edit does not send', { timeout: TEST_MS }, async () => {
    const all = await weekly('Before', '2028-09-05', 8, { tags: ['Old'], description: 'Shared' });
    const own = await call('POST', `/events/${all[3].id}`, { body: { description: 'Its own' } });
    expect(own.status).toBe(200);
    const res = await call('POST', `/events/${all[7].id}`, { body: { title: 'After', tags: ['New'], scope: 'all' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await stream.drain(DRAIN_MS);
    const now = await listed(all[0].id);
    expect(now.map((e) => [e.id, e.start_date])).toEqual(all.map((e) => [e.id, e.start_date]));
    for (const e of now) {
      expect(e.title).toBe('After');
      expect(e.tags.map((t: { name: string }) => t.name)).toEqual(['New']);
      expect(e.description).toContain(e.id === all[3].id ? 'Its own' : 'Shared');
    }
    const tags = (await call('GET', '/tags', { query: { search: 'New' } })).body as { tags: { name: string; count: number }[] };
    expect(tags.tags.find((t) => t.name === 'New')?.count).toBe(8);
    // By query too; `following` with an event's own dates is refused, and nothing is written.
    const following = await call('PATCH', `/events/${all[2].id}`, { body: { title: 'Never', start_date: '2028-09-20 18:00:00' }, query: { scope: 'following' } });
    expect(following.status).toBe(400);
    expect(following.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { scope: expect.stringContaining('start_date') } } });
    expect(((await call('GET', `/events/${all[2].id}`)).body as { title: string }).title).toBe('After');
    // New rules for one event alone are refused: rules are the whole series'.
    const rules = await call('POST', `/events/${all[2].id}`, { body: { recurrence: ['RRULE:FREQ=DAILY;COUNT=2'] } });
    expect(rules.status).toBe(400);
    expect(rules.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { recurrence: expect.stringContaining('scope all') } } });
  });

  it('gives a series new rules: the events of the dates that stay keep their ids and own changes, the others go, the new dates come', { timeout: TEST_MS }, async () => {
    const all = await weekly('Rules', '2031-03-04', 6, { description: 'Rules shared' });
    expect((await call('POST', `/events/${all[2].id}`, { body: { description: 'Its own' } })).status).toBe(200);
    // Moved within its day on its own: it is known by the date the rules gave it.
    const moved = await call('POST', `/events/${all[4].id}`, { body: { start_date: '2031-04-01 20:00:00', end_date: '2031-04-01 22:00:00' } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    // Refused, and nothing written: rules that drop the first date, and new rules with dates.
    const version = (await storedItem<EventItem>(keys.post(all[0].id)))?.version;
    for (const body of [
      { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE;TZID=Europe/Vilnius:20310304T190000'], scope: 'all' },
      { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'], start_date: '2031-03-04 18:00:00', scope: 'all' },
      { recurrence: ['RRULE:FREQ=SOMETIMES'], scope: 'all' },
    ]) {
      const res = await call('POST', `/events/${all[1].id}`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { recurrence: expect.any(String) } } });
    }
    expect((await storedItem<EventItem>(keys.post(all[0].id)))?.version).toBe(version);
    // Every other week, five times: weeks 0, 2, 4, 6 and 8 of the old weekly six.
    await forgetCreateKeys();
    const lines = ['RRULE:FREQ=WEEKLY;COUNT=5;INTERVAL=2'];
    const res = await call('PATCH', `/events/${all[2].id}`, {
      body: { recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=5'], title: 'Rules, fortnightly' },
      query: { scope: 'all' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: all[2].id, series_id: all[0].id, recurrence: lines, title: 'Rules, fortnightly', status: 'publish' });
    await stream.drain(DRAIN_MS);
    const now = await listed(all[0].id);
    const day = (e: { start_date: string }) => e.start_date.slice(0, 10);
    expect(now.map(day)).toEqual(['2031-03-04', '2031-03-18', '2031-04-01', '2031-04-15', '2031-04-29']);
    expect(now.slice(0, 3).map((e) => e.id)).toEqual([all[0].id, all[2].id, all[4].id]);
    expect(now.slice(3).every((e) => !all.some((old) => old.id === e.id))).toBe(true);
    for (const e of now) {
      expect([e.title, e.recurrence, e.series_id, e.start_date.slice(11)]).toEqual(['Rules, fortnightly', lines, all[0].id, e.id === all[4].id ? '20:00:00' : '19:00:00']);
      expect(e.description).toContain(e.id === all[2].id ? 'Its own' : 'Rules');
    }
    for (const gone of [all[1], all[3], all[5]]) expect((await storedItem<EventItem>(keys.post(gone.id)))?.status).toBe('trash');
    // The feed gives the series one rule and expands to exactly the listed events.
    await expectFeedAsList({ start_date: '2031-03-01', end_date: '2031-05-31' }, ['RRULE:FREQ=WEEKLY;COUNT=5;INTERVAL=2']);
    // A date deleted on its own stays deleted under any later rules.
    expect((await call('DELETE', `/events/${now[3]!.id}`)).status).toBe(200);
    // Back to weekly: the dates the fortnightly rules took come back, the same events out of the
    // trash; the other weekly dates come (weeks 7 and 9 were never there), and the fortnightly ones stay.
    await forgetCreateKeys();
    expect((await call('POST', `/events/${all[0].id}`, { body: { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=10'], scope: 'all' } })).status).toBe(200);
    await stream.drain(DRAIN_MS);
    const weekly10 = await listed(all[0].id);
    expect(weekly10.map(day)).toEqual(['2031-03-04', '2031-03-11', '2031-03-18', '2031-03-25', '2031-04-01', '2031-04-08', '2031-04-22', '2031-04-29', '2031-05-06']);
    expect(weekly10.slice(0, 6).map((e) => e.id)).toEqual(all.map((e) => e.id));
    for (const back of [all[1], all[3], all[5]]) {
      const e = weekly10.find((x) => x.id === back.id)!;
      expect([e.status, e.slug, e.recurrence]).toEqual(['publish', back.slug, ['RRULE:FREQ=WEEKLY;COUNT=10']]);
    }
    expect((await storedItem<EventItem>(keys.post(now[3]!.id)))?.status).toBe('trash');
    expect(weekly10.filter((e) => now.some((f) => f.id === e.id)).map((e) => e.id)).toEqual(now.filter((_, i) => i !== 3).map((e) => e.id));
    // An end recorded by a delete stands: new rules end before it, and the deleted dates stay in the trash.
    const cut = weekly10.findIndex((e) => day(e) === '2031-04-29');
    expect((await call('DELETE', `/events/${weekly10[cut]!.id}`, { query: { scope: 'following' } })).status).toBe(200);
    await stream.drain(DRAIN_MS);
    const ended = ['RRULE:FREQ=WEEKLY;UNTIL=20310422T160000Z'];
    expect((await call('GET', `/events/${all[0].id}`)).body).toMatchObject({ recurrence: ended });
    await forgetCreateKeys();
    const longer = await call('POST', `/events/${all[0].id}`, { body: { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=20'], scope: 'all' } });
    expect(longer.status, JSON.stringify(longer.body)).toBe(200);
    expect(longer.body).toMatchObject({ recurrence: ended });
    await stream.drain(DRAIN_MS);
    expect((await listed(all[0].id)).map((e) => e.id)).toEqual(weekly10.slice(0, cut).map((e) => e.id));
    for (const gone of weekly10.slice(cut)) expect((await storedItem<EventItem>(keys.post(gone.id)))?.status).toBe('trash');
  });

  it("settles a series given new rules at their time, as an edit sent with them is stamped, and never moves an event's time back", { timeout: TEST_MS }, async () => {
    const all = await weekly('Stamped', '2036-01-01', 3);
    // Rules recorded as a request records them, at a time of the test's choosing; the consumer settles the events.
    const give = async (lines: string[], at: string) => {
      const first = (await storedItem<EventItem>(keys.post(all[0].id)))!;
      const read = { version: first.version, made: first.series!.made };
      const next = { total: 3, recurrence: lines, asOf: new Date().toISOString(), rules: { at, version: first.version + 1 }, modified: { modified: at, modified_utc: at } };
      expect(await changeRules(first.id, read, next, undefined)).toBe(true);
      await stream.drain(DRAIN_MS);
      return Promise.all(all.slice(1).map(async (e) => (await storedItem<EventItem>(keys.post(e.id)))!));
    };
    // The same three dates (19:00 in Vilnius is 17:00 UTC in January).
    const until = ['RRULE:FREQ=WEEKLY;UNTIL=20360115T170000Z'];
    const later = await give(until, '2099-01-01 00:00:00');
    expect(later.map((e) => [e.recurrence, e.modified_utc, e.status])).toEqual(all.slice(1).map(() => [until, '2099-01-01 00:00:00', 'publish']));
    const back = await give(['RRULE:FREQ=WEEKLY;COUNT=3'], '2001-01-01 00:00:00');
    expect(back.map((e) => [e.recurrence, e.modified_utc])).toEqual(all.slice(1).map(() => [['RRULE:FREQ=WEEKLY;COUNT=3'], '2099-01-01 00:00:00']));
    expect((await listed(all[0].id)).map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it('splits a series at an event edited with its following ones: the earlier keep the old series, the rest form a new one', { timeout: TEST_MS }, async () => {
    const all = await weekly('Split me', '2029-05-01', 6, { tags: ['Before'] });
    const cut = all[3];
    const res = await call('POST', `/events/${cut.id}`, { body: { title: 'Split off', tags: ['After'], scope: 'following' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: cut.id, title: 'Split off', series_id: cut.id, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] });
    await stream.drain(DRAIN_MS);
    const tagsOf = (e: { tags: { name: string }[] }) => e.tags.map((t) => t.name);
    // The earlier events keep their series, ended at the last of them (19:00 in Vilnius is 16:00 UTC in May).
    const before = await listed(all[0].id);
    expect(before.map((e) => [e.id, e.title, tagsOf(e), e.recurrence])).toEqual(
      all.slice(0, 3).map((e) => [e.id, 'Split me', ['Before'], ['RRULE:FREQ=WEEKLY;UNTIL=20290515T160000Z']]),
    );
    // The rest keep their ids and dates in the new series, with the fields sent.
    const after = await listed(cut.id);
    expect(after.map((e) => [e.id, e.start_date, e.title, tagsOf(e), e.series_id, e.recurrence])).toEqual(
      all.slice(3).map((e) => [e.id, e.start_date, 'Split off', ['After'], cut.id, ['RRULE:FREQ=WEEKLY;COUNT=3']]),
    );
    const tags = (await call('GET', '/tags', { query: { search: 'After' } })).body as { tags: { name: string; count: number }[] };
    expect(tags.tags.find((t) => t.name === 'After')?.count).toBe(3);
    // A feed gives each series its own rule, and expands to exactly the events the list shows.
    await expectFeedAsList({ start_date: '2029-04-01', end_date: '2029-06-30' }, ['RRULE:FREQ=WEEKLY;UNTIL=20290515T160000Z', 'RRULE:FREQ=WEEKLY;COUNT=3']);
    // An author may not split an editor's series: nothing is written.
    const author = await roleToken('author', 'scope-author');
    const refused = await invoke('POST', 'en', `/events/${after[1].id}`, { body: { title: 'Mine now', scope: 'following' }, token: author });
    expect(refused.status).toBe(403);
    expect((await listed(cut.id)).map((e) => [e.id, e.title])).toEqual(after.map((e) => [e.id, 'Split off']));
    // Each series is its own from now on: an edit of all of the new one leaves the old one.
    expect((await call('POST', `/events/${after[2].id}`, { body: { featured: true, scope: 'all' } })).status).toBe(200);
    await stream.drain(DRAIN_MS);
    expect((await listed(cut.id)).map((e) => e.featured)).toEqual([true, true, true]);
    expect((await listed(all[0].id)).map((e) => e.featured)).toEqual([false, false, false]);
  });

  it('splits a series with new rules: the new series takes them from the event on, once its events have moved', { timeout: TEST_MS }, async () => {
    const all = await weekly('Split rules', '2032-03-02', 6, { description: 'Shared words' });
    expect((await call('POST', `/events/${all[4].id}`, { body: { description: 'Its own words' } })).status).toBe(200);
    // Refused, and nothing written: a date with the rules, rules that drop the event's own date.
    const version = (await storedItem<EventItem>(keys.post(all[0].id)))?.version;
    for (const [body, param] of [
      [{ recurrence: ['RRULE:FREQ=WEEKLY;COUNT=2'], start_date: '2032-03-16 18:00:00', scope: 'following' }, 'scope'],
      [{ recurrence: ['RRULE:FREQ=WEEKLY;COUNT=2', 'EXDATE;TZID=Europe/Vilnius:20320316T190000'], scope: 'following' }, 'recurrence'],
    ] as const) {
      const res = await call('POST', `/events/${all[2].id}`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys((res.body as { data: { params: object } }).data.params)).toEqual([param]);
    }
    expect((await storedItem<EventItem>(keys.post(all[0].id)))?.version).toBe(version);
    await forgetCreateKeys();
    // From week 2, every other week three times: weeks 2, 4 and 6.
    const lines = ['RRULE:FREQ=WEEKLY;COUNT=3;INTERVAL=2'];
    const res = await call('PATCH', `/events/${all[2].id}`, {
      body: { recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=3'], title: 'Fortnightly on' },
      query: { scope: 'following' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: all[2].id, series_id: all[2].id, recurrence: lines, title: 'Fortnightly on' });
    await stream.drain(DRAIN_MS);
    const day = (e: { start_date: string }) => e.start_date.slice(0, 10);
    // The earlier events keep the old series, ended at the last of them (19:00 in Vilnius is 17:00 UTC in March).
    expect((await listed(all[0].id)).map((e) => [e.id, e.title, e.recurrence])).toEqual(
      all.slice(0, 2).map((e) => [e.id, 'Split rules', ['RRULE:FREQ=WEEKLY;UNTIL=20320309T170000Z']]),
    );
    const after = await listed(all[2].id);
    expect(after.map(day)).toEqual(['2032-03-16', '2032-03-30', '2032-04-13']);
    expect(after.slice(0, 2).map((e) => e.id)).toEqual([all[2].id, all[4].id]);
    expect(all.some((old) => old.id === after[2].id)).toBe(false);
    for (const e of after) {
      expect([e.title, e.recurrence, e.series_id]).toEqual(['Fortnightly on', lines, all[2].id]);
      expect(e.description).toContain(e.id === all[4].id ? 'Its own words' : 'Shared words');
    }
    for (const gone of [all[3], all[5]]) expect((await storedItem<EventItem>(keys.post(gone.id)))?.status).toBe('trash');
    // The feed gives each series its rules and expands to exactly the listed events.
    await expectFeedAsList({ start_date: '2032-03-01', end_date: '2032-04-30' }, ['RRULE:FREQ=WEEKLY;COUNT=3;INTERVAL=2']);
  });

  it('splits a series with new rules past what the request has time for: the consumer gives them after the moves', { timeout: TEST_MS }, async () => {
    const first = await created({ title: 'Daily rules', start_date: '2037-01-01 10:00:00', end_date: '2037-01-01 11:00:00', recurrence: ['RRULE:FREQ=DAILY;COUNT=24'] });
    await stream.drain(DRAIN_MS);
    const all = await listed(first.id);
    expect(all.length).toBe(24);
    await forgetCreateKeys();
    // Half a second of work (the answer keeps 1.5 s of 2): the request writes its event and the split, the consumer the rest.
    const send = (timeoutSeconds: number) =>
      call('PATCH', `/events/${all[4].id}`, { body: { recurrence: ['RRULE:FREQ=DAILY;INTERVAL=2;COUNT=10'] }, query: { scope: 'following' }, timeoutSeconds });
    let res = await send(2);
    if (res.status === 503) res = await send(30);
    else {
      // The later events had not all moved, and the new series kept the old rules meanwhile.
      expect((await storedItem<EventItem>(keys.post(all[23].id)))?.seriesId).toBe(first.id);
      expect(res.body).toMatchObject({ id: all[4].id, series_id: all[4].id, recurrence: ['RRULE:FREQ=DAILY;COUNT=20'] });
    }
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await stream.drain(DRAIN_MS);
    expect((await listed(first.id)).map((e) => e.id)).toEqual(all.slice(0, 4).map((e) => e.id));
    // Every other day from the 5th: the events of those dates, no new one.
    const kept = all.filter((_, i) => i >= 4 && i % 2 === 0);
    expect((await listed(all[4].id)).map((e) => [e.id, e.recurrence])).toEqual(kept.map((e) => [e.id, ['RRULE:FREQ=DAILY;COUNT=10;INTERVAL=2']]));
    for (const gone of all.filter((_, i) => i > 4 && i % 2 === 1)) expect((await storedItem<EventItem>(keys.post(gone.id)))?.status).toBe('trash');
  });

  it('edits all events of a series past what the request has time for', { timeout: TEST_MS }, async () => {
    const first = await created({ title: 'Many', start_date: '2034-01-01 10:00:00', end_date: '2034-01-01 11:00:00', recurrence: ['RRULE:FREQ=DAILY;COUNT=20'] });
    await stream.drain(DRAIN_MS);
    const all = await listed(first.id);
    expect(all.length).toBe(20);
    const res = await shortThenLong((timeoutSeconds) =>
      call('PATCH', `/events/${all[10].id}`, { body: { title: 'Many, renamed', featured: true }, query: { scope: 'all' }, timeoutSeconds }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await stream.drain(DRAIN_MS);
    const now = await listed(first.id);
    expect(now.map((e) => [e.id, e.title, e.featured])).toEqual(all.map((e) => [e.id, 'Many, renamed', true]));
  });

  it('splits a series past what the request has time for', { timeout: TEST_MS }, async () => {
    const first = await created({ title: 'Daily', start_date: '2035-01-01 10:00:00', end_date: '2035-01-01 11:00:00', recurrence: ['RRULE:FREQ=DAILY;COUNT=24'] });
    await stream.drain(DRAIN_MS);
    const all = await listed(first.id);
    expect(all.length).toBe(24);
    const res = await shortThenLong((timeoutSeconds) => call('PATCH', `/events/${all[4].id}`, { body: { title: 'Daily, later' }, query: { scope: 'following' }, timeoutSeconds }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await stream.drain(DRAIN_MS);
    expect((await listed(first.id)).map((e) => [e.id, e.title, e.recurrence])).toEqual(all.slice(0, 4).map((e) => [e.id, 'Daily', ['RRULE:FREQ=DAILY;UNTIL=20350104T100000Z']]));
    expect((await listed(all[4].id)).map((e) => [e.id, e.title, e.recurrence])).toEqual(all.slice(4).map((e) => [e.id, 'Daily, later', ['RRULE:FREQ=DAILY;COUNT=20']]));
  });

  it('takes any scope on an event of no series as a write of that event alone', { timeout: TEST_MS }, async () => {
    const one = await created({ title: 'Single', start_date: '2032-02-02 10:00:00', end_date: '2032-02-02 11:00:00' });
    const other = await created({ title: 'Other', start_date: '2032-02-03 10:00:00', end_date: '2032-02-03 11:00:00' });
    for (const scope of ['all', 'following']) {
      const res = await call('POST', `/events/${one.id}`, { body: { title: `Single ${scope}`, scope } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ title: `Single ${scope}` });
      expect(res.body).not.toHaveProperty('series_id');
    }
    const bad = await call('DELETE', `/events/${one.id}`, { query: { scope: 'some' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { scope: expect.any(String) } } });
    expect((await call('DELETE', `/events/${one.id}`, { query: { scope: 'all' } })).status).toBe(200);
    expect(await answered(one.id)).toEqual(await reference(false));
    expect(((await call('GET', `/events/${other.id}`)).body as { title: string }).title).toBe('Other');
  });
});
