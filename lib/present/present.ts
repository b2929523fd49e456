// TEC-shaped presenters (docs/tec-behaviour.md §3): exact keys and key order for events, venues, organizers
// and terms, nested and standalone. `single` adds json_ld, as TEC does on single reads only.
import { inNameOrder } from '#lib/domain/term-order.js';
import { apiBase, config, type Lang } from '#lib/runtime/config.js';
import { presentCost } from '#lib/domain/cost.js';
import { isValidTimezone, offsetAt, timezoneAbbr, utcToWall } from '#lib/domain/time/dates.js';
import type { CardOmitted, EventItem, OrganizerItem, PostItem, TermItem, VenueItem } from '#lib/store/items.js';
import { readableWall, wallDetails, wellTyped } from './well-typed.js';
import { escHtml, escUrl, jsonLdDescription, jsonLdName, renderContent, renderExcerpt, renderTitle, sanitizeTextField } from '#lib/wp/text.js';

/** A venue or organizer as presenters need it: a record or an event's card of it. */
export type VenueShown = Omit<VenueItem, CardOmitted>;
export type OrganizerShown = Omit<OrganizerItem, CardOmitted>;
type PostShown = Omit<PostItem, CardOmitted>;

export interface Linked {
  venues: Map<number, VenueShown>;
  organizers: Map<number, OrganizerShown>;
  terms: Map<number, TermItem>;
}

const PERMALINK_BASE = { event: 'event', venue: 'venue', organizer: 'organizer' } as const;
const TAXONOMY = { category: 'tribe_events_cat', tag: 'post_tag' } as const;
const TERM_COLLECTION = { category: 'categories', tag: 'tags' } as const;

/** Public page URL; the default language has no prefix, as multilingual WordPress sites do. */
function pageUrl(lang: Lang, path: string): string {
  const cfg = config();
  const prefix = lang === cfg.defaultLang ? '' : `/${lang}`;
  return `${cfg.siteUrl}${prefix}/${path}/`;
}

export const postUrl = (p: Pick<PostItem, 'lang' | 'kind' | 'slug'>) => pageUrl(p.lang, `${PERMALINK_BASE[p.kind]}/${p.slug}`);

// A page shows dozens of global ids: the site's part is parsed once per site URL.
let idSite: { siteUrl: string; prefix: string } | undefined;

/** `<site host[+path]>?id=<id>` (docs/tec-behaviour.md §3.3). */
export function globalId(id: number): string {
  const siteUrl = config().siteUrl;
  if (idSite?.siteUrl !== siteUrl) {
    const u = new URL(siteUrl);
    idSite = { siteUrl, prefix: `${u.hostname}${u.pathname.replace(/\/+$/, '')}` };
  }
  return `${idSite.prefix}?id=${id}`;
}

function image(url: string): Record<string, unknown> | false {
  if (!url) return false;
  let path = '';
  try {
    path = new URL(url).pathname;
  } catch {
    // A stored value that is no URL (an old record's) has no extension.
  }
  const ext = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(path)?.[1]?.toLowerCase() ?? '';
  return { url, id: 0, extension: ext };
}

const tz = (e: EventItem) => e.timezone || config().siteTimezone;

/** The object without its empty values, in its key order (a loop: list pages present dozens of cards). */
function dropEmpty(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(o)) {
    const v = o[key];
    if (v !== '' && v !== null && v !== undefined && v !== false && v !== '0' && v !== 0) out[key] = v;
  }
  return out;
}

// --- json_ld -------------------------------------------------------------------------------

// TEC's JSON-LD objects keep empty strings (`"url": ""`); only properties it never sets go.
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

// Text meta fields of venues and organizers, as TEC saves them (sanitize_text_field).
const meta = (value: string | undefined) => sanitizeTextField(value ?? '');
// TEC saves no content for a venue or organizer description of "0" (PHP's empty('0')).
const linkedContent = (value: string) => (value === '0' ? '' : value);

/** tribe_get_region(): the state/province field, else the state for the US, else the province. */
function region(v: VenueShown): string {
  const stateprovince = meta(v.stateprovince);
  if (stateprovince !== '' && stateprovince !== '0') return stateprovince;
  return escHtml(meta(v.country)) === 'United States' ? escHtml(meta(v.state)) : escHtml(meta(v.province));
}

function venueJsonLd(v: VenueShown): Record<string, unknown> {
  return defined({
    '@type': 'Place',
    name: jsonLdName(v.title, v.status),
    description: jsonLdDescription(v.excerpt, linkedContent(v.description)),
    // TEC links a venue page here only with Events Calendar Pro.
    url: '',
    address: {
      '@type': 'PostalAddress',
      ...dropEmpty({
        streetAddress: escHtml(meta(v.address)),
        addressLocality: escHtml(meta(v.city)),
        addressRegion: region(v),
        postalCode: escHtml(meta(v.zip)),
        addressCountry: escHtml(meta(v.country)),
      }),
    },
    geo: v.geoLat && v.geoLng ? { '@type': 'GeoCoordinates', latitude: v.geoLat, longitude: v.geoLng } : undefined,
    telephone: escHtml(meta(v.phone)),
    sameAs: v.website ?? '',
  });
}

function organizerJsonLd(o: OrganizerShown): Record<string, unknown> {
  // TEC passes the address through antispambot(), which encodes a random choice of characters
  // anew on every request; this service shows the escaped address itself.
  const website = escUrl(escHtml(o.website ?? ''));
  return defined({
    '@type': 'Person',
    name: jsonLdName(o.title, o.status),
    description: jsonLdDescription(o.excerpt, linkedContent(o.description)),
    url: website,
    telephone: escHtml(meta(o.phone)),
    email: escHtml(meta(o.email)),
    sameAs: website,
  });
}

/**
 * A stored UTC time as JSON-LD shows it: the wall time in the event's zone and that instant's
 * offset. TEC converts the UTC time it stores back into the zone, so a wall time the zone passes
 * twice (the hour clocks go back) carries the offset of the instant stored, not of its wall time.
 */
function jsonLdDate(utc: string, zone: string): string {
  const minutes = offsetAt(zone, Date.parse(`${utc.replace(' ', 'T')}Z`));
  const abs = Math.abs(minutes);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${utcToWall(utc, zone).replace(' ', 'T')}${minutes < 0 ? '-' : '+'}${hhmm}`;
}

/**
 * The offer's price: TEC's cost without its currency mark, a cost of just "Free" as 0, a text or
 * range as it is written ("Donation", "5 – 10"); no offer without a cost.
 */
function jsonLdPrice(cost: EventItem['cost']): string | undefined {
  const bare = cost ? presentCost({ ...cost, symbol: '' }, { symbol: '' }).cost : '';
  if (bare === '') return undefined;
  return /^\s*free\s*$/i.test(bare) ? '0' : bare;
}

function eventJsonLd(e: EventItem, venue: VenueShown | undefined, organizers: OrganizerShown[]): Record<string, unknown> {
  const zone = tz(e);
  const price = jsonLdPrice(e.cost);
  const url = postUrl(e);
  return defined({
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: jsonLdName(e.title, e.status),
    description: jsonLdDescription(e.excerpt, e.description),
    image: e.image || undefined,
    url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: readableWall(e.utcStart) && isValidTimezone(zone) ? jsonLdDate(e.utcStart, zone) : undefined,
    endDate: readableWall(e.utcEnd) && isValidTimezone(zone) ? jsonLdDate(e.utcEnd, zone) : undefined,
    location: venue ? venueJsonLd(venue) : undefined,
    organizer: organizers[0] ? organizerJsonLd(organizers[0]) : undefined,
    offers:
      price !== undefined
        ? {
            '@type': 'Offer',
            price,
            priceCurrency: e.cost?.code || config().currencyCode,
            url,
            category: 'primary',
            availability: 'inStock',
            // date( ATOM, strtotime( get_the_date() ) ): the publication day at midnight UTC.
            validFrom: `${e.date.slice(0, 10)}T00:00:00+00:00`,
          }
        : undefined,
    performer: 'Organization',
  });
}

// --- posts ---------------------------------------------------------------------------------

// Presenters add to fresh objects with Object.assign rather than after an object spread: on
// Node 20 (V8 11.3) each property written after a spread costs microseconds, dozens per page.

function postHead(p: PostShown) {
  return {
    id: p.id,
    author: String(p.author),
    status: p.status,
    date: p.date,
    date_utc: p.date_utc,
    modified: p.modified,
    modified_utc: p.modified_utc,
    url: postUrl(p),
  };
}

/** A venue's or organizer's fields up to its image; its title is shown as `venue` or `organizer`. */
function linkedHead(p: VenueShown | OrganizerShown, title: 'venue' | 'organizer'): Record<string, unknown> {
  const head: Record<string, unknown> = postHead(p);
  head.author = p.author ? String(p.author) : '';
  head[title] = renderTitle(p.title);
  return Object.assign(head, {
    description: renderContent(linkedContent(p.description)),
    excerpt: renderExcerpt(p.excerpt),
    slug: p.slug,
    image: image(p.image),
  });
}

export function presentVenue(given: VenueShown, single = false): Record<string, unknown> {
  const v = wellTyped(given);
  const body = dropEmpty(
    Object.assign(linkedHead(v, 'venue'), {
      address: meta(v.address),
      city: meta(v.city),
      country: meta(v.country),
      province: meta(v.province),
      state: meta(v.state),
      zip: meta(v.zip),
      phone: meta(v.phone),
      website: v.website ?? '',
      stateprovince: meta(v.stateprovince),
      geo_lat: v.geoLat,
      geo_lng: v.geoLng,
      json_ld: single ? venueJsonLd(v) : undefined,
    }),
  );
  return Object.assign(body, {
    show_map: v.showMap,
    show_map_link: v.showMapLink,
    global_id: globalId(v.id),
    global_id_lineage: [globalId(v.id)],
    lang: v.lang,
  });
}

export function presentOrganizer(given: OrganizerShown, single = false): Record<string, unknown> {
  const o = wellTyped(given);
  const body = dropEmpty(
    Object.assign(linkedHead(o, 'organizer'), {
      phone: meta(o.phone),
      website: o.website ?? '',
      email: meta(o.email),
      json_ld: single ? organizerJsonLd(o) : undefined,
    }),
  );
  return Object.assign(body, {
    global_id: globalId(o.id),
    global_id_lineage: [globalId(o.id)],
    lang: o.lang,
  });
}

function termUrls(t: TermItem) {
  const collection = `${apiBase(t.lang)}/${TERM_COLLECTION[t.taxonomy]}`;
  return {
    self: `${collection}/${t.id}`,
    collection,
    ...(t.parent ? { up: `${collection}/${t.parent}` } : {}),
  };
}

/** A term inside an event: WordPress's raw term object with `id` moved last and `urls` added. */
export function presentNestedTerm(given: TermItem): Record<string, unknown> {
  const t = wellTyped(given);
  return {
    // Stored as WordPress stores it (renderTermName on save): shown as it is.
    name: t.name,
    slug: t.slug,
    term_group: 0,
    term_taxonomy_id: t.id,
    taxonomy: TAXONOMY[t.taxonomy],
    description: t.description,
    parent: t.parent,
    count: t.count,
    filter: 'raw',
    id: t.id,
    urls: termUrls(t),
    lang: t.lang,
  };
}

/**
 * A term's public archive page. `path` is a category's slug under its ancestors' slugs
 * (lib/logic/term-paths.ts), as WordPress links hierarchical terms.
 */
export const termPageUrl = (t: Pick<TermItem, 'lang' | 'taxonomy' | 'slug'>, path = t.slug) =>
  pageUrl(t.lang, t.taxonomy === 'category' ? `events/category/${path}` : `tag/${t.slug}`);

/** A standalone term (`/categories`, `/tags`), as WordPress's terms controller shapes it; `path` as termPageUrl takes it. */
export function presentTerm(given: TermItem, path?: string): Record<string, unknown> {
  const t = wellTyped(given);
  const head = {
    id: t.id,
    count: t.count,
    description: t.description,
    name: t.name,
    slug: t.slug,
    taxonomy: TAXONOMY[t.taxonomy],
  };
  return Object.assign(head, t.taxonomy === 'category' ? { parent: t.parent } : {}, {
    meta: [],
    url: termPageUrl(t, path),
    urls: termUrls(t),
    lang: t.lang,
  });
}

export function presentEvent(given: EventItem, linked: Linked, single = false): Record<string, unknown> {
  const e = wellTyped(given);
  const zone = tz(e);
  const cfg = config();
  const venues = e.venues.map((id) => linked.venues.get(id)).filter((v): v is VenueShown => v !== undefined);
  const organizers = e.organizers.map((id) => linked.organizers.get(id)).filter((o): o is OrganizerShown => o !== undefined);
  // TEC lists an event's terms by name (lib/domain/term-order.ts), whatever order they were given in.
  const terms = (ids: number[]) => inNameOrder(ids.map((id) => linked.terms.get(id)).filter((t): t is TermItem => t !== undefined)).map(presentNestedTerm);
  const { cost, cost_details } = presentCost(e.cost, { symbol: cfg.currencySymbol, position: cfg.currencyPosition });
  const gid = globalId(e.id);
  // The head's `id` lands where it already is: first.
  return Object.assign(
    { id: e.id, global_id: gid, global_id_lineage: [gid] },
    postHead(e),
    {
      rest_url: `${apiBase(e.lang)}/events/${e.id}`,
      title: renderTitle(e.title),
      description: renderContent(e.description),
      excerpt: renderExcerpt(e.excerpt),
      slug: e.slug,
      image: image(e.image),
      all_day: e.allDay,
      start_date: e.start,
      start_date_details: wallDetails(e.start),
      end_date: e.end,
      end_date_details: wallDetails(e.end),
      utc_start_date: e.utcStart,
      utc_start_date_details: wallDetails(e.utcStart),
      utc_end_date: e.utcEnd,
      utc_end_date_details: wallDetails(e.utcEnd),
      timezone: zone,
      timezone_abbr: e.timezoneAbbr ?? (readableWall(e.start) && isValidTimezone(zone) ? timezoneAbbr(zone, e.start) : ''),
      cost,
      cost_details,
      // TEC shows the permalink when the website was never set, and '' when it was cleared; a set
      // website comes through esc_html().
      website: e.website === null || e.website === undefined ? postUrl(e) : escHtml(e.website),
      show_map: e.showMap,
      show_map_link: e.showMapLink,
      hide_from_listings: e.hidden === true,
      sticky: e.sticky,
      featured: e.featured,
      categories: terms(e.categories),
      tags: terms(e.tags),
      // One venue is an object, several a list, none an empty list (docs/tec-behaviour.md §3.1).
      venue: venues.length === 1 ? presentVenue(venues[0]!, single) : venues.map((v) => presentVenue(v, single)),
      organizer: organizers.map((o) => presentOrganizer(o, single)),
      custom_fields: [],
    },
    single ? { json_ld: eventJsonLd(e, venues[0], organizers) } : {},
    { lang: e.lang },
    // A recurring event's rules and its series' first event, after TEC's keys; other events have neither.
    e.seriesId !== undefined ? { recurrence: e.recurrence ?? [], series_id: e.seriesId } : {},
  );
}

// --- password protection -----------------------------------------------------------------------

const REDACTED: Record<string, unknown> = {
  description: '',
  excerpt: '',
  cost: '',
  website: '',
  virtual_url: '',
  virtual_video_source: '',
  email: '',
  phone: '',
  stateprovince: '',
  zip: '',
  province: '',
  country: '',
  city: '',
  address: '',
  image: false,
  all_day: null,
  show_map: null,
  show_map_link: null,
  hide_from_listings: null,
  sticky: null,
  featured: null,
  ticketed: null,
  is_virtual: null,
  cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
  categories: [],
  tags: [],
  venue: [],
  organizer: [],
  custom_fields: [],
  attendance: { total_attendees: null, checked_in: null, not_checked_in: null },
  geo_lat: 0,
  geo_lng: 0,
};

/** TEC's redaction of a password-protected record, at any depth (docs/tec-behaviour.md §3.7). */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k in REDACTED ? structuredClone(REDACTED[k]) : redact(v)]));
}
