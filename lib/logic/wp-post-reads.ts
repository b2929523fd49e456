// Reading WordPress's core post-type routes (`wp/v2/tribe_events`, `tribe_venue`,
// `tribe_organizer`) over the same records as TEC's routes: WordPress's posts controller's
// shapes, its refusals (each where WordPress checks it), its filters, order, paging and headers.
//
// A list reads the keys of the kind's status partitions of the `list` index (small items that
// carry the id, author, slug and terms), filters and orders them there when it can, and reads the
// page's records in one batch. An order or a search the index items cannot answer (events by
// date, any kind by title or modified date, a search) reads the candidates' records, at most
// SORTED_READ_LIMIT of them: past that the request is refused as over budget, and narrowing it
// (filters, include, orderby=id) answers it.
import { ApiError, invalidParams } from '#lib/contract/errors.js';
import { overBudget } from '#lib/contract/budget.js';
import { json, recordReply, type Reply } from '#lib/contract/reply.js';
import type { ArgsOf, Method } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';
import type { Principal } from '#lib/contract/principal.js';
import { POST_STATUSES } from '#lib/contract/args/common.js';
import { callerId, canRead, canWrite, isEditor, samePassword } from '#lib/auth/permissions.js';
import { presentWpPost, wpPostCollection, type WpAction } from '#lib/present/wp-post.js';
import { batchGet, getItem, queryAll } from '#lib/store/reads.js';
import { keys, listKeys, type PostKind } from '#lib/store/keys.js';
import { ofKind, type AnyPost, type TermItem } from '#lib/store/items.js';
import { waitAll } from '#lib/runtime/settle.js';
import { asList, ownFilter, withFilters } from './lists.js';
import { queryInput } from '#lib/store/list-index.js';
import { matchesSearch, parseSearch } from '#lib/domain/search-terms.js';
import { pageLinks } from './wp-term-reads.js';
import { embedInto } from './wp-embed.js';
import { wellTyped } from '#lib/present/well-typed.js';

/** The most records a list reads to order or search them (a batch read of 100 keys each). */
export const SORTED_READ_LIMIT = 1_000;

const ALL_METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** WordPress's refusals: 401 for anonymous callers, 403 for signed-in ones. */
const refusal = (ctx: RequestContext, code: string, message: string) => new ApiError(ctx.principal ? 403 : 401, code, message);
const invalidId = () => new ApiError(404, 'rest_post_invalid_id', 'Invalid post ID.');

/** The `wp:action-*` links of the edit context: WordPress's capabilities of each role. */
function actionsOf(principal: Principal | undefined, kind: PostKind): WpAction[] {
  const role = principal?.role;
  if (!role) return [];
  const out: WpAction[] = [];
  if (role !== 'contributor') out.push('publish');
  if (role === 'editor') out.push('unfiltered-html', 'assign-author');
  if (kind === 'event') {
    out.push('create-tags', 'assign-tags');
    if (role === 'editor') out.push('create-tribe_events_cat');
    out.push('assign-tribe_events_cat');
  }
  return out;
}

/** The methods the caller may use on a post: those who may edit it all of them. */
const allowOn = async (ctx: RequestContext, post: AnyPost): Promise<readonly Method[]> => ((await canWrite(ctx, post)) ? ALL_METHODS : ['GET']);

/** The terms of some events (for their `class_list`), in one batch read. */
async function termsOf(posts: readonly AnyPost[]): Promise<Map<number, TermItem>> {
  const ids = new Set<number>();
  for (const p of posts) if (p.kind === 'event') for (const id of [...p.categories, ...p.tags]) ids.add(id);
  const found = await batchGet([...ids].map(keys.term));
  return new Map([...found.values()].map((t) => [t.id, t]));
}

type WpPostList = ArgsOf<'wpEvents.list'>;
/**
 * What a list reads of an item of a post list partition (the `list` index projects these), or of
 * a record read whole, which holds the same attributes.
 */
type IndexItem = { pk: string; sk: string; id: number; gsi2sk?: string; author?: number; slug?: string; categories?: unknown; tags?: unknown };

/** The statuses asked for: WordPress's `any` is every stored status. */
function statusesOf(raw: unknown): string[] {
  const given = Array.isArray(raw) ? (raw as string[]) : String(raw ?? 'publish').split(',');
  const list = given.map((s) => s.trim()).filter(Boolean);
  return list.includes('any') ? [...POST_STATUSES] : [...new Set(list.length ? list : ['publish'])];
}

/** How two records compare in an order the index items cannot give. */
const RECORD_ORDER: Record<string, (a: AnyPost, b: AnyPost) => number> = {
  date: (a, b) => a.date_utc.localeCompare(b.date_utc),
  modified: (a, b) => a.modified_utc.localeCompare(b.modified_utc),
  title: (a, b) => a.title.toLowerCase().localeCompare(b.title.toLowerCase()),
};

/** A WordPress post-type list being answered: its request, and the records read so far. */
interface Listing {
  ctx: RequestContext<WpPostList>;
  kind: PostKind;
  /** Whether a record is one the caller may list (language, status, own drafts). */
  visible: (r: { status: string; author: number; lang: string; kind?: string }) => boolean;
  /** Records read, made well-typed at once: searches and orders read their text. */
  records: Map<number, AnyPost>;
}

export async function listWpPosts(ctx: RequestContext<WpPostList>, kind: PostKind): Promise<Reply> {
  const p = ctx.params;
  const writer = !!ctx.principal?.role;
  const statuses = statusesOf(p.status);
  refuseListing(ctx, statuses);
  // Only editors see others' unpublished records; authors and contributors their own.
  const ownBy = writer && !isEditor(ctx.principal) ? ((await callerId(ctx)) ?? 0) : undefined;
  const listing: Listing = {
    ctx,
    kind,
    visible: (r) => r.lang === ctx.lang && statuses.includes(r.status) && (ownBy === undefined || r.status === 'publish' || r.author === ownBy),
    records: new Map(),
  };
  const ordered = await orderedIds(listing, await candidates(listing, statuses, ownBy));
  const { records } = listing;

  // As WP_Query: an offset, 0 included, replaces the page (which still names the links), a negative
  // one counts as positive (absint), and a page it leaves empty reports no posts at all (found_posts
  // is 0 then; without an offset WordPress counts again, and a page past the last is refused).
  const offset = p.offset !== undefined ? Math.abs(p.offset) : (p.page - 1) * p.per_page;
  const pageIds = ordered.slice(offset, offset + p.per_page);
  const total = p.offset !== undefined && !pageIds.length ? 0 : ordered.length;
  const pages = Math.ceil(total / p.per_page);
  if (p.page > pages && total > 0) throw new ApiError(400, 'rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.');
  const unread = pageIds.filter((id) => !records.has(id));
  if (unread.length) for (const r of (await batchGet(unread.map(keys.post))).values()) records.set(r.id, wellTyped(r));
  const posts = pageIds.map((id) => records.get(id)).filter((r): r is AnyPost => r !== undefined);
  const terms = await termsOf(posts);
  const actions = actionsOf(ctx.principal, kind);
  const allows = await waitAll(posts.map((r) => allowOn(ctx, r)));
  const body = posts.map((r, i) => presentWpPost(r, { context: p.context, allow: allows[i]!, actions, terms, unlocked: p.context === 'edit' && allows[i] === ALL_METHODS }));
  await embedInto(ctx, posts, body, terms);
  const link = pageLinks(ctx, wpPostCollection(ctx.lang, kind), p.page, pages);
  return json(200, body, {
    'X-WP-Total': String(total),
    'X-WP-TotalPages': String(pages),
    ...(link ? { Link: link } : {}),
    allow: writer ? 'GET, POST' : 'GET',
  });
}

/** What WordPress refuses of a list request before reading anything. */
function refuseListing(ctx: RequestContext<WpPostList>, statuses: string[]): void {
  const p = ctx.params;
  const writer = !!ctx.principal?.role;
  if (p.context === 'edit' && !writer) throw refusal(ctx, 'rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.');
  // Any status but `publish` is for those who may edit posts of the type.
  if (!writer && statuses.some((s) => s !== 'publish')) {
    const message = 'Status is forbidden.';
    throw invalidParams({ status: message }, { status: { code: 'rest_forbidden_status', message, data: { status: ctx.principal ? 403 : 401 } } });
  }
  if (p.orderby === 'relevance' && !p.search) throw new ApiError(400, 'rest_no_search_term_defined', 'You need to define a search term to order by relevance.');
  if (p.orderby === 'include' && !p.include) throw new ApiError(400, 'rest_orderby_include_missing_include', 'You need to define an include parameter to order by include.');
}

/** The candidates: named ones read whole, else the index items of the status partitions; then the filters the index items tell. */
async function candidates({ ctx, kind, visible, records }: Listing, statuses: string[], ownBy: number | undefined): Promise<IndexItem[]> {
  const p = ctx.params;
  let items: IndexItem[];
  if (p.include !== undefined) {
    const found = await batchGet(p.include.map(keys.post));
    for (const stored of found.values()) {
      const r = wellTyped(stored);
      if (r.kind === kind && visible(r)) records.set(r.id, r);
    }
    items = [...records.values()];
  } else {
    const read = await waitAll(
      statuses.map((status) => queryAll<IndexItem>(queryInput(withFilters({ partition: listKeys.partition(kind, ctx.lang, status) }, ownFilter(status, ownBy)), true))),
    );
    items = read.flat();
  }
  const has = (list: number[] | undefined, values: number[]) => list === undefined || list.some((id) => values.includes(id));
  const hasNone = (list: number[] | undefined, values: number[]) => list === undefined || !list.some((id) => values.includes(id));
  return items.filter(
    (it) =>
      // WP_Query ignores post__not_in beside post__in.
      (p.include !== undefined || !(p.exclude ?? []).includes(Number(it.id))) &&
      (p.author === undefined || p.author.includes(Number(it.author))) &&
      !(p.author_exclude ?? []).includes(Number(it.author)) &&
      (p.slug === undefined || p.slug.includes(String(it.slug))) &&
      (kind !== 'event' ||
        (has(p.tribe_events_cat, asList(it.categories)) &&
          hasNone(p.tribe_events_cat_exclude, asList(it.categories)) &&
          has(p.tags, asList(it.tags)) &&
          hasNone(p.tags_exclude, asList(it.tags)))),
  );
}

/**
 * The candidates' ids in the list's order. Orders the index items give: their place in the list
 * (venues and organizers by date), id, slug, author, the include list; the others read the
 * records. TEC orders events of the same date (or slug, or author), and a list by include, by
 * their start; WordPress keeps ties by id.
 */
async function orderedIds({ ctx, kind, visible, records }: Listing, items: IndexItem[]): Promise<number[]> {
  const p = ctx.params;
  const dir = p.order === 'desc' ? -1 : 1;
  const start = (id: number, it?: IndexItem) => ofKind(records.get(id), 'event')?.utcStart ?? String(it?.gsi2sk ?? '').split('#')[0]!;
  const tie = (a: number, b: number, ia?: IndexItem, ib?: IndexItem) => (kind === 'event' ? start(a, ia).localeCompare(start(b, ib)) || a - b : dir * (a - b));
  const byInclude = p.orderby === 'include' && kind !== 'event';
  const primary =
    <T>(compare: (a: T, b: T) => number) =>
    (a: T, b: T) =>
      p.orderby === 'include' ? (byInclude ? compare(a, b) : 0) : dir * compare(a, b);
  const byRecord = p.search !== undefined || p.orderby === 'title' || p.orderby === 'modified' || (p.orderby === 'date' && (kind === 'event' || p.include !== undefined));
  if (byRecord) {
    const missing = items.filter((it) => !records.has(Number(it.id)));
    if (missing.length > SORTED_READ_LIMIT) throw overBudget('requests');
    const found = await batchGet(missing.map((it) => keys.post(Number(it.id))));
    for (const r of found.values()) records.set(r.id, wellTyped(r));
    let list = items.map((it) => records.get(Number(it.id))).filter((r): r is AnyPost => r !== undefined && r.kind === kind && visible(r));
    const search = p.search;
    // WordPress searches password-protected posts for signed-in users only.
    if (search !== undefined && search !== '') {
      const terms = parseSearch(search);
      list = list.filter((r) => matchesSearch(r, terms) && (!!ctx.principal || !(r.kind === 'event' && r.password)));
    }
    const compare = primary(RECORD_ORDER[p.orderby] ?? indexOrder(p.orderby, p.include, new Map(list.map((r) => [r.id, r]))));
    list.sort((a, b) => compare(a, b) || tie(a.id, b.id));
    return list.map((r) => r.id);
  }
  const byId = new Map(items.map((it) => [Number(it.id), it]));
  const list = [...byId.values()];
  const compare =
    p.orderby === 'date' || p.orderby === 'parent'
      ? // Venues and organizers: the index's own order, publish date then id.
        (a: IndexItem, b: IndexItem) => dir * String(byId.get(a.id)?.gsi2sk).localeCompare(String(byId.get(b.id)?.gsi2sk))
      : primary(indexOrder(p.orderby, p.include, byId));
  list.sort((a, b) => compare(a, b) || tie(Number(a.id), Number(b.id), a, b));
  return list.map((it) => Number(it.id));
}

/** Orders the index items carry: id, slug, author, and the order of the include list. */
function indexOrder(orderby: string, include: number[] | undefined, byId: ReadonlyMap<number, IndexItem>): (a: IndexItem, b: IndexItem) => number {
  const at = (r: IndexItem) => byId.get(r.id) ?? r;
  if (orderby === 'include' && include) return (a, b) => include.indexOf(a.id) - include.indexOf(b.id);
  if (orderby === 'slug') return (a, b) => String(at(a).slug).localeCompare(String(at(b).slug));
  if (orderby === 'author') return (a, b) => Number(at(a).author) - Number(at(b).author);
  return (a, b) => a.id - b.id;
}

export async function readWpPost(ctx: RequestContext<ArgsOf<'wpEvents.get'>>, kind: PostKind): Promise<Reply> {
  const p = ctx.params;
  const found = await getItem(keys.post(ctx.path.id!));
  if (!found || found.kind !== kind) throw invalidId();
  const post = wellTyped(found);
  const editable = await canWrite(ctx, post);
  // WordPress's order: the edit context, then a password given, then whether the caller may read the post.
  if (p.context === 'edit' && !editable) throw refusal(ctx, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this post.');
  const stored = post.kind === 'event' ? (post.password ?? '') : '';
  if (p.password !== undefined && p.password !== '' && !samePassword(p.password, stored)) {
    throw new ApiError(403, 'rest_post_incorrect_password', 'Incorrect post password.');
  }
  const readable = post.status === 'trash' ? editable : await canRead(ctx, post);
  if (!readable) throw refusal(ctx, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
  const unlocked = stored === '' || (p.context === 'edit' && editable) || (p.password !== undefined && p.password !== '');
  const terms = await termsOf([post]);
  const body = presentWpPost(post, {
    context: p.context,
    allow: editable ? ALL_METHODS : ['GET'],
    actions: actionsOf(ctx.principal, kind),
    terms,
    unlocked,
  });
  await embedInto(ctx, [post], [body], terms);
  const reply = recordReply(200, body, post);
  return { ...reply, headers: { ...reply.headers, allow: (editable ? ALL_METHODS : ['GET']).join(', ') } };
}
