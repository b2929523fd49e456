// A series' occurrences many to a transaction: the records, guards and index items of each, the
// counts they share moved once, the create key of each kept (as a create of its own keeps it), and
// the series' progress, all together. Written whole or not at all, so a change delivered again or
// a second consumer call finds the progress moved and writes nothing twice; what one occurrence
// meets (a slug taken here, a try of its own that took its key, a date deleted before) makes the
// whole transaction fail, and the caller writes that chunk one occurrence at a time instead
// (lib/logic/series.ts), which settles each case as a create does.
//
// Why: an occurrence written as a create of its own costs six requests and a transaction, most of
// it the transaction's own overhead (DynamoDB Local's 7-item transactions take 3.2 ms an item,
// 50-item ones 0.55 ms), so a five-year daily series took a minute to write.
import type { Occurrence } from '#lib/domain/recurrence/expand.js';
import { ApiError, ConflictError } from '#lib/contract/errors.js';
import { config } from '#lib/runtime/config.js';
import { keepInTransaction } from '#lib/store/create-ids.js';
import { eventSeconds } from '#lib/store/durations.js';
import { nextId } from '#lib/store/ids.js';
import type { EventItem } from '#lib/store/items.js';
import { advanceItem } from '#lib/store/series-progress.js';
import { durationBound, itemBytes } from '#lib/store/stats.js';
import { MAX_TRANSACT_ITEMS, transact } from '#lib/store/transactions.js';
import { cardsFor } from './cards.js';
import type { Resolved } from './event-commit.js';
import { createsWrites, MAX_BUCKET_SHARDS, OccurrenceGone, type TransactionLinks } from './event-writes.js';
import { occurrenceEvent, occurrenceKey, occurrenceSlug } from './series-rules.js';

/** What a transaction may hold in bytes: DynamoDB takes 4 MB, and the SDK's framing is kept clear of it. */
const TRANSACT_BYTES = 3_500_000;

type Pending = EventItem & Required<Pick<EventItem, 'series' | 'recurrence'>>;

/**
 * Writes the occurrences of `first`'s series from its progress on (`occurrences`, every one the
 * series has), as many as one transaction holds, and records them. How many it wrote: 0 when one
 * of them could not be written this way, or the series moved on since `first` was read.
 */
export async function writeTogether(first: Pending, occurrences: readonly Occurrence[], links: Resolved): Promise<number> {
  const from = first.series.made;
  const rest = distinctSlugs(first, occurrences.slice(from, first.series.total));
  if (!rest.length) return 0;
  // No recent-write items: no client wrote these, and search finds them once the consumer has indexed
  // them (seconds later), where a search would otherwise read every one the consumer has not indexed yet.
  const linksWith = (bound: number): TransactionLinks => ({ bound, spread: links.split.size ? MAX_BUCKET_SHARDS : 1, split: links.split, unobserved: true });
  const build = (ats: readonly Occurrence[], id: number) =>
    ats.map((at, i) => {
      const e = occurrenceEvent(first, at, id + i, occurrenceSlug(first, at));
      e.cards = cardsFor(e, links.places);
      return e;
    });
  // How many fit does not depend on the bound's value, only on there being one.
  const n = fitting(rest, (ats) => createsWrites(build(ats, 1), config().tableName, linksWith(eventSeconds(first))).items);
  if (!n) return 0;
  const ats = rest.slice(0, n);
  const events = build(ats, await nextId('post', n));
  // Each keeps its wall-clock length, so one across a change of the clocks lasts an hour more or less.
  const bound = await durationBound(first.lang, Math.max(...events.map(eventSeconds)));
  const tx = createsWrites(events, config().tableName, linksWith(bound));
  const items = [...tx.items, ...events.map((e, i) => keepInTransaction(occurrenceKey(first.id, ats[i]!.utc), e.id)), advanceItem(first.id, from, from + n, first.series.total)];
  try {
    await transact(items, (i) => tx.meaning.get(i)?.());
    return n;
  } catch (err) {
    // A failed condition or writes that kept meeting: nothing was written.
    if (err instanceof ConflictError || err instanceof OccurrenceGone || err instanceof ApiError) return 0;
    throw err;
  }
}

/**
 * The first of `ats` up to the first that asks for a slug an earlier one asks for (two on one
 * day): one transaction may not put a slug's guard twice, and the later one takes the next free
 * slug, which the creates of their own find.
 */
function distinctSlugs(first: Pending, ats: readonly Occurrence[]): readonly Occurrence[] {
  const seen = new Set<string>();
  for (const [i, at] of ats.entries()) {
    const slug = occurrenceSlug(first, at);
    if (seen.has(slug)) return ats.slice(0, i);
    seen.add(slug);
  }
  return ats;
}

/**
 * How many of `ats` (from the first) fit one transaction with a create key each and the progress
 * (0: not one): `itemsOf` gives the occurrences' own items. Estimated from one and two, then checked.
 */
function fitting(ats: readonly Occurrence[], itemsOf: (ats: readonly Occurrence[]) => ReturnType<typeof createsWrites>['items']): number {
  const one = itemsOf(ats.slice(0, 1)).length;
  const each = ats.length > 1 ? itemsOf(ats.slice(0, 2)).length - one + 1 : one + 1;
  let n = Math.max(1, Math.min(ats.length, Math.floor((MAX_TRANSACT_ITEMS - 1 - (one + 1 - each)) / each)));
  for (;;) {
    const items = itemsOf(ats.slice(0, n));
    const count = items.length + n + 1;
    const bytes = items.reduce((sum, t) => sum + itemBytes(t), 0);
    if (count <= MAX_TRANSACT_ITEMS && bytes <= TRANSACT_BYTES) return n;
    // Not even one, with its create key and the progress: the creates of their own write it.
    if (n === 1) return 0;
    // More months (each its count buckets) or larger records than the estimate: a little fewer.
    n = Math.max(1, Math.min(n - Math.ceil((count - MAX_TRANSACT_ITEMS) / each), Math.floor((n * TRANSACT_BYTES) / bytes)));
  }
}
