// The offset changes of a zone over some years, as an iCalendar VTIMEZONE lists them (RFC 5545
// §3.6.5): found by sampling the zone's offset a week apart and narrowing each change to its second.
import { isFixedOffset, offsetAt } from './dates.js';
import { parsePosixTz, zoneAbbreviation } from './tz-abbr.js';
import { TZ_RULES } from './tz-rules.js';

export interface Observance {
  daylight: boolean;
  /** Minutes east of UTC before and after the change. */
  from: number;
  to: number;
  /** The abbreviation in force after it (EEST, EST, +03). */
  name: string;
  /** The change's instant, epoch ms. */
  at: number;
}

const WEEK = 7 * 86_400_000;

/** The instant within (lo, hi] at which the offset stops being `before` (binary search to the second). */
function changeBetween(tz: string, lo: number, hi: number, before: number): number {
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetAt(tz, mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Whether an offset is the zone's daylight-saving one (by its current rules; other eras count as standard). */
function isDaylight(tz: string, offset: number): boolean {
  const rule = TZ_RULES[tz];
  const abbrs = rule ? parsePosixTz(rule) : undefined;
  return abbrs?.dst?.offset === offset;
}

const nameOf = (tz: string, offset: number) => (isFixedOffset(tz) ? tz : zoneAbbreviation(tz, offset));

const cache = new Map<string, Observance[]>();

/**
 * The zone's changes from the start of `fromYear` to the end of `toYear` (UTC), oldest first. A
 * zone without any in that time gets one observance, in force from the start of `fromYear`, so
 * that its VTIMEZONE still says its offset.
 */
export function observances(tz: string, fromYear: number, toYear: number): Observance[] {
  const key = `${tz}|${fromYear}|${toYear}`;
  const kept = cache.get(key);
  if (kept) return kept;
  const start = Date.UTC(fromYear, 0, 1);
  const end = Date.UTC(toYear + 1, 0, 1) - 1000;
  const out: Observance[] = [];
  let prev = offsetAt(tz, start);
  if (!isFixedOffset(tz)) {
    for (let t = start; t < end; ) {
      const next = Math.min(t + WEEK, end);
      const offset = offsetAt(tz, next);
      if (offset !== prev) {
        const at = changeBetween(tz, t, next, prev);
        const to = offsetAt(tz, at);
        out.push({ daylight: isDaylight(tz, to), from: prev, to, name: nameOf(tz, to), at });
        prev = to;
        t = at;
      } else t = next;
    }
  }
  if (!out.length) out.push({ daylight: false, from: prev, to: prev, name: nameOf(tz, prev), at: start });
  // Bounded: one entry per zone and span of years a feed has asked for.
  if (cache.size > 500) cache.clear();
  cache.set(key, out);
  return out;
}
