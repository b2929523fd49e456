// TEC's `tec/v1` namespace over the same records as the `<ns>/events/v1` routes. Each request is
// checked as TEC checks it (its arguments, then the caller's permission, then the experimental
// acknowledgement), then carried out by the v1 operation of the same meaning, its arguments named
// as v1 names them: so both namespaces store, refuse and find alike, and a record written through
// one reads the same through the other. The answer is TEC's shape of the record
// (lib/present/tec-v1.ts), read again after a write.
import { waitAll } from '#lib/runtime/settle.js';
import { ApiError, forbidden } from '#lib/contract/errors.js';
import { json, recordReply, type Reply } from '#lib/contract/reply.js';
import { operation, TEC_V1_ACKNOWLEDGEMENT, type ArgsOf, type OperationId } from '#lib/contract/operations.js';
import type { Input, RequestContext } from '#lib/contract/request.js';
import type { HtmlFilters } from '#lib/contract/params.js';
import { validateArgs } from '#lib/contract/validate.js';
import { canRead, canWrite, unlocked } from '#lib/auth/permissions.js';
import { config, restRoot, withQuery } from '#lib/runtime/config.js';
import { batchGet, getItem } from '#lib/store/reads.js';
import { keys, type PostKind } from '#lib/store/keys.js';
import { ofKind, type AnyPost, type EventItem } from '#lib/store/items.js';
import { overBudget, REQUEST_BUDGET } from '#lib/contract/budget.js';
import { eventOrder, type Ordered } from '#lib/domain/event-order.js';
import { presentTecEvent, presentTecOrganizer, presentTecVenue } from '#lib/present/tec-v1.js';
import { wellTyped } from '#lib/present/well-typed.js';
import { phpTrim } from '#lib/wp/php.js';
import { loadLinked } from './common.js';
import { listEvents } from './event-list.js';
import type { EventListRequest } from './event-window.js';
import { SORTED_READ_LIMIT } from './wp-post-reads.js';
import { listPlaces } from './lists.js';

const unacknowledged = (message: string) => new ApiError(400, 'missing_experimental_endpoint_acknowledgement', message);

/** TEC's gate of an experimental route: the header must say the sentence (case and outer spaces aside). */
export function requireAcknowledgement(ctx: RequestContext): void {
  if (!ctx.op.experimental) return;
  const sent = ctx.acknowledgement;
  // PHP's empty(): no header, an empty one and "0" are all missing.
  if (!sent || sent === '0') throw unacknowledged('Experimental endpoint requires acknowledgement header.');
  if (phpTrim(sent).toLowerCase() !== TEC_V1_ACKNOWLEDGEMENT) throw unacknowledged('Experimental endpoint requires appropriate acknowledgement header.');
}

/** The v1 kind of each post kind: the operations that carry this namespace's requests out. */
export const V1_KIND = { event: 'events', venue: 'venues', organizer: 'organizers' } as const satisfies Record<PostKind, string>;
const ROUTE = { event: 'events', venue: 'venues', organizer: 'organizers' } as const satisfies Record<PostKind, string>;

/** The values came through this namespace's own arguments, filtered there already: v1's take them as they are. */
const AS_FILTERED: HtmlFilters = { post: (s) => s, title: (s) => s, termDescription: (s) => s, termName: (s) => s, meta: (s) => s };

/** The request as the v1 operation `id` would have had it, with `input` as its arguments. */
export function asV1<Id extends OperationId>(ctx: RequestContext, id: Id, input: Input): RequestContext<ArgsOf<Id>> {
  const op = operation(id);
  const skip = Object.entries(op.args)
    .filter(([, arg]) => arg.path)
    .map(([name]) => name);
  const clean = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const params = validateArgs(op.args, clean, { skip, unfilteredHtml: true, filters: AS_FILTERED });
  return { ...ctx, op, input: clean, params } as unknown as RequestContext<ArgsOf<Id>>;
}

/** A record as this namespace shows it. */
export async function present(ctx: RequestContext, post: AnyPost): Promise<Record<string, unknown>> {
  const p = wellTyped(post);
  if (p.kind === 'venue') return presentTecVenue(p);
  if (p.kind === 'organizer') return presentTecOrganizer(p);
  return presentTecEvent(p, await loadLinked([p], { shared: ctx.shared }), ctx.now, await unlocked(ctx, p));
}

/** The record a route's id names when it is of `kind`; else undefined (the record may be of another kind). */
async function stored(ctx: RequestContext): Promise<AnyPost | undefined> {
  const found = await getItem(keys.post(ctx.path.id!));
  return ofKind(found, 'event') ?? ofKind(found, 'venue') ?? ofKind(found, 'organizer');
}

/**
 * The record a write names, when the caller may change it: WordPress's `edit_post` (and
 * `delete_post`) is refused for a record that does not exist, of any kind, before the gate.
 */
export async function writable(ctx: RequestContext): Promise<AnyPost> {
  const post = await stored(ctx);
  if (!post || !(await canWrite(ctx, post))) throw forbidden(!!ctx.principal);
  requireAcknowledgement(ctx);
  return post;
}

// --- reads ---------------------------------------------------------------------------------------

/** GET by id: a record the caller may not read, or none, is refused as WordPress refuses it, before the gate. */
export async function readTecPost(ctx: RequestContext<ArgsOf<'tecEvents.get'>>, kind: PostKind): Promise<Reply> {
  const post = ofKind(await stored(ctx), kind);
  const readable = post !== undefined && (post.status === 'trash' ? await canWrite(ctx, post) : await canRead(ctx, post));
  if (!post || !readable) throw forbidden(!!ctx.principal);
  requireAcknowledgement(ctx);
  // TEC reads with WordPress's status `any`, which leaves the trash out: a trashed record is not found,
  // even by one who may edit it (its list shows it, with status=trash).
  if (post.status === 'trash') return json(404, { error: 'The entity could not be read.' });
  return recordReply(200, await present(ctx, post), post);
}

/** TEC's answer to a page past the last (its code names organizers for every kind). */
const PAGE_NOT_FOUND = { code: 'tec_rest_organizers_page_not_found', message: 'The requested page was not found.' };

/** The page of records a v1 list answered (its `events`, `venues` or `organizers`, by id), and its total. */
async function pageOf(reply: Reply, kind: PostKind): Promise<{ records: AnyPost[]; total: number }> {
  const body = reply.body as Record<string, unknown>;
  const ids = ((body[ROUTE[kind]] as { id: number }[] | undefined) ?? []).map((r) => r.id);
  const found = await batchGet(ids.map(keys.post));
  const records = ids.map((id) => ofKind(found.get(keys.post(id)), kind)).filter((r): r is NonNullable<typeof r> => r !== undefined);
  return { records, total: Number(body.total ?? 0) };
}

/** The list's answer: the records, their total and pages in headers, and TEC's `Link` to the pages beside. */
async function listReply(ctx: RequestContext, kind: PostKind, run: () => Promise<{ records: AnyPost[]; total: number }>, perPage: number): Promise<Reply> {
  let listed: { records: AnyPost[]; total: number };
  try {
    listed = await run();
  } catch (err) {
    if (err instanceof ApiError && err.code.endsWith('-archive-page-not-found')) return json(404, PAGE_NOT_FOUND);
    throw err;
  }
  const { records, total } = listed;
  const page = Number(ctx.params.page ?? 1);
  if (!records.length && page > 1) return json(404, PAGE_NOT_FOUND);
  const pages = Math.ceil(total / perPage);
  const events = records.flatMap((r) => (r.kind === 'event' ? [r] : []));
  const linked = kind === 'event' ? await loadLinked(events, { shared: ctx.shared }) : undefined;
  const body = await waitAll(records.map(async (r) => (r.kind === 'event' ? presentTecEvent(wellTyped(r), linked!, ctx.now, await unlocked(ctx, r)) : present(ctx, r))));
  const url = (n: number) => withQuery(`${restRoot(ctx.lang)}/tec/v1/${ROUTE[kind]}`, pageQuery(ctx, n));
  const links = [...(page < pages ? [`<${url(page + 1)}>; rel="next"`] : []), ...(page > 1 ? [`<${url(page - 1)}>; rel="prev"`] : [])];
  return json(200, body, { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(pages), ...(links.length ? { Link: links.join(', ') } : {}) });
}

/**
 * The request's query with another page, as TEC writes its links: the arguments in the order sent,
 * a list as its items (`venue[0]=5`, as WordPress keeps the checked value), `page` in its place or last.
 */
function pageQuery(ctx: RequestContext, page: number): string {
  const out = new URLSearchParams();
  let paged = false;
  for (const [name, sent] of Object.entries(ctx.input)) {
    if (name === 'page') {
      out.append('page', String(page));
      paged = true;
      continue;
    }
    const checked = (ctx.params as Record<string, unknown>)[name];
    if (ctx.op.args[name]?.type === 'array' && Array.isArray(checked)) {
      for (const [i, v] of checked.entries()) out.append(`${name}[${i}]`, String(v));
    } else if (typeof sent === 'string' || typeof sent === 'number' || typeof sent === 'boolean') out.append(name, String(sent));
  }
  if (!paged) out.append('page', String(page));
  return out.toString();
}

/** The statuses a list shows: those asked for by a caller who may edit posts, else `publish`. */
const listStatuses = (ctx: RequestContext, asked: string[] | string | undefined) => {
  const list = Array.isArray(asked) ? asked : String(asked ?? 'publish').split(',');
  return ctx.principal?.role ? list.map((s) => s.trim()).join(',') : 'publish';
};

/** The first instant any date window reaches: TEC's list has no default window, v1's has. */
const ALL_TIME = '1970-01-01 00:00:00';

export async function listTecEvents(ctx: RequestContext<ArgsOf<'tecEvents.list'>>): Promise<Reply> {
  requireAcknowledgement(ctx);
  const p = ctx.params;
  const perPage = Math.min(p.per_page, config().maxPerPage);
  const v1 = asV1(ctx, 'events.list', {
    page: p.page,
    per_page: perPage,
    start_date: p.start_date,
    end_date: p.end_date,
    starts_before: p.starts_before,
    // Always a bound of v1's range form, so that v1's default window never fills in the side not
    // given (a start_date alone would otherwise stop two years from now).
    starts_after: p.starts_after ?? ALL_TIME,
    ends_before: p.ends_before,
    ends_after: p.ends_after,
    strict_dates: true,
    search: p.search === '' ? undefined : p.search,
    categories: p.categories,
    tags: p.tags,
    venue: p.venue,
    organizer: p.organizer,
    featured: p.featured,
    status: listStatuses(ctx, p.status),
    post_parent: p.post_parent,
    ticketed: p.ticketed,
  });
  const order = p.orderby === 'event_date' && p.order === 'ASC' ? undefined : eventOrder(p.orderby, p.order);
  const run = order ? () => orderedEvents(v1, order, (p.page - 1) * perPage, perPage) : async () => pageOf(await listEvents(v1), 'event');
  return listReply(ctx, 'event', run, perPage);
}

/** What the read budget's units read at most (eventually consistent: 8 KB a unit). */
const ORDERED_MAX_BYTES = REQUEST_BUDGET.readUnits * 8 * 1024;

/**
 * A page of the list in another order: every event of the list is read (as a feed reads them, at
 * most SORTED_READ_LIMIT and what one request may read), ordered, and the page cut from them. A
 * list longer than that is refused as over budget: narrowing it (a venue, dates) answers it.
 */
async function orderedEvents(v1: EventListRequest, order: (a: Ordered, b: Ordered) => number, offset: number, perPage: number) {
  let listed: { events: EventItem[]; total: number } | undefined;
  await listEvents(v1, {
    limit: SORTED_READ_LIMIT,
    // The records are ordered, not answered: the request's read budget bounds them, not an answer's size.
    maxBytes: ORDERED_MAX_BYTES,
    bare: true,
    answer: (all) => {
      listed = all;
      return json(200, null);
    },
  });
  const { events, total } = listed!;
  if (events.length < total) throw overBudget('readUnits');
  return { records: [...events].sort(order).slice(offset, offset + perPage), total };
}

export async function listTecPlaces(ctx: RequestContext<ArgsOf<'tecVenues.list'>>, kind: 'venue' | 'organizer'): Promise<Reply> {
  requireAcknowledgement(ctx);
  const p = ctx.params;
  const perPage = Math.min(p.per_page, config().maxPerPage);
  const v1 = asV1(ctx, `${V1_KIND[kind]}.list`, {
    page: p.page,
    per_page: perPage,
    search: p.search === '' ? undefined : p.search,
    event: p.event,
    has_events: p.has_events,
    only_with_upcoming: p.only_with_upcoming,
    status: listStatuses(ctx, p.status),
  });
  return listReply(ctx, kind, async () => pageOf(await listPlaces(v1 as RequestContext<ArgsOf<'venues.list'>>, kind), kind), perPage);
}
