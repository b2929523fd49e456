// The windows of TEC's feeds at the site root are bounded by the events' ends (`ends_after=now`,
// a month): the list bounds their start too, by the language's longest event
// (lib/logic/event-window.ts boundStart), so that a calendar's past does not add to what the
// upcoming feed or a month's feed reads.
import { beforeAll, describe, expect, it } from 'vitest';
import { capacity, type CapacityTally } from '#lib/store/db.js';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { useFreshTable } from '../support/table.js';

let editorToken: string;
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const nextMonth = (() => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 7);
})();

async function make(title: string, start: string, end: string) {
  const res = await invoke('POST', 'en', '/events', { body: { title, start_date: start, end_date: end, status: 'publish' }, token: editorToken });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const FEEDS: Record<string, Record<string, string>> = {
  upcoming: { ical: '1', ical_limit: '30', strict_dates: '1', ends_after: 'now' },
  'next month': { ical: '1', ical_limit: '30', strict_dates: '1', month: nextMonth },
};

/** Each feed's answer (its events' titles) and its cost, after a first call that warms the process. */
async function measure(): Promise<Record<string, { titles: string[]; used: CapacityTally }>> {
  const out: Record<string, { titles: string[]; used: CapacityTally }> = {};
  for (const [name, query] of Object.entries(FEEDS)) {
    await invoke('GET', 'en', '/events', { query });
    capacity.reset();
    const res = await invoke('GET', 'en', '/events', { query });
    expect(res.status, name).toBe(200);
    out[name] = { titles: [...String(res.body ?? '').matchAll(/^SUMMARY:(.*)$/gm)].map((m) => m[1]!.trim()), used: capacity.snapshot() };
  }
  return out;
}

describe("the site's feeds read what they hold, not the calendar's past", () => {
  useFreshTable('feed-window-cost');

  beforeAll(async () => {
    editorToken = await roleToken('editor', 'feed-window-editor');
    await make('Tomorrow', `${day(1)} 10:00:00`, `${day(1)} 12:00:00`);
    await make('Next month', `${nextMonth}-10 10:00:00`, `${nextMonth}-10 12:00:00`);
  });

  it('costs the same with 150 past events as without them', { timeout: 120_000 }, async () => {
    const before = await measure();
    for (let i = 0; i < 150; i += 10)
      await Promise.all(Array.from({ length: 10 }, (_, j) => make(`Past ${i + j}`, `${day(-200 + i + j)} 10:00:00`, `${day(-200 + i + j)} 12:00:00`)));
    const after = await measure();
    for (const name of Object.keys(FEEDS)) {
      const [b, a] = [before[name]!, after[name]!];
      expect(a.titles, name).toEqual(b.titles);
      expect(a.titles.length, name).toBeGreaterThan(0);
      expect(
        a.titles.some((t) => t.startsWith('Past')),
        name,
      ).toBe(false);
      expect(Object.keys(a.used.commands).sort(), name).toEqual(Object.keys(b.used.commands).sort());
      expect(a.used.requests, name).toBe(b.used.requests);
      expect(a.used.read, `${name}: ${a.used.read} RCU with the past vs ${b.used.read} without`).toBeLessThanOrEqual(b.used.read * 1.2 + 1);
    }
  });
});
