// Events as an iCalendar file (RFC 5545), with the properties TEC's export writes
// (src/Tribe/iCal.php, and its views' REFRESH-INTERVAL and X-PUBLISHED-TTL), in TEC's order, and
// its UIDs, which calendars that subscribed to a TEC site know its events by. Where TEC breaks
// RFC 5545 the RFC wins: see docs/calendar-feeds.md.
import { inNameOrder } from '#lib/domain/term-order.js';
import { createHash } from 'node:crypto';
import { config } from '#lib/runtime/config.js';
import { addDays, instantToWall, isValidTimezone, offsetAt, wallToInstant } from '#lib/domain/time/dates.js';
import { observances } from '#lib/domain/time/transitions.js';
import { slugify } from '#lib/domain/slug.js';
import type { EventItem, TermItem } from '#lib/store/items.js';
import { htmlEntityDecode } from '#lib/wp/decode.js';
import { wpStripAllTags } from '#lib/wp/strip.js';
import { renderContent, renderTitle } from '#lib/wp/text.js';
import { contentLines, escapeText, paramValue, quoteParam, uriValue } from './ical-text.js';
import { postUrl, type Linked, type OrganizerShown, type VenueShown } from './present.js';
import { wellTyped } from './well-typed.js';

/** The TEC release whose export this one writes (its PRODID names it). */
export const TEC_VERSION = '6.17.2';

/** TEC's description of an event whose content the caller may not see. */
export const PROTECTED_DESCRIPTION = 'Content is protected.';

/** One event of a feed, with whether the caller may see its content (a password-protected event may not). */
export interface FeedEvent {
  event: EventItem;
  open: boolean;
}

export interface Calendar {
  /** The file's text. */
  text: string;
  /** Its name, as TEC's Content-Disposition gives it. */
  filename: string;
  /** How many events it holds (one whose stored times cannot be written is left out). */
  events: number;
}

/** An event's zone as its TZID: WordPress's offset of zero is UTC, as TEC names it. */
const zoneOf = (e: EventItem) => {
  const zone = e.timezone || config().siteTimezone;
  return /^UTC(?:[+-]0+(?:[:.]0+)?)?$/.test(zone) ? 'UTC' : zone;
};

/** `YYYY-MM-DD HH:MM:SS` -> the seconds that wall time would have in UTC (TEC's "wall clock timestamp"). */
const wallSeconds = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}Z`) / 1000;
const basicDateTime = (wall: string) => wall.replace(/[-:]/g, '').replace(' ', 'T');
const basicDate = (wall: string) => wall.slice(0, 10).replace(/-/g, '');
const utcStamp = (utcWall: string) => `${basicDateTime(utcWall)}Z`;

/** A TEXT value as TEC derives it from HTML: tags stripped (a paragraph's end leaves a space), entities decoded. */
const plain = (html: string) => htmlEntityDecode(wpStripAllTags(html.replaceAll('</p>', '</p> ')));

/**
 * TEC's UID: `<id>-<start>-<end>@<site host>`, the two numbers being the event's start and end
 * wall times in its own zone read as if they were UTC (Tribe__Events__Timezones::wall_clock_timestamp).
 */
export function eventUid(e: Pick<EventItem, 'id' | 'start' | 'end'>, host = new URL(config().siteUrl).hostname): string {
  return `${e.id}-${wallSeconds(e.start)}-${wallSeconds(e.end)}@${host}`;
}

/**
 * A wall time its zone shows twice (the clocks went back) or never (they went forward). RFC 5545
 * says which instant such a time is, but parsers differ (ical.js takes the second of two), so the
 * feed gives those as UTC.
 */
function unclear(wall: string, zone: string): boolean {
  const instant = wallToInstant(wall, zone).getTime();
  if (instantToWall(new Date(instant), zone) !== wall) return true;
  const naive = wallSeconds(wall) * 1000;
  for (const offset of [offsetAt(zone, instant - 86_400_000), offsetAt(zone, instant + 86_400_000)]) {
    const other = naive - offset * 60_000;
    if (other !== instant && instantToWall(new Date(other), zone) === wall) return true;
  }
  return false;
}

/** A timed DTSTART or DTEND: the wall time with its TZID, or UTC where the wall time is unclear. */
function dateTime(name: 'DTSTART' | 'DTEND', wall: string, utc: string, zone: string): string {
  return unclear(wall, zone) ? `${name}:${utcStamp(utc)}` : `${name};TZID=${paramValue(zone)}:${basicDateTime(wall)}`;
}

/** A FLOAT value (§3.3.7): digits, never an exponent. */
const float = (x: number) => x.toFixed(6).replace(/\.?0+$/, '');

/** ±HHMM, as TZOFFSETFROM and TZOFFSETTO take it. */
function utcOffset(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/** The wall time of an instant at a fixed offset, in the basic form. */
function wallAt(instant: number, offsetMinutes: number): string {
  return new Date(instant + offsetMinutes * 60_000).toISOString().slice(0, 19).replace(/[-:]/g, '');
}

/**
 * The years a zone's VTIMEZONE covers: a year before and after each year an event of the zone
 * starts or ends in (TEC 6.15.6 and later), as runs of consecutive years, so that an event that
 * lasts centuries does not list every change between its two ends.
 */
function yearRuns(years: ReadonlySet<number>): [number, number][] {
  const wanted = new Set<number>();
  for (const y of years) for (const near of [y - 1, y, y + 1]) if (near >= 1900 && near <= 9999) wanted.add(near);
  const sorted = [...wanted].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const y of sorted) {
    const last = runs.at(-1);
    if (last && last[1] === y - 1) last[1] = y;
    else runs.push([y, y]);
  }
  return runs;
}

/**
 * One VTIMEZONE per zone the events use, with the zone's changes over the years its events need.
 * Each observance starts at the local time in force before it, as RFC 5545 §3.6.5 says (TEC
 * writes UTC there).
 */
function timezones(events: readonly EventItem[]): string[] {
  const years = new Map<string, Set<number>>();
  for (const e of events) {
    const zone = zoneOf(e);
    let set = years.get(zone);
    if (!set) years.set(zone, (set = new Set()));
    set.add(Number(e.start.slice(0, 4))).add(Number(e.end.slice(0, 4)));
  }
  const lines: string[] = [];
  for (const [zone, set] of years) {
    lines.push('BEGIN:VTIMEZONE', `TZID:${escapeText(zone)}`);
    for (const [from, to] of yearRuns(set)) {
      for (const o of observances(zone, from, to)) {
        const kind = o.daylight ? 'DAYLIGHT' : 'STANDARD';
        lines.push(
          `BEGIN:${kind}`,
          `TZOFFSETFROM:${utcOffset(o.from)}`,
          `TZOFFSETTO:${utcOffset(o.to)}`,
          `TZNAME:${escapeText(o.name)}`,
          `DTSTART:${wallAt(o.at, o.from)}`,
          `END:${kind}`,
        );
      }
    }
    lines.push('END:VTIMEZONE');
  }
  return lines;
}

/** TEC's full address of a venue: its name, street, city, region, postal code and country, with commas. */
function location(v: VenueShown): string {
  const region = v.stateprovince || (v.country === 'United States' ? v.state : v.province);
  return [renderTitle(v.title), v.address, v.city, region, v.zip, v.country]
    .filter((part) => part !== undefined && part !== '')
    .map((part) => htmlEntityDecode(part!))
    .join(', ');
}

const IMAGE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
};

/** The pathname of an http or https URL, or undefined for a stored value that is none. */
function webPath(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.pathname : undefined;
  } catch {
    return undefined;
  }
}

/** The image as an ATTACH, or nothing when what is stored is no web URL. */
function attach(url: string): string | undefined {
  const path = webPath(url);
  if (path === undefined) return undefined;
  const type = IMAGE_TYPES[/\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? ''];
  return type ? `ATTACH;FMTTYPE=${type}:${uriValue(url)}` : `ATTACH:${uriValue(url)}`;
}

function organizerLine(o: OrganizerShown): string | undefined {
  const email = o.email ? uriValue(o.email.trim()) : '';
  if (!email) return undefined;
  const name = htmlEntityDecode(o.title);
  return name ? `ORGANIZER;CN=${quoteParam(name)}:MAILTO:${email}` : `ORGANIZER:MAILTO:${email}`;
}

const WALL = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * Whether an event's stored times and zone can be written: walls of `YYYY-MM-DD HH:MM:SS` and a
 * zone the calendar knows. Every record written through the API has them; one that does not is
 * left out of a feed rather than written into its lines.
 */
function writable(e: EventItem): boolean {
  return [e.start, e.end, e.utcStart, e.utcEnd, e.date_utc, e.modified_utc].every((t) => typeof t === 'string' && WALL.test(t)) && isValidTimezone(zoneOf(e));
}

/** An event's DTSTART and DTEND. */
function timing(e: EventItem): string[] {
  // A DATE end is exclusive (RFC 5545 §3.6.1): the day after the last one.
  if (e.allDay) return [`DTSTART;VALUE=DATE:${basicDate(e.start)}`, `DTEND;VALUE=DATE:${basicDate(addDays(e.end, 1))}`];
  const zone = zoneOf(e);
  return [dateTime('DTSTART', e.start, e.utcStart, zone), dateTime('DTEND', e.end, e.utcEnd, zone)];
}

/** An event's times of record: when it was made and last changed. */
const stamps = (e: EventItem) => [`DTSTAMP:${utcStamp(e.modified_utc)}`, `CREATED:${utcStamp(e.date_utc)}`, `LAST-MODIFIED:${utcStamp(e.modified_utc)}`];

/** One VEVENT's lines, in TEC's order; GEO (which TEC leaves out) follows LOCATION. */
function vevent(f: FeedEvent, linked: Linked, host: string): string[] {
  const e = f.event;
  return ['BEGIN:VEVENT', ...timing(e), ...stamps(e), `UID:${escapeText(eventUid(e, host))}`, ...described(f, linked), 'END:VEVENT'];
}

/** What a VEVENT says of an event besides its times and UID: SUMMARY to ORGANIZER, in TEC's order. */
function described({ event: e, open }: FeedEvent, linked: Linked): string[] {
  const lines = [
    `SUMMARY:${escapeText(htmlEntityDecode(wpStripAllTags(e.title)))}`,
    `DESCRIPTION:${escapeText(open ? plain(renderContent(e.description)) : PROTECTED_DESCRIPTION)}`,
    `URL:${uriValue(postUrl(e))}`,
  ];
  // A protected event shows in a feed what it shows in a list: its title and times.
  if (open) {
    const venue = e.venues.map((id) => linked.venues.get(id)).find((v) => v !== undefined);
    if (venue) {
      const where = location(venue);
      if (where) lines.push(`LOCATION:${escapeText(where)}`);
      if (Number.isFinite(venue.geoLat) && Number.isFinite(venue.geoLng) && venue.geoLat && venue.geoLng) lines.push(`GEO:${float(venue.geoLat)};${float(venue.geoLng)}`);
    }
    const categories = inNameOrder(e.categories.map((id) => linked.terms.get(id)).filter((t): t is TermItem => t !== undefined));
    if (categories.length) lines.push(`CATEGORIES:${categories.map((t) => escapeText(htmlEntityDecode(t.name))).join(',')}`);
    const image = e.image ? attach(e.image) : undefined;
    if (image) lines.push(image);
    const organizer = e.organizers.map((id) => linked.organizers.get(id)).find((o) => o !== undefined);
    const line = organizer && organizerLine(organizer);
    if (line) lines.push(line);
  }
  return lines;
}

/** A feed's events, each alone or, for the events of one series, together at the first one's place. */
function bySeries(events: readonly FeedEvent[]): (FeedEvent | FeedEvent[])[] {
  const out: (FeedEvent | FeedEvent[])[] = [];
  const series = new Map<number, FeedEvent[]>();
  for (const f of events) {
    const { seriesId, occurrence } = f.event;
    if (typeof seriesId !== 'number' || typeof occurrence !== 'string' || !WALL.test(occurrence)) {
      out.push(f);
      continue;
    }
    const members = series.get(seriesId);
    if (members) members.push(f);
    else {
      series.set(seriesId, [f]);
      out.push(series.get(seriesId)!);
    }
  }
  return out;
}

const lengthOf = (e: EventItem) => wallSeconds(e.end) - wallSeconds(e.start);
const wallPlus = (wall: string, seconds: number) => new Date((wallSeconds(wall) + seconds) * 1000).toISOString().slice(0, 19).replace('T', ' ');

/** A DTSTART, DTEND or RECURRENCE-ID at a wall time of `like`'s zone (all-day: the date). */
function at(name: string, wall: string, like: EventItem): string {
  if (like.allDay) return `${name};VALUE=DATE:${basicDate(wall)}`;
  const zone = zoneOf(like);
  const utc = instantToWall(wallToInstant(wall, zone), 'UTC');
  return unclear(wall, zone) ? `${name}:${utcStamp(utc)}` : `${name};TZID=${paramValue(zone)}:${basicDateTime(wall)}`;
}

/** RDATE lines for wall times of `like`'s zone: one list per form (dates, local times, UTC where unclear). */
function rdates(walls: readonly string[], like: EventItem): string[] {
  const forms = new Map<string, string[]>();
  for (const wall of walls) {
    const [name, value] = at('RDATE', wall, like).split(':') as [string, string];
    forms.set(name, [...(forms.get(name) ?? []), value]);
  }
  return [...forms].map(([name, values]) => `${name}:${values.join(',')}`);
}

/** Whether every rule of `lines` ends (COUNT or UNTIL), so that a calendar expands them as the series was. */
const finite = (lines: readonly string[]) => lines.every((l) => !l.startsWith('RRULE') || /[:;](COUNT|UNTIL)=/.test(l));

/**
 * The events of one series in a feed as RFC 5545 writes a recurring event: one VEVENT with the
 * series' UID, its dates from its first event here (DTSTART) and the others' (the series' own
 * RRULE, RDATE and EXDATE when the feed holds every event its rules made, else each date as an
 * RDATE), and a VEVENT with a RECURRENCE-ID for each event that differs from that first one
 * otherwise than by its date. Expanded, it gives exactly the feed's events of the series.
 */
function seriesVevents(members: FeedEvent[], linked: Linked, host: string): string[] {
  const occurrence = (e: EventItem) => e.occurrence!;
  const byDate = [...members].sort((a, b) => wallSeconds(occurrence(a.event)) - wallSeconds(occurrence(b.event)));
  const lead = byDate.find((f) => f.event.id === f.event.seriesId) ?? byDate[0]!;
  const t = lead.event;
  const uid = `UID:${escapeText(`${t.seriesId}-series@${host}`)}`;
  const base = described(lead, linked).filter((l) => !l.startsWith('URL:'));
  const same = (f: FeedEvent) =>
    f.event.start === occurrence(f.event) &&
    lengthOf(f.event) === lengthOf(t) &&
    !!f.event.allDay === !!t.allDay &&
    zoneOf(f.event) === zoneOf(t) &&
    JSON.stringify(described(f, linked).filter((l) => !l.startsWith('URL:'))) === JSON.stringify(base);
  const dates = [...new Set(byDate.map((f) => occurrence(f.event)))];
  const whole = t.seriesId === t.id && !!t.recurrence && finite(t.recurrence) && t.series !== undefined && t.series.made >= t.series.total && dates.length === t.series.total;
  const start = occurrence(t);
  const end = t.allDay ? addDays(wallPlus(start, lengthOf(t)), 1) : wallPlus(start, lengthOf(t));
  const master = [
    'BEGIN:VEVENT',
    at('DTSTART', start, t),
    at('DTEND', end, t),
    // Without a rule, the start is an RDATE too: the set counts it once (RFC 5545 §3.8.5.2), and
    // some parsers (ical.js 2) expand only the RDATEs of a VEVENT that has no RRULE.
    ...(whole ? t.recurrence! : rdates(dates, t)),
    ...stamps(t),
    uid,
    ...described(lead, linked),
    'END:VEVENT',
  ];
  const changed = byDate.filter((f) => !(f === lead ? f.event.start === occurrence(f.event) : same(f)));
  return [
    ...master,
    ...changed.flatMap((f) => ['BEGIN:VEVENT', ...timing(f.event), at('RECURRENCE-ID', occurrence(f.event), t), ...stamps(f.event), uid, ...described(f, linked), 'END:VEVENT']),
  ];
}

/** The calendar's own properties, as TEC's get_start() and its views write them. */
function head(name: string, home: string): string[] {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${escapeText(name)} - ECPv${TEC_VERSION}//NONSGML v1.0//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...(name ? [`X-WR-CALNAME:${escapeText(name)}`] : []),
    `X-ORIGINAL-URL:${uriValue(home)}`,
    `X-WR-CALDESC:${escapeText(`Events for ${name}`)}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-Robots-Tag:noindex',
    'X-PUBLISHED-TTL:PT1H',
  ];
}

/** The iCalendar file of some events, and its file name (TEC's: the site's slug and a hash of the event ids). */
export function icalendar(events: readonly FeedEvent[], linked: Linked): Calendar {
  const cfg = config();
  const host = new URL(cfg.siteUrl).hostname;
  const shown: FeedEvent[] = [];
  for (const f of events) {
    const event = wellTyped(f.event);
    if (writable(event)) shown.push(event === f.event ? f : { ...f, event });
  }
  const lines = [...head(cfg.siteName, cfg.siteUrl), ...timezones(shown.map((f) => f.event))];
  for (const entry of bySeries(shown)) lines.push(...(Array.isArray(entry) ? seriesVevents(entry, linked, host) : vevent(entry, linked, host)));
  lines.push('END:VCALENDAR');
  const hash = createHash('md5')
    .update(`ical${shown.map((f) => f.event.id).join('')}`)
    .digest('hex')
    .slice(0, 11);
  return { text: contentLines(lines), filename: `${slugify(cfg.siteName) || 'calendar'}-${hash}.ics`, events: shown.length };
}
