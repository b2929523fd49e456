// The transaction that moves an event from one stored state to another. Everything derived from
// an event changes with it or not at all:
// - the record and its slug guard;
// - its link items, one in the partition of each venue, organizer and term, which also index
//   the event by start date for the list filters of that venue, organizer or term;
// - its featured index item (the featured / not-featured lists);
// - the count buckets of every list it appears in (exact totals without reading the matches),
//   in a shard of each month's bucket once writes meet on it;
// - the published-event counts of its terms and the linked-event counts of its venues and
//   organizers (has_events), in a shard of a record that writes met on (lib/store/record-shards.ts).
import { ApiError, ConflictError } from '#lib/contract/errors.js';
import { del, MAX_TRANSACT_ITEMS, put, type TransactItem } from '#lib/store/transactions.js';
import { bucketUpdate, countAdd, linkedCheck, recordUpdate, sameIndexState, type LinkedState } from '#lib/store/event-transaction-items.js';
import { durationClass, eventSeconds } from '#lib/store/durations.js';
import { bucketOf, keys, listKeys } from '#lib/store/keys.js';
import { recentWrites } from '#lib/store/recent-writes.js';
import type { EventItem, LinkItem, SeriesMemberItem } from '#lib/store/items.js';
import { RECORD_SHARDS, shardKey, type Split } from '#lib/store/record-shards.js';
import { readCards } from './cards.js';
import { indexed } from './common.js';

/** An event appears in lists unless trashed or hidden from listings. */
export const listed = (e: EventItem | undefined): e is EventItem => !!e && e.status !== 'trash' && !e.hidden;

/** Statuses whose events count as a venue's or organizer's events (TEC's has_events). */
const COUNTS_AS_LINKED = new Set(['publish', 'future', 'private']);

type Dimension = { pk: string; sk: string; dim: string };

/** The items that index an event, besides its record: link items and the featured item. */
function dimensions(e: EventItem): Dimension[] {
  const out: Dimension[] = [];
  for (const id of e.venues) out.push({ ...keys.link(keys.post(id).pk, e.id), dim: `venue#${id}` });
  for (const id of e.organizers) out.push({ ...keys.link(keys.post(id).pk, e.id), dim: `organizer#${id}` });
  for (const id of e.categories) out.push({ ...keys.link(keys.term(id).pk, e.id), dim: `category#${id}` });
  for (const id of e.tags) out.push({ ...keys.link(keys.term(id).pk, e.id), dim: `tag#${id}` });
  out.push({ ...keys.featured(e.id), dim: `featured#${e.featured ? 1 : 0}` });
  return out;
}

/**
 * What every index item carries, so that list queries can filter and order on it: taken from the
 * event's record, or from an index item (to compare the two).
 */
export function indexAttributes(e: EventItem | LinkItem) {
  return {
    id: e.id,
    eventId: e.id,
    author: e.author,
    lang: e.lang,
    status: e.status,
    utcStart: e.utcStart,
    utcEnd: e.utcEnd,
    venues: e.venues,
    organizers: e.organizers,
    categories: e.categories,
    tags: e.tags,
    featured: e.featured,
    parent: e.parent,
  };
}

function indexItems(e: EventItem | undefined): Map<string, LinkItem> {
  const out = new Map<string, LinkItem>();
  if (!e) return out;
  for (const d of dimensions(e)) {
    const item: LinkItem = { pk: d.pk, sk: d.sk, ...indexAttributes(e) };
    if (listed(e)) Object.assign(item, listKeys.event(e.lang, e.status, e.utcStart, e.id, d.dim));
    out.set(`${d.pk}|${d.sk}`, item);
  }
  return out;
}

/** The list partitions an event is counted in, each with the day of its start. */
function countedIn(e: EventItem | undefined): string[] {
  if (!listed(e)) return [];
  return [listKeys.partition('event', e.lang, e.status), ...dimensions(e).map((d) => listKeys.partition('event', e.lang, e.status, d.dim))];
}

/** The most shards a month's count bucket is spread over (lib/store/keys.ts, bucketOf). */
export const MAX_BUCKET_SHARDS = RECORD_SHARDS;

/**
 * How many shards an attempt's count updates spread over: none on the first attempt, so that a
 * calendar without contention keeps one item per month (a window's total reads them all), then
 * ever more: DynamoDB refuses a transaction while another one holds one of its items
 * (TransactionConflict), and every write of a month's events would otherwise queue on its buckets.
 */
export const bucketSpread = (attempt: number): number => (attempt <= 1 ? 1 : Math.min(MAX_BUCKET_SHARDS, 2 ** (attempt + 1)));

/**
 * One update per bucket item: `n` and the per-day counters move by the deltas, in shard `shard` of
 * each month. With `bound` (at least the event's duration, in seconds), every bucket `next` is
 * counted in that this write changes, or all of them when the event is new or its duration
 * changed, adds the bound's class to its durations (lib/store/durations.ts).
 */
function bucketUpdates(writes: readonly (readonly [EventItem | undefined, EventItem | undefined])[], bound: number | undefined, shard: number): TransactItem[] {
  const deltas = new Map<string, { key: { pk: string; sk: string }; days: Map<string, number>; longest: boolean }>();
  const add = (e: EventItem | undefined, delta: number) => {
    if (!e) return;
    for (const partition of countedIn(e)) {
      const { key, day } = bucketOf(partition, e.utcStart, shard);
      const id = `${key.pk}|${key.sk}`;
      const entry = deltas.get(id) ?? { key, days: new Map(), longest: false };
      entry.days.set(day, (entry.days.get(day) ?? 0) + delta);
      if (delta > 0 && bound !== undefined) entry.longest = true;
      deltas.set(id, entry);
    }
  };
  for (const [old, next] of writes) {
    add(old, -1);
    add(next, 1);
  }
  const lasts = writes.some(([old, next]) => !old || !next || eventSeconds(old) !== eventSeconds(next));
  const items: TransactItem[] = [];
  for (const { key, days, longest } of deltas.values()) {
    const changed = [...days].filter(([, d]) => d !== 0);
    const durations = longest && (lasts || changed.length > 0);
    if (!changed.length && !durations) continue;
    items.push(bucketUpdate(key, changed, durations ? durationClass(bound!) : undefined));
  }
  return items;
}

const publishedTerms = (e: EventItem | undefined): Set<number> => new Set(e && e.status === 'publish' ? [...e.categories, ...e.tags] : []);

const linkedPlaces = (e: EventItem | undefined): Set<number> => new Set(e && COUNTS_AS_LINKED.has(e.status) ? [...e.venues, ...e.organizers] : []);

export interface EventTransaction {
  items: TransactItem[];
  /** For each item index, what a failed condition there means. */
  meaning: Map<number, () => Error>;
}

export const linkGone = (what: string) => new ApiError(400, 'invalid-linked-post-id', `The provided linked post ID is not valid: ${what} no longer exists.`);

/**
 * What an event's write links beside its record. `extra` holds records created in the same
 * transaction (inline venues, organizers and terms); `created` names their partition keys, which
 * need no existence check, and new records carry their starting counts themselves (one
 * transaction may not touch an item twice). The count updates go to one shard, chosen at random
 * among `spread` (see `bucketSpread`). `split` names the linked records known to be split
 * (partition key → how): their counts and checks go to the same shard of theirs instead
 * (lib/store/record-shards.ts). `bound` is the longest event's duration the buckets know.
 */
export interface TransactionLinks {
  extra?: TransactItem[];
  created?: Set<string>;
  bound?: number;
  spread?: number;
  split?: ReadonlyMap<string, Split>;
  /**
   * Without the recent-write item, so that search finds the event once it is indexed: an import that
   * nothing else reads, which indexes the event itself (ImportedRecord.unobserved), or a series'
   * occurrences, which no client wrote and the stream consumer indexes (lib/logic/series-chunks.ts).
   */
  unobserved?: boolean;
}

/** A transaction being built: its items, and what a failed condition at each means. */
interface Building extends EventTransaction {
  old: EventItem | undefined;
  next: EventItem | undefined;
  tableName: string;
  created: Set<string>;
  /** How many events of the same links the write creates at once (their counts move together). */
  times: number;
  /** The key a count or check of a linked record goes to, and how it bumps `version`. */
  target: (key: { pk: string; sk: string }) => { key: { pk: string; sk: string }; versioned: boolean };
  expect: (error: () => Error, item: TransactItem) => void;
}

/**
 * The transaction of a write from `old` to `next`; a write whose transaction would exceed what
 * DynamoDB takes is refused (event creates and updates measure theirs first, lib/logic/event-room.ts,
 * and refuse with the links that fit).
 */
export function eventTransaction(old: EventItem | undefined, next: EventItem | undefined, tableName: string, links: TransactionLinks = {}): EventTransaction {
  const tx = eventWrites(old, next, tableName, links);
  if (tx.items.length > MAX_TRANSACT_ITEMS) {
    throw new ApiError(400, 'rest_too_many_changes', 'This write changes too many linked records at once; send fewer links.');
  }
  return tx;
}

/** The items of the transaction of a write from `old` to `next`, however many. */
export function eventWrites(old: EventItem | undefined, next: EventItem | undefined, tableName: string, links: TransactionLinks = {}): EventTransaction {
  const { extra = [], bound } = links;
  const tx = building(old, next, tableName, links, 1);
  const { items } = tx;
  recordWrites(tx);
  items.push(...bucketUpdates([[old, next]], bound, tx.shard));
  termLinks(tx);
  const rewrittenDelta = placeLinks(tx, extra);
  for (const t of extra) {
    const item = t.Put?.Item;
    const delta = item ? (rewrittenDelta.get(itemKey(item)) ?? 0) : 0;
    items.push(item && delta ? { ...t, Put: { ...t.Put!, Item: { ...item, linkedEvents: Number(item.linkedEvents ?? 0) + delta } } } : t);
  }
  if (!links.unobserved) items.push(...recentWrites(old, next));
  return named(tx);
}

/** The fields that decide the link items and counts an event moves, besides its id and dates. */
const linkFields = (e: EventItem) => JSON.stringify([e.lang, e.status, e.hidden, e.venues, e.organizers, e.categories, e.tags]);

/**
 * The items of creating `events` in one transaction: new events whose language, status and links
 * are the same (a chunk of a series' occurrences, lib/logic/series-chunks.ts). Each has its own
 * record, guard and index items; the counts they share move once, by how many they are.
 */
export function createsWrites(events: readonly EventItem[], tableName: string, links: TransactionLinks = {}): EventTransaction {
  const [first] = events;
  if (!first || events.some((e) => linkFields(e) !== linkFields(first))) throw new Error('Events created at once share their language, status and links');
  const tx = building(undefined, first, tableName, links, events.length);
  for (const e of events) recordWrites({ ...tx, next: e });
  tx.items.push(
    ...bucketUpdates(
      events.map((e) => [undefined, e] as const),
      links.bound,
      tx.shard,
    ),
  );
  termLinks(tx);
  placeLinks(tx, []);
  if (!links.unobserved) for (const e of events) tx.items.push(...recentWrites(undefined, e));
  return named(tx);
}

/** Every item of the transaction in `tableName`. */
function named({ items, meaning, tableName }: Building): EventTransaction {
  for (const item of items) {
    const op = (item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck)!;
    op.TableName = tableName;
  }
  return { items, meaning };
}

/** A transaction to build, empty. */
function building(old: EventItem | undefined, next: EventItem | undefined, tableName: string, links: TransactionLinks, times: number): Building & { shard: number } {
  const { created = new Set<string>(), spread = 1, split = new Map<string, Split>() } = links;
  const items: TransactItem[] = [];
  const meaning = new Map<number, () => Error>();
  const shard = Math.floor(Math.random() * spread);
  return {
    items,
    meaning,
    old,
    next,
    tableName,
    created,
    times,
    shard,
    // A split record is named through one of its shards, which carry a part of its count (and no
    // `version`: whole-record writes of it need not retry): the same shard number as the buckets',
    // so that writes that miss each other there miss each other here too.
    target: (key) => {
      const how = split.get(key.pk);
      return how ? { key: shardKey(key, how, shard), versioned: false } : { key, versioned: true };
    },
    expect: (error, item) => {
      meaning.set(items.length, error);
      items.push(item);
    },
  };
}

/** The record itself, its slug guard and its index items. */
function recordWrites({ old, next, items, tableName, expect }: Building): void {
  if (next) items.push(old ? recordUpdate(old, indexed(next)) : put(indexed(next)));
  else if (old) items.push({ Delete: { TableName: tableName, Key: keys.post(old.id), ...sameIndexState(old) } });

  const oldSlug = old && old.status !== 'trash' ? old.slug : undefined;
  const newSlug = next && next.status !== 'trash' ? next.slug : undefined;
  if (oldSlug !== newSlug || old?.lang !== next?.lang) {
    if (oldSlug) items.push(del(keys.slugGuard('event', old!.lang, oldSlug)));
    if (newSlug) items.push(put({ ...keys.slugGuard('event', next!.lang, newSlug), id: next!.id }));
  }

  const before = indexItems(old);
  const after = indexItems(next);
  for (const [id, item] of after) {
    const prev = before.get(id);
    if (!prev || JSON.stringify(prev) !== JSON.stringify(item)) items.push(put(item, null));
  }
  for (const [id, item] of before) if (!after.has(id)) items.push(del({ pk: item.pk, sk: item.sk }));

  // Its series' member item: a trashed event keeps it (a delete by scope finds it); a deleted one
  // leaves it as a tombstone, which a later create of the same event (a chunk of occurrences
  // written again, lib/logic/series.ts) finds: a deleted occurrence is never written again.
  const wasMember = seriesMember(old);
  const isMember = seriesMember(next);
  if (isMember && !wasMember) expect(() => new OccurrenceGone(isMember.eventId), put(isMember));
  else if (isMember && JSON.stringify(wasMember) !== JSON.stringify(isMember)) items.push(put(isMember, null));
  if (wasMember && !next) items.push(put({ ...wasMember, gone: true }, null));
  else if (wasMember && wasMember.pk !== isMember?.pk) items.push(del({ pk: wasMember.pk, sk: wasMember.sk }));
}

/** A create of an event of a series that was deleted (its member item is a tombstone). */
export class OccurrenceGone extends Error {
  constructor(readonly id: number) {
    super(`Event ${id} of a series was deleted; it is not written again`);
  }
}

/** The item of `e` in its series' partition, when it is an event of a series. */
const seriesMember = (e: EventItem | undefined): SeriesMemberItem | undefined =>
  e?.seriesId === undefined
    ? undefined
    : { ...keys.seriesMember(e.seriesId, e.id), eventId: e.id, utcStart: e.utcStart, ...(e.occurrence === undefined ? {} : { occurrence: e.occurrence }) };

/** Term counts, and a check that each newly linked term still exists. Bumping `version` makes a concurrent whole-record term update retry. */
function termLinks({ old, next, created, target, expect, times }: Building): void {
  const wasCounted = publishedTerms(old);
  const isCounted = publishedTerms(next);
  const touchedTerms = new Set<number>();
  for (const [set, other, delta] of [
    [isCounted, wasCounted, 1],
    [wasCounted, isCounted, -1],
  ] as const) {
    for (const id of set) {
      if (other.has(id) || created.has(keys.term(id).pk)) continue;
      touchedTerms.add(id);
      const { key, versioned } = target(keys.term(id));
      expect(() => linkGone(`term ${id}`), countAdd(key, 'count', delta * times, versioned));
    }
  }
  const hadLink = linkDimensions(old);
  for (const id of [...(next?.categories ?? []), ...(next?.tags ?? [])]) {
    const dim = next!.categories.includes(id) ? `category#${id}` : `tag#${id}`;
    if (hadLink.has(dim) || touchedTerms.has(id) || created.has(keys.term(id).pk)) continue;
    expect(() => linkGone(`term ${id}`), linkedCheck(target(keys.term(id)).key));
  }
}

const linkDimensions = (e: EventItem | undefined) => new Set(e ? dimensions(e).map((d) => d.dim) : []);
const itemKey = (item: Record<string, unknown>) => `${String(item.pk)}|${String(item.sk)}`;

/**
 * Venue and organizer linked-event counts; a new link also checks that the record is usable. A
 * record this transaction rewrites whole (a match with the fields sent saved onto it,
 * lib/logic/places.ts) carries its own count: one transaction may not touch an item twice, and
 * its Put holds only if the record is still the version read. Answers those records' deltas.
 */
function placeLinks(tx: Building, extra: TransactItem[]): Map<string, number> {
  const { old, next, created } = tx;
  const wasLinked = linkedPlaces(old);
  const isLinked = linkedPlaces(next);
  const hadLink = linkDimensions(old);
  const places = new Map<number, 'venue' | 'organizer'>([
    ...[...(old?.venues ?? []), ...(next?.venues ?? [])].map((id) => [id, 'venue'] as const),
    ...[...(old?.organizers ?? []), ...(next?.organizers ?? [])].map((id) => [id, 'organizer'] as const),
  ]);
  // A card taken from a read holds only if the record's `rev` is still the card's (cards.ts).
  const carded = readCards(old, next);
  const rewritten = new Set(extra.flatMap((t) => (t.Put?.Item ? [itemKey(t.Put.Item)] : [])));
  const rewrittenDelta = new Map<string, number>();
  for (const [id, kind] of places) {
    if (created.has(keys.post(id).pk)) continue;
    const delta = ((isLinked.has(id) ? 1 : 0) - (wasLinked.has(id) ? 1 : 0)) * tx.times;
    const key = itemKey(keys.post(id));
    if (rewritten.has(key)) {
      rewrittenDelta.set(key, delta);
      continue;
    }
    const isNew = !!next && (next.venues.includes(id) || next.organizers.includes(id)) && !hadLink.has(`${kind}#${id}`);
    placeLink(tx, { id, kind, delta, isNew, carded: carded.has(id), rev: carded.get(id) });
  }
  return rewrittenDelta;
}

/** One venue's or organizer's count update, or its check when the count stays. */
function placeLink(
  { target, expect }: Building,
  { id, kind, delta, isNew, carded, rev }: { id: number; kind: 'venue' | 'organizer'; delta: number; isNew: boolean; carded: boolean; rev: unknown },
): void {
  const state: LinkedState = { ...(isNew ? { kind } : {}), ...(carded ? { rev: { is: rev } } : {}) };
  // A card's record was read in this attempt, so a retry reads it again and answers a gone one.
  const failed = carded ? () => new ConflictError(`${kind} ${id} changed while linking`) : () => linkGone(`${kind} ${id}`);
  const { key: record, versioned } = target(keys.post(id));
  if (delta !== 0) expect(failed, countAdd(record, 'linkedEvents', delta, versioned, state));
  else if (isNew || carded) expect(failed, linkedCheck(record, state));
}
