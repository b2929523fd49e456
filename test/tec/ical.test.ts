// The calendar files of the live TEC and of this API for the same events, property by property.
// The same events are created through TEC's REST API and through ours (DynamoDB Local), then each
// event's `?ical=1` is read from both. Deliberate deviations, where RFC 5545 wins over TEC:
//   - VTIMEZONE observances start at the local time before the change (TEC writes the UTC time);
//   - all-day events are DATE values with an exclusive end (TEC writes events created through its
//     REST API with times, 00:00:00 to 23:59:59, as if they were not all-day);
//   - `;` and `\` are escaped in TEXT values (TEC escapes only `,` and line breaks), and a comma in a
//     category name is escaped (TEC's splits the name in two);
//   - an organizer's name in CN stays UTF-8 text (TEC percent-encodes it);
//   - GEO is written when the venue has coordinates (TEC writes none);
//   - every line ends with CRLF, the last included, and long lines are folded (TEC does neither).
// Ids, URLs' origin and the times of creation differ between the two sites by nature.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { createAsEditor } from '../support/expect.js';
import { useGateway } from '../support/gateway.js';
import { liveTec, TEC } from '../support/live-tec.js';
import { expectRfcLines, rawCalendar, readCalendar, unescapeText, type ContentLine, type RawComponent } from '../support/ical.js';

const run = Date.now().toString(36);

/** The same records on both sites. */
const VENUE = { venue: `Hall, "Big" & Co ${run}`, address: '1 Loop; Road', city: 'Springfield', state: 'IL', country: 'United States', zip: '62701' };
const ORGANIZER = { organizer: `Jūratė, "Org" ${run}`, email: 'org@example.com' };
const EVENTS = {
  concert: {
    title: `Winter; Concert, "quoted" & more ${run}`,
    description: `<p>First, para; with a semi;colon &amp; an entity</p>\n<p>Second ā para that is long enough to need folding at seventy five octets ąčęėįšųūž</p>`,
    start_date: '2027-03-27 19:00:00',
    end_date: '2027-03-28 22:00:00',
    timezone: 'Europe/Vilnius',
    categories: [`Concerts ${run}`, `Jazz ${run}`],
  },
  fair: { title: `All day fair ${run}`, start_date: '2027-07-01', end_date: '2027-07-02', all_day: true },
  talk: { title: `Talk in New York ${run}`, description: 'Plain text.', start_date: '2027-11-05 10:00:00', end_date: '2027-11-05 12:00:00', timezone: 'America/New_York' },
  site: { title: `Site zone event ${run}`, start_date: '2027-02-10 09:00:00', end_date: '2027-02-10 10:30:00' },
} as const;
type Name = keyof typeof EVENTS;

/** TEC escapes only `,` and line breaks in TEXT values. */
const tecText = (value: string) => value.replace(/\\,/g, ',').replace(/\\n/g, '\n');
const stamp = /^\d{8}T\d{6}Z$/;
const stampMs = (v: string) => Date.parse(`${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}T${v.slice(9, 11)}:${v.slice(11, 13)}:${v.slice(13, 15)}Z`);
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

const lines = (c: RawComponent, name: string): ContentLine[] => c.lines.filter((l) => l.name === name);
const one = (c: RawComponent, name: string): ContentLine | undefined => lines(c, name)[0];

/** A basic DATE-TIME plus minutes. */
function shift(basic: string, minutes: number): string {
  const ms = stampMs(`${basic}Z`) + minutes * 60_000;
  return new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '');
}
const minutesOf = (offset: string) => (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(3, 5)));

describe('calendar files against the live TEC', () => {
  // The stream consumer keeps the search index that the list feed's `search` reads.
  const gw = useGateway({ tablePrefix: 'tec-ical', stream: true });
  const tec: Partial<Record<Name, { id: number; url: string; text: string; disposition: string }>> = {};
  const ours: Partial<Record<Name, { id: number; url: string; text: string; disposition: string }>> = {};
  let site = '';

  beforeAll(async () => {
    const live = await liveTec();
    site = live.name;
    process.env.SITE_NAME = live.name;
    resetConfig();
    const post = async (path: string, body: object) => {
      const res = await fetch(`${TEC}/wp-json/tribe/events/v1${path}`, {
        method: 'POST',
        headers: { authorization: live.auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { id: number; url: string };
      if (res.status !== 201) throw new Error(`The live TEC refused POST ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const [tecVenue, tecOrganizer] = [await post('/venues', VENUE), await post('/organizers', ORGANIZER)];
    const [ourVenue, ourOrganizer] = [await createAsEditor(gw, '/venues', VENUE), await createAsEditor(gw, '/organizers', ORGANIZER)];
    for (const name of Object.keys(EVENTS) as Name[]) {
      const body = EVENTS[name];
      const links = name === 'concert';
      const theirs = await post('/events', links ? { ...body, venue: tecVenue.id, organizer: [tecOrganizer.id] } : body);
      const mine = await createAsEditor(gw, '/events', links ? { ...body, venue: ourVenue.id, organizer: [ourOrganizer.id] } : body);
      const tecRes = await fetch(`${theirs.url}?ical=1`);
      expect(tecRes.headers.get('content-type')).toBe('text/calendar; charset=UTF-8');
      tec[name] = { id: theirs.id, url: theirs.url, text: await tecRes.text(), disposition: tecRes.headers.get('content-disposition') ?? '' };
      const ourRes = await gw.api('GET', `/events/${mine.id}`, { query: { ical: 1 } });
      expect(ourRes.status, ourRes.text).toBe(200);
      expect(ourRes.headers.get('content-type')).toBe('text/calendar; charset=UTF-8');
      ours[name] = { id: mine.id, url: mine.url, text: ourRes.text, disposition: ourRes.headers.get('content-disposition') ?? '' };
    }
    await gw.drain();
  });

  const both = (name: Name) => ({ theirs: rawCalendar(tec[name]!.text), mine: rawCalendar(ours[name]!.text), ids: [tec[name]!.id, ours[name]!.id] as const });

  it('is valid RFC 5545 on our side, which ical.js reads', () => {
    for (const name of Object.keys(EVENTS) as Name[]) {
      expectRfcLines(ours[name]!.text);
      expect(readCalendar(ours[name]!.text).events).toHaveLength(1);
    }
  });

  it("names the file as TEC does: the site's slug and a hash of the event's id", () => {
    for (const name of Object.keys(EVENTS) as Name[]) {
      const [theirs, mine] = [tec[name]!, ours[name]!];
      const slug = /^attachment; filename="(.+)-[0-9a-f]{11}\.ics"$/.exec(theirs.disposition)?.[1];
      expect(slug, theirs.disposition).toBeDefined();
      expect(theirs.disposition).toBe(`attachment; filename="${slug}-${md5(`ical${theirs.id}`).slice(0, 11)}.ics"`);
      expect(mine.disposition).toBe(`attachment; filename="${slug}-${md5(`ical${mine.id}`).slice(0, 11)}.ics"`);
    }
  });

  it("writes TEC's calendar properties", () => {
    const { theirs, mine } = both('concert');
    for (const name of ['VERSION', 'PRODID', 'CALSCALE', 'METHOD', 'X-WR-CALNAME', 'X-WR-CALDESC', 'REFRESH-INTERVAL', 'X-ROBOTS-TAG', 'X-PUBLISHED-TTL']) {
      expect(one(mine, name), name).toEqual(one(theirs, name));
    }
    expect(one(theirs, 'PRODID')!.value).toBe(`-//${site} - ECPv6.17.2//NONSGML v1.0//EN`);
    // Each site names its own home.
    expect(one(theirs, 'X-ORIGINAL-URL')!.value).toBe(TEC);
    expect(one(mine, 'X-ORIGINAL-URL')!.value).toBe(gw.origin);
    expect(mine.lines.map((l) => l.name)).toEqual(theirs.lines.map((l) => l.name));
  });

  it('has the same VTIMEZONEs, each change starting at local time (TEC: UTC)', () => {
    for (const name of Object.keys(EVENTS) as Name[]) {
      const { theirs, mine } = both(name);
      const zones = (c: RawComponent) => c.children.filter((z) => z.name === 'VTIMEZONE');
      expect(
        zones(mine).map((z) => one(z, 'TZID')!.value),
        name,
      ).toEqual(zones(theirs).map((z) => one(z, 'TZID')!.value));
      zones(theirs).forEach((zone, i) => {
        const mineZone = zones(mine)[i]!;
        expect(
          mineZone.children.map((o) => o.name),
          name,
        ).toEqual(zone.children.map((o) => o.name));
        zone.children.forEach((o, j) => {
          const m = mineZone.children[j]!;
          for (const prop of ['TZOFFSETFROM', 'TZOFFSETTO', 'TZNAME']) expect(one(m, prop), `${name} ${prop}`).toEqual(one(o, prop));
          const from = minutesOf(one(o, 'TZOFFSETFROM')!.value);
          const to = minutesOf(one(o, 'TZOFFSETTO')!.value);
          // A zone without changes has one observance from the start of the year (no change to place).
          expect(one(m, 'DTSTART')!.value, name).toBe(from === to ? one(o, 'DTSTART')!.value : shift(one(o, 'DTSTART')!.value, from));
        });
      });
    }
  });

  it('writes the same event properties, in the same order', () => {
    for (const name of Object.keys(EVENTS) as Name[]) {
      const { theirs, mine, ids } = both(name);
      const [t, m] = [theirs.children.find((c) => c.name === 'VEVENT')!, mine.children.find((c) => c.name === 'VEVENT')!];
      expect(
        m.lines.map((l) => l.name).filter((n) => n !== 'GEO'),
        name,
      ).toEqual(t.lines.map((l) => l.name));

      // UID: TEC's numbers and host; only the id differs between the two sites.
      expect(one(m, 'UID')!.value.replace(/^\d+-/, ''), name).toBe(one(t, 'UID')!.value.replace(/^\d+-/, ''));
      expect(one(t, 'UID')!.value.startsWith(`${ids[0]}-`)).toBe(true);
      expect(one(m, 'UID')!.value.startsWith(`${ids[1]}-`)).toBe(true);

      for (const prop of ['DTSTAMP', 'CREATED', 'LAST-MODIFIED']) {
        expect(one(t, prop)!.value).toMatch(stamp);
        expect(one(m, prop)!.value).toMatch(stamp);
        expect(Math.abs(stampMs(one(t, prop)!.value) - stampMs(one(m, prop)!.value)), prop).toBeLessThan(15 * 60_000);
      }

      for (const prop of ['SUMMARY', 'DESCRIPTION']) expect(unescapeText(one(m, prop)!.value), `${name} ${prop}`).toBe(tecText(one(t, prop)!.value));
      expect(new URL(one(m, 'URL')!.value).pathname).toBe(new URL(one(t, 'URL')!.value).pathname);

      if ('all_day' in EVENTS[name]) {
        // Deviation: DATE values with an exclusive end; TEC writes the REST API's all-day event with times.
        expect(one(t, 'DTSTART')).toEqual({ name: 'DTSTART', params: { TZID: 'UTC' }, value: '20270701T000000' });
        expect(one(t, 'DTEND')).toEqual({ name: 'DTEND', params: { TZID: 'UTC' }, value: '20270702T235959' });
        expect(one(m, 'DTSTART')).toEqual({ name: 'DTSTART', params: { VALUE: 'DATE' }, value: '20270701' });
        expect(one(m, 'DTEND')).toEqual({ name: 'DTEND', params: { VALUE: 'DATE' }, value: '20270703' });
      } else {
        expect(one(m, 'DTSTART'), name).toEqual(one(t, 'DTSTART'));
        expect(one(m, 'DTEND'), name).toEqual(one(t, 'DTEND'));
      }
    }
  });

  it('writes the venue, categories and organizer as TEC does, escaped as RFC 5545 asks', () => {
    const { theirs, mine } = both('concert');
    const [t, m] = [theirs.children.find((c) => c.name === 'VEVENT')!, mine.children.find((c) => c.name === 'VEVENT')!];
    expect(unescapeText(one(m, 'LOCATION')!.value)).toBe(tecText(one(t, 'LOCATION')!.value));
    expect(one(m, 'CATEGORIES')!.value.split(',').map(unescapeText)).toEqual(one(t, 'CATEGORIES')!.value.split(','));
    const [to, mo] = [one(t, 'ORGANIZER')!, one(m, 'ORGANIZER')!];
    expect(mo.value).toBe(to.value);
    // TEC percent-encodes the name; it stays text here.
    expect(mo.params.CN).toBe(decodeURIComponent(to.params.CN!));
    // Deviation: TEC leaves ';' unescaped in TEXT values (RFC 5545 §3.3.11 escapes it).
    expect(one(m, 'DESCRIPTION')!.value).toContain('First\\, para\\; with a semi\\;colon & an entity');
    expect(one(t, 'DESCRIPTION')!.value).toContain('First\\, para; with a semi;colon & an entity');
  });

  it("gives a list's events as TEC's list view exports them", async () => {
    // This run's events only: the live site keeps other runs' events.
    const theirs = rawCalendar(await (await fetch(`${TEC}/events/list/?ical=1&tribe-bar-search=${run}`)).text());
    const res = await gw.api('GET', '/events', { query: { ical: 1, search: run } });
    const mine = rawCalendar(res.text);
    const events = (c: RawComponent) => c.children.filter((e) => e.name === 'VEVENT');
    const summaries = (c: RawComponent) => events(c).map((e) => unescapeText(one(e, 'SUMMARY')!.value));
    expect(summaries(mine)).toEqual(summaries(theirs));
    expect(summaries(mine)).toHaveLength(4);
    const zones = (c: RawComponent) => c.children.filter((z) => z.name === 'VTIMEZONE').map((z) => one(z, 'TZID')!.value);
    expect(zones(mine)).toEqual(zones(theirs));
    // Each event as its own file has it.
    const uid = (e: RawComponent) => one(e, 'UID')!.value.replace(/^\d+-/, '');
    expect(events(mine).map(uid)).toEqual(events(theirs).map(uid));
    expect(res.headers.get('x-feed-events')).toBe('4');
  });

  it('keeps the instant of a fixed-offset zone (TEC names a city for it, whose summer time moves the event)', async () => {
    const live = await liveTec();
    for (const [timezone, city] of [
      ['UTC+5', 'Asia/Karachi'],
      ['UTC-5', 'America/New_York'],
    ] as const) {
      const body = { title: `Offset ${timezone} ${run}`, start_date: '2027-07-10 10:00:00', end_date: '2027-07-10 11:00:00', timezone };
      const res = await fetch(`${TEC}/wp-json/tribe/events/v1/events`, {
        method: 'POST',
        headers: { authorization: live.auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const theirs = (await res.json()) as { url: string; utc_start_date: string };
      const mine = await createAsEditor(gw, '/events', body);
      // A fixed offset has no summer time: 10:00 at UTC-5 is 15:00 UTC. TEC's JSON already takes the
      // city's (14:00 in July), a defect not copied (it moves the event).
      const instant = Date.parse(`2027-07-10T${timezone === 'UTC+5' ? '05' : '15'}:00:00Z`) / 1000;
      expect(Date.parse(`${mine.utc_start_date.replace(' ', 'T')}Z`) / 1000).toBe(instant);
      expect(Date.parse(`${theirs.utc_start_date.replace(' ', 'T')}Z`) / 1000 - instant, timezone).toBe(city === 'America/New_York' ? -3600 : 0);
      const tecFile = readCalendar(await (await fetch(`${theirs.url}?ical=1`)).text());
      const ourFile = readCalendar((await gw.api('GET', `/events/${mine.id}`, { query: { ical: 1 } })).text);
      expect(ourFile.events[0]!.start, timezone).toBe(instant);
      expect(ourFile.events[0]!.tzid).toBe(timezone);
      // TEC writes the local time under a city of that standard offset: right only while the city
      // keeps it (Karachi), an hour off in New York's summer.
      expect(tecFile.events[0]!.tzid).toBe(city);
      expect(tecFile.events[0]!.start - instant, timezone).toBe(city === 'America/New_York' ? -3600 : 0);
    }
  });

  // TEC's feeds at the site root (`/events/?ical=1`, its views and archives, an event's page), read
  // from both sites for the same events: here the CDN's viewer-request function, which the local
  // gateway runs, makes them the REST feeds. This run's events are told apart by a category of
  // their own, or a word of their own in the list's search, as the live site keeps other events.
  describe("the site's feeds, URL form by URL form", () => {
    const mark = `feeds${Math.random().toString(36).slice(2, 10)}`;
    const category = `cat-${mark}`;
    const full = `full-${mark}`;
    const tag = `tag-${mark}`;
    // The 31 events of one day have a word of their own, so that the list's search leaves them out.
    const slotMark = `slots${mark.slice(5)}`;
    const year = new Date().getUTCFullYear() + 1;
    const pad = (n: number) => String(n).padStart(2, '0');
    const fromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const past = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
    const EVENTS: [string, string, string][] = [
      ['Ended', fromNow(-3), fromNow(-2)],
      ['Ongoing', fromNow(-1), fromNow(1)],
      ['Last month', `${past} 10:00:00`, `${past} 11:00:00`],
      ['Into March', `${year}-02-28 20:00:00`, `${year}-03-01 02:00:00`],
      ['Ends at midnight', `${year}-03-09 22:00:00`, `${year}-03-10 00:00:00`],
      ['March tenth', `${year}-03-10 10:00:00`, `${year}-03-10 11:00:00`],
      ['Out of March', `${year}-03-31 23:00:00`, `${year}-04-01 01:00:00`],
      ['Far ahead', `${year + 2}-06-01 10:00:00`, `${year + 2}-06-01 11:00:00`],
    ];
    // "Ended" ended two hours ago: today, unless the day began less than two hours ago.
    const today = (EVENTS[0]![2] > new Date().toISOString().slice(0, 10) ? ['Ended'] : []).concat('Ongoing');
    const slugs: { tec: Record<string, string>; ours: Record<string, string> } = { tec: {}, ours: {} };

    beforeAll(async () => {
      const live = await liveTec();
      const post = async (path: string, body: object) => {
        const res = await fetch(`${TEC}/wp-json/tribe/events/v1${path}`, {
          method: 'POST',
          headers: { authorization: live.auth, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (res.status !== 201) throw new Error(`The live TEC refused POST ${path}: ${res.status} ${await res.text()}`);
        return (await res.json()) as { slug: string };
      };
      for (const [name, slug] of [
        [`Feeds ${mark}`, category],
        [`Full ${mark}`, full],
      ]) {
        await post('/categories', { name, slug });
        await createAsEditor(gw, '/categories', { name, slug });
      }
      await post('/tags', { name: `Tag ${mark}`, slug: tag });
      await createAsEditor(gw, '/tags', { name: `Tag ${mark}`, slug: tag });
      for (const [name, start_date, end_date] of EVENTS) {
        const body = { title: `${name} ${mark}`, start_date, end_date, categories: [category], tags: [tag] };
        slugs.tec[name] = (await post('/events', body)).slug;
        slugs.ours[name] = (await createAsEditor(gw, '/events', body)).slug;
      }
      // One more than TEC's views export, on one day.
      for (let i = 0; i < 31; i++) {
        const at = `${year}-06-20 ${pad(8 + Math.floor(i / 4))}:${pad((i % 4) * 15)}:00`;
        const body = { title: `Slot ${pad(i)} ${slotMark}`, start_date: at, end_date: at.replace(/:00$/, ':10'), categories: [full] };
        await post('/events', body);
        await createAsEditor(gw, '/events', body);
      }
      await gw.drain();
    }, 300_000);

    /** Status, type, disposition and the events (summary without the mark, UID without the id, start) of one answer. */
    async function answer(res: { status: number; headers: Headers; text: string }) {
      const type = res.headers.get('content-type') ?? '';
      const events = type.startsWith('text/calendar')
        ? rawCalendar(res.text)
            .children.filter((c) => c.name === 'VEVENT')
            .map((e) => ({
              summary: unescapeText(one(e, 'SUMMARY')!.value).replace(` ${mark}`, '').replace(` ${slotMark}`, ''),
              uid: one(e, 'UID')!.value.replace(/^\d+-/, ''),
              id: Number(/^\d+/.exec(one(e, 'UID')!.value)![0]),
              start: one(e, 'DTSTART'),
            }))
        : [];
      return { status: res.status, type, disposition: res.headers.get('content-disposition') ?? '', events };
    }
    /** The same URL form on both sites (`slug` gives each site's event slug); TEC's redirects are followed. */
    async function both(form: string | ((slug: Record<string, string>) => string)) {
      const path = (site: 'tec' | 'ours') => (typeof form === 'string' ? form : form(slugs[site]));
      const tecRes = await fetch(`${TEC}${path('tec')}`);
      const theirs = await answer({ status: tecRes.status, headers: tecRes.headers, text: await tecRes.text() });
      const mine = await answer(await gw.api('GET', gw.abs(path('ours'))));
      return { theirs, mine };
    }
    const names = (a: Awaited<ReturnType<typeof answer>>) => a.events.map((e) => e.summary);
    const filename = (a: Awaited<ReturnType<typeof answer>>) =>
      `attachment; filename="${site
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')}-${md5(`ical${a.events.map((e) => e.id).join('')}`).slice(0, 11)}.ics"`;

    it('answers every form with the same events, in the same order, as TEC', async () => {
      const search = `tribe-bar-search=${mark}`;
      const march = `${year}-03`;
      const forms: [string | ((slug: Record<string, string>) => string), string[]][] = [
        // The upcoming feed: what ends after now, with no horizon.
        [`/events/?ical=1&${search}`, ['Ongoing', 'Into March', 'Ends at midnight', 'March tenth', 'Out of March', 'Far ahead']],
        [`/events/list/?ical=1&${search}`, ['Ongoing', 'Into March', 'Ends at midnight', 'March tenth', 'Out of March', 'Far ahead']],
        [`/?post_type=tribe_events&ical=1&eventDisplay=list&${search}`, ['Ongoing', 'Into March', 'Ends at midnight', 'March tenth', 'Out of March', 'Far ahead']],
        [`/events/list/?ical=1&tribe-bar-date=${year}-03-10&${search}`, ['March tenth', 'Out of March', 'Far ahead']],
        [`/events/category/${category}/?ical=1`, ['Ongoing', 'Into March', 'Ends at midnight', 'March tenth', 'Out of March', 'Far ahead']],
        [`/events/category/${category}/list/?ical=1`, ['Ongoing', 'Into March', 'Ends at midnight', 'March tenth', 'Out of March', 'Far ahead']],
        [`/?tribe_events_cat=${category}&ical=1`, ['Ongoing', 'Into March', 'Ends at midnight', 'March tenth', 'Out of March', 'Far ahead']],
        [`/events/category/${category}/?ical=1&tribe-bar-date=${year}-03-10`, ['March tenth', 'Out of March', 'Far ahead']],
        // Months: what overlaps the month; the current one from today.
        [`/events/category/${category}/month/?ical=1&tribe-bar-date=${march}`, ['Into March', 'Ends at midnight', 'March tenth', 'Out of March']],
        [`/events/category/${category}/${march}/?ical=1`, ['Into March', 'Ends at midnight', 'March tenth', 'Out of March']],
        [`/events/category/${category}/${year}-04/?ical=1`, ['Out of March']],
        [`/events/category/${category}/${past.slice(0, 7)}/?ical=1`, ['Last month']],
        [`/events/category/${category}/month/?ical=1`, today],
        // Days: what overlaps the day.
        [`/events/category/${category}/${year}-03-10/?ical=1`, ['March tenth']],
        [`/events/category/${category}/${year}-03-01/?ical=1`, ['Into March']],
        [`/events/category/${category}/today/?ical=1`, today],
        // An event's page, and its plain-permalink form.
        [(slug) => `/event/${slug['March tenth']}/?ical=1`, ['March tenth']],
        [(slug) => `/?tribe_events=${slug['March tenth']}&ical=1`, ['March tenth']],
        // TEC's views export 30 events.
        [`/events/category/${full}/?ical=1`, Array.from({ length: 30 }, (_, i) => `Slot ${pad(i)}`)],
        [`/events/category/${full}/${year}-06-20/?ical=1`, Array.from({ length: 30 }, (_, i) => `Slot ${pad(i)}`)],
      ];
      // The current month's forms hold "Last month" too when 40 days ago is this month: never.
      expect(past.slice(0, 7)).not.toBe(new Date().toISOString().slice(0, 7));
      for (const [form, expected] of forms) {
        const { theirs, mine } = await both(form);
        const label = typeof form === 'string' ? form : form({ 'March tenth': '<slug>' });
        expect(theirs.status, label).toBe(200);
        expect(mine.status, label).toBe(200);
        expect(mine.type, label).toBe(theirs.type);
        expect(theirs.type, label).toBe('text/calendar; charset=UTF-8');
        expect(names(theirs), `TEC ${label}`).toEqual(expected);
        expect(names(mine), label).toEqual(names(theirs));
        expect(
          mine.events.map((e) => [e.uid, e.start]),
          label,
        ).toEqual(theirs.events.map((e) => [e.uid, e.start]));
        // Each names its file as TEC does, by the ids it holds.
        expect(theirs.disposition, label).toBe(filename(theirs));
        expect(mine.disposition, label).toBe(filename(mine));
      }
    }, 120_000);

    it("serves a tag's archive feed, where TEC 6.17.2 answers its HTML page", async () => {
      const { theirs, mine } = await both(`/events/tag/${tag}/?ical=1`);
      expect(theirs.type).toBe('text/html; charset=UTF-8');
      expect(mine.type).toBe('text/calendar; charset=UTF-8');
      expect(names(mine)).toEqual(['Ongoing', 'Into March', 'Ends at midnight', 'March tenth', 'Out of March', 'Far ahead']);
    });
  });
});
