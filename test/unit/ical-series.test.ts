// Recurring events in calendar files: the events of a series are one VEVENT with the series' dates
// and a VEVENT with a RECURRENCE-ID for each that differs otherwise, and a maintained parser
// (ical.js) expands the file to exactly the feed's events, whatever the feed leaves out.
import { describe, expect, it } from 'vitest';
import { eventRecord } from '#lib/docs/record-samples.js';
import { wallToUtc } from '#lib/domain/time/dates.js';
import { occurrenceEvent, startSeries, storedOccurrences } from '#lib/logic/series-rules.js';
import { icalendar, type FeedEvent } from '#lib/present/ical.js';
import type { Linked } from '#lib/present/present.js';
import type { EventItem } from '#lib/store/items.js';
import { expandCalendar, expectRfcLines, readCalendar } from '../support/ical.js';

const linked: Linked = { venues: new Map(), organizers: new Map(), terms: new Map() };
const stamp = { date: '2026-11-22 04:55:45', date_utc: '2026-11-22 02:55:45', modified: '2026-11-23 04:00:00', modified_utc: '2026-11-23 02:00:00' };

/** A series written whole: its first event and every occurrence, as the consumer writes them. */
function series(id: number, start: string, end: string, timezone: string, lines: string[], more: Partial<EventItem> = {}): EventItem[] {
  const e = eventRecord({
    id,
    ...stamp,
    slug: `series-${id}`,
    title: `Series ${id}`,
    start,
    end,
    utcStart: wallToUtc(start, timezone),
    utcEnd: wallToUtc(end, timezone),
    timezone,
    ...more,
  });
  const first = startSeries(e, lines, new Date('2026-12-01T00:00:00Z'));
  const all = storedOccurrences(first);
  first.series = { ...first.series!, made: all.length };
  return [first, ...all.slice(1).map((at, i) => occurrenceEvent(first, at, id + 1 + i, `series-${id}-${i + 2}`))];
}

const feed = (events: EventItem[], closed: number[] = []): FeedEvent[] =>
  [...events].sort((a, b) => a.utcStart.localeCompare(b.utcStart)).map((event) => ({ event, open: !closed.includes(event.id) }));

/** What a client must show: each event's start and title (all-day ones by date). */
const expected = (events: FeedEvent[]) =>
  events
    .map(({ event: e }) => ({ summary: e.title, start: e.allDay ? e.start.slice(0, 10) : Date.parse(`${e.utcStart.replace(' ', 'T')}Z`) / 1000 }))
    .sort((a, b) => String(a.start).localeCompare(String(b.start)) || a.summary.localeCompare(b.summary));
const shown = (text: string) =>
  expandCalendar(text)
    .map((o) => ({ summary: o.summary, start: o.startDate || o.start }))
    .sort((a, b) => String(a.start).localeCompare(String(b.start)) || a.summary.localeCompare(b.summary));
const lines = (text: string, name: string) =>
  text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter((l) => l.startsWith(name));

describe('a series in a calendar file', () => {
  it('is one VEVENT with the series’ own rules when the feed holds all of its events, in its zone across a clock change', () => {
    const events = feed(series(1, '2027-03-16 19:00:00', '2027-03-16 21:00:00', 'Europe/Vilnius', ['RRULE:FREQ=WEEKLY;COUNT=4', 'RDATE;TZID=Europe/Vilnius:20270415T180000']));
    const { text, events: count } = icalendar(events, linked);
    expectRfcLines(text);
    expect(count).toBe(5);
    expect(lines(text, 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines(text, 'RRULE')).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4']);
    expect(lines(text, 'DTSTART;TZID')).toEqual(['DTSTART;TZID=Europe/Vilnius:20270316T190000']);
    expect(lines(text, 'UID')).toEqual(['UID:1-series@127.0.0.1']);
    expect(shown(text)).toEqual(expected(events));
    // 19:00 in Vilnius on both sides of the change to summer time.
    expect(expandCalendar(text).map((o) => new Date(o.start * 1000).toISOString().slice(11, 16))).toEqual(['17:00', '17:00', '16:00', '16:00', '15:00']);
  });

  it('gives the dates of the events it holds, and a RECURRENCE-ID for each one changed, moved or protected', () => {
    const [first, a, gone, moved, retitled, closed, last] = series(10, '2027-05-03 10:00:00', '2027-05-03 11:30:00', 'America/New_York', ['RRULE:FREQ=DAILY;COUNT=7']);
    const events = feed(
      [
        first!,
        a!,
        { ...moved!, start: '2027-05-06 14:00:00', end: '2027-05-06 16:00:00', utcStart: '2027-05-06 18:00:00', utcEnd: '2027-05-06 20:00:00' },
        { ...retitled!, title: 'Series 10, its own' },
        closed!,
        last!,
      ],
      [closed!.id],
    );
    expect(gone).toBeDefined();
    const { text } = icalendar(events, linked);
    expectRfcLines(text);
    expect(lines(text, 'RRULE')).toEqual([]);
    expect(lines(text, 'RDATE')).toEqual(['RDATE;TZID=America/New_York:20270503T100000,20270504T100000,20270506T100000,20270507T100000,20270508T100000,20270509T100000']);
    expect(lines(text, 'RECURRENCE-ID')).toEqual([
      'RECURRENCE-ID;TZID=America/New_York:20270506T100000',
      'RECURRENCE-ID;TZID=America/New_York:20270507T100000',
      'RECURRENCE-ID;TZID=America/New_York:20270508T100000',
    ]);
    expect(new Set(lines(text, 'UID'))).toEqual(new Set(['UID:10-series@127.0.0.1']));
    expect(shown(text)).toEqual(expected(events));
    // The protected one shows no content, as alone.
    expect(readCalendar(text).events.filter((e) => e.description === 'Content is protected.')).toHaveLength(1);
  });

  it('gives a window of a series and of a rule without an end as the window’s dates only', () => {
    const all = series(30, '2027-01-31 10:00:00', '2027-01-31 11:00:00', 'UTC', ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1']);
    expect(all.length).toBeGreaterThan(40);
    for (const events of [feed(all), feed(all.slice(3, 6))]) {
      const { text } = icalendar(events, linked);
      // A rule without an end would run past the series' horizon in a client.
      expect(lines(text, 'RRULE')).toEqual([]);
      expect(shown(text)).toEqual(expected(events));
    }
  });

  it('writes an all-day series as dates, beside single events that stay as TEC writes them', () => {
    const days = series(40, '2027-06-01 00:00:00', '2027-06-01 23:59:59', 'UTC', ['RRULE:FREQ=DAILY;COUNT=3'], { allDay: true });
    const single = eventRecord({
      id: 50,
      ...stamp,
      title: 'Alone',
      start: '2027-06-02 09:00:00',
      end: '2027-06-02 10:00:00',
      utcStart: '2027-06-02 09:00:00',
      utcEnd: '2027-06-02 10:00:00',
      timezone: 'UTC',
    });
    const events = feed([...days, single]);
    const { text } = icalendar(events, linked);
    expect(lines(text, 'DTSTART;VALUE=DATE')).toEqual(['DTSTART;VALUE=DATE:20270601']);
    expect(lines(text, 'DTEND;VALUE=DATE')).toEqual(['DTEND;VALUE=DATE:20270602']);
    expect(lines(text, 'RRULE')).toEqual(['RRULE:FREQ=DAILY;COUNT=3']);
    expect(lines(text, 'UID')).toContain(`UID:50-${Date.UTC(2027, 5, 2, 9) / 1000}-${Date.UTC(2027, 5, 2, 10) / 1000}@127.0.0.1`);
    expect(shown(text)).toEqual(expected(events));
  });
});
