// Two splits of one series (edits by scope following, lib/logic/series-split.ts) on DynamoDB Local,
// without a stream consumer: the first split's request leaves most of its moves undone; a second
// split of the same series meanwhile answers 503 with Retry-After after carrying the first one on,
// and never writes its own record over it. Sent again, it splits once the first is done, and every
// event ends in the series its date says.
import { describe, expect, it } from 'vitest';
import { invoke } from '#lib/local/invoke.js';
import { continueSeries } from '#lib/logic/series.js';
import { carryOutSplit } from '#lib/logic/series-split.js';
import { rulesBefore } from '#lib/logic/series-rules.js';
import { endSeries } from '#lib/store/series-progress.js';
import { keys } from '#lib/store/keys.js';
import type { EventItem, SeriesSplit } from '#lib/store/items.js';
import { roleToken } from '../support/tokens.js';
import { useFreshTable } from '../support/table.js';
import { storedItem } from '../support/stored.js';
import { EVERY_DATE, seriesEvents } from '../support/series.js';

useFreshTable('series-splits');

const DAYS = 600;

describe('two splits of one series', () => {
  it('carries the first on and answers 503 to the second until the first is done, then splits again; no event is lost or moved twice', { timeout: 300_000 }, async () => {
    const token = await roleToken('editor', 'series-splits');
    const call = (method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number>; timeoutSeconds?: number } = {}) =>
      invoke(method, 'en', path, { token, ...opts });
    const made = await call('POST', '/events', {
      body: { title: 'Daily', start_date: '2034-01-01 10:00:00', end_date: '2034-01-01 11:00:00', recurrence: [`RRULE:FREQ=DAILY;COUNT=${DAYS}`] },
    });
    expect(made.status).toBe(201);
    const first = made.body.id as number;
    while ((await storedItem<EventItem>(keys.post(first)))!.series!.made < DAYS) await continueSeries(first);
    const list = (id: number) => seriesEvents(id, (page) => call('GET', '/events', { query: { ...EVERY_DATE, page } }));
    const all = await list(first);
    expect(all).toHaveLength(DAYS);
    // The second split addresses one of the last events, which the first split's moves (in the order of ids) reach last.
    const [a, b] = [all[10], all[DAYS - 3]];

    // The first split: the request has time for its own write and a few of the 589 moves.
    const split = await call('PATCH', `/events/${a.id}`, { body: { title: 'Later' }, query: { scope: 'following' }, timeoutSeconds: 5 });
    expect(split.status, JSON.stringify(split.body)).toBe(200);
    const recorded = (await storedItem<EventItem>(keys.post(first)))!.series!.split!;
    expect(recorded).toMatchObject({ to: a.id });
    expect(recorded.done).toBeUndefined();
    const movedBefore = (await list(a.id)).length;
    expect(movedBefore).toBeLessThan(DAYS - 10);

    // The second split, of an event the first has not moved yet: 503, and the first carried on.
    const stored = (await storedItem<EventItem>(keys.post(b.id)))!;
    expect(stored.seriesId).toBe(first);
    const busy = await call('PATCH', `/events/${b.id}`, { body: { title: 'Latest' }, query: { scope: 'following' }, timeoutSeconds: 5 });
    expect(busy.status, JSON.stringify(busy.body)).toBe(503);
    expect(busy.body).toMatchObject({ code: 'rest_busy' });
    expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
    expect((await list(a.id)).length).toBeGreaterThan(movedBefore);
    expect((await storedItem<EventItem>(keys.post(first)))!.series!.split).toMatchObject({ to: a.id });
    expect((await storedItem<EventItem>(keys.post(b.id)))!.title).not.toBe('Latest');

    // Sent again (with a function's usual time), it splits the series the first split made.
    let res = busy;
    for (let tries = 0; res.status === 503 && tries < 10; tries++) res = await call('PATCH', `/events/${b.id}`, { body: { title: 'Latest' }, query: { scope: 'following' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await storedItem<EventItem>(keys.post(first)))!.series!.split).toMatchObject({ to: a.id, done: true });
    // What its request had no time for, as the stream consumer carries it out.
    const cut = (await storedItem<EventItem>(keys.post(a.id)))!;
    expect(cut.series!.split).toMatchObject({ to: b.id });
    await carryOutSplit({ id: a.id, lines: cut.recurrence! }, cut.series!.split!, new Date(), false);
    expect((await storedItem<EventItem>(keys.post(a.id)))!.series!.split).toMatchObject({ to: b.id, done: true });

    const [old, later] = [await list(first), await list(a.id)];
    const [latest] = [await list(b.id)];
    expect(old.map((e) => [e.id, e.title])).toEqual(all.slice(0, 10).map((e) => [e.id, 'Daily']));
    expect(later.map((e) => [e.id, e.title])).toEqual(all.slice(10, DAYS - 3).map((e) => [e.id, 'Later']));
    expect(latest.map((e) => [e.id, e.title])).toEqual(all.slice(DAYS - 3).map((e) => [e.id, 'Latest']));
  });
  it('moves an event whose share of the edit its state refuses (a venue deleted since) with its own fields, and marks the split done', async () => {
    const token = await roleToken('editor', 'series-splits');
    const call = (method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number> } = {}) => invoke(method, 'en', path, { token, ...opts });
    const made = await call('POST', '/events', {
      body: { title: 'Gone venue', start_date: '2036-02-01 10:00:00', end_date: '2036-02-01 11:00:00', recurrence: ['RRULE:FREQ=DAILY;COUNT=8'] },
    });
    const first = made.body.id as number;
    await continueSeries(first);
    const all = await seriesEvents(first, (page) => call('GET', '/events', { query: { ...EVERY_DATE, page } }));
    expect(all).toHaveLength(8);
    const venue = (await call('POST', '/venues', { body: { venue: 'Soon gone' } })).body.id as number;
    expect((await call('DELETE', `/venues/${venue}`, { query: { force: 'true' } })).status).toBe(200);
    // A split recorded with an edit that links the venue, its moves not started (a request out of time).
    const stored = (await storedItem<EventItem>(keys.post(first)))! as EventItem & Required<Pick<EventItem, 'recurrence' | 'series'>>;
    const at = all[2].utc_start_date as string;
    const before = rulesBefore(stored, at);
    const split: SeriesSplit = {
      at,
      to: all[2].id,
      lines: ['RRULE:FREQ=DAILY;COUNT=6'],
      edit: { set: { venues: [venue], title: 'Moved' }, remove: [], from: all[2].id, at: '2099-01-01 00:00:00' },
    };
    const now = { modified: '2036-01-01 00:00:00', modified_utc: '2036-01-01 00:00:00' };
    expect(await endSeries(first, { version: stored.version, made: stored.series.made }, { total: before.total, recurrence: before.lines, split, modified: now }, undefined)).toBe(
      true,
    );
    // As the consumer carries it out: every later event moves, keeping its own fields, and the split is done.
    expect(await carryOutSplit({ id: first, lines: before.lines }, split, new Date(), false)).toBe(true);
    for (const e of all.slice(3)) expect(await storedItem<EventItem>(keys.post(e.id))).toMatchObject({ seriesId: all[2].id, venues: [], title: 'Gone venue' });
    expect((await storedItem<EventItem>(keys.post(first)))!.series!.split).toMatchObject({ to: all[2].id, done: true });
  });
});
