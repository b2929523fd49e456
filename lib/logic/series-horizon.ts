// The horizon of series whose rules have no end (no COUNT or UNTIL): their occurrences are written
// up to SERIES_HORIZON_MONTHS ahead of the day they were followed (`series.asOf`), and the horizon
// moves forward by itself. The stream consumer keeps the list of such series (`keepOpenSeries`);
// a scheduled function (SERIES_HORIZON, lib/stream/functions.ts) follows each one's rules again
// every day and, when they give more occurrences, records the new total on its first event, whose
// change brings the writing of the new occurrences (lib/logic/series.ts), as a create's does.
import { config } from '#lib/runtime/config.js';
import { logger } from '#lib/observe/log.js';
import { parseRecurrence } from '#lib/domain/recurrence/parse.js';
import { ApiError } from '#lib/contract/errors.js';
import { getItem } from '#lib/store/reads.js';
import { keys } from '#lib/store/keys.js';
import { ofKind, type EventItem } from '#lib/store/items.js';
import { openSeriesIds } from '#lib/store/partitions.js';
import { markOpenSeries, moveHorizon } from '#lib/store/series-progress.js';
import { rulesOf } from './series-rules.js';

/** Whether `e` is the first event of a live series with a rule that has no end. */
export function isOpenSeries(e: EventItem | undefined): boolean {
  if (!e?.recurrence || !e.series || e.seriesId !== e.id || e.status === 'trash' || e.series.stop) return false;
  const parsed = parseRecurrence(e.recurrence, e.start, e.timezone || config().siteTimezone, e.allDay);
  return parsed.ok && parsed.series.rules.some(({ rule }) => rule.count === undefined && rule.until === undefined);
}

/** Lists or unlists the series of a first event as its change leaves it (the stream consumer). */
export const keepOpenSeries = (id: number, e: EventItem | undefined): Promise<void> => markOpenSeries(id, isOpenSeries(e));

export type HorizonOutcome = 'moved' | 'same' | 'writing' | 'closed' | 'full';

/**
 * Follows the rules of one open series again at `now`: when they give more occurrences than it
 * has, records the new total (the consumer writes them). A series no longer open leaves the list.
 */
export async function moveSeriesHorizon(id: number, now: Date): Promise<HorizonOutcome> {
  const first = ofKind(await getItem(keys.post(id)), 'event');
  if (!first || !isOpenSeries(first)) {
    await markOpenSeries(id, false);
    return 'closed';
  }
  const series = first.series!;
  if (series.made < series.total) return 'writing';
  let total: number;
  try {
    total = rulesOf(first, first.recurrence!, now).occurrences.length;
  } catch (err) {
    // More occurrences from its first one than a series holds: it stays as it is, and says so.
    if (!(err instanceof ApiError)) throw err;
    const params = err.extra.params as Record<string, string> | undefined;
    logger.warn({ message: 'A series without an end holds all the occurrences it may: its horizon stays', seriesId: id, reason: params?.recurrence ?? err.message });
    return 'full';
  }
  if (total <= series.total) return 'same';
  return (await moveHorizon(id, { total: series.total }, { total, asOf: now.toISOString() })) ? 'moved' : 'writing';
}

/** Moves the horizon of every open series, while `timeLeft` allows; how many of each outcome. */
export async function moveHorizons(now: Date, timeLeft: () => number): Promise<Record<HorizonOutcome, number>> {
  const counts: Record<HorizonOutcome, number> = { moved: 0, same: 0, writing: 0, closed: 0, full: 0 };
  // In no fixed order: a run out of time leaves different series each day, never the same ones.
  const ids = (await openSeriesIds()).map((id) => ({ id, at: Math.random() })).sort((a, b) => a.at - b.at);
  for (const { id } of ids) {
    if (timeLeft() < 2_000) break;
    counts[await moveSeriesHorizon(id, now)]++;
  }
  return counts;
}
