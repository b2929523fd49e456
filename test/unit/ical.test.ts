// Calendar files: TEC's properties and UIDs, RFC 5545's line rules, and what a maintained parser
// (ical.js) reads back from them: every feed is parsed, and read as the events say.
import { describe, expect, it } from 'vitest';
import { addDays, wallToUtc } from '#lib/domain/time/dates.js';
import { observances } from '#lib/domain/time/transitions.js';
import { escapeText, fold } from '#lib/present/ical-text.js';
import { eventUid, icalendar, PROTECTED_DESCRIPTION, type FeedEvent } from '#lib/present/ical.js';
import type { Linked } from '#lib/present/present.js';
import { eventRecord } from '#lib/docs/record-samples.js';
import type { EventItem, OrganizerItem, TermItem, VenueItem } from '#lib/store/items.js';
import { htmlEntityDecode } from '#lib/wp/decode.js';
import { expectRfcLines, readCalendar } from '../support/ical.js';

const stamp = { date: '2026-11-22 04:55:45', date_utc: '2026-11-22 02:55:45', modified: '2026-11-23 04:00:00', modified_utc: '2026-11-23 02:00:00' };
const post = (id: number) => ({ pk: `POST#${id}`, sk: 'POST', id, lang: 'en' as const, status: 'publish', author: 1, ...stamp, excerpt: '', image: '', website: null, version: 1 });

const venue: VenueItem = {
  ...post(5),
  kind: 'venue',
  slug: 'hall',
  title: 'Hall, "Big" & Co',
  description: '',
  address: '1 Loop; Road',
  city: 'Springfield',
  country: 'United States',
  province: '',
  state: 'IL',
  zip: '62701',
  phone: '',
  stateprovince: '',
  geoLat: 39.8,
  geoLng: -89.6,
  showMap: true,
  showMapLink: true,
};
const organizer: OrganizerItem = { ...post(6), kind: 'organizer', slug: 'org', title: 'Jūratė, "Org"', description: '', phone: '', email: 'org@example.com' };
const term = (id: number, name: string): TermItem => ({
  pk: `TERM#${id}`,
  sk: 'TERM',
  id,
  taxonomy: 'category',
  lang: 'en',
  name,
  slug: `c${id}`,
  description: '',
  parent: 0,
  count: 1,
  version: 1,
});
const linked: Linked = {
  venues: new Map([[5, venue]]),
  organizers: new Map([[6, organizer]]),
  terms: new Map([
    [2, term(2, 'Concerts, Live')],
    [3, term(3, 'Jazz &amp; Blues')],
  ]),
};

function event(id: number, start: string, end: string, timezone: string, more: Partial<EventItem> = {}): EventItem {
  const zone = timezone || 'UTC';
  return eventRecord({ ...post(id), slug: `event-${id}`, title: `Event ${id}`, start, end, utcStart: wallToUtc(start, zone), utcEnd: wallToUtc(end, zone), timezone, ...more });
}

const long = 'Šventė '.repeat(20);
const events: FeedEvent[] = [
  {
    event: event(7, '2027-03-27 19:00:00', '2027-03-28 22:00:00', 'Europe/Vilnius', {
      title: 'Winter; Concert, "quoted" &amp; more',
      description: `<p>First, para; with back\\slash</p>\n<p>Second ā para ${long}</p>`,
      venues: [5],
      organizers: [6],
      categories: [2, 3],
      image: 'https://cdn.example.com/a/poster.JPG',
    }),
    open: true,
  },
  { event: event(8, '2027-11-06 23:30:00', '2027-11-07 01:30:00', 'America/New_York'), open: true },
  // Starts in the hour New York's clocks skip in 2027.
  { event: event(12, '2027-03-14 02:30:00', '2027-03-14 04:00:00', 'America/New_York'), open: true },
  { event: event(9, '2027-07-01 00:00:00', '2027-07-02 23:59:59', '', { allDay: true, venues: [5] }), open: true },
  { event: event(10, '2028-02-29 10:00:00', '2028-02-29 11:00:00', 'UTC+5'), open: true },
  {
    event: event(11, '2027-05-01 10:00:00', '2027-05-01 11:00:00', 'Asia/Kathmandu', { description: 'secret', venues: [5], categories: [2], image: 'https://x.example/i.png' }),
    open: false,
  },
];
const byId = new Map(events.map((f) => [f.event.id, f.event]));
/** The DTSTART of every observance of a calendar's VTIMEZONEs. */
const rawZone = (text: string) => [...text.matchAll(/BEGIN:(?:DAYLIGHT|STANDARD)\r\n(?:.*\r\n){3}DTSTART:(\d{8}T\d{6})/g)].map((m) => m[1]!);
const utcSeconds = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}Z`) / 1000;

describe('calendar files', () => {
  const { text, filename } = icalendar(events, linked);
  const read = readCalendar(text);

  it('keeps RFC 5545 lines: CRLF ends, at most 75 octets, no character split by a fold', () => {
    expectRfcLines(text);
    // The long description was folded, and unfolds to what was written.
    expect(text).toContain('\r\n ');
    expect(text.replace(/\r\n /g, '')).toContain(`Second ā para ${long.trim()}`);
  });

  it("writes TEC's calendar properties", () => {
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Event Calendar - ECPv6.17.2//NONSGML v1.0//EN\r\nCALSCALE:GREGORIAN\r\nMETHOD:PUBLISH\r\n')).toBe(true);
    expect(read.props).toMatchObject({
      'X-WR-CALNAME': 'Event Calendar',
      'X-ORIGINAL-URL': 'http://127.0.0.1:3000',
      'X-WR-CALDESC': 'Events for Event Calendar',
      'X-PUBLISHED-TTL': 'PT1H',
    });
    expect(text).toContain('\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n');
    expect(filename).toMatch(/^event-calendar-[0-9a-f]{11}\.ics$/);
  });

  it('has one VTIMEZONE per zone used, and the parser places every timed event at its UTC instant', () => {
    expect(read.timezones.sort()).toEqual(['America/New_York', 'Asia/Kathmandu', 'Europe/Vilnius', 'UTC', 'UTC+5']);
    for (const e of read.events.filter((r) => !r.allDay)) {
      const item = byId.get(Number(e.uid.split('-')[0]))!;
      expect(e.start, e.uid).toBe(utcSeconds(item.utcStart));
      expect(e.end, e.uid).toBe(utcSeconds(item.utcEnd));
    }
  });

  it('builds UIDs as TEC does: id, start and end wall times read as UTC, the site host', () => {
    expect(read.events.filter((e) => !e.allDay).map((e) => e.tzid)).toEqual(['Europe/Vilnius', 'America/New_York', null, 'UTC+5', 'Asia/Kathmandu']);
    // A wall time the zone shows twice is given as UTC: the New York event ends in the hour of 2027's fall back.
    expect(text).toContain('DTSTART;TZID=America/New_York:20271106T233000\r\nDTEND:20271107T053000Z\r\n');
    expect(read.events.map((e) => e.uid)).toEqual(events.map((f) => eventUid(f.event, '127.0.0.1')));
    // 2027-03-27 19:00 in Vilnius, read as if it were UTC (what TEC 6.17.2 writes for this event).
    expect(eventUid({ id: 8, start: '2027-03-27 19:00:00', end: '2027-03-28 22:00:00' }, '127.0.0.1')).toBe('8-1806174000-1806271200@127.0.0.1');
  });

  it('writes all-day events as DATE values with an exclusive end', () => {
    const allDay = read.events.find((e) => e.uid.startsWith('9-'))!;
    expect(allDay).toMatchObject({ allDay: true, startDate: '2027-07-01', endDate: '2027-07-03', tzid: null });
    expect(text).toContain('DTSTART;VALUE=DATE:20270701\r\nDTEND;VALUE=DATE:20270703\r\n');
  });

  it('escapes TEXT values, and the parser reads back the plain text', () => {
    const e = read.events.find((r) => r.uid.startsWith('7-'))!;
    expect(e.summary).toBe('Winter; Concert, "quoted" & more');
    expect(e.description).toBe(`First, para; with back\\slash \nSecond ā para ${long.trim()}`);
    expect(e.location).toBe('Hall, “Big” & Co, 1 Loop; Road, Springfield, IL, 62701, United States');
    expect(e.geo).toEqual([39.8, -89.6]);
    expect(e.categories).toEqual(['Concerts, Live', 'Jazz & Blues']);
    expect(e.organizer).toEqual({ cn: "Jūratė, 'Org'", value: 'MAILTO:org@example.com' });
    expect(e.attach).toEqual({ type: 'image/jpeg', value: 'https://cdn.example.com/a/poster.JPG' });
    expect(e.url).toBe('http://127.0.0.1:3000/event/event-7/');
    expect([e.created, e.lastModified, e.dtstamp]).toEqual(['2026-11-22T02:55:45Z', '2026-11-23T02:00:00Z', '2026-11-23T02:00:00Z']);
  });

  it('shows a protected event without its content', () => {
    const e = read.events.find((r) => r.uid.startsWith('11-'))!;
    expect(e).toMatchObject({ description: PROTECTED_DESCRIPTION, location: null, geo: null, categories: [], attach: null, summary: 'Event 11' });
    expect(text).not.toContain('secret');
  });

  it('starts each observance at the local time in force before it', () => {
    const vilnius = icalendar([events[0]!], linked).text;
    // EET -> EEST on the last Sunday of March 2027 at 03:00 local (01:00 UTC).
    expect(vilnius).toContain('BEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0300\r\nTZNAME:EEST\r\nDTSTART:20270328T030000\r\nEND:DAYLIGHT');
    expect(readCalendar(vilnius).events[0]!.start).toBe(utcSeconds('2027-03-27 17:00:00'));
  });
});

describe('zone changes', () => {
  it('covers the years around each event, not the centuries between two far ends', () => {
    const long = event(20, '2027-01-10 10:00:00', '2300-01-10 10:00:00', 'Europe/Vilnius');
    const read = rawZone(icalendar([{ event: long, open: true }], linked).text);
    // 2026-2028 and 2299-2301: two changes a year.
    expect(read.length).toBe(12);
    expect(read[0]).toBe('20260329T030000');
    expect(read.at(-1)).toMatch(/^230110\d\dT040000$/);
  });

  it("lists a year before and after the events' years, as TEC does", () => {
    const list = observances('Europe/Vilnius', 2026, 2028);
    expect(list).toHaveLength(6);
    expect(list.map((o) => [o.daylight, o.name, new Date(o.at).toISOString()])).toEqual([
      [true, 'EEST', '2026-03-29T01:00:00.000Z'],
      [false, 'EET', '2026-10-25T01:00:00.000Z'],
      [true, 'EEST', '2027-03-28T01:00:00.000Z'],
      [false, 'EET', '2027-10-31T01:00:00.000Z'],
      [true, 'EEST', '2028-03-26T01:00:00.000Z'],
      [false, 'EET', '2028-10-29T01:00:00.000Z'],
    ]);
  });

  it('gives a zone without changes one observance from the start of the first year', () => {
    expect(observances('Asia/Kathmandu', 2026, 2028)).toEqual([{ daylight: false, from: 345, to: 345, name: '+0545', at: Date.UTC(2026, 0, 1) }]);
  });
});

describe('content lines', () => {
  it('folds at 75 octets without splitting a character', () => {
    for (const ch of ['a', 'ė', '€', '𝄞']) {
      const line = `DESCRIPTION:${ch.repeat(100)}`;
      const folded = fold(line);
      for (const part of folded.split('\r\n')) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
      expect(folded.replace(/\r\n /g, '')).toBe(line);
    }
    expect(fold('SUMMARY:short')).toBe('SUMMARY:short');
  });

  it('escapes backslashes, semicolons, commas and line breaks', () => {
    expect(escapeText('a\\b;c,d\r\ne\nf\rg\x01')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng');
  });

  it("decodes HTML entities as PHP's html_entity_decode does", () => {
    expect(htmlEntityDecode('&amp; &lt;b&gt; &quot;x&quot; &#39; &#x1F600; &eacute; &nope; &#0; &apos;')).toBe('& <b> "x" \' 😀 é &nope; &#0; &apos;');
  });
});

it('adds a day to an all-day end across a month end', () => {
  expect(addDays('2027-06-30 23:59:59', 1).slice(0, 10)).toBe('2027-07-01');
});
