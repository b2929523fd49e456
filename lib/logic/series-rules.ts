// A recurring event's rules on its records (lib/domain/recurrence): a series is its first event,
// which holds the rules and how many of its occurrences exist, and one event per later occurrence,
// made from the first at its own dates. Every event of a series carries the rules and the first
// event's id.
import { config } from '#lib/runtime/config.js';
import { invalidParam } from '#lib/contract/errors.js';
import { formatNaive, MS_DAY, parseNaive } from '#lib/domain/recurrence/calendar.js';
import { expandSeries, type Occurrence } from '#lib/domain/recurrence/expand.js';
import { recurrenceLines } from '#lib/domain/recurrence/lines.js';
import { parseRecurrence, type Series } from '#lib/domain/recurrence/parse.js';
import type { Moment } from '#lib/domain/recurrence/moments.js';
import type { Until } from '#lib/domain/recurrence/rule.js';
import { ZoneClock } from '#lib/domain/recurrence/zone-clock.js';
import { utcToWall, wallToUtc } from '#lib/domain/time/dates.js';
import { slugify } from '#lib/domain/slug.js';
import { keys } from '#lib/store/keys.js';
import type { EventItem } from '#lib/store/items.js';

export const zoneOf = (e: EventItem): string => e.timezone || config().siteTimezone;

/** A series' rules as stored, and its occurrences (the first is the event itself). */
export interface Rules {
  lines: string[];
  occurrences: Occurrence[];
}

/**
 * The occurrences `lines` give `e` (its start is DTSTART, in its zone), with rules without COUNT
 * or UNTIL followed to the horizon from `asOf`; a 400 naming `recurrence` when they cannot be.
 */
export function rulesOf(e: EventItem, lines: readonly string[] | string, asOf: Date, maxOccurrences = config().seriesMaxOccurrences): Rules {
  let parsed: ReturnType<typeof parseRecurrence>;
  try {
    parsed = parseRecurrence(typeof lines === 'string' ? [lines] : lines, e.start, zoneOf(e), e.allDay);
  } catch (err) {
    // The event's own zone or start: only a site zone this API cannot follow gets here.
    throw invalidParam('recurrence', `recurrence cannot be followed in the event's time zone: ${(err as Error).message}.`);
  }
  if (!parsed.ok) throw invalidParam('recurrence', parsed.error.message);
  const expanded = expandSeries(parsed.series, { now: asOf, horizonMonths: config().seriesHorizonMonths, maxOccurrences });
  if (!expanded.ok) throw invalidParam('recurrence', expanded.error.message);
  if (expanded.occurrences[0]?.start !== e.start) {
    throw invalidParam('recurrence', "recurrence: start_date is the series' first occurrence, and an EXDATE removes it; start the event at its first date instead.");
  }
  return { lines: recurrenceLines(parsed.series), occurrences: expanded.occurrences };
}

/** `e` as the first event of the series `lines` give it, expanded at `now`. */
export function startSeries(e: EventItem, lines: readonly string[] | string, now: Date): EventItem {
  const rules = rulesOf(e, lines, now);
  return { ...e, recurrence: rules.lines, seriesId: e.id, occurrence: e.start, series: { total: rules.occurrences.length, made: 1, asOf: now.toISOString() } };
}

/** The occurrences of a series' first event as its create expanded them. */
export const storedOccurrences = (first: EventItem): Occurrence[] =>
  first.recurrence && first.series ? rulesOf(first, first.recurrence, new Date(first.series.asOf), first.series.total).occurrences : [];

/** Whether `e` is the first event of a series whose occurrences are not all written yet. */
export const seriesPending = (e: EventItem | undefined): e is EventItem & Required<Pick<EventItem, 'series' | 'recurrence'>> =>
  !!e?.series && !!e.recurrence && e.seriesId === e.id && e.status !== 'trash' && e.series.made < e.series.total;

/** What an edit of an event keeps of its series. */
export const keptSeries = (old: EventItem | undefined): Pick<EventItem, 'recurrence' | 'seriesId' | 'series' | 'occurrence'> =>
  old?.seriesId === undefined
    ? {}
    : { recurrence: old.recurrence, seriesId: old.seriesId, ...(old.series ? { series: old.series } : {}), ...(old.occurrence ? { occurrence: old.occurrence } : {}) };

/** The start of the event of occurrence `at` of the series of `first` (its `occurrence`). */
export const occurrenceStart = (first: EventItem, at: Occurrence): string => (first.allDay ? at.start : utcToWall(at.utc, zoneOf(first)));

/** The create key of the occurrence at `utc` of the series of first event `id` (an import reserves the site's id with it). */
export const occurrenceKey = (id: number, utc: string): string => `series|${id}|${utc}`;

/** The slug an occurrence asks for: its first event's and its date. */
export const occurrenceSlug = (first: EventItem, at: Occurrence): string => slugify(`${first.slug}-${at.start.slice(0, 10)}`);

/**
 * The event of one later occurrence of `first`'s series: its fields, links and status, at the
 * occurrence's dates, with the same wall-clock length (a 19:00–21:00 event is that on either side
 * of a daylight-saving change). A wall time the zone skips is saved as the time it resolves to.
 */

export function occurrenceEvent(first: EventItem, at: Occurrence, id: number, slug: string): EventItem {
  const { series: _progress, timezoneAbbr: _abbr, indexVersion: _index, cards: _cards, ...fields } = first;
  const zone = zoneOf(first);
  const start = occurrenceStart(first, at);
  const end = formatNaive(parseNaive(start)! + (parseNaive(first.end)! - parseNaive(first.start)!));
  return { ...fields, ...keys.post(id), id, slug, version: 1, start, end, occurrence: start, utcStart: wallToUtc(start, zone), utcEnd: wallToUtc(end, zone) };
}

/**
 * The rules of `first`'s series ended before `cut` (a UTC wall time after its start), and how many
 * occurrences they give: each RRULE ends (UNTIL) at its last occurrence before the cut, and is
 * dropped when it has none; RDATEs and EXDATEs from the cut on are dropped. The occurrences before
 * the cut are the ones the stored rules gave.
 */
export function rulesBefore(first: EventItem & Required<Pick<EventItem, 'recurrence' | 'series'>>, cut: string): { lines: string[]; total: number } {
  const zone = zoneOf(first);
  const parsed = parseRecurrence(first.recurrence, first.start, zone, first.allDay);
  if (!parsed.ok) throw new Error(`Stored rules of event ${first.id} no longer parse: ${parsed.error.message}`);
  const series = parsed.series;
  const clock = new ZoneClock(series.tz);
  const cutAt = parseNaive(cut)!;
  const options = { now: new Date(first.series.asOf), horizonMonths: config().seriesHorizonMonths, maxOccurrences: first.series.total };
  const rules: Series['rules'] = [];
  for (const r of series.rules) {
    const alone = expandSeries({ ...series, rules: [r], rdates: [], exdates: [] }, options);
    const before = alone.ok ? alone.occurrences.filter((o) => parseNaive(o.utc)! < cutAt) : [];
    const last = before.at(-1);
    if (!last) continue;
    const { count: _count, ...rule } = r.rule;
    const until: Until = first.allDay ? { kind: 'date', day: Math.floor(parseNaive(last.start)! / MS_DAY) } : { kind: 'utc', naive: parseNaive(last.utc)! };
    rules.push({ ...r, rule: { ...rule, until } });
  }
  const instant = (m: Moment) => (m.kind === 'utc' ? m.naive : m.kind === 'local' ? new ZoneClock(m.tz).toInstant(m.naive) : clock.toInstant(m.day * MS_DAY));
  const shortened: Series = { ...series, rules, rdates: series.rdates.filter((m) => instant(m) < cutAt), exdates: series.exdates.filter((m) => instant(m) < cutAt) };
  const total = storedOccurrences(first).filter((o) => parseNaive(o.utc)! < cutAt).length;
  return { lines: recurrenceLines(shortened), total };
}

/**
 * The rules of the rest of `first`'s series from `at` (one of its events, at its own date) on, as a
 * series of its own whose first event is `at`, and how many occurrences they give: each RRULE keeps
 * its parts (a COUNT becomes what is left of it), RDATEs and EXDATEs from `at` on stay. Undefined
 * when those rules would not give exactly the stored occurrences from `at` on (RFC 5545 cannot
 * always say the rest of a set from one of its dates: several rules out of step, say).
 */
export function rulesFrom(first: EventItem & Required<Pick<EventItem, 'recurrence' | 'series'>>, at: EventItem): { lines: string[]; total: number } | undefined {
  const parsed = parseRecurrence(first.recurrence, first.start, zoneOf(first), first.allDay);
  if (!parsed.ok) throw new Error(`Stored rules of event ${first.id} no longer parse: ${parsed.error.message}`);
  const series = parsed.series;
  const clock = new ZoneClock(series.tz);
  const cutAt = parseNaive(at.utcStart)!;
  const options = { now: new Date(first.series.asOf), horizonMonths: config().seriesHorizonMonths, maxOccurrences: first.series.total };
  const rules: Series['rules'] = [];
  for (const r of series.rules) {
    const alone = expandSeries({ ...series, rules: [r], rdates: [], exdates: [] }, options);
    const left = alone.ok ? alone.occurrences.filter((o) => parseNaive(o.utc)! >= cutAt).length : 0;
    if (left) rules.push({ ...r, rule: r.rule.count === undefined ? r.rule : { ...r.rule, count: left } });
  }
  const instant = (m: Moment) => (m.kind === 'utc' ? m.naive : m.kind === 'local' ? new ZoneClock(m.tz).toInstant(m.naive) : clock.toInstant(m.day * MS_DAY));
  const rest: Series = { ...series, start: at.start, rules, rdates: series.rdates.filter((m) => instant(m) >= cutAt), exdates: series.exdates.filter((m) => instant(m) >= cutAt) };
  const expected = storedOccurrences(first)
    .filter((o) => parseNaive(o.utc)! >= cutAt)
    .map((o) => o.start);
  const got = rules.length || rest.rdates.length ? expandSeries(rest, options) : undefined;
  if (!got?.ok || JSON.stringify(got.occurrences.map((o) => o.start)) !== JSON.stringify(expected)) return undefined;
  return { lines: recurrenceLines(rest), total: expected.length };
}
