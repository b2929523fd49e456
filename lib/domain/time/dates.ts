/**
 * Date handling for the API, built on the built-in Intl (and the time zone database's abbreviations).
 *
 * TEC stores and outputs every date as a "wall" string 'YYYY-MM-DD HH:MM:SS' in some zone.
 * Internally a wall time is handled as "naive ms": the epoch milliseconds that wall time would
 * have if it were UTC. Calendar arithmetic and formatting then become plain Date.UTC work, and a
 * zone reduces to "instant -> naive ms" (Intl) plus its inverse (search around the transition).
 *
 * Errors: functions taking a Wall or a tz throw RangeError on malformed input (a programming
 * error); only parseDate, which handles user input, returns undefined instead.
 */
import { zoneAbbreviation } from './tz-abbr.js';
import { TZ_RULES } from './tz-rules.js';

/** 'YYYY-MM-DD HH:MM:SS' — every date the API stores or outputs uses this form. */
export type Wall = string;

const MS_MIN = 60_000;
const MS_HOUR = 3_600_000;
const MS_DAY = 86_400_000;
// 400 Gregorian years are exactly 146097 days. Date.UTC maps years 0..99 to 1900..1999, so we
// build dates 400 years later and shift back, which keeps weekdays and leap years identical.
const MS_400Y = 146_097 * MS_DAY;
// Wall strings have a 4-digit year, so anything outside 0000..9999 cannot be represented.
const MIN_NAIVE = naiveMs(0, 1, 1);
const MAX_NAIVE = naiveMs(10000, 1, 1); // exclusive
// WordPress offers offsets from UTC-12 to UTC+14.
const MAX_FIXED_OFFSET = 14 * MS_HOUR;

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/* ---------- naive ms helpers (no zone involved) ---------- */

function naiveMs(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number {
  return Date.UTC(y + 400, mo - 1, d, h, mi, s) - MS_400Y;
}

function daysInMonth(y: number, mo: number): number {
  // Day 0 of the next month is the last day of this one.
  return new Date(naiveMs(y, mo + 1, 0)).getUTCDate();
}

/** Naive ms for valid calendar fields, undefined otherwise (Date.UTC would silently roll over). */
function checkedNaive(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return undefined;
  if (h > 23 || mi > 59 || s > 59) return undefined;
  return naiveMs(y, mo, d, h, mi, s);
}

function inRange(naive: number): boolean {
  return naive >= MIN_NAIVE && naive < MAX_NAIVE; // false for NaN too
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function formatNaive(naive: number): Wall {
  if (!inRange(naive)) throw new RangeError('Date out of range');
  const d = new Date(naive);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` + `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

const WALL_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

function parseWall(wall: Wall): number {
  const m = WALL_RE.exec(wall);
  const naive = m && checkedNaive(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  if (naive == null) throw new RangeError(`Invalid wall time: ${wall}`);
  return naive;
}

const dayStart = (naive: number): number => naive - (((naive % MS_DAY) + MS_DAY) % MS_DAY);

function addMonthsNaive(naive: number, months: number): number {
  const d = new Date(naive);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const y = Math.floor(total / 12);
  const mo = total - y * 12 + 1;
  const day = Math.min(d.getUTCDate(), daysInMonth(y, mo));
  return naiveMs(y, mo, day) + (naive - dayStart(naive));
}

/* ---------- zones ---------- */

type Zone = { kind: 'fixed'; offset: number } | { kind: 'iana'; fmt: Intl.DateTimeFormat };

// Only valid zones are cached, so junk tz strings from requests cannot grow the map.
const zones = new Map<string, Zone>();

// WordPress "manual offset" names: 'UTC', 'UTC+5', 'UTC-3:30', 'UTC+5.5', 'UTC+05:45'.
const FIXED_RE = /^UTC(?:([+-])(\d{1,2})(?::(\d{2})|\.(\d+))?)?$/;

function parseFixed(tz: string): number | undefined {
  const m = FIXED_RE.exec(tz);
  if (!m) return undefined;
  if (!m[1]) return 0;
  const minutes = m[3] !== undefined ? +m[3] : m[4] !== undefined ? Math.round(+`0.${m[4]}` * 60) : 0;
  if (minutes > 59) return undefined;
  const offset = +m[2]! * MS_HOUR + minutes * MS_MIN;
  if (offset > MAX_FIXED_OFFSET) return undefined;
  return m[1] === '-' ? -offset : offset;
}

function getZone(tz: string): Zone | undefined {
  let zone = zones.get(tz);
  if (zone) return zone;
  // Fixed offsets are checked first: Intl (Node 20) does not know them, and UTC needs no Intl.
  const offset = parseFixed(tz);
  if (offset !== undefined) {
    zone = { kind: 'fixed', offset };
  } else {
    try {
      const fmt = new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        // h23 avoids the '24' hour some engines emit with hour12:false; era tells BC years apart.
        hourCycle: 'h23',
        era: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        timeZoneName: 'short',
      });
      zone = { kind: 'iana', fmt };
    } catch {
      return undefined;
    }
  }
  zones.set(tz, zone);
  return zone;
}

function zoneOf(tz: string): Zone {
  const zone = getZone(tz);
  if (!zone) throw new RangeError(`Unknown timezone: ${tz}`);
  return zone;
}

/** Instant (epoch ms) -> naive ms of the wall time in the zone, truncated to the second. */
function toNaive(zone: Zone, instant: number): number {
  if (!Number.isFinite(instant)) throw new RangeError('Invalid date');
  const t = Math.floor(instant / 1000) * 1000;
  if (zone.kind === 'fixed') return t + zone.offset;
  const p: Record<string, string> = {};
  for (const { type, value } of zone.fmt.formatToParts(t)) p[type] = value;
  const year = p.era === 'BC' ? 1 - Number(p.year) : Number(p.year);
  return naiveMs(year, Number(p.month), Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
}

/**
 * Naive ms of a wall time in the zone -> instant (epoch ms), resolved as PHP resolves it (TEC
 * computes its UTC times with PHP's DateTime): the offset in force at the wall time read as UTC,
 * corrected once. So a wall time the zone passes twice is the later instant east of UTC
 * (Vilnius 03:30 on 2027-10-31 -> 01:30 UTC, +02:00) and the earlier one west of it (New York
 * 01:30 on 2027-11-07 -> 05:30 UTC, -04:00); a wall time in a gap takes the offset before the change
 * (02:30 EST -> 03:30 EDT).
 */
function toInstant(zone: Zone, naive: number): number {
  if (zone.kind === 'fixed') return naive - zone.offset;
  const offset = (t: number) => toNaive(zone, t) - Math.floor(t / 1000) * 1000;
  const current = offset(naive);
  const actual = offset(naive - current);
  if (current === actual) return naive - current;
  if (current > actual) return naive - actual;
  // Between the two readings lies a change: the offset before it unless the wall time falls past it.
  return offset(naive - actual) !== actual ? naive - current : naive - actual;
}

/* ---------- public API ---------- */

/** True for an IANA zone name Intl knows (e.g. 'Europe/Vilnius', 'America/New_York', 'UTC') or a WordPress-style fixed offset 'UTC', 'UTC+0', 'UTC+5', 'UTC-3:30', 'UTC+5.5', 'UTC+05:45'. */
export function isValidTimezone(tz: string): boolean {
  return typeof tz === 'string' && getZone(tz) !== undefined;
}

/** 'HH:MM', 'HH:MM:SS' (24h) or '9am', '9:30am', '12pm' (12h) -> ms since midnight. */
function parseTime(text: string): number | undefined {
  let m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (m) {
    const [h, mi, s] = [+m[1]!, +m[2]!, +(m[3] ?? 0)];
    return h > 23 || mi > 59 || s > 59 ? undefined : h * MS_HOUR + mi * MS_MIN + s * 1000;
  }
  m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)$/.exec(text);
  if (m) {
    const [h, mi] = [+m[1]!, +(m[2] ?? 0)];
    if (h < 1 || h > 12 || mi > 59) return undefined;
    // 12am is midnight, 12pm is noon.
    return ((h % 12) + (m[3] === 'pm' ? 12 : 0)) * MS_HOUR + mi * MS_MIN;
  }
  return undefined;
}

function fromTimestamp(seconds: number, zone: Zone): number | undefined {
  if (!Number.isFinite(seconds)) return undefined;
  const ms = Math.floor(seconds) * 1000;
  // Beyond what a Date can hold; the year-range check in parseDate catches the rest.
  if (Math.abs(ms) > 8.64e15) return undefined;
  return toNaive(zone, ms);
}

function parseNaive(input: string | number, zone: Zone, now: Date): number | undefined {
  if (typeof input === 'number') return fromTimestamp(input, zone);
  const s = input.trim().toLowerCase();
  if (/^-?\d+$/.test(s)) return fromTimestamp(Number(s), zone);

  // 'YYYY-MM-DD' with an optional 24h or 12h time: wall time in tz as written.
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:\s+(.+))?$/.exec(s);
  if (m) {
    const day = checkedNaive(+m[1]!, +m[2]!, +m[3]!);
    const time = m[4] === undefined ? 0 : parseTime(m[4]);
    return day === undefined || time === undefined ? undefined : day + time;
  }

  // ISO 8601 with 'T'; fractional seconds are dropped.
  m = /^(\d{4})-(\d{2})-(\d{2})t(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(z|([+-])(\d{2}):?(\d{2}))?$/.exec(s);
  if (m) {
    const naive = checkedNaive(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
    if (naive === undefined) return undefined;
    if (m[7] === undefined) return naive; // no offset: wall time in tz
    let offset = 0;
    if (m[7] !== 'z') {
      if (+m[9]! > 23 || +m[10]! > 59) return undefined;
      offset = (m[8] === '-' ? -1 : 1) * (+m[9]! * MS_HOUR + +m[10]! * MS_MIN);
    }
    return toNaive(zone, naive - offset);
  }

  if (s === 'now') return toNaive(zone, now.getTime());

  // Relative days are counted on the calendar of tz, which may differ from the UTC date.
  const current = toNaive(zone, now.getTime());
  const today = dayStart(current);

  m = /^(today|tomorrow|yesterday|next\s+([a-z]+))(?:\s+(.+))?$/.exec(s);
  if (m) {
    let day: number;
    if (m[1] === 'today') day = today;
    else if (m[1] === 'tomorrow') day = today + MS_DAY;
    else if (m[1] === 'yesterday') day = today - MS_DAY;
    else {
      const target = WEEKDAYS.indexOf(m[2]!);
      if (target < 0) return undefined;
      // 1..7 days ahead: 'next monday' on a Monday is a week later.
      day = today + (((target - new Date(today).getUTCDay() + 6) % 7) + 1) * MS_DAY;
    }
    const time = m[3] === undefined ? 0 : parseTime(m[3]);
    return time === undefined ? undefined : day + time;
  }

  m = /^\+\s*(\d+)\s*(days?|weeks?|months?)(?:\s+(.+))?$/.exec(s);
  if (m) {
    const n = Number(m[1]);
    const unit = m[2]!;
    // Wall-clock arithmetic (like PHP's strtotime): '+1 day' keeps the time of day across DST.
    const moved = unit.startsWith('month') ? addMonthsNaive(current, n) : current + n * (unit.startsWith('week') ? 7 : 1) * MS_DAY;
    if (m[3] === undefined) return moved;
    const time = parseTime(m[3]);
    return time === undefined ? undefined : dayStart(moved) + time;
  }

  return undefined;
}

/**
 * Parses a date input. `tz` is the zone of the resulting wall time; `now` defaults to new Date().
 * Accepted forms (anything else -> undefined):
 *  - 'YYYY-MM-DD' (midnight), 'YYYY-MM-DD HH:MM', 'YYYY-MM-DD HH:MM:SS' — wall time in tz, taken as written;
 *  - 'YYYY-MM-DD' followed by a 12h time like '4pm', '9am', '9:30am', '12pm' (space separated);
 *  - ISO 8601 with 'T': 'YYYY-MM-DDTHH:MM[:SS[.fff]]' optionally followed by 'Z' or an offset '+02:00'/'+0200'. Without Z/offset: wall time in tz as written. With Z/offset: that instant, converted to wall time in tz.
 *  - a Unix timestamp in seconds, as a number or a string of digits (optionally negative) — that instant, converted to wall time in tz;
 *  - relative: 'now' (the current instant), 'today' / 'tomorrow' / 'yesterday' (midnight of that day in tz), 'next monday'..'next sunday' (the next such weekday strictly after today in tz, midnight), each optionally followed by a time: '9am', '4pm', '9:30am', '16:30', '16:30:15' (e.g. 'tomorrow 9am', 'next wednesday 4pm', 'today 16:30'); and '+N day|days|week|weeks|month|months' (relative to now, keeps the time of day; month addition clamps to the month's last day), also optionally followed by a time which then replaces the time of day.
 * Case-insensitive, surrounding whitespace ignored. Invalid calendar dates (2027-02-30, hour 25) -> undefined.
 * Returns the wall time in tz. Throws RangeError for an unknown tz (that is the caller's bug, not bad input).
 */
export function parseDate(input: string | number, tz: string, now: Date = new Date()): Wall | undefined {
  const zone = zoneOf(tz);
  if (typeof input !== 'string' && typeof input !== 'number') return undefined;
  const naive = parseNaive(input, zone, now);
  return naive !== undefined && inRange(naive) ? formatNaive(naive) : undefined;
}

/** Converts a wall time in tz to the UTC wall time, with correct DST. For a nonexistent local time (spring-forward gap) move forward by the gap (e.g. 02:30 on the US spring-forward day in New York -> 03:30 EDT = 07:30 UTC); for an ambiguous one (fall back) take the earlier (first) instant. */
export function wallToUtc(wall: Wall, tz: string): Wall {
  // An instant's epoch ms is exactly the naive ms of its UTC wall time.
  return formatNaive(toInstant(zoneOf(tz), parseWall(wall)));
}

/** Converts a UTC wall time to the wall time in tz. */
export function utcToWall(utc: Wall, tz: string): Wall {
  return formatNaive(toNaive(zoneOf(tz), parseWall(utc)));
}

/** The current instant as a UTC wall time. */
export function nowUtc(now: Date = new Date()): Wall {
  return formatNaive(Math.floor(now.getTime() / 1000) * 1000);
}

/** JS Date (instant) -> wall time in tz. */
export function instantToWall(instant: Date, tz: string): Wall {
  return formatNaive(toNaive(zoneOf(tz), instant.getTime()));
}

/** Wall time in tz -> Date instant. */
export function wallToInstant(wall: Wall, tz: string): Date {
  return new Date(toInstant(zoneOf(tz), parseWall(wall)));
}

/** {year:'2017',month:'01',day:'05',hour:'14',minutes:'23',seconds:'36'} — zero-padded strings, key order exactly this. */
export function dateDetails(wall: Wall): {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
} {
  parseWall(wall);
  return {
    year: wall.slice(0, 4),
    month: wall.slice(5, 7),
    day: wall.slice(8, 10),
    hour: wall.slice(11, 13),
    minutes: wall.slice(14, 16),
    seconds: wall.slice(17, 19),
  };
}

/**
 * The zone abbreviation at that wall time, as PHP and so TEC show it: the time zone database's
 * ('EET'/'EEST', 'MSK', 'BST', '+0545'), and for WordPress's fixed offsets the name itself
 * ('UTC+0', 'UTC+5').
 */
export function timezoneAbbr(tz: string, wall: Wall): string {
  const zone = zoneOf(tz);
  if (zone.kind === 'fixed') return tz;
  const instant = toInstant(zone, parseWall(wall));
  const offset = Math.round((toNaive(zone, instant) - Math.floor(instant / 1000) * 1000) / MS_MIN);
  // A zone named in other letters than the database's ('europe/vilnius') is looked up as Intl resolves it.
  const name = tz in TZ_RULES ? tz : zone.fmt.resolvedOptions().timeZone;
  return zoneAbbreviation(name, offset);
}

/** Minutes east of UTC of tz at the instant (epoch ms). */
export function offsetAt(tz: string, instant: number): number {
  const t = Math.floor(instant / 1000) * 1000;
  return Math.round((toNaive(zoneOf(tz), t) - t) / MS_MIN);
}

/** True for WordPress's fixed offsets ('UTC', 'UTC+5'), which have no time zone database entry. */
export function isFixedOffset(tz: string): boolean {
  return zoneOf(tz).kind === 'fixed';
}

/** 'YYYY-MM-DD 00:00:00' of the wall time's day. */
export function startOfDay(wall: Wall): Wall {
  parseWall(wall);
  return `${wall.slice(0, 10)} 00:00:00`;
}

/** 'YYYY-MM-DD 23:59:59' of the wall time's day. */
export function endOfDay(wall: Wall): Wall {
  parseWall(wall);
  return `${wall.slice(0, 10)} 23:59:59`;
}

function requireInteger(n: number): void {
  if (!Number.isInteger(n)) throw new RangeError(`Expected a whole number, got ${n}`);
}

/** Adds whole days to a wall time (calendar days; the time of day is kept). */
export function addDays(wall: Wall, days: number): Wall {
  requireInteger(days);
  return formatNaive(parseWall(wall) + days * MS_DAY);
}

/** Adds calendar months to a wall time; the day clamps to the target month's last day. */
export function addMonths(wall: Wall, months: number): Wall {
  requireInteger(months);
  return formatNaive(addMonthsNaive(parseWall(wall), months));
}

/** Compares two wall times (they sort lexicographically). */
export function compareWall(a: Wall, b: Wall): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
