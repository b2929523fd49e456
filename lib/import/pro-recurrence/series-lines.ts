// The `recurrence` an imported Events Calendar Pro series is written with (lib/logic/series-rules.ts
// reads it as a create's): Pro's rules as RFC 5545 lines (./rfc5545.ts), with what RFC 5545 has no
// line for made explicit. Pro's excluded rules remove whole days, so each occurrence on a day an
// excluded rule gives becomes an EXDATE (as far as the included rules are followed: to their end,
// or to the horizon). Pro counts the event itself as the first occurrence even off its rule's
// pattern, which RFC 5545 leaves undefined: it becomes an RDATE; and no exclusion takes it. Lines this API would refuse come
// back as `unsupported`, in words, and the event is then imported alone.
import { expandSeries, type ExpandOptions, type Occurrence } from '#lib/domain/recurrence/expand.js';
import { recurrenceLines } from '#lib/domain/recurrence/lines.js';
import { parseRecurrence } from '#lib/domain/recurrence/parse.js';
import { parseNaive } from '#lib/domain/recurrence/calendar.js';
import { matchesStart } from '#lib/domain/recurrence/expand-rule.js';
import { ZoneClock } from '#lib/domain/recurrence/zone-clock.js';
import { isFixedOffset, wallToUtc } from '#lib/domain/time/dates.js';
import type { ProEvent, ProRecurrence } from './rfc5545.js';

/** The lines, and the occurrences they give (the event's own first), as this API follows them. */
export type SeriesLines = { lines: string[]; occurrences: Occurrence[] } | { unsupported: string };

/** A moment of the event's series as an RDATE or EXDATE line: its zone's, a UTC one for a fixed offset, a date for all-day. */
function dated(name: 'RDATE' | 'EXDATE', wall: string, event: ProEvent): string {
  const compact = (w: string) => `${w.slice(0, 10).replaceAll('-', '')}T${w.slice(11).replaceAll(':', '')}`;
  if (event.allDay) return `${name};VALUE=DATE:${wall.slice(0, 10).replaceAll('-', '')}`;
  return isFixedOffset(event.timezone) ? `${name}:${compact(wallToUtc(wall, event.timezone))}Z` : `${name};TZID=${event.timezone}:${compact(wall)}`;
}

/** The occurrences `lines` give the event, or why they cannot be followed. */
function occurrences(lines: string[], event: ProEvent, limits: ExpandOptions): Occurrence[] | string {
  const parsed = parseRecurrence(lines, event.start, event.timezone, event.allDay);
  if (!parsed.ok) return parsed.error.message;
  const expanded = expandSeries(parsed.series, limits);
  return expanded.ok ? expanded.occurrences : expanded.error.message;
}

/** Whether an RRULE of `lines` gives the event's start itself (else readers such as ical.js skip the event). */
function startsOnPattern(lines: string[], event: ProEvent): boolean {
  const parsed = parseRecurrence(lines, event.start, event.timezone, event.allDay);
  if (!parsed.ok) return false;
  const clock = new ZoneClock(event.timezone);
  return parsed.series.rules.some(({ rule }) => matchesStart(rule, parseNaive(event.start)!, clock));
}

/**
 * The lines of `pro` for `event` (its zone named: the site's when the event has none), followed
 * with `limits` as this API follows a series' rules.
 */
export function seriesLines(pro: ProRecurrence, event: ProEvent, limits: ExpandOptions): SeriesLines {
  if ('unsupported' in pro) return pro;
  // Pro's exclusions never take the event itself (they apply to the dates its rules add).
  const own = dated('EXDATE', event.start, event);
  const lines = pro.lines.filter((line) => line !== own);
  try {
    const included = occurrences(lines, event, limits);
    if (typeof included === 'string') return { unsupported: `its rules ${lines.join(' ')}: ${included}` };
    if (pro.excludeRules.length) {
      const days = new Set<string>();
      for (const rule of pro.excludeRules) {
        const excluded = occurrences([rule], event, { ...limits, maxOccurrences: Math.max(limits.maxOccurrences ?? 0, included.length) * 4 });
        if (typeof excluded === 'string') return { unsupported: `its excluded rule ${rule}: ${excluded}` };
        for (const o of excluded) days.add(o.start.slice(0, 10));
      }
      lines.push(...included.filter((o) => o.start !== event.start && days.has(o.start.slice(0, 10))).map((o) => dated('EXDATE', o.start, event)));
    }
    if (!startsOnPattern(lines, event)) lines.push(dated('RDATE', event.start, event));
    const all = occurrences(lines, event, limits);
    if (typeof all === 'string') return { unsupported: `its rules ${lines.join(' ')}: ${all}` };
    if (all[0]?.start !== event.start) return { unsupported: `its rules ${lines.join(' ')} do not start at the event's own date` };
    // Canonical, as this API stores them: a run that finds the same rules sends nothing new.
    const parsed = parseRecurrence(lines, event.start, event.timezone, event.allDay);
    return parsed.ok ? { lines: recurrenceLines(parsed.series), occurrences: all } : { unsupported: parsed.error.message };
  } catch (err) {
    // The event's own dates or zone: a record the import refuses or reports on its own.
    if (err instanceof RangeError) return { unsupported: `the event's dates or zone: ${err.message}` };
    throw err;
  }
}
