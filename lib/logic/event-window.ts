// The dates of GET /events (docs/tec-behaviour.md §4.1.2, §4.1.3): TEC's default window, and the request's
// start and end conditions as bounds on the `list` index's UTC start and filters on the end.
import { config } from '#lib/runtime/config.js';
import { addDays, addMonths, endOfDay, instantToWall, parseDate, startOfDay, wallToUtc } from '#lib/domain/time/dates.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import { MONTH_INPUT } from '#lib/contract/args/event.js';
import type { RequestContext } from '#lib/contract/request.js';

export type EventListRequest = RequestContext<ArgsOf<'events.list'>>;
type DateParam = 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after';

/** Sorts after every key of the index: an open upper bound, or one past every id of a time. */
export const HIGH = '\uffff';

/**
 * The window of TEC's month view export (its Month_View::setup_ical_repository_args): the events
 * that end after the start of the month's first day and start before the end of its last, in site
 * time. In the current month it starts at the day given (`YYYY-MM-DD`), the 1st for `YYYY-MM`,
 * and today for `now`.
 */
export function monthWindow(input: string, now: Date, zone = config().siteTimezone): { endsAfter: string; startsBefore: string } {
  const today = instantToWall(now, zone);
  const m = MONTH_INPUT.exec(input)!;
  const month = m[1] === undefined ? today.slice(0, 7) : `${m[1]}-${m[2]}`;
  const day = m[1] === undefined ? today.slice(8, 10) : (m[3] ?? '01');
  const first = `${month}-01 00:00:00`;
  return {
    endsAfter: month === today.slice(0, 7) ? `${month}-${day} 00:00:00` : first,
    startsBefore: endOfDay(addDays(addMonths(first, 1), -1)),
  };
}

/** TEC's default window: from the start of yesterday (site time) to 24 months ahead. */
export function defaultWindow(now: Date, zone = config().siteTimezone) {
  const yesterdayUtc = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1, 23, 59));
  return { start: startOfDay(instantToWall(yesterdayUtc, zone)), end: endOfDay(addMonths(instantToWall(now, 'UTC'), 24)) };
}

export interface Window {
  /** Sort-key bounds on the start (inclusive strings of the `list` index). */
  from: string;
  to: string;
  /** End conditions, as UTC walls. */
  endAtMost?: string;
  endBefore?: string;
  endAfter?: string;
  /** What the window echoes in rest_url. */
  echo: [string, string][];
}

/**
 * An event that ends after X started after X less the longest event duration (`seconds`, which
 * every event write raises first: lib/store/stats.ts). A window whose only lower bound is on the
 * end (`ends_after`, a month) gets that bound on the start too, so that its reads begin at the
 * events it can hold rather than at the first event ever.
 */
export function boundStart(w: Window, seconds: number): Window {
  if (w.endAfter === undefined) return w;
  const at = new Date(`${w.endAfter.replace(' ', 'T')}Z`);
  at.setUTCSeconds(at.getUTCSeconds() - seconds);
  const bound = at.toISOString().slice(0, 19).replace('T', ' ');
  return bound > w.from ? { ...w, from: bound } : w;
}

/** The start and end conditions of a request, in UTC (docs/tec-behaviour.md §4.1.2, §4.1.3). */
export function windowOf(ctx: EventListRequest): Window | undefined {
  const p = ctx.params;
  if (p.include !== undefined) return undefined; // `include` ignores dates (docs/tec-behaviour.md §1.6)
  const zone = config().siteTimezone;
  const strict = p.strict_dates === true;
  const at = (name: DateParam) => {
    const v = p[name];
    return v === undefined ? undefined : parseDate(v, zone, ctx.now)!;
  };
  const ranged = p.month !== undefined || (['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const).some((n) => p[n] !== undefined);
  const fallback = ranged ? undefined : defaultWindow(ctx.now, zone);
  const given = { start: at('start_date'), end: at('end_date') };
  const start = given.start !== undefined ? (strict ? given.start : startOfDay(given.start)) : fallback?.start;
  const end = given.end !== undefined ? (strict ? given.end : endOfDay(given.end)) : fallback?.end;
  // starts_* and ends_* move to the end of their day unless strict (docs/tec-behaviour.md §4.1.3).
  const edge = (name: DateParam) => {
    const v = at(name);
    return v === undefined ? undefined : strict ? v : endOfDay(v);
  };
  // A month's window is the later of its bounds and the ends_after / starts_before given.
  const month = p.month === undefined ? undefined : monthWindow(p.month, ctx.now, zone);
  const later = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a > b ? a : b);
  const earlier = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a < b ? a : b);
  const startsBefore = earlier(edge('starts_before'), month?.startsBefore);
  const startsAfter = edge('starts_after');
  const endsBefore = edge('ends_before');
  const endsAfter = later(edge('ends_after'), month?.endsAfter);
  const utc = (w: string | undefined) => (w === undefined ? undefined : wallToUtc(w, zone));

  let from = '';
  let to = HIGH;
  const lower = (bound: string) => (from = bound > from ? bound : from);
  const upper = (bound: string) => (to = bound < to ? bound : to);
  if (start !== undefined) lower(utc(start)!);
  if (startsAfter !== undefined) lower(`${utc(startsAfter)}#${HIGH}`); // start > X
  if (startsBefore !== undefined) upper(utc(startsBefore)!); // start < X: `X` sorts before `X#id`
  if (end !== undefined) upper(`${utc(end)}#${HIGH}`); // start <= end <= E
  if (endsBefore !== undefined) upper(utc(endsBefore)!); // start <= end < X

  const echo: [string, string][] = [];
  if (start !== undefined) echo.push(['start_date', start]);
  if (end !== undefined) echo.push(['end_date', end]);
  return {
    from,
    to,
    endAtMost: utc(end),
    endBefore: utc(endsBefore),
    endAfter: utc(endsAfter),
    echo: [
      ...echo,
      ...(
        [
          ['starts_before', startsBefore],
          ['starts_after', startsAfter],
          ['ends_before', endsBefore],
          ['ends_after', endsAfter],
        ] as const
      )
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, v!] as [string, string]),
    ],
  };
}
