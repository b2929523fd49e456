// TEC's calendar feeds at the site root through the local gateway, which runs the CDN's
// viewer-request function (lib/contract/rest-route.ts) on every request: `/events/?ical=1` and
// its views, a category's or tag's archive, an event's page, and the plain-permalink forms answer
// the REST feed of the same events, as TEC's views export them.
import { beforeAll, describe, expect, it } from 'vitest';
import { createAsEditor } from '../support/expect.js';
import { useGateway, type ApiResponse } from '../support/gateway.js';
import { expectRfcLines, readCalendar } from '../support/ical.js';

const year = new Date().getUTCFullYear() + 1;
const pad = (n: number) => String(n).padStart(2, '0');
/** A UTC wall time `hours` from now (the site's zone is UTC). */
const fromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

describe("the site's calendar feeds", () => {
  const gw = useGateway({ tablePrefix: 'e2e-site-feeds', stream: true });

  beforeAll(async () => {
    const jazz = await createAsEditor(gw, '/categories', { name: 'Jazz', slug: 'jazz' });
    const outdoor = await createAsEditor(gw, '/tags', { name: 'Outdoor', slug: 'outdoor' });
    const events: [string, string, string, object?][] = [
      ['Ended an hour ago', fromNow(-2), fromNow(-1)],
      ['Going on now', fromNow(-1), fromNow(1), { categories: [jazz.id] }],
      // Past TEC's list horizon-free feed but beyond the REST list's 24 months.
      ['Far ahead', `${year + 2}-06-01 10:00:00`, `${year + 2}-06-01 11:00:00`],
      ['Into March', `${year}-02-28 20:00:00`, `${year}-03-01 02:00:00`, { categories: [jazz.id] }],
      ['March tenth', `${year}-03-10 10:00:00`, `${year}-03-10 11:00:00`, { categories: [jazz.id], tags: [outdoor.id] }],
      ['Out of March', `${year}-03-31 23:00:00`, `${year}-04-01 01:00:00`, { tags: [outdoor.id] }],
      ['Ends at midnight', `${year}-03-09 22:00:00`, `${year}-03-10 00:00:00`],
      ['April', `${year}-04-15 10:00:00`, `${year}-04-15 11:00:00`, { categories: [jazz.id] }],
    ];
    for (const [title, start_date, end_date, more] of events) await createAsEditor(gw, '/events', { title, start_date, end_date, ...more });
    // 31 events of one day in June: TEC's views export 30.
    for (let i = 0; i < 31; i++) {
      const at = `${year}-06-20 ${pad(8 + Math.floor(i / 4))}:${pad((i % 4) * 15)}:00`;
      await createAsEditor(gw, '/events', { title: `June slot ${pad(i)}`, start_date: at, end_date: at.replace(/:00$/, ':10') });
    }
    await createAsEditor(gw, '/events', { title: 'Draft', status: 'draft', start_date: `${year}-03-12 10:00`, end_date: `${year}-03-12 11:00` });
    await gw.drain();
  });

  const fetchSite = (path: string, method = 'GET') => gw.api(method, gw.abs(path));
  /** The summaries of a calendar answer, after checking its type and lines. */
  function summaries(res: ApiResponse, path: string): string[] {
    expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
    expect(res.headers.get('content-type'), path).toBe('text/calendar; charset=UTF-8');
    expect(res.headers.get('content-disposition'), path).toMatch(/^attachment; filename="event-calendar-[0-9a-f]{11}\.ics"$/);
    expectRfcLines(res.text);
    return readCalendar(res.text).events.map((e) => e.summary);
  }
  const feed = async (path: string) => summaries(await fetchSite(path), path);
  const june = Array.from({ length: 31 }, (_, i) => `June slot ${pad(i)}`);

  it("answers TEC's upcoming feed: events that end after now, with no horizon, the soonest 30", async () => {
    const upcoming = ['Going on now', 'Into March', 'Ends at midnight', 'March tenth', 'Out of March', 'April', ...june.slice(0, 24)];
    for (const path of [
      '/events/?ical=1',
      '/events/list/?ical=1',
      '/events?ical=1',
      '/?post_type=tribe_events&ical=1',
      '/?post_type=tribe_events&ical=1&eventDisplay=list',
      '/index.php?post_type=tribe_events&ical=1',
    ]) {
      expect(await feed(path), path).toEqual(upcoming);
    }
    // TEC answers any value of `ical`, and Outlook's export.
    expect(await feed('/events/?ical=0')).toEqual(upcoming);
    expect(await feed('/events/?outlook-ical=1')).toEqual(upcoming);
    // From a date (TEC's date picker): the events that end after its start.
    // (An event that ends at that first instant does not end after it.)
    expect(await feed(`/events/list/?ical=1&tribe-bar-date=${year}-03-10`)).toEqual(['March tenth', 'Out of March', 'April', ...june.slice(0, 27)]);
    expect(await feed(`/events/?ical=1&tribe-bar-date=${year}-04`)).toEqual(['Out of March', 'April', ...june.slice(0, 28)]);
    // The REST feed keeps its own window: from yesterday, 24 months, up to ICAL_MAX_EVENTS.
    const rest = summaries(await gw.api('GET', '/events', { query: { ical: 1 } }), 'REST');
    expect(rest).toContain('Ended an hour ago');
    expect(rest).not.toContain('Far ahead');
    expect(rest).toContain('June slot 30');
  });

  it('holds the far future that the REST window does not reach', async () => {
    const from = await feed(`/events/list/?ical=1&tribe-bar-date=${year}-06-21`);
    expect(from).toEqual(['Far ahead']);
  });

  it("answers a month as TEC's month view exports it: the events that overlap it", async () => {
    const march = ['Into March', 'Ends at midnight', 'March tenth', 'Out of March'];
    for (const path of [
      `/events/month/?ical=1&tribe-bar-date=${year}-03`,
      `/events/${year}-03/?ical=1`,
      `/events/month/${year}-03/?ical=1`,
      `/?post_type=tribe_events&eventDisplay=month&eventDate=${year}-03&ical=1`,
    ]) {
      expect(await feed(path), path).toEqual(march);
    }
    // A day given in another month than the current one: the whole month still.
    expect(await feed(`/events/month/?ical=1&tribe-bar-date=${year}-03-20`)).toEqual(march);
    expect(await feed(`/events/${year}-04/?ical=1`)).toEqual(['Out of March', 'April']);
    expect((await feed(`/events/${year}-06/?ical=1`)).length).toBe(30);
    // The current month, from today: what goes on now, and nothing of the months ahead.
    const now = await feed('/events/month/?ical=1');
    expect(now).toContain('Going on now');
    expect(now).not.toContain('March tenth');
  });

  it('answers a day: the events that overlap it, not one that ends at its first instant', async () => {
    for (const path of [
      `/events/${year}-03-10/?ical=1`,
      `/events/${year}-03-10/?ical=1/`,
      `/?post_type=tribe_events&eventDisplay=day&tribe-bar-date=${year}-03-10&ical=1`,
      `/events/today/?ical=1&tribe-bar-date=${year}-03-10`,
    ]) {
      expect(await feed(path), path).toEqual(['March tenth']);
    }
    expect(await feed(`/events/${year}-03-01/?ical=1`)).toEqual(['Into March']);
    expect(await feed('/events/today/?ical=1')).toContain('Going on now');
  });

  it("answers a category's and a tag's archive, in each view", async () => {
    const upcoming = ['Going on now', 'Into March', 'March tenth', 'April'];
    for (const path of [
      '/events/category/jazz/?ical=1',
      '/events/category/jazz/list/?ical=1',
      '/?tribe_events_cat=jazz&ical=1',
      '/?post_type=tribe_events&tribe_events_cat=jazz&ical=1&eventDisplay=list',
    ]) {
      expect(await feed(path), path).toEqual(upcoming);
    }
    expect(await feed(`/events/category/jazz/${year}-03/?ical=1`)).toEqual(['Into March', 'March tenth']);
    expect(await feed(`/events/category/jazz/month/?ical=1&tribe-bar-date=${year}-04`)).toEqual(['April']);
    expect(await feed(`/events/category/jazz/${year}-03-01/?ical=1`)).toEqual(['Into March']);
    expect(await feed('/events/tag/outdoor/?ical=1')).toEqual(['March tenth', 'Out of March']);
    expect(await feed(`/events/tag/outdoor/${year}-04/?ical=1`)).toEqual(['Out of March']);
    // A category that does not exist is TEC's 404, in the REST list's words.
    const none = await fetchSite('/events/category/no-such-category/?ical=1');
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('rest_invalid_param');
  });

  it("answers an event's page and its plain-permalink form with the event", async () => {
    const [event] = (await gw.api('GET', '/events', { query: { search: 'tenth' } })).body.events;
    for (const path of [`/event/${event.slug}/?ical=1`, `/event/${event.slug}?ical=1`, `/?tribe_events=${event.slug}&ical=1`]) {
      const res = await fetchSite(path);
      expect(summaries(res, path)).toEqual(['March tenth']);
      expect(readCalendar(res.text).events[0]!.url).toBe(event.url);
    }
    // An unknown slug is the by-slug read's 400 (TEC answers its upcoming feed there instead).
    const none = await fetchSite('/event/no-such-event/?ical=1');
    expect(none.status).toBe(400);
    expect(none.body.data.params).toEqual({ slug: 'slug does not name an existing event.' });
  });

  it('leaves the HTML pages, other views, writes and unknown paths alone', async () => {
    for (const path of ['/events/', '/events/month/', '/event/x/', '/events/?page=2', '/events/list/?ical=1&eventDisplay=past', '/events/photo/?ical=1', '/calendar/?ical=1']) {
      const res = await fetchSite(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).not.toMatch(/calendar/);
    }
    // A POST is never a feed (nor a create).
    const post = await fetchSite('/events/?ical=1', 'POST');
    expect(post.status).toBe(404);
  });

  it('answers HEAD as GET, and is cached as the REST feed is', async () => {
    const get = await fetchSite('/events/?ical=1');
    const head = await fetchSite('/events/?ical=1', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(get.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    expect(get.headers.get('x-feed-events')).toBe('30');
    expect(get.headers.get('x-feed-truncated')).toBe('true');
  });
});
