// The occurrences of recurring events: a change of a series' first event whose occurrences are not
// all written yet writes the next ones (lib/logic/series.ts), and the progress it records is the
// change that brings the next. A change that records the end of a series (a delete by scope,
// lib/logic/series-scope.ts) brings the completion of that delete: every event it covers goes,
// every other takes the shortened rules; one that records an edit by scope all, that edit; one that
// records a split (an edit by scope following), the move of the later events (then the new series'
// own rules, when the split sent them); one that records new
// rules, the events' move to them (lib/logic/series-rules-edit.ts). A first
// event whose rules have no end is listed for the daily move of the horizon.
import { continueSeries } from '#lib/logic/series.js';
import { seriesPending } from '#lib/logic/series-rules.js';
import { applySeriesEdit, settleSeries } from '#lib/logic/series-scope.js';
import { isOpenSeries, keepOpenSeries } from '#lib/logic/series-horizon.js';
import { carryOutSplit } from '#lib/logic/series-split.js';
import { settleRulesOf } from '#lib/logic/series-rules-edit.js';
import { getItem } from '#lib/store/reads.js';
import { keys } from '#lib/store/keys.js';
import { ofKind } from '#lib/store/items.js';
import { postImage, type Change, type Trigger } from './change.js';

/**
 * Whether a change of a first event recorded (or changed) its series' `mark`, not every later edit
 * of it, nor the mark of a split carried out.
 */
const records = (mark: 'stop' | 'edit' | 'split' | 'rules') => (change: Change) => {
  const next = postImage(change.new, 'event')?.series?.[mark];
  return !!next && !('done' in next && next.done) && JSON.stringify(postImage(change.old, 'event')?.series?.[mark]) !== JSON.stringify(next);
};

export const seriesTrigger: Trigger = {
  id: 'series',
  wants: (change) => change.kind === 'event' && change.action !== 'delete' && seriesPending(postImage(change.new, 'event')),
  apply: (change) => continueSeries(change.id),
};

export const seriesEndTrigger: Trigger = {
  id: 'series-end',
  wants: records('stop'),
  apply: async (change) => {
    // As it is now: a later delete may have moved the end since (its own change settles it too).
    const first = ofKind(await getItem(keys.post(change.id)), 'event');
    if (first) await settleSeries(first, new Date(), false);
  },
};

export const seriesEditTrigger: Trigger = {
  id: 'series-edit',
  wants: records('edit'),
  apply: async (change) => {
    const first = ofKind(await getItem(keys.post(change.id)), 'event');
    const edit = first?.series?.edit;
    if (edit) await applySeriesEdit(change.id, edit, false);
  },
};

export const seriesSplitTrigger: Trigger = {
  id: 'series-split',
  wants: records('split'),
  apply: async (change) => {
    const first = ofKind(await getItem(keys.post(change.id)), 'event');
    const split = first?.series?.split;
    if (!split || split.done || !first.recurrence) return;
    await carryOutSplit({ id: change.id, lines: first.recurrence }, split, new Date(), false);
  },
};

export const seriesRulesTrigger: Trigger = {
  id: 'series-rules',
  wants: records('rules'),
  apply: async (change) => {
    // As it is now: rules changed again since are the ones its events take.
    const first = ofKind(await getItem(keys.post(change.id)), 'event');
    if (first?.series?.rules && first.recurrence) await settleRulesOf(first, false);
  },
};

/** The list of series without an end (lib/logic/series-horizon.ts): a first event that joins or leaves it. */
export const openSeriesTrigger: Trigger = {
  id: 'series-open',
  wants: (change) => change.kind === 'event' && isOpenSeries(postImage(change.old, 'event')) !== isOpenSeries(postImage(change.new, 'event')),
  // As it is now: changes of one record may come again after later ones.
  apply: async (change) => keepOpenSeries(change.id, ofKind(await getItem(keys.post(change.id)), 'event')),
};
