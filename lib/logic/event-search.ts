// GET /events?search=: the events whose title, excerpt or content hold every term of the search
// and none of its exclusions (lib/domain/search-terms.ts). The gram index (lib/stream/search-trigger.ts)
// names the candidates: each term's key gram partition, with the other filters, read as keys and
// intersected. It follows the table a moment behind, so the events written since it last caught up
// (lib/store/recent-writes.ts) are judged by their records as they are now instead: a new or renamed
// event is found at once, and an old word or a trashed event stops matching at once.
// A search of one term of at most three characters (no exclusion) is its gram's partition itself:
// a page reads only its keys, and the total comes from the partition's count buckets, corrected
// for the recent events, so it costs what a filtered page costs at any size. Other searches read
// every candidate's key and check the candidates against their records.
import { exactByGram, keyGram } from '#lib/domain/search-grams.js';
import { matchesSearch, type SearchTerms } from '#lib/domain/search-terms.js';
import { batchGet, keyOf, queryAll } from '#lib/store/reads.js';
import type { LangStats } from '#lib/store/stats.js';
import { keys, listKeys } from '#lib/store/keys.js';
import { recentIds } from '#lib/store/recent-writes.js';
import type { EventItem } from '#lib/store/items.js';
import { waitAll } from '#lib/runtime/settle.js';
import { matchesFilters } from './event-in-memory.js';
import { nonEmpty, pageAndTotal, pageKeys } from './lists.js';
import { listTotal } from './event-totals.js';
import type { Filters } from './event-filters.js';
import { queryInputOf, sources } from './event-sources.js';
import type { EventListRequest, Window } from './event-window.js';

/** Whether a record is in the list the request reads (language, status, author, window, filters). */
function inList(e: EventItem, ctx: EventListRequest, statusList: string[], ownBy: number | undefined, f: Filters, w: Window | undefined): boolean {
  if (e.kind !== 'event' || e.lang !== ctx.lang || e.status === 'trash' || e.hidden || !statusList.includes(e.status)) return false;
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

/** The page of one term that is its own gram, and its total, from the gram's partition and counts. */
async function exactPage(
  ctx: EventListRequest,
  term: string,
  statusList: string[],
  ownBy: number | undefined,
  f: Filters,
  w: Window | undefined,
  offset: number,
  perPage: number,
  stats: () => Promise<LangStats>,
): Promise<{ events: EventItem[]; total: number }> {
  const { sources: src, multi } = sources(ctx, statusList, { ...f, word: term }, w, ownBy);
  const recent = [...new Set(await recentIds(ctx.lang))];
  // The index's entries of the recent events are skipped, so the page reads that many more keys.
  const want = offset + perPage + recent.length;
  const [read, counted, indexed, records] = await waitAll([
    multi ? pageAndTotal(src, 0, want, false) : pageKeys(src, 0, want, false).then((hits) => ({ hits, total: undefined })),
    multi ? Promise.resolve(undefined) : listTotal(src, w, stats),
    batchGet<Record<string, unknown>>(
      recent.map((id) => keys.word(id, term)),
      true,
    ),
    batchGet<EventItem>(recent.map(keys.post), true),
  ]);
  const isRecent = new Set(recent);
  // What the counts hold of the recent events (their index entries), and what they hold now.
  const counts = (e: EventItem) => inList(e, ctx, statusList, ownBy, f, w);
  const stale = [...indexed.values()].filter((item) => counts({ ...item, kind: 'event' } as unknown as EventItem)).length;
  const fresh = [...records.values()].filter((e) => counts(e) && matchesSearch(e, { include: [term], exclude: [] }));
  const total = (read.total ?? counted ?? 0) - stale + fresh.length;
  const merged: [number, string, EventItem | undefined][] = [
    ...read.hits.filter((h) => !isRecent.has(h.id)).map((h): [number, string, undefined] => [h.id, String(h.item.gsi2sk), undefined]),
    ...fresh.map((e): [number, string, EventItem] => [e.id, listKeys.event(e.lang, e.status, e.utcStart, e.id).gsi2sk, e]),
  ];
  merged.sort((a, b) => a[1].localeCompare(b[1]) || a[0] - b[0]);
  const page = merged.slice(offset, offset + perPage);
  const unread = page.filter(([, , e]) => !e).map(([id]) => keys.post(id));
  const found = unread.length ? await batchGet<EventItem>(unread) : new Map<string, EventItem>();
  const events = page.map(([id, , e]) => e ?? found.get(keyOf(keys.post(id)))).filter((e): e is EventItem => e !== undefined);
  return { events, total };
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
  stats: () => Promise<LangStats>,
): Promise<{ events: EventItem[]; total: number }> {
  const [only] = terms.include;
  if (terms.include.length === 1 && terms.exclude.length === 0 && exactByGram(only!)) return exactPage(ctx, only!, statusList, ownBy, f, w, offset, perPage, stats);
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
