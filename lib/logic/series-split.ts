// Edits by scope following: the series splits in two at the addressed event. The addressed event
// takes the sent fields and becomes the first event of a series of its own, whose rules are the rest
// of the old series from its date (lib/logic/series-rules.ts, rulesFrom); the old series ends
// before it (rulesBefore) and records the split (`series.split`); every later event of the old
// series moves to the new one and takes the sent fields that every event of a series shares (as an
// edit by scope all writes them), each in its own transaction. The request moves what its time
// allows; the stream consumer (lib/stream/series-trigger.ts) moves them all, idempotently, for the
// change of the old first event that recorded the split. New rules sent with the split are the new
// series': once every later event has moved to it (and only then, so that the occurrence writer
// knows every date that has an event), the new series takes them as an edit by scope all gives
// them (lib/logic/series-rules-edit.ts), unless it was given others since.
import { ApiError, busy, ConflictError, Contention, invalidParam } from '#lib/contract/errors.js';
import { getItem } from '#lib/store/reads.js';
import { withRetry } from '#lib/store/retry.js';
import { bookkeeping } from '#lib/store/transactions.js';
import { keys } from '#lib/store/keys.js';
import { ofKind, type EventItem, type SeriesEdit, type SeriesSplit } from '#lib/store/items.js';
import { seriesMembers } from '#lib/store/partitions.js';
import { endSeries, markSplitDone } from '#lib/store/series-progress.js';
import { modifiedNow } from './common.js';
import { cardsFor } from './cards.js';
import { commit, linksByIds } from './event-commit.js';
import { leftFor, LINKS, ownWriteMs, UNLINKED, withEdit, writeMembers } from './series-scope.js';
import { remainingMs } from '#lib/runtime/deadline.js';
import { rulesBefore, rulesFrom, rulesOf } from './series-rules.js';
import { changeSeriesRules, planRules } from './series-rules-edit.js';

/** Parameters that are each event's own: an edit by scope following does not take them. */
const OWN = ['start_date', 'end_date', 'timezone', 'all_day', 'slug'] as const;

type FirstEvent = EventItem & Required<Pick<EventItem, 'recurrence' | 'series'>>;

/** What an edit by scope following of an event writes: its series' fields, and the rules before it for the old series. */
export interface SplitPlan {
  first: FirstEvent;
  /** The addressed event's series fields as the first event of the new series. */
  own: Pick<EventItem, 'seriesId' | 'recurrence' | 'series' | 'occurrence'>;
  lines: string[];
  /** The new series' own rules, when the edit sent others than the rest of the old ones. */
  rules?: string[];
}

/**
 * Checks an edit by scope following of `addressed` (an event of a series, not its first) and plans
 * the split: a 400 naming `scope` when it cannot be one, a 503 while the series is still being written.
 */
export async function planSplit(addressed: EventItem, params: Record<string, unknown>, now: Date): Promise<SplitPlan> {
  const own = OWN.filter((p) => params[p] !== undefined);
  if (own.length) {
    throw invalidParam(
      'scope',
      `scope following writes what the events of a series share; ${own.join(', ')} ${own.length > 1 ? 'are' : 'is'} each event's own: send ${own.length > 1 ? 'them' : 'it'} with scope this, or delete the following events (DELETE with scope following) and create a new series.`,
    );
  }
  const first = ofKind(await getItem(keys.post(addressed.seriesId!)), 'event');
  if (!first?.series || !first.recurrence) throw invalidParam('scope', `scope following: the first event of the series of event ${addressed.id} is gone; send scope this.`);
  // The occurrences are still being written (a create a moment ago): the split waits for them.
  if (first.series.made < first.series.total) throw busy();
  await noSplitUnderWay(first as FirstEvent, now);
  if (addressed.occurrence !== addressed.start) {
    throw invalidParam('scope', `scope following: event ${addressed.id} was moved from its date in the series (${addressed.occurrence}); send scope this, or scope all.`);
  }
  const rest = rulesFrom(first as FirstEvent, addressed);
  if (!rest) throw invalidParam('scope', `scope following: the series' rules cannot be said from event ${addressed.id} on; send scope this, or scope all.`);
  // New rules are followed from this event, the new series' first: checked before anything is written.
  const sent = params.recurrence as string[] | string | undefined;
  const rules = sent === undefined ? undefined : rulesOf(addressed, sent, now).lines;
  return {
    first: first as FirstEvent,
    lines: rest.lines,
    own: {
      seriesId: addressed.id,
      recurrence: rest.lines,
      occurrence: addressed.start,
      series: { total: rest.total, made: rest.total, asOf: first.series.asOf, splitFrom: first.id },
    },
    ...(rules && JSON.stringify(rules) !== JSON.stringify(rest.lines) ? { rules } : {}),
  };
}

/**
 * Refuses (503) a split of `first`'s series while a split is still being carried out that moves
 * events out of it (its own last split) or into it (the split that made it): a second record would
 * replace the first's, or the first's moves would bring events the second should have taken. The
 * request carries that split on first, and the client asks again once it is done, when the events
 * are where it left them. Those writes complete a change already answered, not this request's: its
 * 503 still says that nothing of it was written.
 */
async function noSplitUnderWay(first: FirstEvent, now: Date): Promise<void> {
  const from = first.series.splitFrom === undefined ? undefined : ofKind(await getItem(keys.post(first.series.splitFrom)), 'event');
  for (const old of [first, from]) {
    const split = old?.series?.split;
    if (!old?.recurrence || !split || split.done || (old !== first && split.to !== first.id)) continue;
    const lines = old.recurrence;
    await bookkeeping(() => carryOutSplit({ id: old.id, lines }, split, now, true));
    throw busy();
  }
}

/**
 * After the addressed event was written as `written` (the first of its new series): the old series
 * ends before it and records the split, then its later events move (what the request has time for).
 */
export async function splitSeries(plan: SplitPlan, written: EventItem, edit: SeriesEdit, now: Date): Promise<void> {
  const split: SeriesSplit = { at: written.utcStart, to: written.id, lines: plan.lines, edit, ...(plan.rules ? { rules: plan.rules } : {}) };
  const recorded = await withRetry(async () => {
    const first = ofKind(await getItem(keys.post(plan.first.id)), 'event');
    if (!first?.series || !first.recurrence) return undefined;
    // Another split recorded since this one was planned: waited for, never written over.
    const earlier = first.series.split;
    if (earlier && !earlier.done) throw new Contention(`Series of event ${first.id} is being split at ${earlier.at}`);
    const before = rulesBefore(first as FirstEvent, split.at);
    const ok = await endSeries(
      first.id,
      { version: first.version, made: first.series.made },
      { total: before.total, recurrence: before.lines, split, modified: modifiedNow(now) },
      undefined,
    );
    if (!ok) throw new ConflictError(`Series of event ${first.id} changed while splitting it`);
    return { id: first.id, lines: before.lines };
  });
  if (recorded) await carryOutSplit(recorded, split, now, true);
}

/**
 * Carries out the split `split` recorded on the old series' first event (`first`: its id and its
 * rules since): every later event moves, then the new series takes the rules sent with it, and the
 * split is marked done. A `request` does what its time allows and leaves the rest to the stream
 * consumer (whatever stops it there, the consumer carries the split out). Whether it was done.
 */
export async function carryOutSplit(first: { id: number; lines: string[] }, split: SeriesSplit, now: Date, request: boolean): Promise<boolean> {
  if (!(await moveFollowing(first, split, request))) return false;
  if (request) {
    if (remainingMs() < RULES_RESERVE * ownWriteMs()) return false;
    const given = await rulesAfterSplit(split, now).then(
      () => true,
      leftFor(`New rules of the series of ${split.to}`, () => false),
    );
    if (!given) return false;
  } else await rulesAfterSplit(split, now);
  await markSplitDone(first.id, split);
  return true;
}

/** How many writes' time a request keeps to give a split's new series its rules itself (reads, the series' record, the addressed event). */
const RULES_RESERVE = 8;

/**
 * Gives the new series of a split the rules sent with it, once every later event has moved to it:
 * as an edit by scope all gives them, unless the new series was given rules since (or these).
 */
export async function rulesAfterSplit(split: SeriesSplit, now: Date): Promise<void> {
  if (!split.rules) return;
  const first = ofKind(await getItem(keys.post(split.to)), 'event');
  if (!first?.series || first.series.rules || JSON.stringify(first.recurrence) !== JSON.stringify(split.lines)) return;
  // A new series deleted whole since takes no rules (a 400 to a request): there is nothing to give them to.
  const plan = await planRules(first, split.rules, {}, now).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 400) return undefined;
    throw err;
  });
  if (plan) await changeSeriesRules(plan, first.id, now);
}

/**
 * Brings every event of the old series (`first`: its id and its rules since the split) in line
 * with the split: the later ones move to the new series, the earlier ones take the shortened rules
 * (a `request` does what its time allows and leaves the rest to the stream consumer). Whether all were.
 */
export async function moveFollowing(first: { id: number; lines: string[] }, split: SeriesSplit, request: boolean): Promise<boolean> {
  const members = (await seriesMembers(first.id)).filter((m) => m.eventId !== first.id && m.eventId !== split.to);
  return writeMembers(members, (id) => moveEvent(id, first, split), `Events of the series of ${first.id} split at ${split.at}`, request);
}

/**
 * Moves one event of the old series to the new one, with the split's edit unless the event was
 * changed after it (its own change stands) or is in the trash; an event before the split takes the
 * old series' rules. Idempotent: an event moved, or given the rules, already stays as it is.
 */
function moveEvent(id: number, first: { id: number; lines: string[] }, split: SeriesSplit): Promise<void> {
  return withRetry(async (attempt) => {
    const old = ofKind(await getItem(keys.post(id)), 'event');
    if (!old || old.seriesId !== first.id) return;
    if (old.utcStart < split.at) {
      if (JSON.stringify(old.recurrence) === JSON.stringify(first.lines)) return;
      await commit(old, { ...old, recurrence: first.lines, ...modifiedNow(new Date()), version: old.version + 1 }, UNLINKED, undefined, attempt);
      return;
    }
    const takesEdit = old.status !== 'trash' && old.modified_utc <= split.edit.at;
    const move = async (edited: boolean) => {
      const next: EventItem = { ...(edited ? withEdit(old, split.edit) : old), seriesId: split.to, recurrence: split.lines };
      // Changed at the split's time (or when it changed on its own since): a replay finds it moved.
      if (old.modified_utc <= split.edit.at) Object.assign(next, modifiedNow(new Date(`${split.edit.at.replace(' ', 'T')}Z`)));
      next.version = old.version + 1;
      const relinked = LINKS.some((f) => JSON.stringify(old[f]) !== JSON.stringify(next[f]));
      const links = relinked ? await linksByIds(next) : UNLINKED;
      if (relinked) next.cards = cardsFor(next, links.places, old.cards);
      await commit(old, next, links, undefined, attempt);
    };
    // An edit its own state refuses (a link to a record gone since): it moves with its own fields,
    // as an edit by scope all leaves such an event, so that the split is carried out whole.
    await move(takesEdit).catch((err: unknown) => {
      if (takesEdit && err instanceof ApiError && err.status === 400) return move(false);
      throw err;
    });
  });
}
