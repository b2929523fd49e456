// The expansion against ical.js's over generated rules, in UTC and at a fixed offset (where wall
// times are plain calendar arithmetic, as ical.js works on floating times). DTSTART is taken from
// ical.js's own first match after a generated date, so that the series is synchronized with its
// rule (RFC 5545 leaves an unsynchronized one undefined); ical.js's iteration is capped, since some
// rules make it search forever.
import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { occurrencesBetween } from '#lib/domain/recurrence/expand.js';
import { occurrencesOf, seriesOf } from '../support/recurrence.js';

const DAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const ICAL_CAP = 3000;

// Sorted: ical.js walks a list in the order written.
const subset = (arb: fc.Arbitrary<number>, max: number) => fc.uniqueArray(arb, { minLength: 1, maxLength: max }).map((a) => [...a].sort((x, y) => x - y));
const signed = (max: number) => fc.integer({ min: 1, max }).chain((n) => fc.constantFrom(n, -n));

/** An RRULE value (no COUNT or UNTIL) that ical.js reads as RFC 5545 does. */
const ruleArb = fc.constantFrom('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY').chain((freq) =>
  fc
    .record(
      {
        interval: fc.integer({ min: 1, max: 3 }),
        byMonth: fc.option(subset(fc.integer({ min: 1, max: 12 }), 3), { nil: undefined }),
        // ical.js rolls a 30th of February over into March, where RFC 5545 skips it.
        byMonthDay: fc.option(subset(signed(28), 3), { nil: undefined }),
        byDay: fc.option(
          subset(fc.integer({ min: 0, max: 6 }), 3).map((a) => a.map((d) => DAYS[d]!)),
          { nil: undefined },
        ),
        ordinal: fc.option(fc.tuple(signed(4), fc.constantFrom(...DAYS)), { nil: undefined }),
        byYearDay: fc.option(subset(signed(365), 2), { nil: undefined }),
        byHour: fc.option(subset(fc.integer({ min: 0, max: 23 }), 2), { nil: undefined }),
        byMinute: fc.option(subset(fc.integer({ min: 0, max: 59 }), 2), { nil: undefined }),
        wkst: fc.constantFrom(...DAYS),
      },
      { requiredKeys: ['interval', 'wkst'] },
    )
    .map((p) => {
      const parts = [`FREQ=${freq}`];
      if (p.interval > 1) parts.push(`INTERVAL=${p.interval}`);
      // ical.js 2.2.1 ignores BYHOUR and BYMINUTE in a YEARLY rule, and leaves the BYDAY days in a MONTHLY one.
      const timed = freq === 'DAILY' || freq === 'WEEKLY';
      if (p.byHour && timed) parts.push(`BYHOUR=${p.byHour.join(',')}`);
      if (p.byMinute && timed) parts.push(`BYMINUTE=${p.byMinute.join(',')}`);
      // ical.js reads a YEARLY BYMONTHDAY within DTSTART's month only, unless BYMONTH is given, and one counted from the end (off by one in
      // a YEARLY rule) only in a MONTHLY rule without BYDAY.
      const monthDays = freq !== 'MONTHLY' || p.byDay || p.ordinal ? p.byMonthDay?.filter((d) => d > 0) : p.byMonthDay;
      const byMonthDay = monthDays?.length && freq !== 'WEEKLY' && (freq !== 'YEARLY' || p.byMonth) ? monthDays : undefined;
      // ical.js refuses BYYEARDAY beside other day parts.
      const byYearDay = p.byYearDay && freq === 'YEARLY' && !byMonthDay && !p.byMonth && !p.byDay ? p.byYearDay : undefined;
      // ical.js refuses or mistakes an ordinal BYDAY that BYMONTHDAY or BYYEARDAY limits.
      const ordinalFits = !byMonthDay && !byYearDay && (freq === 'MONTHLY' || (freq === 'YEARLY' && p.byMonth));
      const ordinal = p.ordinal && ordinalFits ? `${p.ordinal[0]}${p.ordinal[1]}` : undefined;
      const days = [...(p.byDay ?? []), ...(ordinal ? [ordinal] : [])];
      if (days.length) parts.push(`BYDAY=${days.join(',')}`);
      if (byMonthDay) parts.push(`BYMONTHDAY=${byMonthDay.join(',')}`);
      if (byYearDay) parts.push(`BYYEARDAY=${byYearDay.join(',')}`);
      // ical.js forgets INTERVAL in a MONTHLY rule with BYMONTH.
      if (p.byMonth && !(freq === 'MONTHLY' && p.interval > 1)) parts.push(`BYMONTH=${p.byMonth.join(',')}`);
      if (freq === 'WEEKLY' && p.interval > 1) parts.push(`WKST=${p.wkst}`);
      return parts.join(';');
    }),
);

const startArb = fc
  .record({ day: fc.integer({ min: 0, max: 28 * 12 * 30 }), hour: fc.integer({ min: 0, max: 23 }), minute: fc.constantFrom(0, 15, 30, 45) })
  // Days up to the 28th: ical.js rolls DTSTART's 29th to 31st over into the next month where a month lacks it.
  .map(({ day, hour, minute }) => new Date(Date.UTC(1996, Math.floor(day / 28), 1 + (day % 28), hour, minute)).toISOString().slice(0, 19));

/** ical.js's occurrences of `rule` from `dtstart` ('YYYY-MM-DDTHH:MM:SS') up to `end`, as walls; `capped` when it stopped early. */
function icalOccurrences(rule: string, dtstart: string, end: string): { walls: string[]; capped: boolean } {
  const iterator = ICAL.Recur.fromString(rule).iterator(ICAL.Time.fromDateTimeString(dtstart));
  const walls = new Set<string>();
  for (let i = 0; i < ICAL_CAP; i++) {
    const next = iterator.next();
    if (!next) return { walls: [...walls], capped: false };
    const wall = next.toString().replace('T', ' ');
    if (wall > end) return { walls: [...walls], capped: false };
    walls.add(wall);
  }
  return { walls: [...walls], capped: true };
}

/** DTSTART synchronized with the rule: ical.js's first match after `from`, if any comes soon. */
function firstMatch(rule: string, from: string): string | undefined {
  const iterator = ICAL.Recur.fromString(rule).iterator(ICAL.Time.fromDateTimeString(from));
  iterator.next(); // `from` itself, which ical.js always gives first
  for (let i = 0; i < ICAL_CAP; i++) {
    const next = iterator.next();
    if (!next) return undefined;
    const wall = next.toString();
    if (wall > from) return wall;
  }
  return undefined;
}

const YEARS = { DAILY: 2, WEEKLY: 3, MONTHLY: 6, YEARLY: 20 };

/** Whether the rule matches again within its comparison span after `from` (by this module's reading): ical.js searches forever for a match that never comes. */
function matchesSoon(rule: string, from: string, years: number): boolean {
  const start = from.replace('T', ' ');
  const end = `${Number(start.slice(0, 4)) + years}${start.slice(4)}`;
  return occurrencesOf(occurrencesBetween(seriesOf([`RRULE:${rule}`], start, 'UTC'), start, end, { maxOccurrences: 100_000 })).length > 2;
}

/** Compares one rule; false when it was left out (no match soon). */
function compare(rule: string, from: string, tz: string, offsetMinutes: number): boolean {
  const freq = /FREQ=(\w+)/.exec(rule)![1] as keyof typeof YEARS;
  if (!matchesSoon(rule, from, YEARS[freq])) return false;
  let dtstart: string | undefined;
  let expected: ReturnType<typeof icalOccurrences>;
  let end: string;
  try {
    dtstart = firstMatch(rule, from);
    if (!dtstart) return false;
    // The same day some years on; a 29th of February becomes the 28th (the later year may have none).
    end = `${Number(dtstart.slice(0, 4)) + YEARS[freq]}${dtstart.slice(4, 10).replace('-02-29', '-02-28')} 23:59:59`;
    expected = icalOccurrences(rule, dtstart, end);
  } catch (err) {
    // ical.js gives up on a month BYDAY and BYMONTHDAY rarely meet in (a Sunday that is the 9th,
    // 10th or 24th, every third month): no oracle for that rule.
    if (String(err).includes('Malformed values in BYDAY combined with BYMONTHDAY')) return false;
    throw err;
  }
  const start = dtstart.replace('T', ' ');
  const got = occurrencesOf(occurrencesBetween(seriesOf([`RRULE:${rule}`], start, tz), start, end, { maxOccurrences: 100_000 }));
  const walls = got.map((o) => o.start);
  const upTo = expected.capped ? expected.walls.at(-1)! : end;
  expect(
    walls.filter((w) => w <= upTo),
    `${rule} from ${start} in ${tz}`,
  ).toEqual(expected.walls.sort());
  for (const o of got.slice(0, 50)) {
    expect(Date.parse(`${o.utc.replace(' ', 'T')}Z`)).toBe(Date.parse(`${o.start.replace(' ', 'T')}Z`) - offsetMinutes * 60_000);
  }
  return true;
}

describe('expansion agrees with ical.js', () => {
  it('in UTC', () => {
    let compared = 0;
    fc.assert(
      fc.property(ruleArb, startArb, (rule, from) => {
        if (compare(rule, from, 'UTC', 0)) compared++;
      }),
      { numRuns: 300 },
    );
    expect(compared).toBeGreaterThan(150);
  });

  it('at a fixed offset (UTC+5:30)', () => {
    let compared = 0;
    fc.assert(
      fc.property(ruleArb, startArb, (rule, from) => {
        if (compare(rule, from, 'UTC+5:30', 330)) compared++;
      }),
      { numRuns: 300 },
    );
    expect(compared).toBeGreaterThan(150);
  });
});
