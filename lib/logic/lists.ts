// List operations and TEC's envelopes (docs/tec-behaviour.md §4). A page reads keys from the `list` index
// (small items), then the page's records and their links in batch reads.
import { placeMatches } from '#lib/domain/search-terms.js';
import { apiBase, config, withQuery, type Lang } from '#lib/runtime/config.js';
import { invalidParam, tec } from '#lib/contract/errors.js';
import { json, type Reply } from '#lib/contract/reply.js';
import { callerId, isEditor } from '#lib/auth/permissions.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import type { RequestContext, RequestWith } from '#lib/contract/request.js';
import { presentOrganizer, presentTerm, presentVenue } from '#lib/present/present.js';
import { POST_STATUSES } from '#lib/contract/args/common.js';
import { batchGet, getItem, queryAll, type Found } from '#lib/store/reads.js';
import { countedTermBySlug, countedTerms, splitPlaceTotals, taxonomyTerms, taxonomyTermsPage } from '#lib/store/counted-reads.js';
import { pageAndTotal } from '#lib/store/list-pages.js';
import { keys, listKeys, type PostKind, type Taxonomy } from '#lib/store/keys.js';
import { nowUtc } from '#lib/domain/time/dates.js';
import { ofKind, type OrganizerItem, type TermItem, type VenueItem } from '#lib/store/items.js';
import { waitAll } from '#lib/runtime/settle.js';
import { archivePaths } from './term-paths.js';
import { queryInput, type Source, type Test } from '#lib/store/list-index.js';

/** Terms as presentTerm shows them, each category linked under its ancestors. */
const presentTerms = async (terms: TermItem[]) => {
  const paths = await archivePaths(terms);
  return terms.map((t) => presentTerm(t, paths.get(t.id)));
};

/** A list attribute of an index item (a list, or a set as DynamoDB may return it). */
export const asList = (v: unknown): number[] => (Array.isArray(v) ? v : v instanceof Set ? [...v] : []) as number[];

/** PHP's http_build_query encoding, which TEC's next/previous links use. */
export const encodeQuery = (q: [string, string][]) => q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).replace(/%20/g, '+')}`).join('&');

/**
 * The query of TEC's `rest_url`, which writes values as they are (a space stays a space, a colon a
 * colon), unlike its next and previous links. Only what would change what the URL says is
 * percent-encoded (`%`, `&`, `#`, `+`, control characters), where TEC writes a broken URL.
 */
export const rawQuery = (q: [string, string][]) => q.map(([k, v]) => `${unambiguous(k)}=${unambiguous(v)}`).join('&');
const unambiguous = (s: string) => s.replace(/[%&#+\u0000-\u001f\u007f]/g, (c) => encodeURIComponent(c));

/** A page of a collection, as its envelope and links describe it. */
export interface PageOf {
  /** The collection's key in the body (`events`, `venues`, …). */
  key: string;
  items: unknown[];
  collectionUrl: string;
  /** The request's effective query, in TEC's order. */
  query: [string, string][];
  page: number;
  total: number;
  perPage: number;
}

export function envelope({ key, items, collectionUrl, query, page, total: totalCount, perPage }: PageOf): Reply {
  const totalPages = Math.ceil(totalCount / perPage);
  const rest = query.filter(([k]) => k !== 'page');
  const link = (p: number) => withQuery(collectionUrl, encodeQuery(p > 1 ? [...rest, ['page', String(p)]] : rest));
  const body: Record<string, unknown> = {
    [key]: items,
    rest_url: withQuery(collectionUrl, rawQuery([['page', String(page)], ...rest])),
  };
  if (page < totalPages) body.next_rest_url = link(page + 1);
  if (page > 1 && items.length) body.previous_rest_url = link(page - 1);
  body.total = totalCount;
  body.total_pages = totalPages;
  return json(200, body, { 'X-TEC-Total': String(totalCount), 'X-TEC-TotalPages': String(totalPages) });
}

export function paging(ctx: RequestWith<{ page: number; per_page: number }>) {
  const cfg = config();
  const page = ctx.params.page;
  const perPage = Math.min(ctx.params.per_page, cfg.maxPerPage);
  return { page, perPage, offset: (page - 1) * perPage };
}

/**
 * What a post list shows the caller (docs/tec-behaviour.md §4.1.1 `status`, docs/design.md §5): anonymous callers
 * `publish` only; users with a role may ask for any registered status (default `any`), but only
 * editors see other users' unpublished records.
 */
export async function statuses(ctx: RequestWith<{ status?: string }>): Promise<{ list: string[]; shown: string; ownBy?: number }> {
  const raw = ctx.params.status;
  const writer = !!ctx.principal?.role;
  if (!writer) {
    if (raw !== undefined && raw.trim() !== 'publish') throw invalidParam('status', 'status may only be publish for this caller.');
    return { list: ['publish'], shown: 'publish' };
  }
  const wanted = (raw ?? 'any')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const allowed: readonly string[] = [...POST_STATUSES, 'any'];
  if (!wanted.length || wanted.some((s) => !allowed.includes(s))) throw invalidParam('status', 'status is not a registered post status.');
  const list = wanted.includes('any') ? [...POST_STATUSES] : [...new Set(wanted)];
  // A user never seen before owns nothing: user ids start at 1, so 0 matches no record.
  return { list, shown: wanted.join(','), ownBy: isEditor(ctx.principal) ? undefined : ((await callerId(ctx)) ?? 0) };
}

/** For callers who see only their own unpublished records: the test of a status partition. */
export function ownFilter(status: string, ownBy: number | undefined): Test | undefined {
  if (ownBy === undefined || status === 'publish') return undefined;
  return { attr: 'author', is: '=', value: ownBy };
}

/** A list source with more tests (those given). */
export function withFilters(base: Source, ...tests: (Test | undefined)[]): Source {
  const more = tests.filter((t) => t !== undefined);
  return more.length ? { ...base, where: [...(base.where ?? []), ...more] } : base;
}

/** Every venue or organizer of some list partitions (for the filters that must look at record fields). */
async function allPlaces(sources: Source[], kind: Exclude<PostKind, 'event'>) {
  const read = await waitAll(sources.map((s) => queryAll<{ id: number }>(queryInput(s, false))));
  return [...(await batchGet(read.flat().map((k) => keys.post(Number(k.id))))).values()].flatMap((p) => ofKind(p, kind) ?? []);
}

const PLACE_SEARCH_FIELDS = {
  venue: ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],
  organizer: ['phone', 'email', 'website'],
} as const;

/**
 * The venues or organizers linked to a visible event that starts now or later: one read of the
 * upcoming part of each event list partition, whose index items name their links, rather than
 * one read per venue or organizer.
 */
async function withUpcoming(kind: Exclude<PostKind, 'event'>, lang: Lang, statusList: string[], now: string): Promise<Set<number>> {
  const attr = kind === 'venue' ? 'venues' : 'organizers';
  const read = await waitAll(statusList.map((status) => queryAll<Record<string, unknown>>(queryInput({ partition: listKeys.partition('event', lang, status), from: now }, false))));
  return new Set(read.flat().flatMap((item) => asList(item[attr])));
}

/**
 * GET /venues and /organizers (docs/tec-behaviour.md §4.2), newest first. Without filters a page reads
 * only its own keys; `search`, `event` and `only_with_upcoming` look at the records themselves.
 */
export async function listPlaces(ctx: RequestContext<ArgsOf<'venues.list'>>, kind: Exclude<PostKind, 'event'>): Promise<Reply> {
  const p = ctx.params;
  const { page, perPage, offset } = paging(ctx);
  const { list, shown, ownBy } = await statuses(ctx);
  const hasEvents = p.has_events;
  // Split records keep a part of their linked-event count in shards (lib/store/record-shards.ts):
  // when the language has any, `has_events` is judged here, their totals added up, not by a filter.
  const split = hasEvents === undefined ? new Map<number, number>() : await splitPlaceTotals(ctx.lang);
  const linked = (r: { id?: unknown; linkedEvents?: unknown }) => (split.get(Number(r.id)) ?? Number(r.linkedEvents ?? 0)) > 0;
  const linkedFilter =
    hasEvents === undefined || split.size
      ? undefined
      : hasEvents
        ? ({ attr: 'linkedEvents', is: '>', value: 0 } as const)
        : ({ attr: 'linkedEvents', is: '=', value: 0, orAbsent: true } as const);
  const sources: Source[] = list.map((status) => withFilters({ partition: listKeys.partition(kind, ctx.lang, status) }, linkedFilter, ownFilter(status, ownBy)));
  const query: [string, string][] = [
    ['page', String(page)],
    ['per_page', String(perPage)],
    // TEC's order: has_events before status.
    ...(hasEvents === undefined ? [] : ([['has_events', hasEvents ? '1' : '0']] as [string, string][])),
    ['status', shown],
  ];
  let records: (VenueItem | OrganizerItem)[];
  let n: number;
  const upcoming = p.only_with_upcoming === true ? await withUpcoming(kind, ctx.lang, list, nowUtc(ctx.now)) : undefined;
  if (p.search !== undefined || p.event !== undefined) {
    let candidates: (VenueItem | OrganizerItem)[];
    if (p.event !== undefined) {
      const event = ofKind(await getItem(keys.post(p.event)), 'event');
      if (!event) throw invalidParam('event', 'event is not an existing event id.');
      const ids = kind === 'venue' ? event.venues : event.organizers;
      candidates = [...(await batchGet(ids.map(keys.post))).values()]
        .flatMap((r) => ofKind(r, kind) ?? [])
        .filter(
          (r) =>
            r.lang === ctx.lang &&
            list.includes(r.status) &&
            (ownBy === undefined || r.status === 'publish' || r.author === ownBy) &&
            (hasEvents === undefined || linked(r) === hasEvents),
        );
    } else {
      candidates = await allPlaces(sources, kind);
      if (split.size) candidates = candidates.filter((r) => linked(r) === hasEvents);
    }
    const search = p.search;
    if (search !== undefined) {
      const fields = ['title', 'description', 'excerpt', ...PLACE_SEARCH_FIELDS[kind]] as const;
      candidates = candidates.filter((r) =>
        placeMatches(
          search,
          fields.map((f) => (r as unknown as Record<string, string>)[f]),
        ),
      );
    }
    if (upcoming) candidates = candidates.filter((r) => upcoming.has(r.id));
    candidates.sort((a, b) => b.date_utc.localeCompare(a.date_utc) || b.id - a.id);
    n = candidates.length;
    records = candidates.slice(offset, offset + perPage);
    if (p.search !== undefined) query.push(['search', p.search]);
    if (p.event !== undefined) query.push(['event', String(p.event)]);
  } else {
    const keep = (item: Record<string, unknown>) => (!upcoming || upcoming.has(Number(item.id))) && (!split.size || linked(item) === hasEvents);
    const kept = upcoming || split.size ? sources.map((s) => ({ ...s, keep })) : sources;
    const { hits, total: count } = await pageAndTotal(kept, offset, perPage, true);
    const found = await batchGet(hits.map((h) => keys.post(h.id)));
    records = hits.flatMap((h) => ofKind(found.get(keys.post(h.id)), kind) ?? []);
    n = count;
  }
  if (upcoming) query.push(['only_with_upcoming', '1']);
  if (page > 1 && records.length === 0) throw tec.archivePageNotFound(kind);
  const items = records.map((r) => (r.kind === 'venue' ? presentVenue(r) : presentOrganizer(r)));
  return envelope({ key: `${kind}s`, items, collectionUrl: `${apiBase(ctx.lang)}/${kind}s/`, query, page, total: n, perPage });
}

const TERM_ORDER: Record<string, (a: TermItem, b: TermItem) => number> = {
  name: (a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id,
  id: (a, b) => a.id - b.id,
  slug: (a, b) => a.slug.localeCompare(b.slug) || a.id - b.id,
  count: (a, b) => a.count - b.count || a.id - b.id,
  description: (a, b) => a.description.localeCompare(b.description) || a.id - b.id,
};

/** The terms of some ids, as stored (for checks that they exist). */
const storedTerms = (ids: number[]) => batchGet(ids.map(keys.term));

/**
 * Terms named by id must exist in the taxonomy; unknown ones are a 400 naming the parameter
 * (`strict`), else are left out. `read` reads them (as stored, or with their whole counts).
 */
async function existingTerms(name: string, ids: number[], taxonomy: Taxonomy, strict = true, read: (ids: number[]) => Promise<Found<TermItem>> = storedTerms): Promise<TermItem[]> {
  const found = await read(ids);
  return ids.flatMap((id) => {
    const t = found.get(keys.term(id));
    if (t?.taxonomy === taxonomy) return [t];
    if (strict) throw invalidParam(name, `${name} contains ${id}, which is not an existing ${taxonomy} id.`);
    return [];
  });
}

/** What a term list asks for: TEC's `/categories` and `/tags`, and WordPress's own term routes. */
export interface TermQuery {
  taxonomy: Taxonomy;
  offset: number;
  perPage: number;
  hideEmpty: boolean;
  order?: 'asc' | 'desc';
  /** A key of TERM_ORDER, or `include` / `include_slugs` (the order the ids or slugs were given in). */
  orderby: string;
  search?: string;
  include?: number[];
  exclude?: number[];
  parent?: number;
  /** The term ids of the one event the list is limited to. */
  of?: number[];
  slugs?: string[];
  /** TEC refuses an `include`, `exclude` or `parent` that names no term; WordPress leaves it out. */
  strict: boolean;
}

/**
 * One page of a language's terms and how many match. By name (the index order) a page reads only
 * its terms; the other filters and orders read the language's terms, which are few.
 */
export async function queryTerms(lang: Lang, q: TermQuery): Promise<{ terms: TermItem[]; total: number }> {
  const { taxonomy, offset, perPage, hideEmpty } = q;
  const filtered = q.search !== undefined || q.exclude !== undefined || q.include !== undefined || q.parent !== undefined || q.of !== undefined || q.slugs !== undefined;
  if (!filtered && q.orderby === 'name' && !hideEmpty) {
    // A page of the `terms` index is the page. (`hide_empty` reads them all below: a split term's
    // own count is only a part of it, and its total, like the list's, needs every term read
    // anyway; lib/store/record-shards.ts.)
    return taxonomyTermsPage(lang, taxonomy, { offset, limit: perPage, descending: q.order === 'desc' });
  }
  // The candidates are read with their whole counts (lib/store/counted-reads.ts).
  let candidates: TermItem[];
  if (q.of !== undefined) {
    candidates = [...(await countedTerms(q.of)).values()];
  } else if (q.include !== undefined) {
    candidates = await existingTerms('include', q.include, taxonomy, q.strict, (ids) => countedTerms(ids, taxonomy));
  } else if (q.slugs?.length === 1) {
    const hit = await countedTermBySlug(taxonomy, lang, q.slugs[0]!);
    candidates = hit ? [hit] : [];
  } else {
    // More slugs than one: the taxonomy's terms, filtered below.
    candidates = await taxonomyTerms(lang, taxonomy);
  }
  const exclude = q.exclude === undefined ? [] : q.strict ? (await existingTerms('exclude', q.exclude, taxonomy)).map((t) => t.id) : q.exclude;
  if (q.strict && q.parent !== undefined && q.parent !== 0) await existingTerms('parent', [q.parent], 'category');
  const search = q.search?.toLowerCase();
  candidates = candidates.filter(
    (t) =>
      t.lang === lang &&
      t.taxonomy === taxonomy &&
      (!hideEmpty || t.count > 0) &&
      !exclude.includes(t.id) &&
      (q.parent === undefined || t.parent === q.parent) &&
      (q.slugs === undefined || q.slugs.includes(t.slug)) &&
      (search === undefined || t.name.toLowerCase().includes(search) || t.slug.includes(search)),
  );
  const given = q.orderby === 'include' ? q.include : q.orderby === 'include_slugs' ? q.slugs : undefined;
  const byGiven = given && ((t: TermItem) => (given as (number | string)[]).indexOf(q.orderby === 'include' ? t.id : t.slug));
  candidates.sort(byGiven ? (a, b) => byGiven(a) - byGiven(b) : (TERM_ORDER[q.orderby] ?? TERM_ORDER.name));
  if (q.order === 'desc') candidates.reverse();
  return { terms: candidates.slice(offset, offset + perPage), total: candidates.length };
}

/** GET /categories and /tags (docs/tec-behaviour.md §4.3). */
export async function listTerms(ctx: RequestContext<ArgsOf<'categories.list'>>, taxonomy: Taxonomy): Promise<Reply> {
  const p = ctx.params;
  const { page, perPage, offset } = paging(ctx);
  const eventId = p.event ?? p.post;
  let of: number[] | undefined;
  if (eventId !== undefined) {
    const event = ofKind(await getItem(keys.post(eventId)), 'event');
    const name = p.event !== undefined ? 'event' : 'post';
    if (!event) throw invalidParam(name, `${name} is not an existing event id.`);
    of = taxonomy === 'category' ? event.categories : event.tags;
  }
  const { terms, total: n } = await queryTerms(ctx.lang, {
    taxonomy,
    offset,
    perPage,
    hideEmpty: p.hide_empty !== false,
    order: p.order,
    orderby: p.orderby ?? 'name',
    search: p.search,
    include: p.include,
    exclude: p.exclude,
    parent: p.parent,
    of,
    slugs: p.slug === undefined ? undefined : [String(p.slug).toLowerCase()],
    strict: true,
  });
  const collection = `${apiBase(ctx.lang)}/${taxonomy === 'category' ? 'categories' : 'tags'}/`;
  const totalPages = Math.ceil(n / perPage);
  // WordPress's terms envelope: the bare collection URL, and links that carry only `page`.
  const body: Record<string, unknown> = { rest_url: collection, total: n, total_pages: totalPages, [taxonomy === 'category' ? 'categories' : 'tags']: await presentTerms(terms) };
  if (page < totalPages) body.next_rest_url = withQuery(collection, `page=${page + 1}`);
  if (page > 1) body.previous_rest_url = page === 2 ? collection : withQuery(collection, `page=${page - 1}`);
  return json(200, body, { 'X-TEC-Total': String(n), 'X-TEC-TotalPages': String(totalPages) });
}
