// The CDN's viewer-request function: WordPress's `?rest_route=` URLs rewritten to the REST prefix,
// and TEC's calendar feeds at the site root to the REST feeds, before routing; the local gateway
// runs the same source (lib/local/edge.ts).
import { describe, expect, it } from 'vitest';
import { runInNewContext } from 'node:vm';
import { atTheEdge } from '#lib/local/edge.js';
import { viewerRequestFunction } from '#lib/contract/rest-route.js';
import { boundStart, monthWindow, windowOf, type EventListRequest } from '#lib/logic/event-window.js';

describe('the ?rest_route= rewrite', () => {
  it('moves the route to the /wp-json/ path and keeps the whole query', () => {
    const cases: [string, string][] = [
      ['/?rest_route=/tribe/events/v1/events', '/wp-json/tribe/events/v1/events?rest_route=/tribe/events/v1/events'],
      ['/index.php?rest_route=/tribe/events/v1/events&page=2', '/wp-json/tribe/events/v1/events?rest_route=/tribe/events/v1/events&page=2'],
      ['/?page=2&rest_route=%2Ftribe%2Fevents%2Fv1%2Fevents%2F7', '/wp-json/tribe/events/v1/events/7?page=2&rest_route=%2Ftribe%2Fevents%2Fv1%2Fevents%2F7'],
      // WordPress drops trailing slashes; the root is the index.
      ['/?rest_route=/tribe/events/v1/', '/wp-json/tribe/events/v1?rest_route=/tribe/events/v1/'],
      ['/?rest_route=/', '/wp-json/?rest_route=/'],
      ['/?rest_route=%2F', '/wp-json/?rest_route=%2F'],
      // PHP decodes `+` and escapes, and keeps the last of repeated names; the path is encoded again.
      [
        '/?rest_route=/tribe/events/v1/venues/by-slug/caf%C3%A9+bar',
        '/wp-json/tribe/events/v1/venues/by-slug/caf%C3%A9%20bar?rest_route=/tribe/events/v1/venues/by-slug/caf%C3%A9+bar',
      ],
      ['/?rest_route=/nothing&rest_route=/wp/v2/users/me', '/wp-json/wp/v2/users/me?rest_route=/nothing&rest_route=/wp/v2/users/me'],
    ];
    for (const [from, to] of cases) expect(atTheEdge('GET', from), from).toBe(to);
  });

  it('passes everything else through unchanged', () => {
    for (const target of [
      '/',
      '/?page=2',
      '/?rest_route=',
      '/?rest_route=tribe/events/v1/events',
      '/?rest_route=%E0%A4%A',
      '/en/tribe/events/v1/events?rest_route=/wp/v2/users/me',
      '/wp-json/tribe/events/v1/events?rest_route=/x',
      '/index.php/x?rest_route=/tribe/events/v1/events',
      '/docs?rest_route=/tribe/events/v1/events',
    ]) {
      expect(atTheEdge('GET', target), target).toBe(target);
    }
  });

  it('is a CloudFront Functions source: one handler, no imports, no Node, no template literals, under 10 KB', () => {
    const source = viewerRequestFunction('tribe');
    expect(source.match(/function handler\(event\) \{/g)).toHaveLength(1);
    expect(source).not.toMatch(/\b(?:require|import|process|Buffer|async|await|let|const)\b|`|=>/);
    expect(Buffer.byteLength(source)).toBeLessThan(10_240);
    // It runs on its own, with nothing from Node in its scope.
    const handler = runInNewContext(`${source}\nhandler;`, Object.create(null));
    const request = { method: 'GET', uri: '/events/', querystring: { ical: { value: '1' } } };
    expect(handler({ version: '1.0', context: { eventType: 'viewer-request' }, request }).uri).toBe('/wp-json/tribe/events/v1/events');
    expect(viewerRequestFunction('acme')).toContain("'/wp-json/acme/events/v1'");
  });
});

/** The REST feed a site URL becomes: its path and its arguments, decoded. */
function rewritten(target: string, method = 'GET') {
  const out = new URL(atTheEdge(method, target), 'http://site');
  return { path: out.pathname, args: Object.fromEntries(out.searchParams) };
}
const FEED = '/wp-json/tribe/events/v1/events';
const VIEW = { ical: '1', strict_dates: '1', ical_limit: '30' };

describe("TEC's calendar feeds at the site root", () => {
  it("rewrites the list's forms to the events that end after now, 30 of them", () => {
    for (const target of [
      '/events/?ical=1',
      '/events?ical=1',
      '/events/list/?ical=1',
      '/events/list?ical=1',
      '/?post_type=tribe_events&ical=1',
      '/?post_type=tribe_events&ical=1&eventDisplay=list',
      '/index.php?post_type=tribe_events&ical=1',
      '/events/month/?ical=1&eventDisplay=list',
      // TEC answers any value of ical, and Outlook's export.
      '/events/?ical=0',
      '/events/?ical',
      '/events/?outlook-ical=1',
    ]) {
      expect(rewritten(target), target).toEqual({ path: FEED, args: { ...VIEW, ends_after: 'now' } });
    }
    expect(rewritten('/events/list/?ical=1&tribe-bar-date=2027-01-05').args).toEqual({ ...VIEW, ends_after: '2027-01-05 00:00:00' });
    expect(rewritten('/events/?ical=1&tribe-bar-date=2027-01').args).toEqual({ ...VIEW, ends_after: '2027-01-01 00:00:00' });
    // A date that is none is ignored, as TEC's date parser gives up on it.
    expect(rewritten('/events/?ical=1&tribe-bar-date=soon').args).toEqual({ ...VIEW, ends_after: 'now' });
  });

  it('rewrites the month forms to the month argument, the current month without a date', () => {
    const month = (target: string) => rewritten(target).args.month;
    expect(month('/events/month/?ical=1')).toBe('now');
    expect(month('/?post_type=tribe_events&eventDisplay=month&ical=1')).toBe('now');
    expect(month('/events/month/?ical=1&tribe-bar-date=2026-12')).toBe('2026-12');
    expect(month('/events/month/?ical=1&tribe-bar-date=2026-12-20')).toBe('2026-12-20');
    expect(month('/events/2027-01/?ical=1')).toBe('2027-01');
    expect(month('/events/month/2027-01/?ical=1')).toBe('2027-01');
    expect(month('/?post_type=tribe_events&eventDisplay=month&eventDate=2027-02&ical=1')).toBe('2027-02');
    // The query's date wins over the path's, as in WordPress.
    expect(month('/events/2027-01/?ical=1&tribe-bar-date=2027-03')).toBe('2027-03');
    expect(rewritten('/events/2027-01/?ical=1').args).toEqual({ ...VIEW, month: '2027-01' });
  });

  it('rewrites the day forms to the events that overlap the day', () => {
    const day = { ...VIEW, ends_after: '2026-12-20 00:00:00', starts_before: '2026-12-20 23:59:59' };
    for (const target of [
      '/events/2026-12-20/?ical=1',
      // TEC's day view prints its link with a slash after the value.
      '/events/2026-12-20/?ical=1/',
      '/events/today/?ical=1&tribe-bar-date=2026-12-20',
      '/?post_type=tribe_events&eventDisplay=day&eventDate=2026-12-20&ical=1',
      '/events/?ical=1&eventDisplay=day&tribe-bar-date=2026-12-20',
    ]) {
      expect(rewritten(target), target).toEqual({ path: FEED, args: day });
    }
    expect(rewritten('/events/today/?ical=1').args).toEqual({ ...VIEW, ends_after: 'today', starts_before: 'today 23:59:59' });
  });

  it("rewrites a category's and a tag's archive, in each view, and TEC's search", () => {
    const cases: [string, Record<string, string>][] = [
      ['/events/category/jazz/?ical=1', { ends_after: 'now', categories: 'jazz' }],
      ['/events/category/jazz/list/?ical=1', { ends_after: 'now', categories: 'jazz' }],
      ['/events/category/jazz/month/?ical=1', { month: 'now', categories: 'jazz' }],
      ['/events/category/jazz/2027-01/?ical=1', { month: '2027-01', categories: 'jazz' }],
      ['/events/category/jazz/month/2027-01/?ical=1', { month: '2027-01', categories: 'jazz' }],
      ['/events/category/jazz/today/?ical=1', { ends_after: 'today', starts_before: 'today 23:59:59', categories: 'jazz' }],
      ['/events/category/jazz/2026-12-20/?ical=1', { ends_after: '2026-12-20 00:00:00', starts_before: '2026-12-20 23:59:59', categories: 'jazz' }],
      // A child category's path names its parent first.
      ['/events/category/music/jazz/?ical=1', { ends_after: 'now', categories: 'jazz' }],
      ['/events/category/music/jazz/month/?ical=1', { month: 'now', categories: 'jazz' }],
      // A category named like a view is still a category.
      ['/events/category/list/?ical=1', { ends_after: 'now', categories: 'list' }],
      ['/events/category/caf%C3%A9/?ical=1', { ends_after: 'now', categories: 'café' }],
      ['/events/tag/outdoor/?ical=1', { ends_after: 'now', tags: 'outdoor' }],
      ['/events/tag/outdoor/2027-01/?ical=1', { month: '2027-01', tags: 'outdoor' }],
      ['/?tribe_events_cat=jazz&ical=1', { ends_after: 'now', categories: 'jazz' }],
      ['/?post_type=tribe_events&tribe_events_cat=jazz&ical=1&eventDisplay=list', { ends_after: 'now', categories: 'jazz' }],
      ['/events/category/jazz/?ical=1&tribe_events_cat=blues', { ends_after: 'now', categories: 'blues' }],
      ['/events/list/?ical=1&tribe-bar-search=winter+concert', { ends_after: 'now', search: 'winter concert' }],
    ];
    for (const [target, args] of cases) expect(rewritten(target), target).toEqual({ path: FEED, args: { ...VIEW, ...args } });
  });

  it("rewrites an event's page and its plain-permalink form to the event's feed", () => {
    expect(rewritten('/event/winter-concert/?ical=1')).toEqual({ path: `${FEED}/by-slug/winter-concert`, args: { ical: '1' } });
    expect(rewritten('/event/winter-concert?ical=1&tribe-bar-date=2027-01')).toEqual({ path: `${FEED}/by-slug/winter-concert`, args: { ical: '1' } });
    expect(atTheEdge('GET', '/?tribe_events=caf%C3%A9+bar&ical=1')).toBe(`${FEED}/by-slug/caf%C3%A9%20bar?ical=1`);
  });

  it('passes everything else through unchanged', () => {
    for (const target of [
      '/events/',
      '/events/?page=2',
      '/events/month/?tribe-bar-date=2027-01',
      '/event/winter-concert/',
      '/events/list/?ical=1&eventDisplay=past',
      '/events/?ical=1&eventDisplay=photo',
      '/events/photo/?ical=1',
      '/events/2027-1/?ical=1',
      '/events/category/?ical=1',
      '/events/tag/?ical=1',
      '/events/constructor/?ical=1',
      '/event/?ical=1',
      '/event/a/b/?ical=1',
      '/?ical=1',
      '/?tribe_events=&ical=1',
      '/calendar/?ical=1',
      '/en/tribe/events/v1/events?ical=1',
      '/wp-json/tribe/events/v1/events?ical=1',
    ]) {
      expect(atTheEdge('GET', target), target).toBe(target);
    }
    // Only reads: a POST there is no feed, and no create either.
    expect(atTheEdge('POST', '/events/?ical=1')).toBe('/events/?ical=1');
    expect(atTheEdge('HEAD', '/events/?ical=1')).toMatch(/^\/wp-json\/tribe\/events\/v1\/events\?/);
    // `?rest_route=` comes first, as WordPress serves the REST API before any template.
    expect(atTheEdge('GET', '/?rest_route=/tribe/events/v1/events&ical=1&post_type=tribe_events')).toBe(
      '/wp-json/tribe/events/v1/events?rest_route=/tribe/events/v1/events&ical=1&post_type=tribe_events',
    );
  });
});

describe("the REST list's month window", () => {
  const now = new Date('2026-12-15T10:00:00Z');
  it("is TEC's month view export: the whole month, from the day given (today for now) in the current month", () => {
    expect(monthWindow('2027-01', now, 'UTC')).toEqual({ endsAfter: '2027-01-01 00:00:00', startsBefore: '2027-01-31 23:59:59' });
    expect(monthWindow('2027-02-20', now, 'UTC')).toEqual({ endsAfter: '2027-02-01 00:00:00', startsBefore: '2027-02-28 23:59:59' });
    expect(monthWindow('2028-02', now, 'UTC').startsBefore).toBe('2028-02-29 23:59:59');
    expect(monthWindow('2026-11', now, 'UTC')).toEqual({ endsAfter: '2026-11-01 00:00:00', startsBefore: '2026-11-30 23:59:59' });
    expect(monthWindow('now', now, 'UTC')).toEqual({ endsAfter: '2026-12-15 00:00:00', startsBefore: '2026-12-31 23:59:59' });
    expect(monthWindow('2026-12', now, 'UTC').endsAfter).toBe('2026-12-01 00:00:00');
    expect(monthWindow('2026-12-20', now, 'UTC').endsAfter).toBe('2026-12-20 00:00:00');
    // The current month is the site's: in Tokyo it is already January.
    expect(monthWindow('now', new Date('2026-12-31T20:00:00Z'), 'Asia/Tokyo')).toEqual({ endsAfter: '2027-01-01 00:00:00', startsBefore: '2027-01-31 23:59:59' });
    expect(monthWindow('2026-12-20', new Date('2026-12-31T20:00:00Z'), 'Asia/Tokyo').endsAfter).toBe('2026-12-01 00:00:00');
  });

  it('bounds the list in UTC, and bounds the start by the longest event', () => {
    const ctx = (params: Record<string, unknown>) => ({ params, now }) as unknown as EventListRequest;
    const w = windowOf(ctx({ month: '2027-01' }))!;
    expect(w).toMatchObject({ from: '', to: '2027-01-31 23:59:59', endAfter: '2027-01-01 00:00:00' });
    // With ends_after, the later of the two; no default window.
    expect(windowOf(ctx({ month: '2027-01', ends_after: '2027-01-10 00:00:00', strict_dates: true }))!.endAfter).toBe('2027-01-10 00:00:00');
    expect(boundStart(w, 3 * 86_400).from).toBe('2026-12-29 00:00:00');
    expect(boundStart(w, 0).from).toBe('2027-01-01 00:00:00');
    expect(boundStart({ ...w, from: '2027-01-05 00:00:00' }, 86_400).from).toBe('2027-01-05 00:00:00');
    expect(boundStart({ ...w, endAfter: undefined }, 86_400)).toEqual({ ...w, endAfter: undefined });
  });
});
