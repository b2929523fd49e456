// The horizon of series without an end moves forward by itself: the stream consumer lists such a
// series (and unlists it when it ends or goes), and the daily scheduled function follows each one's
// rules again and records the occurrences the consumer then writes. On DynamoDB Local with the
// real consumer; the function runs as the local schedule runs it (its grants and timeout).
import { beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#lib/local/invoke.js';
import { startSchedules } from '#lib/local/schedules.js';
import { moveHorizons, moveSeriesHorizon } from '#lib/logic/series-horizon.js';
import { resetConfig } from '#lib/runtime/config.js';
import { keys } from '#lib/store/keys.js';
import { SERIES_HORIZON } from '#lib/stream/functions.js';
import { roleToken } from '../support/tokens.js';
import { useStreamPoller } from '../support/stream.js';
import { useFreshTable } from '../support/table.js';
import { storedItem } from '../support/stored.js';
import { DRAIN_MS, EVERY_DATE, seriesEvents, TEST_MS } from '../support/series.js';

// A near horizon and a low ceiling, so that a weekly series reaches both within a few months.
const HORIZON_MONTHS = 6;
const MAX_OCCURRENCES = 40;
process.env.SERIES_HORIZON_MONTHS = String(HORIZON_MONTHS);
process.env.SERIES_MAX_OCCURRENCES = String(MAX_OCCURRENCES);
resetConfig();

let editor: string;
beforeAll(async () => {
  editor = await roleToken('editor', 'horizon-editor');
});

const call = (method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number | boolean> } = {}) =>
  invoke(method, 'en', path, { body: opts.body, query: opts.query, token: editor });
const listed = (first: number) => seriesEvents(first, (page) => call('GET', '/events', { query: { ...EVERY_DATE, page } }));
const isListed = async (id: number) => (await storedItem(keys.openSeries(id))) !== undefined;

/** Mondays from 4 January 2027 up to `months` after `from`. */
function mondaysUntil(from: Date, months: number): number {
  const end = new Date(from);
  end.setUTCMonth(end.getUTCMonth() + months);
  let n = 0;
  for (let t = Date.UTC(2027, 0, 4, 17); t <= end.getTime(); t += 7 * 86_400_000) n++;
  return n;
}

describe('the horizon of a series without an end', () => {
  useFreshTable('series-horizon', { stream: true });
  const stream = useStreamPoller();

  it('moves forward when the daily function follows the rules again, up to the occurrences a series may hold', { timeout: TEST_MS }, async () => {
    const created = await call('POST', '/events', {
      body: { title: 'Every Monday', start_date: '2027-01-04 19:00:00', end_date: '2027-01-04 20:00:00', timezone: 'Europe/Vilnius', recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const finite = await call('POST', '/events', {
      body: { title: 'Three Tuesdays', start_date: '2027-01-05 19:00:00', end_date: '2027-01-05 20:00:00', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] },
    });
    await stream.drain(DRAIN_MS);
    const now = new Date();
    expect((await listed(id)).length).toBe(mondaysUntil(now, HORIZON_MONTHS));
    // The consumer lists the series without an end, not the one with a COUNT.
    expect([await isListed(id), await isListed(finite.body.id)]).toEqual([true, false]);

    // The scheduled function, as it runs: today, the rules give nothing new.
    const schedules = startSchedules({ firstAfterMs: 3_600_000, log: () => {} });
    try {
      expect(await schedules.runAll()).toEqual({ [SERIES_HORIZON.id]: { moved: 0, same: 1, writing: 0, closed: 0, full: 0 } });
    } finally {
      await schedules.stop();
    }

    // Three months on, the horizon is three months further.
    const later = new Date(now);
    later.setUTCMonth(later.getUTCMonth() + 3);
    expect(await moveSeriesHorizon(id, later)).toBe('moved');
    await stream.drain(DRAIN_MS);
    const moved = await listed(id);
    expect(moved.length).toBe(mondaysUntil(later, HORIZON_MONTHS));
    expect(moved.length).toBeGreaterThan(mondaysUntil(now, HORIZON_MONTHS));
    expect(new Set(moved.map((e) => e.start_date)).size).toBe(moved.length);
    expect(moved.every((e) => e.start_date.endsWith('19:00:00') && e.title === 'Every Monday')).toBe(true);
    expect(await moveSeriesHorizon(id, later)).toBe('same');

    // Past the occurrences a series may hold, it stays as it is.
    const much = new Date(now);
    much.setUTCMonth(much.getUTCMonth() + 12);
    expect(mondaysUntil(much, HORIZON_MONTHS)).toBeGreaterThan(MAX_OCCURRENCES);
    expect(await moveSeriesHorizon(id, much)).toBe('full');
    await stream.drain(DRAIN_MS);
    expect((await listed(id)).length).toBe(moved.length);
  });

  it('leaves a series that ended or went out of the list', { timeout: TEST_MS }, async () => {
    const created = await call('POST', '/events', {
      body: { title: 'Every Friday', start_date: '2027-01-08 19:00:00', end_date: '2027-01-08 20:00:00', recurrence: ['RRULE:FREQ=WEEKLY'] },
    });
    const id = created.body.id as number;
    await stream.drain(DRAIN_MS);
    expect(await isListed(id)).toBe(true);
    const [, , third] = await listed(id);
    // Ended before its third event: its rules now have an UNTIL.
    expect((await call('DELETE', `/events/${third.id}`, { query: { scope: 'following' } })).status).toBe(200);
    await stream.drain(DRAIN_MS);
    expect(await isListed(id)).toBe(false);
    expect((await listed(id)).length).toBe(2);
    const counts = await moveHorizons(new Date(), () => 60_000);
    expect(counts.moved).toBe(0);
  });
});
