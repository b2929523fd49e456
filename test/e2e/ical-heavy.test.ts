// A calendar feed of heavy events (long descriptions) is cut to what one answer may hold, the
// soonest events first, and says so (X-Feed-Truncated), instead of answering 400
// rest_request_over_budget or more than a function may send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { createAsEditor } from '../support/expect.js';
import { useGateway } from '../support/gateway.js';

const gw = useGateway({ tablePrefix: 'icalheavy', stream: true });

describe('a feed of heavy events', () => {
  const titles: string[] = [];

  beforeAll(async () => {
    for (let i = 1; i <= 6; i++) {
      const title = `Heavy ${i}`;
      titles.push(title);
      await createAsEditor(gw, '/events', { title, description: `<p>${`Word${i} `.repeat(10_000)}</p>`, start_date: `2031-02-0${i} 10:00:00`, end_date: `2031-02-0${i} 11:00:00` });
    }
    await gw.drain();
  });
  afterAll(() => {
    delete process.env.ICAL_MAX_BYTES;
    resetConfig();
  });

  it('holds every event while they fit', async () => {
    const res = await gw.api('GET', '/events', { query: { ical: 1, start_date: '2031-02-01', end_date: '2031-02-28' } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect([res.headers.get('x-tec-total'), res.headers.get('x-feed-events'), res.headers.get('x-feed-truncated')]).toEqual(['6', '6', null]);
  });

  it('keeps the soonest events that fit in ICAL_MAX_BYTES of records, and says that it was cut', async () => {
    // Each record holds about 60 KB of description: four fit in 250 KB.
    process.env.ICAL_MAX_BYTES = String(250 * 1024);
    resetConfig();
    const res = await gw.api('GET', '/events', { query: { ical: 1, start_date: '2031-02-01', end_date: '2031-02-28' } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect([res.headers.get('x-tec-total'), res.headers.get('x-feed-events'), res.headers.get('x-feed-truncated')]).toEqual(['6', '4', 'true']);
    const summaries = [...res.text.matchAll(/^SUMMARY:(.*)\r$/gm)].map((m) => m[1]);
    expect(summaries).toEqual(titles.slice(0, 4));
    // The file is about the size of its records (folded lines add a few percent).
    expect(res.text.length).toBeLessThan(1.1 * 250 * 1024);
    // The JSON list is not cut: a page of at most 50 events fits the budget by design.
    const page = await gw.api('GET', '/events', { query: { start_date: '2031-02-01', end_date: '2031-02-28' } });
    expect(page.body.events).toHaveLength(6);
  });

  // One word is one index partition; "o" is checked on the records the search reads; "heavy eavy"
  // is decided by the index alone.
  it.each(['heavy', 'Heavy o', 'heavy eavy'])('cuts a feed of the search %j the same way', async (search) => {
    process.env.ICAL_MAX_BYTES = String(250 * 1024);
    resetConfig();
    const res = await gw.api('GET', '/events', { query: { ical: 1, search, start_date: '2031-02-01', end_date: '2031-02-28' } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect([res.headers.get('x-feed-events'), res.headers.get('x-feed-truncated')]).toEqual(['4', 'true']);
    expect(Number(res.headers.get('x-tec-total'))).toBeGreaterThan(4);
    expect([...res.text.matchAll(/^SUMMARY:(.*)\r$/gm)].map((m) => m[1])).toEqual(titles.slice(0, 4));
  });
});
