// The dates of GET /events (reference §4.1.2, §4.1.3): TEC's default window, and the request's
// start and end conditions as bounds on the `list` index's UTC start and filters on the end.
import { config } from '#lib/runtime/config.js';
import { addMonths, endOfDay, instantToWall, parseDate, startOfDay, wallToUtc } from '#lib/domain/time/dates.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';

export type EventListRequest = RequestContext<ArgsOf<'events.list'>>;
type DateParam = 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after';

/** Sorts after every key of the index: an open upper bound, or one past every id of a time. */
export const HIGH = '\uffff';

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

/** The start and end conditions of a request, in UTC (reference §4.1.2, §4.1.3). */
export function windowOf(ctx: EventListRequest): Window | undefined {
  const p = ctx.params;
  if (p.include !== undefined) return undefined; // `include` ignores dates (DESIGN §2.7)
  const zone = config().siteTimezone;
  const strict = p.strict_dates === true;
  const at = (name: DateParam) => {
    const v = p[name];
    return v === undefined ? undefined : parseDate(v, zone, ctx.now)!;
  };
  const ranged = (['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const).some((n) => p[n] !== undefined);
  const fallback = ranged ? undefined : defaultWindow(ctx.now, zone);
  const given = { start: at('start_date'), end: at('end_date') };
  const start = given.start !== undefined ? (strict ? given.start : startOfDay(given.start)) : fallback?.start;
  const end = given.end !== undefined ? (strict ? given.end : endOfDay(given.end)) : fallback?.end;
  // starts_* and ends_* move to the end of their day unless strict (reference §4.1.3).
  const edge = (name: DateParam) => {
    const v = at(name);
    return v === undefined ? undefined : strict ? v : endOfDay(v);
  };
  const startsBefore = edge('starts_before');
  const startsAfter = edge('starts_after');
  const endsBefore = edge('ends_before');
  const endsAfter = edge('ends_after');
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
