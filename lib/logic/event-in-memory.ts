// Lists of events that are not a page of one index range: `include` and searches for several
// words, read whole (as keys, for a search) and filtered in memory.
import { batchGet, keyOf, queryAll } from '#lib/store/reads.js';
import { keys } from '#lib/store/keys.js';
import type { EventItem } from '#lib/store/items.js';
import { searchWords, eventWords } from '#lib/domain/search-words.js';
import { waitAll } from '#lib/runtime/settle.js';
import { nonEmpty } from './lists.js';
import type { Filters } from './event-filters.js';
import { queryInputOf, sources } from './event-sources.js';
import type { EventListRequest, Window } from './event-window.js';

function matchesFilters(e: EventItem, f: Filters): boolean {
  const any = (have: number[], want?: number[]) => !want || want.some((id) => have.includes(id));
  return (
    any(e.venues, f.venue) &&
    any(e.organizers, f.organizer) &&
    any(e.categories, f.categories) &&
    any(e.tags, f.tags) &&
    (f.featured === undefined || e.featured === f.featured) &&
    (f.parent === undefined || e.parent === f.parent)
  );
}

/** Every searched word is a word of the event (lib/domain/search-words.ts). */
function matchesSearch(e: EventItem, search: string | undefined): boolean {
  if (search === undefined) return true;
  const have = new Set(eventWords(e));
  return searchWords(search).every((word) => have.has(word));
}

/** `include`: a short list of ids, read whole and filtered in memory. */
export async function listIncluded(ctx: EventListRequest, statusList: string[], ownBy: number | undefined, f: Filters, offset: number, perPage: number) {
  const found = await batchGet<EventItem>([...new Set(ctx.params.include)].map(keys.post));
  const events = [...found.values()]
    .filter((e) => e.kind === 'event' && e.lang === ctx.lang && statusList.includes(e.status) && !e.hidden)
    .filter((e) => ownBy === undefined || e.status === 'publish' || e.author === ownBy)
    .filter((e) => matchesFilters(e, f) && matchesSearch(e, ctx.params.search))
    .sort((a, b) => a.utcStart.localeCompare(b.utcStart) || a.id - b.id);
  return { events: events.slice(offset, offset + perPage), total: events.length };
}

/**
 * A search for several words: the events in every word's partition (with the other filters), read
 * as keys and intersected; then only the page's records. The cost follows the words' matches.
 */
export async function listAllWords(
  ctx: EventListRequest,
  words: string[],
  statusList: string[],
  ownBy: number | undefined,
  f: Filters,
  w: Window | undefined,
  offset: number,
  perPage: number,
) {
  let common: Map<number, string> | undefined;
  for (const word of words) {
    const { sources: src } = sources(ctx, statusList, { ...f, word }, w, ownBy);
    const found = new Map<number, string>();
    const read = await waitAll(src.filter(nonEmpty).map((s) => queryAll<{ id: number; gsi2sk: string }>(queryInputOf(s))));
    for (const items of read) for (const i of items) found.set(i.id, i.gsi2sk);
    common = common ? new Map([...common].filter(([id]) => found.has(id))) : found;
    if (common.size === 0) break;
  }
  const ordered = [...(common ?? [])].sort((a, b) => a[1].localeCompare(b[1])).map(([id]) => id);
  const page = ordered.slice(offset, offset + perPage);
  const found = await batchGet<EventItem>(page.map(keys.post));
  const events = page.map((id) => found.get(keyOf(keys.post(id)))).filter((e): e is EventItem => e !== undefined);
  return { events, total: ordered.length };
}
