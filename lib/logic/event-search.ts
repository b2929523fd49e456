// GET /events?search=: the events whose title, excerpt or content hold every term of the search
// and none of its exclusions (lib/domain/search-terms.ts). The gram index (lib/stream/search-trigger.ts)
// names the candidates: each term's key gram partition, with the other filters, read as keys and
// intersected. It follows the table a moment behind, so the events written since it last caught up
// (lib/store/recent-writes.ts) are judged by their records as they are now instead: a new or renamed
// event is found at once, and an old word or a trashed event stops matching at once.
// Candidates a term of at most three characters names are matches as they stand; others are
// checked against their records.
import { exactByGram, keyGram } from '#lib/domain/search-grams.js';
import { matchesSearch, type SearchTerms } from '#lib/domain/search-terms.js';
import { batchGet, keyOf, queryAll } from '#lib/store/reads.js';
import { keys, listKeys } from '#lib/store/keys.js';
import { recentIds } from '#lib/store/recent-writes.js';
import type { EventItem } from '#lib/store/items.js';
import { waitAll } from '#lib/runtime/settle.js';
import { listed } from './event-writes.js';
import { matchesFilters } from './event-in-memory.js';
import { nonEmpty } from './lists.js';
import type { Filters } from './event-filters.js';
import { queryInputOf, sources } from './event-sources.js';
import type { EventListRequest, Window } from './event-window.js';

/** Whether a record is in the list the request reads (language, status, author, window, filters). */
function inList(e: EventItem, ctx: EventListRequest, statusList: string[], ownBy: number | undefined, f: Filters, w: Window | undefined): boolean {
  if (e.kind !== 'event' || e.lang !== ctx.lang || !listed(e) || !statusList.includes(e.status)) return false;
  if (ownBy !== undefined && e.status !== 'publish' && e.author !== ownBy) return false;
  if (w) {
    const at = listKeys.event(e.lang, e.status, e.utcStart, e.id).gsi2sk;
    if (at < w.from || at > w.to) return false;
    if (w.endAtMost !== undefined && !(e.utcEnd <= w.endAtMost)) return false;
    if (w.endBefore !== undefined && !(e.utcEnd < w.endBefore)) return false;
    if (w.endAfter !== undefined && !(e.utcEnd > w.endAfter)) return false;
  }
  return matchesFilters(e, f);
}

/** The keys (id → list sort key) of a partition per status: a gram's, or the whole list's. */
async function candidates(ctx: EventListRequest, statusList: string[], ownBy: number | undefined, f: Filters, w: Window | undefined, gram: string | undefined) {
  const { sources: src } = sources(ctx, statusList, { ...f, word: gram }, w, ownBy);
  const read = await waitAll(src.filter(nonEmpty).map((s) => queryAll<{ id: number; gsi2sk: string }>(queryInputOf(s))));
  const found = new Map<number, string>();
  for (const items of read) for (const i of items) found.set(Number(i.id), i.gsi2sk);
  return found;
}

export async function listSearched(
  ctx: EventListRequest,
  terms: SearchTerms,
  statusList: string[],
  ownBy: number | undefined,
  f: Filters,
  w: Window | undefined,
  offset: number,
  perPage: number,
): Promise<{ events: EventItem[]; total: number }> {
  const recentRead = recentIds(ctx.lang);
  const grams = [...new Set(terms.include.map(keyGram))];
  // A term of white space alone, or a search of exclusions only, narrows nothing: the whole list.
  const driving = grams.includes('') || grams.length === 0 ? [undefined] : grams;
  let common: Map<number, string> | undefined;
  for (const gram of driving) {
    const found = await candidates(ctx, statusList, ownBy, f, w, gram);
    common = common ? new Map([...common].filter(([id]) => found.has(id))) : found;
    if (common.size === 0) break;
  }
  const recent = new Set(await recentRead);
  const indexed = [...(common ?? [])].filter(([id]) => !recent.has(id));
  // The recent events as they are now, and (unless the grams decide) the other candidates.
  const exact = terms.exclude.length === 0 && terms.include.every(exactByGram);
  const toCheck = exact ? [...recent] : [...recent, ...indexed.map(([id]) => id)];
  const records = await batchGet<EventItem>(toCheck.map(keys.post), true);
  const record = (id: number) => records.get(keyOf(keys.post(id)));
  const matched: [number, string][] = exact
    ? indexed
    : indexed.filter(([id]) => {
        const e = record(id);
        return e !== undefined && matchesSearch(e, terms);
      });
  for (const id of recent) {
    const e = record(id);
    if (e && inList(e, ctx, statusList, ownBy, f, w) && matchesSearch(e, terms)) matched.push([id, listKeys.event(e.lang, e.status, e.utcStart, e.id).gsi2sk]);
  }
  matched.sort((a, b) => a[1].localeCompare(b[1]) || a[0] - b[0]);
  const page = matched.slice(offset, offset + perPage).map(([id]) => id);
  const unread = page.filter((id) => !record(id));
  const more = unread.length ? await batchGet<EventItem>(unread.map(keys.post)) : new Map<string, EventItem>();
  const events = page.map((id) => record(id) ?? more.get(keyOf(keys.post(id)))).filter((e): e is EventItem => e !== undefined);
  return { events, total: matched.length };
}
