// Categories and tags a function keeps between requests, for answers that shared caches may keep
// anyway (`shared` in lib/http/pipeline.ts). Terms rarely change, but every event write moves the
// counts of its terms: a kept term is used for at most `termCacheSeconds` (by default the
// answer's own max-age), so a term in such an answer is no older than the answer may be when a
// shared cache serves it. Only those answers keep and use them: answers for identified callers
// (and writes) always read their terms.
import { config } from '#lib/runtime/config.js';
import type { TermItem } from '#lib/store/items.js';

/** Kept terms by table and id, with when they were read, oldest first (a Map iterates in insertion order). */
const kept = new Map<string, { term: TermItem; read: number }>();
/** The ids of kept terms by table, taxonomy, language and slug. */
const bySlug = new Map<string, number>();

/** Enough for every term a busy calendar shows, small enough to bound a container's memory. */
export const MAX_KEPT_TERMS = 5000;

const keyOf = (id: number) => `${config().tableName}|${id}`;
const slugKeyOf = (t: Pick<TermItem, 'taxonomy' | 'lang' | 'slug'>) => `${config().tableName}|${t.taxonomy}|${t.lang}|${t.slug}`;

/** The kept terms among `ids` read less than `termCacheSeconds` ago (as configured now). */
export function keptTerms(ids: Iterable<number>, now = Date.now()): Map<number, TermItem> {
  const out = new Map<number, TermItem>();
  const ms = config().termCacheSeconds * 1000;
  if (ms <= 0) return out;
  for (const id of ids) {
    const k = kept.get(keyOf(id));
    if (!k) continue;
    if (now - k.read >= ms) kept.delete(keyOf(id));
    else out.set(id, k.term);
  }
  return out;
}

/** What an answer may use: the fresh kept terms among `ids` when it is shared, else none. */
export const termsFor = (shared: boolean | undefined, ids: Iterable<number>): Map<number, TermItem> => (shared ? keptTerms(ids) : new Map());

/** Keeps what an answer read, when it is shared: other answers never fill the cache. */
export function keepFor(shared: boolean | undefined, terms: Iterable<TermItem | undefined>): void {
  if (shared) keepTerms([...terms].filter((t): t is TermItem => t !== undefined));
}

/** The id of the kept term with this slug, while it is fresh. */
export function keptTermId(taxonomy: TermItem['taxonomy'], lang: TermItem['lang'], slug: string, now = Date.now()): number | undefined {
  const id = bySlug.get(slugKeyOf({ taxonomy, lang, slug }));
  if (id === undefined) return undefined;
  const t = keptTerms([id], now).get(id);
  return t && t.taxonomy === taxonomy && t.lang === lang && t.slug === slug ? id : undefined;
}

/** Keeps terms just read; the oldest go first past MAX_KEPT_TERMS. */
export function keepTerms(terms: Iterable<TermItem>, now = Date.now()): void {
  if (config().termCacheSeconds <= 0) return;
  for (const term of terms) {
    const key = keyOf(term.id);
    kept.delete(key);
    kept.set(key, { term, read: now });
    bySlug.set(slugKeyOf(term), term.id);
  }
  for (const [key, { term }] of kept) {
    if (kept.size <= MAX_KEPT_TERMS) break;
    kept.delete(key);
    if (bySlug.get(slugKeyOf(term)) === term.id) bySlug.delete(slugKeyOf(term));
  }
}
