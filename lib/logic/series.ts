// The occurrences of a series after its first event, written by the stream consumer
// (lib/stream/series-trigger.ts): each change of a first event whose series is not complete writes
// the next occurrences and records how far it got on the first event, whose change brings the
// next call, until every occurrence exists (or a delete by scope ends the series,
// lib/logic/series-scope.ts). A create answers as soon as its first event is written, however long
// the series. One call writes for up to WRITING_MS: a transaction of occurrences at a time
// (lib/logic/series-chunks.ts) while each is written that way; else, or once the rules changed
// (dates the series has events for already are not written again), one chunk (SERIES_CHUNK,
// lib/runtime/config.ts) of creates of their own, and the change its progress makes brings the rest.
import type { Occurrence } from '#lib/domain/recurrence/expand.js';
import { config } from '#lib/runtime/config.js';
import { pool } from '#lib/runtime/pool.js';
import { getItem } from '#lib/store/reads.js';
import { keys } from '#lib/store/keys.js';
import { ofKind, type EventItem } from '#lib/store/items.js';
import { advanceSeries } from '#lib/store/series-progress.js';
import { cardsFor } from './cards.js';
import { insertEvent, linksByIds, type Resolved } from './event-commit.js';
import { occurrenceEvent, occurrenceKey, occurrenceSlug, occurrenceStart, seriesPending, storedOccurrences } from './series-rules.js';
import { existingStarts } from './series-rules-edit.js';
import { settleEvent } from './series-scope.js';
import { OccurrenceGone } from './event-writes.js';
import { writeTogether } from './series-chunks.js';

/**
 * How long one call goes on writing a series' occurrences: a five-year daily series on DynamoDB
 * Local, well within the consumer's timeout (120 s) with a batch of other changes beside it. The
 * other changes of its batch wait for it meanwhile (their feeds, search index and webhooks).
 */
const WRITING_MS = 30_000;

/** Occurrences written at once within a chunk. */
const CONCURRENCY = 4;

/** Writes the next occurrences of the series whose first event is `id`, if it has any left. */
export async function continueSeries(id: number): Promise<void> {
  const started = Date.now();
  let links: { of: string; read: Promise<Resolved> } | undefined;
  let occurrences: { of: string; all: Occurrence[] } | undefined;
  for (;;) {
    const first = ofKind(await getItem(keys.post(id)), 'event');
    if (!seriesPending(first)) return;
    if (first.series.rules) return writeChunk(first);
    // The links and dates as the first event says now (an edit by scope all may change them meanwhile).
    const linked = JSON.stringify([first.venues, first.organizers, first.categories, first.tags]);
    if (links?.of !== linked) links = { of: linked, read: linksByIds(first) };
    const rules = JSON.stringify([first.recurrence, first.series.asOf, first.series.total, first.start, first.end, first.timezone, first.allDay]);
    if (occurrences?.of !== rules) occurrences = { of: rules, all: storedOccurrences(first) };
    if (!(await writeTogether(first, occurrences.all, await links.read))) {
      // Another call got further, or the series ended, since it was read: the change that made it brings what is left.
      const now = ofKind(await getItem(keys.post(id)), 'event');
      if (now?.series?.made !== first.series.made || now.series.total !== first.series.total) return;
      return writeChunk(first);
    }
    if (Date.now() - started >= WRITING_MS) return;
  }
}

/** Writes the next chunk of occurrences of `first`'s series one create at a time, and records them. */
async function writeChunk(first: EventItem & Required<Pick<EventItem, 'series' | 'recurrence'>>): Promise<void> {
  const { id } = first;
  const from = first.series.made;
  const chunk = storedOccurrences(first).slice(from, from + config().seriesChunk);
  // After new rules, the dates the series has events for already are not written again (none
  // has an event past the last one that had when the rules changed).
  const through = first.series.rules?.through;
  const looks = first.series.rules && chunk[0] && (through === undefined || occurrenceStart(first, chunk[0]) <= through);
  const existing = looks ? await existingStarts(first) : undefined;
  const next = existing ? chunk.filter((at) => !existing.has(occurrenceStart(first, at))) : chunk;
  const written: EventItem[] = [];
  const failed = await pool(next, CONCURRENCY, async (at) => {
    const e = await writeOccurrence(first, at);
    if (e) written.push(e);
  }).then(
    () => undefined,
    (reason: unknown) => ({ reason }),
  );
  if (!failed && (await advanceSeries(first.id, from, from + chunk.length, first.series.total))) return;
  // The series ended (or its first event went) while this chunk was written: what it wrote past the
  // end goes as the end says, and the rest takes the shortened rules; with the first event deleted,
  // its unrecorded occurrences go with it. A chunk that failed is written again from `made`.
  const now = ofKind(await getItem(keys.post(id)), 'event');
  if (!now || now.series?.total !== first.series.total) {
    const stop = now?.series?.stop ?? { from: '', mode: 'delete' as const };
    const at = new Date();
    await pool(written, CONCURRENCY, (e) => settleEvent(e.id, now, stop, at));
  }
  if (failed) throw failed.reason;
}

/**
 * One occurrence, as a create of the first event's links would write it. Its key (the series and
 * the occurrence's instant) makes a redelivered change find the event it wrote instead of writing
 * another (lib/store/create-ids.ts), and one deleted since stays deleted (undefined).
 */
async function writeOccurrence(first: EventItem, at: Occurrence): Promise<EventItem | undefined> {
  const ctx = { lang: first.lang, createKey: occurrenceKey(first.id, at.utc) };
  return insertEvent(
    ctx,
    occurrenceSlug(first, at),
    () => linksByIds(first),
    (id, slug, links) => {
      const e = occurrenceEvent(first, at, id, slug);
      e.cards = cardsFor(e, links.places);
      return e;
    },
  ).catch((err: unknown) => {
    // Written before and deleted since (a chunk written again): it stays deleted.
    if (err instanceof OccurrenceGone) return undefined;
    throw err;
  });
}
