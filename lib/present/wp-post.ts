// An event, venue or organizer as WordPress's core posts controller shows it (`wp/v2/tribe_events`,
// `tribe_venue`, `tribe_organizer`): its keys and their order per context, the meta TEC registers
// (every type shows all of TEC's keys, its own filled), and its links.
import { idsInNameOrder } from '#lib/domain/term-order.js';
import { config, type Lang } from '#lib/runtime/config.js';
import type { Method } from '#lib/contract/operations.js';
import type { AnyPost, Card, EventItem, TermItem } from '#lib/store/items.js';
import type { PostKind } from '#lib/store/keys.js';
import { renderContent, renderExcerpt, renderTitle } from '#lib/wp/text.js';
import { wpTrimWords } from '#lib/wp/strip.js';
import { postUrl } from './present.js';
import { wellTyped } from './well-typed.js';
import { wpBase } from './wp-term.js';

/** A record, or an event's card of a venue or organizer (what tec/v1 shows inside an event). */
type Shown = AnyPost | Card;

/** Each kind's post type, which is also its route below `wp/v2`. */
export const WP_POST_TYPE: Record<PostKind, string> = { event: 'tribe_events', venue: 'tribe_venue', organizer: 'tribe_organizer' };

/** A post type's collection URL. */
export const wpPostCollection = (lang: Lang, kind: PostKind) => `${wpBase(lang)}/${WP_POST_TYPE[kind]}`;

/** The `wp:action-*` links WordPress adds in the edit context: what the caller may do with the post. */
export type WpAction = 'publish' | 'unfiltered-html' | 'assign-author' | 'create-tags' | 'assign-tags' | 'create-tribe_events_cat' | 'assign-tribe_events_cat';

export interface WpPostView {
  context: 'view' | 'embed' | 'edit';
  /** The methods the caller may use on the post (the self link's `targetHints`). */
  allow: readonly Method[];
  /** The edit context's action links. */
  actions?: readonly WpAction[];
  /** Whether a password-protected post's content shows (editors, its author, or the right password). */
  unlocked: boolean;
  /** The event's terms, for its `class_list`. */
  terms?: ReadonlyMap<number, TermItem>;
}

/** WordPress's dates: the site's wall time and UTC, `YYYY-MM-DDTHH:MM:SS`. */
const wpDate = (d: string) => d.slice(0, 19).replace(' ', 'T');

/** The REST answer's rendered content keeps the_content's closing newline, which TEC's own routes trim. */
const rendered = (html: string) => (html === '' || html.endsWith('\n') ? html : `${html}\n`);

/** The excerpt WordPress shows: the one written, else the content's first 55 words (wp_trim_excerpt). */
function excerptOf(p: Shown): string {
  if (p.excerpt.trim() !== '') return rendered(renderExcerpt(p.excerpt));
  const content = renderContent(p.description);
  return content === '' ? '' : rendered(renderExcerpt(wpTrimWords(content, 55, ' [&hellip;]')));
}

const EVENT_META_KEYS = [
  '_EventAllDay',
  '_EventTimezone',
  '_EventStartDate',
  '_EventEndDate',
  '_EventStartDateUTC',
  '_EventEndDateUTC',
  '_EventShowMap',
  '_EventShowMapLink',
  '_EventURL',
  '_EventCost',
  '_EventCostDescription',
  '_EventCurrencySymbol',
  '_EventCurrencyCode',
  '_EventCurrencyPosition',
  '_EventDateTimeSeparator',
  '_EventTimeRangeSeparator',
] as const;

/**
 * TEC's registered meta, in the order the live site sends it: every post type shows every key,
 * empty ('' or false or []) unless the post is of the type the key belongs to. A venue keeps its
 * map flags in `_EventShowMap`/`_EventShowMapLink` as well, as TEC saves them.
 */
export function wpMeta(p: Shown): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  for (const key of EVENT_META_KEYS) meta[key] = key === '_EventAllDay' || key === '_EventShowMap' || key === '_EventShowMapLink' ? false : '';
  Object.assign(meta, { _EventOrganizerID: [], _EventVenueID: [], _OrganizerEmail: '', _OrganizerPhone: '', _OrganizerWebsite: '' });
  Object.assign(meta, {
    _VenueAddress: '',
    _VenueCity: '',
    _VenueCountry: '',
    _VenueProvince: '',
    _VenueState: '',
    _VenueZip: '',
    _VenuePhone: '',
    _VenueURL: '',
    _VenueStateProvince: '',
    _VenueLat: '',
    _VenueLng: '',
    _VenueShowMap: false,
    _VenueShowMapLink: false,
  });
  if (p.kind === 'event') {
    const cost = p.cost;
    Object.assign(meta, {
      _EventAllDay: p.allDay,
      _EventTimezone: p.timezone,
      _EventStartDate: p.start,
      _EventEndDate: p.end,
      _EventStartDateUTC: p.utcStart,
      _EventEndDateUTC: p.utcEnd,
      _EventShowMap: p.showMap,
      _EventShowMapLink: p.showMapLink,
      _EventURL: p.website ?? '',
      _EventCost: cost?.values[0] ?? '',
      _EventCurrencySymbol: cost?.symbol ?? '',
      _EventCurrencyCode: cost?.code ?? '',
      _EventCurrencyPosition: cost?.position ?? '',
      _EventOrganizerID: [...p.organizers],
      _EventVenueID: [...p.venues],
      _tribe_events_status: '',
      _tribe_events_status_reason: '',
    });
  } else if (p.kind === 'venue') {
    Object.assign(meta, {
      _EventShowMap: p.showMap,
      _EventShowMapLink: p.showMapLink,
      _VenueAddress: p.address,
      _VenueCity: p.city,
      _VenueCountry: p.country,
      _VenueProvince: p.province,
      _VenueState: p.state,
      _VenueZip: p.zip,
      _VenuePhone: p.phone,
      _VenueURL: p.website ?? '',
      _VenueStateProvince: p.stateprovince,
      _VenueLat: p.geoLat === undefined ? '' : String(p.geoLat),
      _VenueLng: p.geoLng === undefined ? '' : String(p.geoLng),
      _VenueShowMap: p.showMap,
      _VenueShowMapLink: p.showMapLink,
    });
  } else {
    Object.assign(meta, { _OrganizerEmail: p.email, _OrganizerPhone: p.phone, _OrganizerWebsite: p.website ?? '' });
  }
  meta.footnotes = '';
  return meta;
}

/** get_post_class() for an event: its type and status, its tags and categories (TEC adds `cat_<slug>`). */
function classList(e: EventItem, terms: ReadonlyMap<number, TermItem> | undefined): string[] {
  const out = [`post-${e.id}`, 'tribe_events', 'type-tribe_events', `status-${e.status}`];
  if (e.password) out.push('post-password-required');
  if (e.image) out.push('has-post-thumbnail');
  out.push('hentry');
  for (const id of idsInNameOrder(e.tags, terms)) {
    const t = terms?.get(id);
    if (t) out.push(`tag-${t.slug}`);
  }
  for (const id of idsInNameOrder(e.categories, terms)) {
    const t = terms?.get(id);
    if (t) out.push(`tribe_events_cat-${t.slug}`, `cat_${t.slug}`);
  }
  return out;
}

function links(p: Shown, view: WpPostView) {
  const base = wpBase(p.lang);
  const collection = wpPostCollection(p.lang, p.kind);
  const self = `${collection}/${p.id}`;
  const type = WP_POST_TYPE[p.kind];
  return {
    self: [{ href: self, targetHints: { allow: [...view.allow] } }],
    collection: [{ href: collection }],
    about: [{ href: `${base}/types/${type}` }],
    author: [{ embeddable: true, href: `${base}/users/${p.author}` }],
    'version-history': [{ count: 0, href: `${self}/revisions` }],
    'wp:attachment': [{ href: `${base}/media?parent=${p.id}` }],
    ...(p.kind === 'event'
      ? {
          'wp:term': [
            { taxonomy: 'post_tag', embeddable: true, href: `${base}/tags?post=${p.id}` },
            { taxonomy: 'tribe_events_cat', embeddable: true, href: `${base}/tribe_events_cat?post=${p.id}` },
          ],
        }
      : {}),
    ...(view.context === 'edit' ? Object.fromEntries((view.actions ?? []).map((a) => [`wp:action-${a}`, [{ href: self }]])) : {}),
    curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
  };
}

export function presentWpPost(given: Shown, view: WpPostView): Record<string, unknown> {
  const p = wellTyped(given);
  const edit = view.context === 'edit';
  const link = postUrl(p);
  const type = WP_POST_TYPE[p.kind];
  const password = p.kind === 'event' ? (p.password ?? '') : '';
  const locked = password !== '' && !view.unlocked;
  const title = { ...(edit ? { raw: p.title } : {}), rendered: renderTitle(p.title) };
  // A locked event's password and texts stay hidden in the edit context too (a contributor's list
  // shows others' events in it): WordPress would show them raw.
  const excerpt = { ...(edit ? { raw: locked ? '' : p.excerpt } : {}), rendered: locked ? '' : excerptOf(p), protected: password !== '' };
  if (view.context === 'embed') {
    return { id: p.id, date: wpDate(p.date), slug: p.slug, type, link, title, excerpt, author: p.author, featured_media: 0, _links: links(p, view) };
  }
  const body: Record<string, unknown> = {
    id: p.id,
    date: wpDate(p.date),
    date_gmt: wpDate(p.date_utc),
    guid: { rendered: link, ...(edit ? { raw: link } : {}) },
    modified: wpDate(p.modified),
    modified_gmt: wpDate(p.modified_utc),
    ...(edit ? { password: locked ? '' : password } : {}),
    slug: p.slug,
    status: p.status,
    type,
    link,
    title,
    content: {
      ...(edit ? { raw: locked ? '' : p.description } : {}),
      rendered: locked ? '' : rendered(renderContent(p.description)),
      protected: password !== '',
      ...(edit ? { block_version: p.description.includes('<!-- wp:') ? 1 : 0 } : {}),
    },
    excerpt,
    author: p.author,
    featured_media: 0,
    template: '',
    meta: wpMeta(p),
  };
  if (p.kind === 'event') {
    // WordPress lists a post's terms by name (lib/domain/term-order.ts).
    body.tags = idsInNameOrder(p.tags, view.terms);
    body.tribe_events_cat = idsInNameOrder(p.categories, view.terms);
    if (edit) {
      body.permalink_template = `${config().siteUrl}${link.slice(config().siteUrl.length).replace(/[^/]+\/$/, '%pagename%/')}`;
      body.generated_slug = p.slug;
    }
    body.class_list = classList(p, view.terms);
  }
  body._links = links(p, view);
  return body;
}
