// Calendar files of stored values that no write accepts today (records stored before URLs were
// cleaned, imported ones, anything written past validation): every value that reaches a line is
// escaped or left out, so that a feed holds exactly its events, whatever their fields hold.
import { describe, expect, it } from 'vitest';
import { wallToUtc } from '#lib/domain/time/dates.js';
import { escapeText, paramValue, quoteParam, uriValue } from '#lib/present/ical-text.js';
import { eventUid, icalendar, type FeedEvent } from '#lib/present/ical.js';
import type { Linked } from '#lib/present/present.js';
import { eventRecord } from '#lib/docs/record-samples.js';
import type { EventItem, OrganizerItem, TermItem, VenueItem } from '#lib/store/items.js';
import { expectExactFeed, readCalendar } from '../support/ical.js';

/** Every form a line break takes, and the tricks that continue or fold a line. */
const BREAKS = ['\r\n', '\n', '\r', '\u2028', '\u2029', '\u0085', '\v', '\f', '\0', '\r\n ', '\r\n\t', '\n ', '\r\r\n'] as const;

/** A value that forges a second event with another event's UID, and a property of its own, after `br`. */
const forge = (br: string, victim: string) =>
  `x${br}END:VEVENT${br}BEGIN:VEVENT${br}UID:${victim}${br}SEQUENCE:99${br}SUMMARY:CANCELLED${br}X-FORGED:1${br}ATTACH:https://evil.example/`;

const stamp = { date: '2026-11-22 04:55:45', date_utc: '2026-11-22 02:55:45', modified: '2026-11-23 04:00:00', modified_utc: '2026-11-23 02:00:00' };
const post = (id: number) => ({ pk: `POST#${id}`, sk: 'POST', id, lang: 'en' as const, status: 'publish', author: 1, ...stamp, excerpt: '', image: '', website: null, version: 1 });

function hostile(br: string, victim: string) {
  const bad = forge(br, victim);
  const venue: VenueItem = {
    ...post(5),
    kind: 'venue',
    slug: `hall${bad}`,
    title: `Hall${bad}`,
    description: bad,
    address: `1 Loop${bad}`,
    city: `Town${bad}`,
    country: `Land${bad}`,
    province: bad,
    state: bad,
    zip: bad,
    phone: bad,
    stateprovince: `Region${bad}`,
    geoLat: 39.8,
    geoLng: -89.6,
    showMap: true,
    showMapLink: true,
    website: `https://venue.example/${bad}`,
    image: `https://venue.example/${bad}.png`,
  };
  const organizer: OrganizerItem = { ...post(6), kind: 'organizer', slug: `org${bad}`, title: `Org "${bad}"`, description: bad, phone: bad, email: `org@example.com${bad}` };
  const term = (id: number, taxonomy: TermItem['taxonomy']): TermItem => ({
    pk: `TERM#${id}`,
    sk: 'TERM',
    id,
    taxonomy,
    lang: 'en',
    name: `Term ${id}${bad}`,
    slug: `t${id}${bad}`,
    description: bad,
    parent: 0,
    count: 1,
    version: 1,
  });
  const linked: Linked = {
    venues: new Map([[5, venue]]),
    organizers: new Map([[6, organizer]]),
    terms: new Map([
      [2, term(2, 'category')],
      [3, term(3, 'tag')],
    ]),
  };
  const event = (id: number, more: Partial<EventItem> = {}): EventItem =>
    eventRecord({
      ...post(id),
      slug: `event-${id}`,
      title: `Event ${id}`,
      start: '2027-03-27 19:00:00',
      end: '2027-03-27 22:00:00',
      utcStart: wallToUtc('2027-03-27 19:00:00', 'Europe/Vilnius'),
      utcEnd: wallToUtc('2027-03-27 22:00:00', 'Europe/Vilnius'),
      timezone: 'Europe/Vilnius',
      ...more,
    });
  const victimEvent = event(7);
  const attacker = event(8, {
    title: `Title${bad}`,
    description: `<p>Description${bad}</p>`,
    excerpt: bad,
    slug: `slug${bad}`,
    image: `https://cdn.example/poster${bad}.jpg`,
    website: `https://site.example/${bad}`,
    venues: [5],
    organizers: [6],
    categories: [2],
    tags: [3],
  });
  return { linked, events: [victimEvent, attacker], bad };
}

describe('a feed of hostile stored values', () => {
  const victim = eventUid({ id: 7, start: '2027-03-27 19:00:00', end: '2027-03-27 22:00:00' }, '127.0.0.1');

  it.each(BREAKS.map((br) => [JSON.stringify(br), br]))('holds exactly its events with every field broken by %s', (_, br) => {
    const { linked, events, bad } = hostile(br, victim);
    const feed: FeedEvent[] = events.map((event) => ({ event, open: true }));
    const { text } = icalendar(feed, linked);
    expectExactFeed(text, [victim, eventUid(events[1]!, '127.0.0.1')]);
    expect(text).not.toMatch(/^(?:SEQUENCE|X-FORGED|END:VEVENT\r\nBEGIN:VEVENT\r\nUID:7-)/m);
    const [, forged] = readCalendar(text).events;
    // The text survives as text: each line break one newline, other controls gone.
    expect(forged!.summary).toBe(`Title${bad}`.replace(/\r\n|[\n\v\f\r\u0085\u2028\u2029]/g, '\n').replace(/[\x00-\x08\x0B-\x1F\x7F-\x9F]/g, ''));
    expect(forged!.location).toContain('Hallx');
    expect(forged!.categories).toHaveLength(1);
    expect(forged!.organizer!.value).toMatch(/^MAILTO:org@example\.comx/);
    expect(forged!.attach!.value).toMatch(/^https:\/\/cdn\.example\/posterx/);
    expect(forged!.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/event\/slugx/);
  });

  it('leaves out an event whose stored times or zone cannot be written, and keeps the others', () => {
    const { linked, events } = hostile('\r\n', victim);
    const broken = [
      { ...events[1]!, id: 20, start: `2027-03-27 19:00:00\r\nUID:${victim}` },
      { ...events[1]!, id: 21, modified_utc: '2026\r\nX' },
      { ...events[1]!, id: 22, timezone: 'Europe/Vilnius\r\nX-FORGED:1' },
      { ...events[1]!, id: 23, timezone: 'Nowhere/Atlantis' },
    ];
    const calendar = icalendar(
      [events[0]!, ...broken].map((event) => ({ event, open: true })),
      linked,
    );
    expectExactFeed(calendar.text, [victim]);
    expect(calendar.events).toBe(1);
  });

  it('escapes a UID built of stored values that are not what they should be', () => {
    const { linked, events } = hostile('\n', victim);
    const odd = { ...events[0]!, id: `7\r\nX-FORGED:1` as unknown as number };
    const { text } = icalendar([{ event: odd, open: true }], linked);
    const root = expectExactFeed(text, [victim.replace(/^7/, '7\nX-FORGED:1')]);
    expect(root.getFirstSubcomponent('vevent')!.getFirstPropertyValue('uid')).toContain('X-FORGED');
  });

  it('leaves out an image that is no web URL, and writes the event', () => {
    const { linked, events } = hostile('\n', victim);
    const { text } = icalendar([{ event: { ...events[0]!, image: 'not a url\r\nX-FORGED:1' }, open: true }], linked);
    expectExactFeed(text, [victim]);
    expect(text).not.toContain('ATTACH');
  });
});

describe('values on a line', () => {
  it('escape every line break in TEXT as \\n and drop other controls', () => {
    for (const br of ['\r\n', '\n', '\r', '\u2028', '\u2029', '\u0085', '\v', '\f']) expect(escapeText(`a${br}b`)).toBe('a\\nb');
    expect(escapeText('a\0b\x1bc\x7fd\x9be\tf')).toBe('abcde\tf');
  });

  it('percent-encode in URIs what could end a line or is no URI character', () => {
    expect(uriValue('https://a.example/x\r\ny z"<>\\^`{}\u2028\u2029\u0085\t\0')).toBe('https://a.example/x%0D%0Ay%20z%22%3C%3E%5C%5E%60%7B%7D%E2%80%A8%E2%80%A9%C2%85%09%00');
    expect(uriValue('https://a.example/a;b,c|d?e=f&g#h[i]%20ė')).toBe('https://a.example/a;b,c|d?e=f&g#h[i]%20ė');
  });

  it('quote parameter values without quotes or controls, and leave plain ones as they are', () => {
    expect(quoteParam('Jūratė "Org"\r\nX:1;\u2028y\0')).toBe(`"Jūratė 'Org' X:1; y"`);
    expect(paramValue('Europe/Vilnius')).toBe('Europe/Vilnius');
    expect(paramValue('UTC+5')).toBe('UTC+5');
    expect(paramValue('a:b\r\nc')).toBe('"a:b c"');
    expect(paramValue('')).toBe('""');
  });
});
