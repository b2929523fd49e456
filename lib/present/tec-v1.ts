// Events, venues and organizers as TEC's `tec/v1` namespace shows them: WordPress's core posts
// controller's view (lib/present/wp-post.ts) without its meta and links, `link` as the permalink,
// and the properties TEC's models add, in the order TEC's decorated posts hold them. An event's
// venues and organizers are shown whole, in the same shape.
import { config } from '#lib/runtime/config.js';
import { presentCost } from '#lib/domain/cost.js';
import { offsetAt, wallToUtc } from '#lib/domain/time/dates.js';
import type { Card, EventItem, OrganizerItem, TermItem, VenueItem } from '#lib/store/items.js';
import type { Linked } from './present.js';
import { presentWpPost } from './wp-post.js';
import { readableWall, wellTyped } from './well-typed.js';

type Shown = EventItem | VenueItem | OrganizerItem | Card;

/** PHP's DateTime as json_encode() writes it: its wall time to the microsecond, and its zone. */
function phpDate(wall: string, zone: string): { date: string; timezone_type: number; timezone: string } {
  const fixed = /^UTC([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(zone);
  if (fixed) {
    // TEC builds `UTC+0` as UTC, and other offsets as a fixed offset (PHP's timezone type 1).
    const [, sign, h, m] = fixed;
    if (Number(h) === 0 && Number(m ?? 0) === 0) return { date: `${wall}.000000`, timezone_type: 3, timezone: 'UTC' };
    return { date: `${wall}.000000`, timezone_type: 1, timezone: `${sign}${h!.padStart(2, '0')}:${(m ?? '00').padStart(2, '0')}` };
  }
  return { date: `${wall}.000000`, timezone_type: 3, timezone: zone || 'UTC' };
}

/** A UTC wall time in a zone (`UTC±N` zones included). */
function inZone(utc: string, zone: string): string {
  if (!readableWall(utc)) return utc;
  const at = Date.parse(`${utc.replace(' ', 'T')}Z`);
  const shifted = new Date(at + offsetAt(zone, at) * 60_000);
  return shifted.toISOString().slice(0, 19).replace('T', ' ');
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** TEC's date format: `F j`, with `, Y` when the year is not the current one. */
function dayText(wall: string, now: Date): string {
  const [y, m, d] = wall.slice(0, 10).split('-').map(Number) as [number, number, number];
  return `${MONTHS[m - 1]} ${d}${y === now.getUTCFullYear() ? '' : `, ${y}`}`;
}

/** WordPress's default time format, `g:i a`. */
function timeText(wall: string): string {
  const h = Number(wall.slice(11, 13));
  return `${h % 12 === 0 ? 12 : h % 12}:${wall.slice(14, 16)} ${h < 12 ? 'am' : 'pm'}`;
}

/** tribe_events_event_schedule_details(), in full and short (the day left out of a one-day event). */
function schedule(e: EventItem, now: Date): { full: string; short: string } {
  if (!readableWall(e.start) || !readableWall(e.end)) return { full: '', short: '' };
  const start = '<span class="tribe-event-date-start">';
  const oneDay = e.start.slice(0, 10) === e.end.slice(0, 10);
  if (e.allDay) {
    if (oneDay) return { full: `${start}${dayText(e.start, now)}</span>`, short: 'All day' };
    const full = `${start}${dayText(e.start, now)}</span> - <span class="tribe-event-date-end">${dayText(e.end, now)}</span>`;
    return { full, short: full };
  }
  if (oneDay) {
    const end = e.end === e.start ? '' : ` - <span class="tribe-event-time">${timeText(e.end)}</span>`;
    return { full: `${start}${dayText(e.start, now)} @ ${timeText(e.start)}</span>${end}`, short: `${start}${timeText(e.start)}</span>${end}` };
  }
  const full = `${start}${dayText(e.start, now)} @ ${timeText(e.start)}</span> - <span class="tribe-event-date-end">${dayText(e.end, now)} @ ${timeText(e.end)}</span>`;
  return { full, short: full };
}

const DAY_MS = 86_400_000;
const wallMs = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}Z`);

/**
 * The days a multi-day event spans, as TEC's model counts them; false for an event of one day. An
 * all-day event spans from its start to a second after its end; another event spans its start's
 * day and one more for each end of day (23:59:59) it passes.
 */
function multiday(e: EventItem): number | false {
  if (!readableWall(e.start) || !readableWall(e.end)) return false;
  const start = wallMs(e.start);
  const end = wallMs(e.end);
  if (e.allDay) {
    const days = Math.floor((end + 1000 - start) / DAY_MS);
    return days > 1 ? days : false;
  }
  const endOfDay = wallMs(`${e.start.slice(0, 10)} 23:59:59`);
  if (endOfDay + 1000 >= end && e.start.slice(0, 10) === e.end.slice(0, 10)) return false;
  let days = 1;
  for (let at = endOfDay; at < end; at += DAY_MS) days++;
  return days;
}

/** A venue's map link as TEC's `tribe_get_map_link()` writes it (esc_url'd: `&` as `&#038;`). */
function directionsLink(v: Pick<VenueItem, 'address' | 'city' | 'stateprovince' | 'state' | 'province' | 'zip' | 'country'>): string {
  const parts = [v.address, v.city, v.stateprovince || v.state || v.province, v.zip, v.country].map((s) => (s ?? '').trim()).filter(Boolean);
  if (!parts.length) return '';
  const q = encodeURIComponent(parts.join(' ')).replace(/%20/g, '+');
  return `https://maps.google.com/maps?f=q&#038;source=s_q&#038;hl=en&#038;geocode=&#038;q=${q}`;
}

/** The core controller's view of a post, as TEC keeps it: no meta, no links. */
function core(p: Shown, terms: ReadonlyMap<number, TermItem> | undefined, unlocked: boolean): Record<string, unknown> {
  const body = presentWpPost(p, { context: 'view', allow: ['GET'], terms, unlocked });
  delete body.meta;
  delete body._links;
  return body;
}

export function presentTecVenue(given: VenueItem | Card): Record<string, unknown> {
  const v = wellTyped(given);
  if (v.kind !== 'venue') return core(v, undefined, true);
  return Object.assign(core(v, undefined, true), {
    address: v.address,
    country: v.country,
    city: v.city,
    state_province: v.stateprovince,
    state: v.state,
    province: v.province,
    zip: v.zip,
    phone: v.phone,
    directions_link: directionsLink(v),
    website: v.website ?? '',
  });
}

export function presentTecOrganizer(given: OrganizerItem | Card): Record<string, unknown> {
  const o = wellTyped(given);
  if (o.kind !== 'organizer') return core(o, undefined, true);
  return Object.assign(core(o, undefined, true), { phone: o.phone, website: o.website ?? '', email: o.email });
}

/** An event with its terms, venues and organizers (`linked`), at `now` (for is_past, is_now and the schedule's year). */
export function presentTecEvent(given: EventItem, linked: Linked, now: Date, unlocked: boolean): Record<string, unknown> {
  const e = wellTyped(given);
  const cfg = config();
  const zone = e.timezone || cfg.siteTimezone;
  const venues = e.venues.map((id) => linked.venues.get(id)).filter((v) => v !== undefined);
  const organizers = e.organizers.map((id) => linked.organizers.get(id)).filter((o) => o !== undefined);
  const utcStart = readableWall(e.utcStart) ? e.utcStart : wallToUtc(e.start, zone);
  const utcEnd = readableWall(e.utcEnd) ? e.utcEnd : wallToUtc(e.end, zone);
  const nowUtc = now.toISOString().slice(0, 19).replace('T', ' ');
  const seconds = Math.max(0, Math.round((Date.parse(`${utcEnd.replace(' ', 'T')}Z`) - Date.parse(`${utcStart.replace(' ', 'T')}Z`)) / 1000));
  const { cost } = presentCost(e.cost, { symbol: cfg.currencySymbol, position: cfg.currencyPosition });
  const { full, short } = schedule(e, now);
  // TEC shows times in the event's own zone (its default "timezone mode").
  const dates = {
    start: phpDate(e.start, zone),
    start_utc: phpDate(utcStart, 'UTC'),
    start_site: phpDate(inZone(utcStart, cfg.siteTimezone), cfg.siteTimezone),
    start_display: phpDate(e.start, zone),
    end: phpDate(e.end, zone),
    end_utc: phpDate(utcEnd, 'UTC'),
    end_site: phpDate(inZone(utcEnd, cfg.siteTimezone), cfg.siteTimezone),
    end_display: phpDate(e.end, zone),
  };
  return Object.assign(core(e, linked.terms, unlocked), {
    start_date: e.start,
    start_date_utc: utcStart,
    end_date: e.end,
    end_date_utc: utcEnd,
    dates,
    timezone: zone,
    // TEC reads a timed event's stored duration (text), and works an all-day event's out (a number).
    duration: e.allDay ? seconds : String(seconds),
    multiday: multiday(e),
    is_past: utcEnd < nowUtc,
    is_now: utcStart <= nowUtc && nowUtc <= utcEnd,
    all_day: e.allDay,
    // Set by TEC's week view only.
    starts_this_week: null,
    ends_this_week: null,
    this_week_duration: null,
    happens_this_week: null,
    displays_on: [],
    featured: e.featured,
    sticky: e.sticky === true,
    cost,
    organizer_names: organizers.map((o) => o.title),
    organizers: organizers.map(presentTecOrganizer),
    venues: venues.map(presentTecVenue),
    schedule_details: full,
    short_schedule_details: short,
  });
}
