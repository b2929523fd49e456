// GET /events (docs/tec-behaviour.md §4.1) over the `list` index. Each filter value has its own list
// partition per (language, status), ordered by UTC start: the whole list, `featured#1|0`, and one
// per venue, organizer, category and tag (the link items). A page reads only as many index items
// as it shows; totals come from per-month count buckets (lib/logic/event-writes.ts) plus
// corrections that read at most the events of the window's edge days.
import { apiBase } from '#lib/runtime/config.js';
import { invalidParams, tec } from '#lib/contract/errors.js';
import type { Reply } from '#lib/contract/reply.js';
import { presentEvent, redact, type Linked } from '#lib/present/present.js';
import { unlocked } from '#lib/auth/permissions.js';
import { batchGet, Found, type ItemKey } from '#lib/store/reads.js';
import { batchGetWithTerms } from '#lib/store/counted-reads.js';
import { keys } from '#lib/store/keys.js';
import { readStats, type LangStats } from '#lib/store/stats.js';
import { ofKind, type EventItem, type TermItem } from '#lib/store/items.js';
import { parseSearch } from '#lib/domain/search-terms.js';
import { loadLinked } from './common.js';
import { keepFor, termsFor } from './term-cache.js';
import { asList, envelope, paging, statuses } from './lists.js';
import { pageAndTotal, pageKeys } from '#lib/store/list-pages.js';
import { waitAll, withSideWork, type SideWork } from '#lib/runtime/settle.js';
import { boundStart, windowOf, type EventListRequest } from './event-window.js';
import type { ListPlan } from './event-plan.js';
import { geoVenues, parentCheck, postCheck, termCheck, type CheckedItem, type Filters } from './event-filters.js';
import { sources } from './event-sources.js';
import { listTotal } from './event-totals.js';
import { listIncluded } from './event-in-memory.js';
import { listSearched } from './event-search.js';
import { echoQuery } from './event-echo.js';
import { readFitting } from './feed-reads.js';
import { wellTyped } from '#lib/present/well-typed.js';

/** The first `limit` events of the whole list, and what a feed makes of them (lib/logic/event-feed.ts). */
export interface Feed {
  limit: number;
  answer: (listed: { events: EventItem[]; linked: Linked; open: boolean[]; total: number }) => Reply;
  /** The most bytes of records read (default: what one answer can hold, ICAL_MAX_BYTES). */
  maxBytes?: number;
  /** Only the records: their links and who may read them are not read (`linked` empty, `open` all false). */
  bare?: true;
}

/** A page of events, or a feed; it answers once the reads started beside the page's own have settled. */
export const listEvents = (ctx: EventListRequest, feed?: Feed): Promise<Reply> => withSideWork((side) => listEventsWith(ctx, side, feed));

async function listEventsWith(ctx: EventListRequest, side: SideWork, feed: Feed | undefined): Promise<Reply> {
  const p = ctx.params;
  // Without Event Tickets, TEC refuses only a request for ticketed events; ticketed=false is ignored.
  if (p.ticketed === true) {
    const message = 'Event Tickets plugin is not activated.';
    throw invalidParams({ ticketed: message }, { ticketed: { code: 'event-tickets-not-active', message, data: { status: 400 } } });
  }
  const { page, perPage, offset } = feed ? { page: 1, perPage: feed.limit, offset: 0 } : paging(ctx);
  // The STATS item is read only when needed: for totals over buckets written before they carried
  // durations, and for how to read the terms of lists other than a page of the index.
  let statsRead: Promise<LangStats> | undefined;
  const stats = () => (statsRead ??= side.start(readStats(ctx.lang)));
  const { list: statusList, shown, ownBy } = await statuses(ctx);
  const asked = windowOf(ctx);
  const w = asked?.endAfter === undefined ? asked : boundStart(asked, (await stats()).seconds ?? 0);
  const f = await resolveFilters(ctx, side);
  const plan: ListPlan = { ctx, statusList, ownBy, filters: f.filters, window: w, offset, perPage, stats, feed: feed ? { maxBytes: feed.maxBytes } : false };
  const picked = await pickEvents(plan, f, side, feed);
  let { events } = picked;
  if (f.aside) f.verify(await f.aside);
  // Their links are read from them: a malformed record's lists are made lists first.
  events = events.map(wellTyped);
  if (page > 1 && events.length === 0) throw tec.archivePageNotFound('event');
  if (feed?.bare) return feed.answer({ events, linked: { venues: new Map(), organizers: new Map(), terms: new Map() }, open: events.map(() => false), total: picked.total });
  // How to read terms (the STATS item) matters only when some are neither read nor kept.
  const termIds = new Set(events.flatMap((e) => [...e.categories, ...e.tags]));
  const kept = termsFor(ctx.shared, termIds);
  const unread = [...termIds].some((id) => !picked.known?.has(id) && !kept.has(id));
  const linked = await loadLinked(events, { termBytes: f.paged || !unread ? undefined : (await stats()).termBytes, shared: ctx.shared }, picked.known);
  const open = await waitAll(events.map((e) => unlocked(ctx, e)));
  if (feed) return feed.answer({ events, linked, open, total: picked.total });
  return envelope({
    key: 'events',
    items: events.map((e, i) => (open[i] ? presentEvent(e, linked) : redact(presentEvent(e, linked)))),
    collectionUrl: `${apiBase(ctx.lang)}/events/`,
    query: echoQuery(ctx, { page, perPage, shown, window: w, venue: f.venue, organizer: f.organizer }),
    page,
    total: picked.total,
    perPage,
  });
}

type Checked = { venue?: number[]; organizer?: number[]; categories?: number[]; tags?: number[] };

/** A request's filters, resolved to ids, and how their checks are read. */
interface ResolvedFilters {
  filters: Filters;
  /** The venues and organizers the request named, as its links echo them. */
  venue?: number[];
  organizer?: number[];
  /** The checks, when they were read ahead of the page (else they join its batch read). */
  checked?: Checked;
  checkKeys: ItemKey<CheckedItem>[];
  verify: (found: Found<CheckedItem>) => Checked;
  /** Whether the page is a page of the index (no include, no search, not empty by its places). */
  paged: boolean;
  /** The checks' own read, beside a read that is not the index's page. */
  aside?: Promise<Found<CheckedItem>>;
}

/** The filters checked in TEC's order (the first failure answers), from one batch read. */
async function resolveFilters(ctx: EventListRequest, side: SideWork): Promise<ResolvedFilters> {
  const p = ctx.params;
  const checks = [parentCheck(ctx), postCheck(ctx, 'venue'), postCheck(ctx, 'organizer'), termCheck(ctx, 'categories'), termCheck(ctx, 'tags')] as const;
  const checkKeys = checks.flatMap((c) => c.keys);
  const verify = (found: Found<CheckedItem>): Checked => {
    const [, venue, organizer, categories, tags] = checks.map((c) => c.verify(found));
    return { venue, organizer, categories, tags };
  };
  const geo = side.start(geoVenues(ctx));
  // Filters by id (or by the slug of a kept term) name their list partitions already: their
  // checks join the page's batch read (the answer waits for them). Other slugs and places near a
  // point are looked up first.
  const given = checks.slice(1).map((c) => c.ahead);
  const ahead = p.geoloc !== true && p.geoloc_lat === undefined && p.geoloc_lng === undefined && given.every((v) => v !== null);
  let checked: Checked | undefined;
  if (!ahead) {
    checked = verify(await batchGet(checkKeys));
    await geo;
  }
  const [venue, organizer, categories, tags] = checked ? [checked.venue, checked.organizer, checked.categories, checked.tags] : (given as (number[] | undefined)[]);
  const near = ahead ? undefined : await geo;
  const venues = near === undefined ? venue : venue === undefined ? near : venue.filter((id) => near.includes(id));
  const filters: Filters = { venue: venues, organizer, categories, tags, featured: p.featured, parent: p.post_parent };
  const paged = !(venues !== undefined && venues.length === 0) && p.include === undefined && p.search === undefined;
  // Other reads than the page's own check the filters beside them.
  const aside = ahead && !paged ? side.start(batchGet(checkKeys)) : undefined;
  return { filters, venue, organizer, checked, checkKeys, verify, paged, aside };
}

/** The events of the page (or feed), its total, and the terms read with them. */
async function pickEvents(
  plan: ListPlan,
  f: ResolvedFilters,
  side: SideWork,
  feed: Feed | undefined,
): Promise<{ events: EventItem[]; total: number; known?: Map<number, TermItem> }> {
  const { ctx, statusList, ownBy, filters, offset, perPage } = plan;
  const venues = filters.venue;
  if (!f.paged && venues !== undefined && venues.length === 0) return { events: [], total: 0 };
  if (ctx.params.include !== undefined) return listIncluded(ctx, statusList, ownBy, filters, offset, perPage);
  if (!f.paged) {
    // The terms the page's index entries name come with its records, as a list page's do.
    const { events, total, terms } = await listSearched(plan, parseSearch(ctx.params.search ?? ''));
    return { events, total, known: terms };
  }
  return indexPage(plan, f, side, feed);
}

/** A page of the index, its total from the buckets, and its records, terms and checks in one batch read. */
async function indexPage(
  plan: ListPlan,
  f: ResolvedFilters,
  side: SideWork,
  feed: Feed | undefined,
): Promise<{ events: EventItem[]; total: number; known: Map<number, TermItem> }> {
  const { ctx, statusList, ownBy, filters, window: w, offset, perPage, stats } = plan;
  const { sources: src, multi } = sources(ctx, statusList, filters, w, ownBy);
  // Several values of a filter (OR) may list an event twice: their total counts the ids, so
  // every key is read, and the page comes from that same read (one request per partition).
  const counting = multi ? undefined : side.start(listTotal(src, w, stats, ctx.counter));
  const { hits, total: counted } = multi ? await pageAndTotal(src, offset, perPage, false) : { hits: await pageKeys(src, offset, perPage, false), total: undefined };
  // The index items name the events' terms: the terms not kept are read with the events
  // themselves and the filters' checks, in one batch (with their whole counts).
  const hitTerms = new Set<number>();
  for (const h of hits) for (const id of [...asList(h.item.categories), ...asList(h.item.tags)]) hitTerms.add(id);
  const known = termsFor(ctx.shared, hitTerms);
  const unread = [...hitTerms].filter((id) => !known.has(id));
  const checkKeys = f.checked ? [] : f.checkKeys;
  let found: Found<CheckedItem>;
  let shown = hits;
  if (feed) {
    // A feed holds the soonest events that one answer can hold (lib/logic/feed-reads.ts).
    const [fitting, rest] = await waitAll([
      readFitting(
        hits.map((h) => keys.post(h.id)),
        feed.maxBytes,
      ),
      batchGetWithTerms(checkKeys, unread),
    ] as const);
    found = new Found<CheckedItem>([...rest, ...fitting.found]);
    shown = hits.slice(0, fitting.count);
  } else found = await batchGetWithTerms<CheckedItem>([...hits.map((h) => keys.post(h.id)), ...checkKeys], unread);
  if (!f.checked) f.verify(found);
  const events = shown.flatMap((h) => ofKind(found.get(keys.post(h.id)), 'event') ?? []);
  const read = unread.flatMap((id) => found.get(keys.term(id)) ?? []);
  keepFor(ctx.shared, read);
  for (const t of read) known.set(t.id, t);
  return { events, total: counted ?? (await counting!), known };
}
