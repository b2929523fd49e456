// Calendar feeds through the local gateway: `?ical=1` on an event's reads and on the event list,
// with the JSON reads' access rules, validators and caching, every matching event in one file up
// to the configured limit, and every file read back by ical.js.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { createAsEditor, expectError } from '../support/expect.js';
import { useGateway, type ApiResponse } from '../support/gateway.js';
import { expectRfcLines, readCalendar } from '../support/ical.js';

const CALENDAR = 'text/calendar; charset=UTF-8';

/** A calendar answer: its type, its attachment name, its lines; and what ical.js reads in it. */
function calendarOf(res: ApiResponse) {
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type')).toBe(CALENDAR);
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="event-calendar-[0-9a-f]{11}\.ics"$/);
  expectRfcLines(res.text);
  return readCalendar(res.text);
}

const year = new Date().getUTCFullYear() + 1;
const utcSeconds = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}Z`) / 1000;

describe('calendar feeds', () => {
  // The stream consumer keeps the search index that `search` reads.
  const gw = useGateway({ tablePrefix: 'e2e-ical', stream: true });
  let venue: any;
  let category: any;
  let concert: any;
  let fair: any;
  let locked: any;
  const timed: any[] = [];

  beforeAll(async () => {
    venue = await createAsEditor(gw, '/venues', { venue: 'Anchor Hall', address: '1 Loop Road', city: 'Vilnius', country: 'Lithuania', geo_lat: 54.68, geo_lng: 25.28 });
    const organizer = await createAsEditor(gw, '/organizers', { organizer: 'Anchor Org', email: 'org@example.com' });
    category = await createAsEditor(gw, '/categories', { name: 'Concerts' });
    concert = await createAsEditor(gw, '/events', {
      title: 'Winter concert; strings, brass',
      description: '<p>Doors open at 18:30, bring a coat.</p>',
      start_date: `${year}-03-27 19:00`,
      end_date: `${year}-03-27 22:00`,
      timezone: 'Europe/Vilnius',
      venue: venue.id,
      organizer: [organizer.id],
      categories: [category.id],
      image: 'https://cdn.example.com/poster.png',
    });
    fair = await createAsEditor(gw, '/events', { title: 'Summer fair', start_date: `${year}-07-01`, end_date: `${year}-07-02`, all_day: true });
    locked = await createAsEditor(gw, '/events', {
      title: 'Members night',
      description: 'secret agenda',
      start_date: `${year}-05-01 19:00`,
      end_date: `${year}-05-01 21:00`,
      password: 'open sesame',
      venue: venue.id,
    });
    await createAsEditor(gw, '/events', { title: 'Draft plan', status: 'draft', start_date: `${year}-05-02 19:00`, end_date: `${year}-05-02 21:00` });
    // More events than a page holds.
    for (let i = 1; i <= 10; i++)
      timed.push(
        await createAsEditor(gw, '/events', {
          title: `Talk ${i}`,
          start_date: `${year}-09-${String(i).padStart(2, '0')} 10:00`,
          end_date: `${year}-09-${String(i).padStart(2, '0')} 11:00`,
        }),
      );
    await createAsEditor(gw, '/events', { title: 'Зимний концерт', start_date: `${year}-02-01 18:00`, end_date: `${year}-02-01 20:00`, timezone: 'Europe/Moscow' }, 'ru');
    await gw.drain();
  });

  afterEach(() => {
    delete process.env.ICAL_MAX_EVENTS;
    resetConfig();
  });

  it('answers an event by id and by slug as a calendar file', async () => {
    for (const path of [`/events/${concert.id}`, `/events/by-slug/${concert.slug}`]) {
      const cal = calendarOf(await gw.api('GET', path, { query: { ical: 1 } }));
      expect(cal.timezones).toEqual(['Europe/Vilnius']);
      expect(cal.events).toHaveLength(1);
      const [e] = cal.events;
      const host = new URL(gw.origin).hostname;
      expect(e).toMatchObject({
        uid: `${concert.id}-${utcSeconds(concert.start_date)}-${utcSeconds(concert.end_date)}@${host}`,
        summary: 'Winter concert; strings, brass',
        description: 'Doors open at 18:30, bring a coat.',
        url: concert.url,
        location: 'Anchor Hall, 1 Loop Road, Vilnius, Lithuania',
        geo: [54.68, 25.28],
        categories: ['Concerts'],
        organizer: { cn: 'Anchor Org', value: 'MAILTO:org@example.com' },
        attach: { type: 'image/png', value: 'https://cdn.example.com/poster.png' },
        tzid: 'Europe/Vilnius',
        start: utcSeconds(concert.utc_start_date),
        end: utcSeconds(concert.utc_end_date),
      });
    }
  });

  it('writes an all-day event as dates with an exclusive end', async () => {
    const [e] = calendarOf(await gw.api('GET', `/events/${fair.id}`, { query: { ical: 1 } })).events;
    expect(e).toMatchObject({ allDay: true, startDate: `${year}-07-01`, endDate: `${year}-07-03` });
  });

  it('keeps the JSON reads’ access rules', async () => {
    expectError(await gw.api('GET', `/events/${locked.id}`, { query: { ical: 1 } }), 403, 'event-password-protected');
    const [e] = calendarOf(await gw.api('GET', `/events/${locked.id}`, { query: { ical: 1, password: 'open sesame' } })).events;
    expect(e!.description).toBe('secret agenda');
    expectError(await gw.api('GET', '/events/999999', { query: { ical: 1 } }), 404, 'rest-event-not-found');
    expectError(await gw.api('GET', `/events/${concert.id}`, { query: { ical: 'maybe' } }), 400, 'rest_invalid_param');
    // ical=0 is the JSON read.
    const json = await gw.api('GET', `/events/${concert.id}`, { query: { ical: 0 } });
    expect(json.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(json.body.id).toBe(concert.id);
  });

  it('carries an entity tag, answers If-None-Match with 304, and lets shared caches keep anonymous feeds', async () => {
    for (const path of [`/events/${concert.id}`, '/events']) {
      const first = await gw.api('GET', path, { query: { ical: 1 } });
      const tag = first.headers.get('etag')!;
      expect(tag).toMatch(/^"/);
      expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
      // The JSON answer is another representation, with its own tag.
      expect((await gw.api('GET', path)).headers.get('etag')).not.toBe(tag);
      const again = await gw.api('GET', path, { query: { ical: 1 }, headers: { 'if-none-match': tag } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      const signedIn = await gw.api('GET', path, { query: { ical: 1 }, token: 'editor' });
      expect(signedIn.headers.get('cache-control')).toBe('private, no-store');
    }
  });

  it('gives the whole list in one file, not a page, with protected events without their content', async () => {
    const res = await gw.api('GET', '/events', { query: { ical: 1 } });
    const cal = calendarOf(res);
    const titles = cal.events.map((e) => e.summary);
    expect(titles).toEqual(['Winter concert; strings, brass', 'Members night', 'Summer fair', ...timed.map((t) => t.title)]);
    expect(res.headers.get('x-tec-total')).toBe('13');
    expect(res.headers.get('x-feed-events')).toBe('13');
    expect(res.headers.get('x-feed-truncated')).toBeNull();
    const members = cal.events.find((e) => e.summary === 'Members night')!;
    expect(members).toMatchObject({ description: 'Content is protected.', location: null });
    expect(res.text).not.toContain('secret');
    // An editor sees the draft too; the password opens the protected event.
    const editor = calendarOf(await gw.api('GET', '/events', { query: { ical: 1, password: 'open sesame' }, token: 'editor' }));
    expect(editor.events.map((e) => e.summary)).toContain('Draft plan');
    expect(editor.events.find((e) => e.summary === 'Members night')!.description).toBe('secret agenda');
  });

  it('applies the list filters', async () => {
    const byCategory = calendarOf(await gw.api('GET', '/events', { query: { ical: 1, categories: category.slug } }));
    expect(byCategory.events.map((e) => e.summary)).toEqual(['Winter concert; strings, brass']);
    const window = calendarOf(await gw.api('GET', '/events', { query: { ical: 1, start_date: `${year}-09-03`, end_date: `${year}-09-05` } }));
    expect(window.events.map((e) => e.summary)).toEqual(['Talk 3', 'Talk 4', 'Talk 5']);
    const search = calendarOf(await gw.api('GET', '/events', { query: { ical: 1, search: 'fair' } }));
    expect(search.events.map((e) => e.summary)).toEqual(['Summer fair']);
    const none = calendarOf(await gw.api('GET', '/events', { query: { ical: 1, venue: venue.id, search: 'nothing here' } }));
    expect(none.events).toEqual([]);
  });

  it('serves each language root its own events', async () => {
    const ru = calendarOf(await gw.api('GET', '/events', { query: { ical: 1 }, lang: 'ru' }));
    expect(ru.events.map((e) => e.summary)).toEqual(['Зимний концерт']);
    expect(ru.timezones).toEqual(['Europe/Moscow']);
    expect(ru.events[0]!.url).toMatch(/\/ru\/event\//);
  });

  it("answers the same feeds at WordPress's URLs (the default language's)", async () => {
    const own = calendarOf(await gw.api('GET', '/events', { query: { ical: 1 } }));
    for (const path of ['/wp-json/tribe/events/v1/events?ical=1', '/?rest_route=/tribe/events/v1/events&ical=1']) {
      const res = await gw.api('GET', gw.abs(path));
      expect(res.headers.get('content-type'), path).toBe('text/calendar; charset=UTF-8');
      expect(calendarOf(res).events.map((e) => e.uid)).toEqual(own.events.map((e) => e.uid));
    }
    const one = await gw.api('GET', gw.abs(`/wp-json/tribe/events/v1/events/${concert.id}?ical=1`));
    expect(calendarOf(one).events.map((e) => e.summary)).toEqual(['Winter concert; strings, brass']);
  });

  it('holds at most ICAL_MAX_EVENTS events, the soonest, and says that it was cut', async () => {
    process.env.ICAL_MAX_EVENTS = '4';
    resetConfig();
    const res = await gw.api('GET', '/events', { query: { ical: 1 } });
    const cal = calendarOf(res);
    expect(cal.events.map((e) => e.summary)).toEqual(['Winter concert; strings, brass', 'Members night', 'Summer fair', 'Talk 1']);
    expect(res.headers.get('x-tec-total')).toBe('13');
    expect(res.headers.get('x-feed-events')).toBe('4');
    expect(res.headers.get('x-feed-truncated')).toBe('true');
  });
});
