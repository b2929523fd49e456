// The write of a new or changed event with what it links, in one transaction (lib/logic/event-writes.ts),
// shared by the API's writes (lib/logic/events.ts) and the stream consumer's occurrences of series
// (lib/logic/series.ts), which must not carry presenters or sign-in.
import { config } from '#lib/runtime/config.js';
import { waitAll } from '#lib/runtime/settle.js';
import type { RequestContext } from '#lib/contract/request.js';
import { logger } from '#lib/observe/log.js';
import { batchGet, getItem, keyOf, type ItemKey } from '#lib/store/reads.js';
import { transact, TransactionConflicted, type TransactItem } from '#lib/store/transactions.js';
import { splitAll, splitOf, splitsSettled, type Split } from '#lib/store/record-shards.js';
import { withRetry } from '#lib/store/retry.js';
import type { CreateId } from '#lib/store/create-ids.js';
import { idAndSlug } from '#lib/store/slugs.js';
import { keys } from '#lib/store/keys.js';
import { ofKind, type AnyPost, type EventItem, type OrganizerItem, type TermItem, type VenueItem } from '#lib/store/items.js';
import { writeChecked, type Checked } from '#lib/store/precondition.js';
import { addTermBytes, durationBound, itemBytes } from '#lib/store/stats.js';
import { eventSeconds } from '#lib/store/durations.js';
import { refreshCards, REQUEST_FAN_OUT } from './cards.js';
import { newId } from './common.js';
import { bucketSpread, eventTransaction, MAX_BUCKET_SHARDS, type TransactionLinks } from './event-writes.js';
import { requireRoom } from './event-room.js';
import { termWrites } from './term-items.js';

export interface Resolved {
  /** Read for an import that nothing else reads (ImportedRecord.unobserved). */
  unobserved?: boolean;
  venues?: number[];
  organizers?: number[];
  categories?: number[];
  tags?: number[];
  /** Venues and organizers read or created by this write, for the event's cards. */
  places: Map<number, VenueItem | OrganizerItem>;
  /** Records created by this write (inline venues, organizers, new terms). */
  writes: TransactItem[];
  created: Set<string>;
  /** Existing venues and organizers this write saves fields onto (their records are in `writes`). */
  edited: (VenueItem | OrganizerItem)[];
  newTerms: TermItem[];
  /** The existing terms linked by id, as read (consistently) before the write. */
  terms?: Map<number, TermItem>;
  /** Linked records read that are split (lib/store/record-shards.ts): partition key → how. */
  split: Map<string, Split>;
}

/**
 * The links of an event whose ids name existing records only (an occurrence of a series takes its
 * first event's): the venues and organizers for its cards, and which linked records are split.
 * The transaction checks that each still exists.
 */
export async function linksByIds(e: Pick<EventItem, 'lang' | 'venues' | 'organizers' | 'categories' | 'tags'>): Promise<Resolved> {
  const lookups: ItemKey<AnyPost | TermItem>[] = [...e.venues, ...e.organizers].map((id) => keys.post(id) as ItemKey<AnyPost>);
  lookups.push(...[...e.categories, ...e.tags].map((id) => keys.term(id) as ItemKey<TermItem>));
  await splitsSettled(lookups);
  const found = await batchGet(lookups, true);
  const places = new Map<number, VenueItem | OrganizerItem>();
  for (const record of found.values()) {
    const post = 'kind' in record ? record : undefined;
    const place = ofKind(post, 'venue') ?? ofKind(post, 'organizer');
    if (place) places.set(place.id, place);
  }
  return { places, writes: [], created: new Set(), edited: [], newTerms: [], split: splitOf(found.values()) };
}

/**
 * Writes the event and everything created with it in one transaction; an update's carries the
 * version `check` names (If-Match), on every attempt. Retries spread their counts (bucketSpread).
 */
export async function commit(old: EventItem | undefined, next: EventItem, links: Resolved, check: Checked | undefined, attempt: number): Promise<void> {
  const bound = await durationBound(next.lang, eventSeconds(next));
  // A split record is one that writes meet on: spread as wide as it is split, at once.
  const spread = links.split.size ? MAX_BUCKET_SHARDS : bucketSpread(attempt);
  // The terms this write creates are created when linked (all of them, unless it holds too many links to fit).
  const linksFor = (e: EventItem): TransactionLinks => {
    const linked = new Set([...e.categories, ...e.tags]);
    const terms = links.newTerms.filter((t) => linked.has(t.id));
    return {
      extra: [...links.writes, ...terms.flatMap((t) => termWrites({ ...t, count: e.status === 'publish' ? 1 : 0 }))],
      created: links.created,
      bound,
      spread,
      split: links.split,
      unobserved: links.unobserved,
    };
  };
  requireRoom(old, next, linksFor, config().tableName);
  const tx = eventTransaction(old, next, config().tableName, linksFor(next));
  try {
    await writeChecked(tx.items, check, () => transact(tx.items, (i) => tx.meaning.get(i)?.()));
  } catch (err) {
    // Writes kept meeting on a linked record: split it, so that the retry (and every later write
    // that links it) names one of its shards instead.
    if (err instanceof TransactionConflicted) await splitAll(err.items.filter((k) => linkedRecord(k, next)));
    throw err;
  }
  // Other events that link a venue or organizer this write saved fields onto show them too (as
  // after its edit); what fails here, the stream consumer completes: the write itself stands.
  for (const place of links.edited)
    await refreshCards(place, REQUEST_FAN_OUT).catch((err: unknown) => logger.warn({ message: 'Card refresh after a saved match failed', id: place.id, err: String(err) }));
  if (links.newTerms.length)
    await addTermBytes(
      next.lang,
      links.newTerms.reduce((n, t) => n + itemBytes(t), 0),
    );
}

/** Whether `key` is the record of a venue, organizer or term `e` links. */
const linkedRecord = (key: { pk: string; sk: string }, e: EventItem) =>
  [...e.venues, ...e.organizers].some((id) => keyOf(keys.post(id)) === keyOf(key)) || [...e.categories, ...e.tags].some((id) => keyOf(keys.term(id)) === keyOf(key));

/**
 * Creates the event `build` makes of its id, slug and the links `resolve` reads.
 * One id for every attempt: an attempt that lost a race wrote nothing, so its id is still free.
 * Taken within the first attempt, so that a request that never starts one takes none. A retry of
 * a create with its key (`ctx.createKey`: a client's Idempotency-Key, or a series' occurrence)
 * takes the id of the first try (createId), and answers its event when that try landed after all.
 */
export async function insertEvent(
  ctx: Pick<RequestContext, 'lang' | 'createKey' | 'imported'>,
  wantedSlug: string,
  resolve: (attempt: number) => Promise<Resolved>,
  build: (id: number, slug: string, links: Resolved) => EventItem,
): Promise<EventItem> {
  let allocated: Promise<CreateId> | undefined;
  return withRetry(async (attempt) => {
    const taking = (allocated ??= newId(ctx, 'post'));
    // The links, the id and the slug are read at once. After a lost slug race the slug takes a
    // ticket from the wanted slug's counter (freeSlug).
    const [links, [id, slug], stored] = await waitAll([
      resolve(attempt),
      idAndSlug(
        taking.then((c) => c.id),
        'event',
        ctx.lang,
        wantedSlug,
        attempt,
        ctx.imported?.slug,
      ),
      taking.then(async (c) => (c.retried ? ofKind(await getItem(keys.post(c.id)), 'event') : undefined)),
    ]);
    if (stored) return stored;
    const next = build(id, slug, links);
    await commit(undefined, next, links, undefined, attempt);
    return next;
  });
}
