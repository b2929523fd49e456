// Lists of events that are not a page of one index range (`include`), read whole and filtered in
// memory, and the filters as tests of a record.
import { batchGet } from '#lib/store/reads.js';
import { keys } from '#lib/store/keys.js';
import { ofKind, type EventItem } from '#lib/store/items.js';
import { matchesSearch, parseSearch } from '#lib/domain/search-terms.js';
import type { Filters } from './event-filters.js';
import type { EventListRequest } from './event-window.js';
import { wellTyped } from '#lib/present/well-typed.js';

/** What list filters test of an event: its record, or its index item. */
export type Filtered = Pick<EventItem, 'venues' | 'organizers' | 'categories' | 'tags' | 'featured' | 'parent'>;

export function matchesFilters(e: Filtered, f: Filters): boolean {
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

/** `include`: a short list of ids, read whole and filtered in memory. */
export async function listIncluded(ctx: EventListRequest, statusList: string[], ownBy: number | undefined, f: Filters, offset: number, perPage: number) {
  const found = await batchGet([...new Set(ctx.params.include)].map(keys.post));
  // Made well-typed first: the filters, the search and the order read their fields.
  const events = [...found.values()]
    .flatMap((p) => ofKind(p, 'event') ?? [])
    .map(wellTyped)
    .filter((e) => e.lang === ctx.lang && statusList.includes(e.status) && !e.hidden)
    .filter((e) => ownBy === undefined || e.status === 'publish' || e.author === ownBy)
    .filter((e) => matchesFilters(e, f) && (ctx.params.search === undefined || matchesSearch(e, parseSearch(ctx.params.search))))
    .sort((a, b) => a.utcStart.localeCompare(b.utcStart) || a.id - b.id);
  return { events: events.slice(offset, offset + perPage), total: events.length };
}
