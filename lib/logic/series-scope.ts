// Writes by scope of the events of a series. Edits with `all` (lib/logic/events.ts): the sent
// fields, as the event they were sent to took them, are recorded on the first event
// (`series.edit`) and written to every other event of the series, each in its own transaction; the
// request writes what its time allows, the stream consumer all of them for the change that
// recorded the edit. Deletes (lib/logic/posts.ts): `following` ends the series
// before an occurrence and removes it and every later one, `all` removes the whole series. The
// first event records the end (`series.stop`, lib/store/series-progress.ts) before any event goes,
// so no later occurrence gets written; then each event of the series (found by the series'
// partition, keys.seriesMember) goes to the trash or is deleted, or, before the end, takes the
// shortened rules, each in its own transaction. A request does what its time allows; the stream
// consumer (lib/stream/series-trigger.ts) does it all again, idempotently, for the change of the
// first event that recorded the end, and a chunk of occurrences being written when the series
// ended removes what it wrote past the end itself (lib/logic/series.ts). The first event goes last
// when the whole series goes: it holds the end until then.
import { config } from '#lib/runtime/config.js';
import { logger } from '#lib/observe/log.js';
import { ApiError, ConflictError } from '#lib/contract/errors.js';
import { getItem } from '#lib/store/reads.js';
import { transact, transactEstimate } from '#lib/store/transactions.js';
import { fanOut, fanOutOrLeave, withRetry } from '#lib/store/retry.js';
import { keys } from '#lib/store/keys.js';
import { ofKind, type EventItem, type SeriesEdit, type SeriesStop } from '#lib/store/items.js';
import { seriesMembers } from '#lib/store/partitions.js';
import { endSeries, recordSeriesEdit } from '#lib/store/series-progress.js';
import { writeChecked, type Checked } from '#lib/store/precondition.js';
import { freeSlug } from '#lib/store/slugs.js';
import { modifiedNow } from './common.js';
import { eventTransaction } from './event-writes.js';
import { cardsFor } from './cards.js';
import { commit, linksByIds, type Resolved } from './event-commit.js';
import { rulesBefore } from './series-rules.js';

export type Scope = 'this' | 'following' | 'all';

/** Events of a series rewritten at once. */
const AT_ONCE = 8;

/** Time a request keeps after the series' events for its own last write (the first event's). */
export const ownWriteMs = () => transactEstimate() + 250;

/**
 * A request's write of one event of a series that failed (a race it kept losing, say) is left to
 * the stream consumer, which writes every one again: the request's answer stands.
 */
export const leftFor = (what: string, count: () => void) => (err: unknown) => {
  count();
  logger.warn({ message: `${what}: one left to the stream consumer`, err: String(err) });
};

/** Whether the end of a series takes `e` away. */
export const covered = (e: Pick<EventItem, 'utcStart'>, stop: SeriesStop) => stop.from === '' || e.utcStart >= stop.from;

/** An event moved to the trash, as a trash by DELETE moves it (lib/logic/posts.ts). */
export const trashedEvent = (old: EventItem, now: Date, modified = modifiedNow(now)): EventItem => ({
  ...old,
  status: 'trash',
  trashedFrom: old.status,
  slug: `${old.slug}__trashed`,
  ...modified,
  version: old.version + 1,
});

/**
 * What a series does to one of its events: keeps it (with the series' current rules), leaves it as
 * it is, trashes or deletes it (an end), trashes it because its rules no longer give its date
 * (`dropped`), or restores one they had dropped (`restore`).
 */
export type Fate = SeriesStop['mode'] | 'keep' | 'leave' | 'dropped' | 'restore';

/**
 * An event its series' rules give again after they had dropped it, out of the trash as an update
 * of its status takes it: its status before, and its slug back (or the next free one). Undefined
 * when the series has other rules by now (a late settle of rules since replaced restores nothing).
 */
async function restoredEvent(old: EventItem, first: EventItem, now: Date): Promise<EventItem | undefined> {
  const current = ofKind(await getItem(keys.post(first.id)), 'event');
  if (JSON.stringify(current?.recurrence) !== JSON.stringify(first.recurrence)) return undefined;
  const { trashedFrom, trashedByRules: _dropped, ...rest } = old;
  const slug = await freeSlug('event', old.lang, old.slug.replace(/__trashed$/, '') || String(old.id), old.id);
  // Never back in time, as a kept event's.
  const modified = modifiedNow(now);
  return { ...rest, status: trashedFrom ?? 'publish', slug, recurrence: first.recurrence, ...(modified.modified_utc > old.modified_utc ? modified : {}), version: old.version + 1 };
}

/**
 * Brings one event of a series in line with its ended series: trashed or deleted when the end
 * covers it, else given the series' current rules. Idempotent; nothing when it is gone already.
 * With `check`, the write carries the version If-Match names.
 */
export const settleEvent = (id: number, first: EventItem | undefined, stop: SeriesStop, now: Date, check?: Checked): Promise<EventItem | undefined> =>
  settleWith(id, first, (old) => (covered(old, stop) || !first ? stop.mode : 'keep'), now, check);

/**
 * Brings one event of the series of `first` in line with it, as `fate` says of the event as it is:
 * kept (with the series' current rules), trashed, deleted, or left as it is. Idempotent.
 */
export function settleWith(id: number, first: EventItem | undefined, fate: (old: EventItem) => Fate, now: Date, check?: Checked): Promise<EventItem | undefined> {
  return withRetry(async () => {
    const old = ofKind(await getItem(keys.post(id)), 'event');
    if (!old) return undefined;
    const mode = fate(old);
    let next: EventItem | undefined;
    if (mode === 'leave') return old;
    if (mode === 'restore') {
      next = first && (await restoredEvent(old, first, now));
      if (!next) return old;
    } else if (mode !== 'keep') {
      if ((mode === 'trash' || mode === 'dropped') && old.status === 'trash') return old;
      next = mode === 'delete' ? undefined : { ...trashedEvent(old, now), ...(mode === 'dropped' ? { trashedByRules: true as const } : {}) };
    } else if (first && JSON.stringify(old.recurrence) !== JSON.stringify(first.recurrence)) {
      // Never back in time: an event changed after `now` keeps its own time.
      const modified = modifiedNow(now);
      next = { ...old, recurrence: first.recurrence, ...(modified.modified_utc > old.modified_utc ? modified : {}), version: old.version + 1 };
    } else return old;
    const tx = eventTransaction(old, next, config().tableName);
    await writeChecked(tx.items, check?.key.pk === old.pk ? check : undefined, () => transact(tx.items, (i) => tx.meaning.get(i)?.()));
    return next;
  });
}

/**
 * Records on the first event of `addressed`'s series where it ends: before `addressed` (following),
 * or all of it. Answers the first event as written, undefined when it is gone (a series whose first
 * event was deleted writes no more occurrences: its events can only go one by one).
 */
async function recordEnd(addressed: EventItem, scope: Exclude<Scope, 'this'>, mode: SeriesStop['mode'], now: Date, check: Checked | undefined): Promise<EventItem | undefined> {
  return withRetry(async () => {
    const first = ofKind(await getItem(keys.post(addressed.seriesId!)), 'event');
    if (!first?.series || !first.recurrence) return undefined;
    const all = scope === 'all' || addressed.id === first.id;
    const stop: SeriesStop = { from: all ? '' : addressed.utcStart, mode };
    const had = first.series.stop;
    // An end recorded already that takes at least as much, and as firmly, stands.
    if (had && had.from <= stop.from && (had.mode === 'delete' || mode === 'trash')) return first;
    const merged: SeriesStop = { from: had && had.from < stop.from ? had.from : stop.from, mode: had?.mode === 'delete' ? 'delete' : mode };
    const shortened =
      merged.from === ''
        ? { lines: first.recurrence, total: Math.min(first.series.made, first.series.total) }
        : rulesBefore({ ...first, recurrence: first.recurrence, series: first.series }, merged.from);
    const modified = modifiedNow(now);
    const ok = await endSeries(
      first.id,
      { version: first.version, made: first.series.made },
      { total: shortened.total, recurrence: shortened.lines, stop: merged, modified },
      check?.key.pk === first.pk ? check : undefined,
    );
    if (!ok) throw new ConflictError(`Series of event ${first.id} changed while ending it`);
    return { ...first, recurrence: shortened.lines, series: { ...first.series, total: shortened.total, stop: merged }, ...modified, version: first.version + 1 };
  });
}

/**
 * Settles every event of the series of `first` (as it is now, with its end recorded): the events
 * the end covers go, the others take its rules, and the first event goes last when it is covered.
 * A `request` leaves to the stream consumer what it has no time for (and `skip`, the event it
 * settled itself); answers whether everything was done.
 */
export async function settleSeries(first: EventItem, now: Date, request: boolean, skip?: number): Promise<boolean> {
  const stop = first.series?.stop;
  if (!stop) return true;
  const members = (await seriesMembers(first.id)).filter((m) => m.eventId !== first.id && m.eventId !== skip);
  const settle = (m: { eventId: number }) => settleEvent(m.eventId, first, stop, now);
  const what = `Events of the series of ${first.id}`;
  if (request) {
    let failed = 0;
    const left = await fanOutOrLeave(members, AT_ONCE, (m) => settle(m).catch(leftFor(what, () => failed++)), what, ownWriteMs);
    if (left + failed > 0) return false;
  } else await fanOut(members, AT_ONCE, settle, what);
  if (stop.from !== '') return true;
  try {
    await settleEvent(first.id, first, stop, now);
  } catch (err) {
    if (!request) throw err;
    leftFor(what, () => undefined)(err);
    return false;
  }
  return true;
}

/**
 * DELETE of `addressed` (an event of a series) with `scope` following or all, moving to the trash
 * or deleting (`force`). Answers the addressed event as the delete leaves it (a trashed record, or
 * the one deleted), even when the consumer completes the series after the answer.
 */
export async function deleteSeries(addressed: EventItem, scope: Exclude<Scope, 'this'>, force: boolean, now: Date, check: Checked | undefined): Promise<EventItem> {
  const mode = force ? 'delete' : 'trash';
  const first = await recordEnd(addressed, scope, mode, now, check);
  const stop = first?.series?.stop;
  // A series whose first event is gone can end no further: the addressed event goes alone.
  if (!first || !stop) return (await settleEvent(addressed.id, undefined, { from: '', mode }, now, check)) ?? addressed;
  const isFirst = addressed.id === first.id;
  // The addressed event first, with the checked version (unless it is the first event: that carried it).
  const own = isFirst ? undefined : await settleEvent(addressed.id, first, stop, now, check);
  const done = await settleSeries(first, now, true, addressed.id);
  if (!isFirst) return own ?? addressed;
  if (force) return addressed;
  const stored = ofKind(await getItem(keys.post(first.id)), 'event');
  // Left to the consumer: answered as the trash it will be.
  return done && stored ? stored : trashedEvent(stored ?? addressed, now);
}

export const UNLINKED: Resolved = { places: new Map(), writes: [], created: new Set(), edited: [], newTerms: [], split: new Map() };
export const LINKS = ['venues', 'organizers', 'categories', 'tags'] as const;

/**
 * Writes `edit` to event `id` of its series: not to the event it was sent to, nor to one trashed,
 * gone, or changed after the edit was made (its own change stands). Idempotent.
 */
export function applyEdit(id: number, edit: SeriesEdit): Promise<void> {
  return withRetry(async (attempt) => {
    const old = ofKind(await getItem(keys.post(id)), 'event');
    if (!old || id === edit.from || old.status === 'trash' || old.modified_utc > edit.at) return;
    const next = withEdit(old, edit);
    if (JSON.stringify({ ...next, modified: '', modified_utc: '' }) === JSON.stringify({ ...old, modified: '', modified_utc: '' })) return;
    // Changed at the edit's time: a replay by the consumer finds it not changed since.
    Object.assign(next, modifiedNow(new Date(`${edit.at.replace(' ', 'T')}Z`)), { version: old.version + 1 });
    const relinked = LINKS.some((f) => JSON.stringify(old[f]) !== JSON.stringify(next[f]));
    // New links are checked by the transaction (a venue trashed since fails it: that event keeps its own).
    const links = relinked ? await linksByIds(next) : UNLINKED;
    if (relinked) next.cards = cardsFor(next, links.places, old.cards);
    await commit(old, next, links, undefined, attempt);
  });
}

/**
 * Writes `edit` to every event of the series of `seriesId` (a `request` does what its time allows
 * and leaves the rest to the stream consumer): answers whether all were written.
 */
export async function applySeriesEdit(seriesId: number, edit: SeriesEdit, request: boolean): Promise<boolean> {
  const members = (await seriesMembers(seriesId)).filter((m) => m.eventId !== edit.from);
  return writeMembers(members, (id) => applyEdit(id, edit).catch(skipRefused), `Events of the series of ${seriesId}`, request);
}

/**
 * Writes each event of a series with `write`, AT_ONCE at a time: all of them (the stream consumer),
 * or what a `request`'s time allows, leaving the rest (and any that failed) to the consumer.
 * Answers whether all were written.
 */
export async function writeMembers(members: readonly { eventId: number }[], write: (id: number) => Promise<void>, what: string, request: boolean): Promise<boolean> {
  if (!request) {
    await fanOut(members, AT_ONCE, (m) => write(m.eventId), what);
    return true;
  }
  let failed = 0;
  const left = await fanOutOrLeave(members, AT_ONCE, (m) => write(m.eventId).catch(leftFor(what, () => failed++)), what, ownWriteMs);
  return left + failed === 0;
}

/** `old` with the fields of `edit` (its set, less its removed attributes). */
export function withEdit(old: EventItem, edit: SeriesEdit): EventItem {
  const next: EventItem = { ...old, ...edit.set };
  for (const attribute of edit.remove) delete next[attribute];
  return next;
}

/** An event whose edit its own state refuses (a link it cannot take) keeps its fields: the others go on. */
const skipRefused = (err: unknown) => {
  if (err instanceof ApiError && err.status === 400) return;
  throw err;
};

/**
 * An edit by scope all of the series of `seriesId`, sent to event `from`: recorded on the first
 * event (merged with one still being written), then written to the other events.
 */
export async function editSeries(seriesId: number, edit: SeriesEdit): Promise<void> {
  const first = ofKind(await getItem(keys.post(seriesId)), 'event');
  const had = first?.series?.edit;
  const merged: SeriesEdit = had
    ? {
        ...edit,
        set: { ...Object.fromEntries(Object.entries(had.set).filter(([k]) => !edit.remove.includes(k as keyof EventItem))), ...edit.set },
        remove: [...new Set([...had.remove.filter((k) => !(k in edit.set)), ...edit.remove])],
      }
    : edit;
  // Without its first event the series has no record to carry the edit: the request writes it alone.
  if (first) await recordSeriesEdit(seriesId, merged);
  await applySeriesEdit(seriesId, edit, true);
}
