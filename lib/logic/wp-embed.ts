// `_embed` on WordPress's post routes (WP_REST_Server::embed_links): each embeddable link of a post
// is replaced, under `_embedded`, by what this API answers for its URL in the `embed` context. An
// event's `wp:term` links (`/wp/v2/tags?post=…`, `/wp/v2/tribe_events_cat?post=…`) are its terms,
// by name, from the terms the list already read; its `author` link names a user route this API
// does not serve, so it embeds that route's answer, rest_no_route, as WordPress embeds an error.
import { noRoute } from '#lib/contract/errors.js';
import type { Method } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';
import { isEditor } from '#lib/auth/permissions.js';
import { inNameOrder } from '#lib/domain/term-order.js';
import { presentWpTerm } from '#lib/present/wp-term.js';
import type { AnyPost, TermItem } from '#lib/store/items.js';
import { parseEmbed } from '#lib/wp/rest-params.js';
import { archivePaths } from './term-paths.js';

const ALL_METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Adds `_embedded` to the bodies of some posts (in their order) when the request asks for `_embed`. */
export async function embedInto(ctx: RequestContext, posts: readonly AnyPost[], bodies: readonly Record<string, unknown>[], terms: ReadonlyMap<number, TermItem>): Promise<void> {
  const embed = parseEmbed(ctx.input._embed);
  if (embed === undefined) return;
  const wanted = (rel: string) => embed === true || embed.includes(rel);
  // The terms' own links carry the methods the caller may use on them (editors manage terms).
  const allow = isEditor(ctx.principal) ? ALL_METHODS : (['GET'] as const);
  const paths = wanted('wp:term') ? await archivePaths([...terms.values()].filter((t) => t.taxonomy === 'category')) : new Map<number, string>();
  const termsOf = (ids: readonly number[]) =>
    inNameOrder(ids.flatMap((id) => (terms.has(id) ? [terms.get(id)!] : []))).map((t) => presentWpTerm(t, { context: 'embed', allow, path: paths.get(t.id) }));
  posts.forEach((post, i) => {
    const body = bodies[i]!;
    if (!body._links) return;
    const embedded: Record<string, unknown[]> = {};
    if (wanted('author')) embedded.author = [noRoute().body()];
    if (post.kind === 'event' && wanted('wp:term')) {
      const lists = [termsOf(post.tags), termsOf(post.categories)];
      // WordPress keeps a relation only when one of its links embedded something.
      if (lists.some((l) => l.length)) embedded['wp:term'] = lists;
    }
    if (Object.keys(embedded).length) body._embedded = embedded;
  });
}
