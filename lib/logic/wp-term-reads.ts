// Reading WordPress's core term routes (`wp/v2/tags`, `wp/v2/tribe_events_cat`), over the same
// terms as TEC's `/tags` and `/categories` (lists.ts, term-reads.ts): what WordPress's terms
// controller answers differently, its shapes, refusals (each checked where WordPress checks it),
// headers and paging. Apart from the writes (wp-terms.ts), so that read bundles carry none.
import { ApiError } from '#lib/contract/errors.js';
import { json, recordReply, type Reply } from '#lib/contract/reply.js';
import type { ArgsOf, Method } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';
import { canRead, isEditor } from '#lib/auth/permissions.js';
import { presentWpTerm, wpTermCollection } from '#lib/present/wp-term.js';
import { getItem } from '#lib/store/reads.js';
import { countedTerm } from '#lib/store/counted-reads.js';
import { keys } from '#lib/store/keys.js';
import type { TermItem } from '#lib/store/items.js';
import { queryTerms } from './lists.js';
import { taxonomyOf } from './term-reads.js';
import { archivePath, archivePaths } from './term-paths.js';

/** WordPress's refusals: 401 for anonymous callers, 403 for signed-in ones. */
const REFUSALS = {
  create: ['rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.'],
  update: ['rest_cannot_update', 'Sorry, you are not allowed to edit this term.'],
  delete: ['rest_cannot_delete', 'Sorry, you are not allowed to delete this term.'],
  editList: ['rest_forbidden_context', 'Sorry, you are not allowed to edit terms in this taxonomy.'],
  editOne: ['rest_forbidden_context', 'Sorry, you are not allowed to edit this term.'],
  postTerms: ['rest_forbidden_context', 'Sorry, you are not allowed to view terms for this post.'],
} as const;

export const refuse = (ctx: RequestContext, action: keyof typeof REFUSALS) => {
  const [code, message] = REFUSALS[action];
  return new ApiError(ctx.principal ? 403 : 401, code, message);
};

export const termInvalid = () => new ApiError(404, 'rest_term_invalid', 'Term does not exist.');

/** Managing terms is WordPress's `manage_categories` for both taxonomies: editors. */
export const ALL_METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const allowed = (ctx: RequestContext): readonly Method[] => (isEditor(ctx.principal) ? ALL_METHODS : ['GET']);

/** WordPress's Allow header: the methods of the route the caller may use (a collection has GET and POST). */
export const allowHeader = (methods: readonly Method[], collection: boolean) => ({
  allow: methods.filter((m) => !collection || m === 'GET' || m === 'POST').join(', '),
});

/** The term the path names, of the route's taxonomy, as `read` reads it (as stored by default); WordPress's 404 otherwise. */
export async function findWpTerm(ctx: RequestContext, read: (id: number) => Promise<TermItem | undefined> = (id) => getItem(keys.term(id))): Promise<TermItem> {
  const term = await read(ctx.path.id!);
  if (!term || term.taxonomy !== taxonomyOf(ctx)) throw termInvalid();
  return term;
}

/** PHP's urlencode: spaces as `+`, everything but letters, digits and `-_.` escaped. */
const urlencode = (text: string) =>
  encodeURIComponent(text)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

/**
 * WordPress's paging links: the collection URL with the request's query as WordPress sanitized it
 * (`true` as 1, `false` as a bare name, lists as `name[0]=…`), `page` replaced (a page past the
 * end links back to the last one).
 */
export function pageLinks(ctx: RequestContext, collection: string, page: number, pages: number): string | undefined {
  const params = ctx.params as Record<string, unknown>;
  const pairs: [string, string | undefined][] = [];
  // As PHP's http_build_query: nested lists and maps as `name[key]`.
  const add = (name: string, value: unknown): void => {
    if (value !== null && typeof value === 'object') for (const [key, v] of Object.entries(value)) add(`${name}[${key}]`, v);
    else if (typeof value === 'boolean') pairs.push([name, value ? '1' : undefined]);
    else if (value !== undefined && value !== null) pairs.push([name, String(value)]);
  };
  for (const [name, raw] of Object.entries(ctx.input)) add(name, name in params ? params[name] : raw);
  if (!pairs.some(([name]) => name === 'page')) pairs.push(['page', undefined]);
  const at = (n: number) => {
    const query = pairs.map(([name, v]) => (name === 'page' ? `page=${n}` : v === undefined ? urlencode(name) : `${urlencode(name)}=${urlencode(v)}`)).join('&');
    return `${collection}?${query}`;
  };
  const out: string[] = [];
  if (page > 1) out.push(`<${at(Math.min(page - 1, pages))}>; rel="prev"`);
  if (pages > page) out.push(`<${at(page + 1)}>; rel="next"`);
  return out.length ? out.join(', ') : undefined;
}

/** Categories and tags take the same arguments, but for a category's parent. */
type WpList = ArgsOf<'wpCategories.list'>;

export async function listWpTerms(ctx: RequestContext<WpList>): Promise<Reply> {
  const p = ctx.params;
  const taxonomy = taxonomyOf(ctx);
  if (p.context === 'edit' && !isEditor(ctx.principal)) throw refuse(ctx, 'editList');
  let of: number[] | undefined;
  if (p.post !== undefined) {
    const post = await getItem(keys.post(p.post));
    if (!post) throw new ApiError(400, 'rest_post_invalid_id', 'Invalid post ID.');
    // Venues and organizers carry neither taxonomy; unpublished events only for those who may read them.
    if (post.kind !== 'event' || !(await canRead(ctx, post))) throw refuse(ctx, 'postTerms');
    of = taxonomy === 'category' ? post.categories : post.tags;
  }
  // An offset (tags only) other than 0 wins over the page, and names the page the links count from.
  // As WordPress: the query takes its absolute value (absint), the links the value as given (so
  // offset=-5 with per_page=2 links its next page as page=0).
  const given = (p as { offset?: number }).offset;
  const offset = given ? Math.abs(given) : (p.page - 1) * p.per_page;
  const page = Math.ceil((given || offset) / p.per_page + 1);
  const { terms, total } = await queryTerms(ctx.lang, {
    taxonomy,
    offset,
    perPage: p.per_page,
    hideEmpty: p.hide_empty,
    order: p.order,
    orderby: p.orderby === 'term_group' ? 'id' : p.orderby,
    search: p.search === '' ? undefined : p.search,
    include: p.include,
    exclude: p.exclude,
    parent: p.parent,
    of,
    slugs: p.slug,
    strict: false,
  });
  const pages = Math.ceil(total / p.per_page);
  const paths = await archivePaths(terms);
  const allow = allowed(ctx);
  const link = pageLinks(ctx, wpTermCollection(ctx.lang, taxonomy), page, pages);
  return json(
    200,
    terms.map((t) => presentWpTerm(t, { context: p.context, allow, path: paths.get(t.id) })),
    { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(pages), ...(link ? { Link: link } : {}), ...allowHeader(allow, true) },
  );
}

export async function readWpTerm(ctx: RequestContext<ArgsOf<'wpCategories.get'>>): Promise<Reply> {
  const term = await findWpTerm(ctx, countedTerm);
  if (ctx.params.context === 'edit' && !isEditor(ctx.principal)) throw refuse(ctx, 'editOne');
  const allow = allowed(ctx);
  return { ...recordReply(200, presentWpTerm(term, { context: ctx.params.context, allow, path: await archivePath(term) }), term), headers: allowHeader(allow, false) };
}
