// Pieces shared by the post operations: publication dates, index attributes, linked records.
import { config, type Lang } from '#lib/runtime/config.js';
import { nowUtc, parseDate, utcToWall, wallToUtc } from '#lib/domain/time/dates.js';
import { invalidParam } from '#lib/contract/errors.js';
import type { RequestContext, RequestWith } from '#lib/contract/request.js';
import { batchGet, keyOf } from '#lib/store/reads.js';
import type { ClearableText, ImportedRecord } from '#lib/contract/imported.js';
import { createId, type CreateId } from '#lib/store/create-ids.js';
import { nextId } from '#lib/store/ids.js';
import { userExists, userIdOf } from '#lib/store/users.js';
import { keys, listKeys, slugIndexKey, termKeys } from '#lib/store/keys.js';
import type { AnyPost, Card, EventItem, TermItem } from '#lib/store/items.js';
import type { Linked } from '#lib/present/present.js';
import { keepFor, termsFor } from './term-cache.js';
import { waitAll } from '#lib/runtime/settle.js';
import { languageTerms } from '#lib/store/partitions.js';
import { languageTermsById } from '#lib/store/counted-reads.js';

/** The publication date pair from `date` / `date_utc` (site zone), or `fallback`, or now. */
export function publicationDates(
  params: { date?: string | number; date_utc?: string | number },
  now: Date,
  fallback?: { date: string; date_utc: string },
): { date: string; date_utc: string } {
  const zone = config().siteTimezone;
  if (params.date !== undefined) {
    const date = parseDate(params.date, zone, now)!;
    return { date, date_utc: wallToUtc(date, zone) };
  }
  if (params.date_utc !== undefined) {
    const date_utc = parseDate(params.date_utc, 'UTC', now)!;
    return { date: utcToWall(date_utc, zone), date_utc };
  }
  if (fallback) return { date: fallback.date, date_utc: fallback.date_utc };
  const utc = nowUtc(now);
  return { date: utcToWall(utc, zone), date_utc: utc };
}

/** The imported record a write stores when it is record `id` of `sequence` (an import's write may make others: inline venues, new terms). */
export const ownImported = (imported: ImportedRecord | undefined, sequence: ImportedRecord['sequence'], id: number): ImportedRecord | undefined =>
  imported?.sequence === sequence && imported.id === id ? imported : undefined;

/** An update's kept text: empty when the imported record's site has it empty. */
export const keptText = (own: ImportedRecord | undefined, field: ClearableText, old: string | undefined): string => (own?.cleared?.includes(field) ? '' : (old ?? ''));

/**
 * A create's id: an imported record keeps its own; else the next of the sequence, which every try
 * of the create's Idempotency-Key shares (lib/store/create-ids.ts).
 */
export const newId = (ctx: Pick<RequestContext, 'createKey' | 'imported'>, sequence: 'post' | 'term'): Promise<CreateId> =>
  createId(ctx.createKey, () => (ctx.imported?.sequence === sequence ? Promise.resolve(ctx.imported.id) : nextId(sequence)));

/** The modification time of a write; `own`, an imported record, keeps the time it was last modified on its site. */
export function modifiedNow(now: Date, own?: ImportedRecord) {
  const given = own?.modified;
  if (given) return { ...given };
  const utc = nowUtc(now);
  return { modified: utcToWall(utc, config().siteTimezone), modified_utc: utc };
}

/** The author id of a write: the caller, or the `author` parameter when it names a known user. */
export async function authorOf(ctx: RequestWith<{ author?: number }>, current?: number): Promise<number> {
  const wanted = ctx.params.author;
  if (wanted !== undefined) {
    if (!(await userExists(wanted))) throw invalidParam('author', 'author is not an existing user id.');
    return wanted;
  }
  if (current !== undefined) return current;
  return userIdOf(ctx.principal!.sub);
}

/** Sets or clears the index attributes of a post for its current state. Trash is not indexed. */
export function indexed<T extends AnyPost>(item: T): T {
  const out = { ...item };
  delete out.gsi1pk;
  delete out.gsi2pk;
  delete out.gsi2sk;
  if (item.status === 'trash') return out;
  out.gsi1pk = slugIndexKey(item.kind, item.lang, item.slug);
  // Events hidden from listings stay readable by id and slug but are in no list.
  if (item.kind === 'event' && item.hidden) return out;
  const list = item.kind === 'event' ? listKeys.event(item.lang, item.status, item.utcStart, item.id) : listKeys.place(item.kind, item.lang, item.status, item.date_utc, item.id);
  return Object.assign(out, list);
}

export function indexedTerm(t: TermItem): TermItem {
  return { ...t, gsi1pk: slugIndexKey(t.taxonomy, t.lang, t.slug), ...termKeys.item(t.taxonomy, t.lang, t.name, t.id) };
}

/** Every term of a language (both taxonomies), from the `terms` index. */
export const termsOf = (lang: Lang) => languageTerms(lang);

/** How the terms of an answer may be read. */
export interface TermReading {
  /** About the size of the language's terms (lib/store/stats.ts): a Query of them all may read less. */
  termBytes?: number;
  /** The answer may be kept by shared caches: kept terms serve (lib/logic/term-cache.ts). */
  shared?: boolean;
}

/**
 * Terms of one language by id: the kept ones when the answer is shared, then the others as
 * lib/store/counted-reads.ts reads them (one batch read, or one Query of the language's terms when
 * `termBytes` says that reads less).
 */
export async function loadTerms(lang: Lang, ids: ReadonlySet<number>, how: TermReading = {}): Promise<Map<number, TermItem>> {
  const out = termsFor(how.shared, ids);
  const wanted = new Set([...ids].filter((id) => !out.has(id)));
  if (!wanted.size) return out;
  for (const [id, t] of await languageTermsById(lang, wanted, how.termBytes)) out.set(id, t);
  keepFor(
    how.shared,
    [...wanted].map((id) => out.get(id)),
  );
  return out;
}

/**
 * The venues, organizers and terms of some events (of one language). Venues and organizers come
 * from the events' cards; the few records without one (events written before cards existed) are
 * read, at the same time as the terms that `known` (read beforehand) does not hold.
 */
export async function loadLinked(events: EventItem[], how: TermReading = {}, known: ReadonlyMap<number, TermItem> = new Map()): Promise<Linked> {
  const linked: Linked = { venues: new Map(), organizers: new Map(), terms: new Map() };
  const missing = new Set<number>();
  const termIds = new Set<number>();
  const take = (id: number, p: Card | AnyPost | undefined) => {
    if (!p || p.kind === 'event' || p.status === 'trash') return;
    const into: Map<number, Card> = p.kind === 'venue' ? linked.venues : linked.organizers;
    const seen = into.get(id);
    // Two events may carry one record's card at different revisions for a moment: show the newer.
    if (!seen || (p.rev ?? 0) > (seen.rev ?? 0)) into.set(id, p);
  };
  for (const e of events) {
    for (const id of [...e.venues, ...e.organizers]) {
      const card = e.cards?.[id];
      if (card) take(id, card);
      else missing.add(id);
    }
    for (const id of [...e.categories, ...e.tags]) {
      const t = known.get(id);
      if (t) linked.terms.set(id, t);
      else termIds.add(id);
    }
  }
  const lang = events[0]?.lang;
  const [found, terms] = await waitAll([
    missing.size ? batchGet([...missing].map(keys.post)) : Promise.resolve(new Map<string, AnyPost>()),
    lang === undefined ? Promise.resolve(new Map<number, TermItem>()) : loadTerms(lang, termIds, how),
  ]);
  for (const id of missing) take(id, found.get(keyOf(keys.post(id))));
  for (const [id, t] of terms) linked.terms.set(id, t);
  return linked;
}
