// Events Calendar Pro's series as RFC 5545 lines, so that an imported series stays a series. The
// event's start is the set's DTSTART (and its first occurrence, which Pro counts as its first
// too); rules become RRULE lines, single extra dates RDATE, excluded dates EXDATE, all in the
// event's time zone. Excluded rules come back apart (`excludeRules`), for the caller to expand
// and subtract. What RFC 5545 cannot say as Pro meant it comes back as `unsupported`, in words.
// An event off its rule's pattern (weekly on Wednesdays, starting on a Monday) is a set RFC 5545
// leaves undefined: Pro counted the event as its first occurrence, and readers of the rule alone
// (ical.js's iterator) skip it, so a caller expanding the lines adds the event's start itself.
import { isFixedOffset, wallToUtc } from '#lib/domain/time/dates.js';
import { phpUnserialize } from './php-unserialize.js';
import { blockRules, classicRules, isObject, plain, type Rule, type Rules } from './shapes.js';

/** The event a series hangs on: its wall times ('YYYY-MM-DD HH:MM:SS') in its zone. */
export interface ProEvent {
  start: string;
  end: string;
  timezone: string;
  allDay?: boolean;
}

export type ProRecurrence = { lines: string[]; excludeRules: string[] } | { unsupported: string };

class Unsupported extends Error {}

/** From `_EventRecurrence` as stored (PHP-serialised) or already read. */
export function proRecurrenceToRfc5545(meta: string, event: ProEvent): ProRecurrence {
  let rules: Rules;
  try {
    rules = classicRules(plain(phpUnserialize(meta)));
  } catch (error) {
    return { unsupported: `_EventRecurrence: ${(error as Error).message}` };
  }
  return toRfc5545(rules, event);
}

/** From the block editor's `_tribe_blocks_recurrence_rules` and `_tribe_blocks_recurrence_exclusions`. */
export function proBlocksRecurrenceToRfc5545(rules: string, exclusions: string | undefined, event: ProEvent): ProRecurrence {
  const read = blockRules(rules, exclusions);
  return read ? toRfc5545(read, event) : { unsupported: "the block editor's recurrence meta is not JSON" };
}

function toRfc5545({ rules, exclusions }: Rules, event: ProEvent): ProRecurrence {
  try {
    const ev = eventOf(event);
    const rrules: string[] = [];
    const rdates: string[] = [];
    const exdates: string[] = [];
    const excludeRules: string[] = [];
    for (const rule of rules) {
      const r = resolve(rule, false);
      if (!r) continue;
      if (r.type === 'Date') rdates.push(rdate(r.custom, ev));
      else rrules.push(`RRULE:${rrule(r, ev, true)}`);
    }
    for (const rule of exclusions) {
      const r = resolve(rule, true);
      if (!r) continue;
      if (r.type === 'Date') exdates.push(exdate(rule, r.custom, ev));
      else excludeRules.push(`RRULE:${rrule(r, ev, false)}`);
    }
    return { lines: [...rrules, ...rdates, ...exdates], excludeRules };
  } catch (error) {
    if (error instanceof Unsupported || error instanceof RangeError) return { unsupported: error.message };
    throw error;
  }
}

interface Ev {
  start: string;
  tz: string;
  allDay: boolean;
  /** Seconds into the day the event starts, and how long it lasts. */
  startTime: number;
  duration: number;
}

function eventOf(e: ProEvent): Ev {
  const start = naiveSeconds(e.start);
  const end = naiveSeconds(e.end);
  if (start === undefined || end === undefined) throw new Unsupported(`the event's dates ('${e.start}', '${e.end}') are not wall times`);
  wallToUtc(e.start, e.timezone); // a zone the time zone database does not know is a RangeError
  return { start: e.start, tz: e.timezone, allDay: e.allDay === true, startTime: start % 86_400, duration: end - start };
}

interface Resolved {
  type: string;
  custom: Record<string, unknown>;
  rule: Rule;
}

const EVERY: Record<string, string> = { 'Every Day': 'Daily', 'Every Week': 'Weekly', 'Every Month': 'Monthly', 'Every Year': 'Yearly' };
const TYPES = new Set(['Daily', 'Weekly', 'Monthly', 'Yearly', 'Date']);

/** The rule's kind ('Daily' … 'Date') and custom fields; undefined for an empty or 'None' rule. */
function resolve(rule: Rule, exclusion: boolean): Resolved | undefined {
  const type = String(rule.type ?? '');
  const custom = isObject(rule.custom) ? rule.custom : {};
  const customType = String(custom.type ?? '');
  if ((type === '' && customType === '') || type === 'None' || customType === 'None') return undefined;
  // Pro reads every exclusion as a custom rule; 'Every Week' and its kin are custom rules of interval 1.
  if (type in EVERY && !(exclusion && TYPES.has(customType))) return { type: EVERY[type]!, custom: { 'same-time': 'yes' }, rule };
  const kind = type === 'Custom' || exclusion ? customType : type;
  if (!TYPES.has(kind)) throw new Unsupported(`a rule of type '${type}'${customType ? ` / '${customType}'` : ''}, which Pro does not define`);
  return { type: kind, custom, rule };
}

const DAYS = ['', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const ORDINALS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, last: -1 };

/** The RRULE value of a rule; `timed` checks that its occurrences keep the event's time. */
function rrule(r: Resolved, ev: Ev, timed: boolean): string {
  if (timed) sameTime(r.custom, ev, r.type);
  const raw = r.custom.interval;
  const interval = raw == null || raw === '' ? 1 : Number(raw);
  if (!Number.isSafeInteger(interval) || interval < 1) throw new Unsupported(`a ${r.type.toLowerCase()} rule with interval '${String(raw)}'`);
  const parts = [`FREQ=${r.type.toUpperCase()}`, ...(interval > 1 ? [`INTERVAL=${interval}`] : [])];
  if (r.type === 'Weekly') parts.push(...weekly(r.custom));
  if (r.type === 'Monthly') parts.push(...monthly(isObject(r.custom.month) ? r.custom.month : {}));
  if (r.type === 'Yearly') parts.push(...yearly(isObject(r.custom.year) ? r.custom.year : {}, ev));
  return [...parts, ...limit(r.rule, ev)].join(';');
}

function weekly(custom: Record<string, unknown>): string[] {
  const week = isObject(custom.week) ? custom.week : {};
  const days = numbers(week.day);
  if (days.some((d) => !(d >= 1 && d <= 7))) throw new Unsupported(`a weekly rule on days '${String(week.day)}' (Pro numbers them 1 to 7)`);
  // No day chosen: Pro repeats on the event's own weekday, as FREQ=WEEKLY alone does.
  return days.length
    ? [
        `BYDAY=${[...new Set(days)]
          .sort()
          .map((d) => DAYS[d])
          .join(',')}`,
      ]
    : [];
}

/** 'First' … 'Last' with a weekday (1-7) or 8 ("day"), or a day of the month (1-31). */
function dayOfMonth(spec: Record<string, unknown>, label: string): string[] {
  const number = String(spec.number ?? '').trim();
  const day = String(spec.day ?? '').trim();
  if (/^[0-9]+$/.test(number)) {
    const n = Number(number);
    if (n < 1 || n > 31) throw new Unsupported(`a ${label} rule on day ${number} of the month`);
    return [`BYMONTHDAY=${n}`];
  }
  const nth = ORDINALS[number.toLowerCase()];
  if (nth === undefined) throw new Unsupported(`a ${label} rule on the '${number}' ${day ? `'${day}'` : 'day'}, which Pro does not define`);
  if (/^[1-7]$/.test(day)) return [`BYDAY=${nth}${DAYS[Number(day)]}`];
  if (day === '8' && label === 'monthly') return [`BYMONTHDAY=${nth}`];
  throw new Unsupported(`a ${label} rule on the ${number.toLowerCase()} '${day}', which has no defined date`);
}

function monthly(month: Record<string, unknown>): string[] {
  const same = month['same-day'] === 'yes' || ((month.number ?? '') === '' && (month.day ?? '') === '');
  // The same day as the event: FREQ=MONTHLY alone, which skips months without it, as Pro does.
  return same ? [] : dayOfMonth(month, 'monthly');
}

const MONTH_DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function yearly(year: Record<string, unknown>, ev: Ev): string[] {
  const eventMonth = Number(ev.start.slice(5, 7));
  const eventDay = Number(ev.start.slice(8, 10));
  const given = typeof year.month === 'string' ? year.month.split(',') : year.month;
  const months = [...new Set(numbers(given))].sort((a, b) => a - b);
  if (months.some((m) => !(m >= 1 && m <= 12))) throw new Unsupported(`a yearly rule in months '${String(year.month)}'`);
  const byMonth = `BYMONTH=${(months.length ? months : [eventMonth]).join(',')}`;
  const same = year['same-day'] === 'yes' || (year.number ?? '') === '';
  if (same) return months.length === 0 || (months.length === 1 && months[0] === eventMonth) ? [] : [byMonth, `BYMONTHDAY=${eventDay}`];
  const byDay = dayOfMonth(year, 'yearly');
  const n = Number(String(year.number).trim());
  // Pro wraps a day past a month's end (the 31st of April became the 1st); RFC 5545 skips it.
  if (Number.isInteger(n) && (months.length ? months : [eventMonth]).some((m) => n > MONTH_DAYS[m]!)) {
    throw new Unsupported(`a yearly rule on day ${n} of a month that can be shorter, which Pro moves into the month and RFC 5545 skips`);
  }
  return [byMonth, ...byDay];
}

/** COUNT or UNTIL; an end date includes its whole day, as Pro's does. */
function limit(rule: Rule, ev: Ev): string[] {
  const type = String(rule['end-type'] ?? '');
  if (type === 'After') {
    const count = Number(rule['end-count']);
    if (!Number.isSafeInteger(count) || count < 1) throw new Unsupported(`a rule ending after '${String(rule['end-count'])}' events`);
    return [`COUNT=${count}`];
  }
  if (type !== 'On') return [];
  const end = String(rule.end ?? '').match(/^\d{4}-\d{2}-\d{2}/)?.[0];
  if (!end || naiveSeconds(`${end} 00:00:00`) === undefined) throw new Unsupported(`a rule ending on '${String(rule.end)}', which is not a date`);
  if (ev.allDay) return [`UNTIL=${end.replaceAll('-', '')}`];
  return [`UNTIL=${compact(wallToUtc(`${end} 23:59:59`, ev.tz))}Z`];
}

/** Throws when a rule's occurrences do not keep the event's time of day and length. */
function sameTime(custom: Record<string, unknown>, ev: Ev, type: string): void {
  if (ev.allDay) return;
  const own = ownTime(custom);
  if (!own || (own.start === ev.startTime && own.duration === ev.duration)) return;
  throw new Unsupported(
    `a ${type.toLowerCase()} rule whose occurrences start at ${clock(own.start)} and last ${minutes(own.duration)}, while the event starts at ` +
      `${clock(ev.startTime)} and lasts ${minutes(ev.duration)}: one RRULE gives every occurrence the event's own time and length`,
  );
}

/** The time and length a rule gives its occurrences, when it gives them its own. */
function ownTime(custom: Record<string, unknown>): { start: number; duration: number } | undefined {
  const start = custom['start-time'];
  if (isObject(start)) {
    // Before Pro 4.4: {hour, minute, meridian} and a {days, hours, minutes} duration.
    const hour = (Number(start.hour) % 12) + (String(start.meridian ?? '').toLowerCase() === 'pm' ? 12 : 0);
    const h = start.meridian ? hour : Number(start.hour);
    const d = isObject(custom.duration) ? custom.duration : {};
    const duration = (Number(d.days) || 0) * 86_400 + (Number(d.hours) || 0) * 3600 + (Number(d.minutes) || 0) * 60;
    return { start: h * 3600 + Number(start.minute) * 60, duration };
  }
  if (custom['same-time'] !== 'no' || start == null) return undefined;
  const from = timeOfDay(start);
  const to = timeOfDay(custom['end-time']);
  if (from === undefined || to === undefined) throw new Unsupported(`a rule with times '${String(start)}' to '${String(custom['end-time'])}'`);
  const days = Number(custom['end-day']);
  return { start: from, duration: to - from + (Number.isInteger(days) && days > 0 ? days * 86_400 : 0) };
}

/** An RDATE for a 'Date' rule: at the event's time, or at its own (with its own length as a PERIOD). */
function rdate(custom: Record<string, unknown>, ev: Ev): string {
  const date = dateOf(isObject(custom.date) ? custom.date.date : undefined);
  if (ev.allDay) return `RDATE;VALUE=DATE:${date.replaceAll('-', '')}`;
  const own = ownTime(custom) ?? { start: ev.startTime, duration: ev.duration };
  const start = naiveSeconds(`${date} 00:00:00`)! + own.start;
  if (own.duration === ev.duration) return `RDATE${zoned(wallOf(start), ev)}`;
  return `RDATE;VALUE=PERIOD${zoned(wallOf(start), ev)}/${zoned(wallOf(start + own.duration), ev).split(':')[1]}`;
}

/** An EXDATE for an excluded date: Pro excludes the whole day, so the event's time on it. */
function exdate(rule: Rule, custom: Record<string, unknown>, ev: Ev): string {
  const date = dateOf(rule.end || (isObject(custom.date) ? custom.date.date : undefined));
  if (ev.allDay) return `EXDATE;VALUE=DATE:${date.replaceAll('-', '')}`;
  return `EXDATE${zoned(`${date} ${ev.start.slice(11)}`, ev)}`;
}

function dateOf(v: unknown): string {
  const date = String(v ?? '').match(/^\d{4}-\d{2}-\d{2}/)?.[0];
  if (!date || naiveSeconds(`${date} 00:00:00`) === undefined) throw new Unsupported(`a single date '${String(v ?? '')}', which is not a date`);
  return date;
}

/** ';TZID=zone:local' for a named zone; ':utcZ' for UTC and WordPress's fixed offsets, which have no TZID. */
function zoned(wall: string, ev: Ev): string {
  return isFixedOffset(ev.tz) ? `:${compact(wallToUtc(wall, ev.tz))}Z` : `;TZID=${ev.tz}:${compact(wall)}`;
}

const compact = (wall: string) => `${wall.slice(0, 10).replaceAll('-', '')}T${wall.slice(11).replaceAll(':', '')}`;
const pad = (n: number) => String(n).padStart(2, '0');
const clock = (s: number) => `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}`;
const minutes = (s: number) => `${Math.round(s / 60)} minutes`;

/** A list (or one value) of whole numbers as numbers; anything else becomes NaN, for the caller to refuse. */
function numbers(v: unknown): number[] {
  const items = Array.isArray(v) ? v : isObject(v) ? Object.values(v) : v == null || v === '' ? [] : [v];
  return items.map((x) => (/^[0-9]+$/.test(String(x).trim()) ? Number(String(x).trim()) : Number.NaN));
}

/** Seconds since 0000-01-01 of a wall time, as if UTC; undefined when it is not one. */
function naiveSeconds(wall: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(wall);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y + 400, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
  return ms / 1000;
}

function wallOf(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${String(d.getUTCFullYear() - 400).padStart(4, '0')}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** '19:00', '19:00:00', '7:00pm', '7:00 PM' as seconds into the day. */
function timeOfDay(v: unknown): number | undefined {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]m)?$/i.exec(String(v ?? '').trim());
  if (!m) return undefined;
  let hour = Number(m[1]);
  if (m[4]) hour = (hour % 12) + (m[4].toLowerCase() === 'pm' ? 12 : 0);
  return hour > 23 ? undefined : hour * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0);
}
