// What a list of events reads, once its request is resolved: shared by the list's ways of reading.
import type { LangStats } from '#lib/store/stats.js';
import type { Filters } from './event-filters.js';
import type { EventListRequest, Window } from './event-window.js';

/** A list request once resolved: the statuses and window it reads, its filters, and the page it wants. */
export interface ListPlan {
  ctx: EventListRequest;
  statusList: string[];
  /** Only this author's events that are not published (an author's own drafts). */
  ownBy: number | undefined;
  filters: Filters;
  window: Window | undefined;
  offset: number;
  perPage: number;
  /** The language's STATS item, read once when first needed. */
  stats: () => Promise<LangStats>;
  /** A feed (the soonest events one answer holds, up to `maxBytes` of records) rather than a page. */
  feed: false | { maxBytes?: number };
}
