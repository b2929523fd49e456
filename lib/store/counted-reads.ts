// Reads of the records whose counts live partly in shards (./record-shards.ts): a term's `count`,
// a venue's or organizer's `linkedEvents`. What these reads answer holds the whole count, the
// split records' shards added up (one consistent Query of each split record, all at once), so
// that no reader adds them itself. A write reads a record with the plain reads (./reads.ts):
// what it writes back must keep the record's own part of the count, not the whole.
import type { Lang } from '#lib/runtime/config.js';
import { batchGet, getItem, keyOf, queryAll, type Found, type ItemKey } from './reads.js';
import { keys, termKeys, type Taxonomy } from './keys.js';
import { isPlace, type TermItem } from './items.js';
import { languageTerms, termBySlug } from './partitions.js';
import { pageAndTotal } from './list-pages.js';
import { queryInput, type Source } from './list-index.js';
import { withShardTotal, withShardTotals } from './record-shards.js';
import { readStats } from './stats.js';
import { INDEXES } from './table.js';

/** One term by id. */
export const countedTerm = async (id: number): Promise<TermItem | undefined> => withShardTotal(await getItem(keys.term(id)));

/**
 * One term by id as stored, for a write that changes it, and as shown, with its whole count (the
 * answer of the write shows the term written with that count).
 */
export async function termToWrite(id: number): Promise<{ stored: TermItem; shown: TermItem } | undefined> {
  const stored = await getItem(keys.term(id));
  return stored && { stored, shown: (await withShardTotal(stored))! };
}

/** The category or tag of a slug in a language. */
export const countedTermBySlug = async (taxonomy: Taxonomy, lang: Lang, slug: string): Promise<TermItem | undefined> => withShardTotal(await termBySlug(taxonomy, lang, slug));

/**
 * One batch read (batchGet) of `list` and of the terms `termIds`, those terms with their whole
 * counts: a page's records and the terms they name are read together.
 */
export async function batchGetWithTerms<T>(list: readonly ItemKey<T>[], termIds: Iterable<number>, consistent = false): Promise<Found<T | TermItem>> {
  const termKeyList = [...new Set(termIds)].map(keys.term);
  const found = await batchGet<T | TermItem>([...list, ...termKeyList], consistent);
  return counting(
    found,
    termKeyList.flatMap((k) => found.get(k) ?? []),
  );
}

/** A batch read's items with the whole counts of `terms` (terms among them). */
async function counting<T>(found: Found<T | TermItem>, terms: TermItem[]): Promise<Found<T | TermItem>> {
  for (const t of await withShardTotals(terms)) found.set(keyOf(keys.term(t.id)), t);
  return found;
}

/**
 * Terms by id, in one batch read; with `taxonomy`, only the terms of it get their whole counts
 * (the reader leaves the others out).
 */
export async function countedTerms(ids: Iterable<number>, taxonomy?: Taxonomy): Promise<Found<TermItem>> {
  const found = await batchGet([...new Set(ids)].map(keys.term));
  return counting(
    found,
    [...found.values()].filter((t) => taxonomy === undefined || t.taxonomy === taxonomy),
  );
}

/** Read units of a Query over `bytes` of items, or of that many small items read one by one. */
const queryUnits = (bytes: number) => Math.ceil(bytes / 4096) * 0.5;
const itemUnits = (n: number) => n * 0.5;

/**
 * Terms of one language by id: one batch read, or one Query of the language's terms when
 * `termBytes` (about their size, ./stats.ts) says that reads less. A term the index does not show
 * yet (it follows the table within moments) is read directly.
 */
export async function languageTermsById(lang: Lang, ids: ReadonlySet<number>, termBytes = 0): Promise<Map<number, TermItem>> {
  const out = new Map<number, TermItem>();
  if (!ids.size) return out;
  if (termBytes > 0 && queryUnits(termBytes) < itemUnits(ids.size)) {
    for (const t of await languageTerms(lang)) if (ids.has(t.id)) out.set(t.id, t);
  }
  const unseen = [...ids].filter((id) => !out.has(id));
  if (unseen.length) {
    const found = await batchGet(unseen.map(keys.term));
    for (const id of unseen) {
      const t = found.get(keys.term(id));
      if (t) out.set(id, t);
    }
  }
  for (const t of await withShardTotals([...out.values()])) out.set(t.id, t);
  return out;
}

/** The `terms` index source of a language's terms of one taxonomy, in name order. */
const taxonomySource = (lang: Lang, taxonomy: Taxonomy): Source => ({ index: INDEXES.terms, partition: termKeys.partition(lang), ...termKeys.range(taxonomy) });

/** Every term of one taxonomy in a language, in name order. */
export const taxonomyTerms = async (lang: Lang, taxonomy: Taxonomy): Promise<TermItem[]> =>
  withShardTotals(await queryAll<TermItem>(queryInput(taxonomySource(lang, taxonomy), false)));

/**
 * The terms `offset … offset+limit` of one taxonomy in a language, in name order, and how many
 * there are: the `terms` index holds whole terms, so its page's items are the page.
 */
export async function taxonomyTermsPage(lang: Lang, taxonomy: Taxonomy, { offset, limit, descending }: { offset: number; limit: number; descending: boolean }) {
  const { hits, total } = await pageAndTotal([taxonomySource(lang, taxonomy)], offset, limit, descending);
  // The index projects every attribute: its items are terms.
  return { terms: await withShardTotals(hits.map((h) => h.item as unknown as TermItem)), total };
}

/** The language's split venues and organizers (./stats.ts names them) with their linked-event totals: usually none. */
export async function splitPlaceTotals(lang: Lang): Promise<Map<number, number>> {
  const ids = (await readStats(lang)).splitPlaces;
  if (!ids?.size) return new Map();
  const records = [...(await batchGet([...ids].map(keys.post))).values()].filter(isPlace);
  return new Map((await withShardTotals(records)).map((r) => [r.id, r.linkedEvents ?? 0]));
}

/** Terms read elsewhere (a page of the change log), with the whole counts of those that are split. */
export const countedTermsOf = (terms: TermItem[]): Promise<TermItem[]> => withShardTotals(terms);
