// A term as WordPress's core terms controller shows it (`wp/v2/tags`, `wp/v2/tribe_events_cat`):
// its keys and their order per context, and its links (with the methods the caller may use on it,
// as WordPress's `targetHints`).
import { restRoot, type Lang } from '#lib/runtime/config.js';
import type { Method } from '#lib/contract/operations.js';
import type { TermItem } from '#lib/store/items.js';
import type { Taxonomy } from '#lib/store/keys.js';
import { termPageUrl } from './present.js';
import { wellTyped } from './well-typed.js';

/** The route of each taxonomy's terms below `wp/v2`, and WordPress's name of the taxonomy. */
export const WP_TERM_ROUTE: Record<Taxonomy, string> = { category: 'tribe_events_cat', tag: 'tags' };
const WP_TAXONOMY: Record<Taxonomy, string> = { category: 'tribe_events_cat', tag: 'post_tag' };

/** The post types whose lists a term links to: TEC registers its calendar embeds for both taxonomies. */
const POST_TYPES: Record<Taxonomy, string[]> = { category: ['tribe_events', 'tec_calendar_embed'], tag: ['posts', 'tribe_events', 'tec_calendar_embed'] };

/** The root of WordPress's routes in the request's link form, e.g. `https://example.org/en/wp/v2`. */
export const wpBase = (lang: Lang) => `${restRoot(lang)}/wp/v2`;

/** A term collection's URL. */
export const wpTermCollection = (lang: Lang, taxonomy: Taxonomy) => `${wpBase(lang)}/${WP_TERM_ROUTE[taxonomy]}`;

export interface WpTermView {
  context: 'view' | 'embed' | 'edit';
  /** The methods the caller may use on the term (the self link's `targetHints`); none: no `_links` (a delete's `previous`). */
  allow?: readonly Method[];
  /** A category's archive path under its ancestors (termPageUrl). */
  path?: string;
}

/** A term's `_links` as WordPress's terms controller makes them (TEC's single-term answers send them too). */
export function termLinks(t: TermItem, allow: readonly Method[]) {
  const base = wpBase(t.lang);
  const collection = wpTermCollection(t.lang, t.taxonomy);
  const filter = t.taxonomy === 'category' ? 'tribe_events_cat' : 'tags';
  return {
    self: [{ href: `${collection}/${t.id}`, targetHints: { allow: [...allow] } }],
    collection: [{ href: collection }],
    about: [{ href: `${base}/taxonomies/${WP_TAXONOMY[t.taxonomy]}` }],
    ...(t.taxonomy === 'category' && t.parent ? { up: [{ embeddable: true, href: `${collection}/${t.parent}` }] } : {}),
    'wp:post_type': POST_TYPES[t.taxonomy].map((type) => ({ href: `${base}/${type}?${filter}=${t.id}` })),
    curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
  };
}

export function presentWpTerm(given: TermItem, view: WpTermView): Record<string, unknown> {
  const t = wellTyped(given);
  const link = termPageUrl(t, view.path);
  const taxonomy = WP_TAXONOMY[t.taxonomy];
  const body: Record<string, unknown> =
    view.context === 'embed'
      ? { id: t.id, link, name: t.name, slug: t.slug, taxonomy }
      : {
          id: t.id,
          count: t.count,
          description: t.description,
          link,
          name: t.name,
          slug: t.slug,
          taxonomy,
          ...(t.taxonomy === 'category' ? { parent: t.parent } : {}),
          meta: [],
        };
  if (view.allow) body._links = termLinks(t, view.allow);
  return body;
}
