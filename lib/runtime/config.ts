// Site settings come from the environment (docs/tec-behaviour.md §1.10): there is no WordPress options table.
export const LANGUAGES = ['en', 'lt', 'ru'] as const;
export type Lang = (typeof LANGUAGES)[number];

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export interface Config {
  /** Namespace word of the API paths: `/{lang}/{namespace}/events/v1`. */
  namespace: string;
  /** Public site URL, used for `url`, `rest_url` and `global_id`. No trailing slash. */
  siteUrl: string;
  /** The site's language: what `/wp-json/…` and `?rest_route=…` serve, and the one whose pages have no prefix. */
  defaultLang: Lang;
  /** WordPress's site tagline (blogdescription), shown by the REST index (`/wp-json/`). */
  siteDescription: string;
  /** IANA name or `UTC±N`; the zone of event wall times when an event names none. */
  siteTimezone: string;
  /** The site's name (WordPress's blogname): calendar feeds' name, PRODID and file names, the REST index's `name`. */
  siteName: string;
  /** The most events one calendar feed (`GET /events?ical=1`) holds; the soonest are kept. */
  icalMaxEvents: number;
  /** The most bytes of event records one calendar feed is made from (a function answers at most 6 MB). */
  icalMaxBytes: number;
  postsPerPage: number;
  maxPerPage: number;
  tableName: string;
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: number;
  /** Site currency, shown for costs whose event names none (TEC's defaults: $, prefix). */
  currencySymbol: string;
  currencyPosition: 'prefix' | 'postfix';
  currencyCode: string;
  /** Seconds shared caches may keep an anonymous read, and serve it stale while refreshing. */
  cacheMaxAge: number;
  cacheStaleWhileRevalidate: number;
  /**
   * Seconds a function keeps the categories and tags it read for an anonymous answer (0: none).
   * At most `cacheMaxAge` by default: a term inside such an answer is then no older than the
   * answer itself may be when a shared cache serves it.
   */
  termCacheSeconds: number;
  /** The most occurrences one recurring event's series may have (more is a 400). */
  seriesMaxOccurrences: number;
  /** How many months ahead of today rules without COUNT or UNTIL are followed. */
  seriesHorizonMonths: number;
  /** Occurrences of a series one stream consumer call writes. */
  seriesChunk: number;
  /** Days the change log keeps its entries (DynamoDB's TTL), and how long a sync cursor stays valid. */
  changeLogDays: number;
  /**
   * Milliseconds a change-log entry waits before `GET /changes` hands it out: entries are written
   * by concurrent consumers, so one stamped a moment earlier may land a moment later; a cursor
   * never passes a time that may still gain entries.
   */
  changesSettleMs: number;
  /**
   * Whether webhooks may be sent over plain HTTP to this machine's loopback addresses (127.0.0.1,
   * ::1, localhost): set by the local runtime only (WEBHOOK_LOCAL_TARGETS=1), so that developers
   * and tests can receive them. Everywhere else a webhook's URL is https and public.
   */
  webhookLocalTargets: boolean;
}

function int(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer of at least ${min}, got "${raw}"`);
  return n;
}

function lang(name: string, fallback: Lang): Lang {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!isLang(raw)) throw new Error(`${name} must be one of ${LANGUAGES.join(', ')}, got "${raw}"`);
  return raw;
}

export function loadConfig(): Config {
  return {
    namespace: process.env.API_NAMESPACE || 'tribe',
    siteUrl: (process.env.SITE_URL || 'http://127.0.0.1:3000').replace(/\/+$/, ''),
    defaultLang: lang('DEFAULT_LANGUAGE', 'en'),
    siteDescription: process.env.SITE_DESCRIPTION ?? '',
    siteTimezone: process.env.SITE_TIMEZONE || 'UTC',
    siteName: process.env.SITE_NAME ?? 'Event Calendar',
    icalMaxEvents: int('ICAL_MAX_EVENTS', 1000),
    seriesMaxOccurrences: int('SERIES_MAX_OCCURRENCES', 5000),
    seriesHorizonMonths: int('SERIES_HORIZON_MONTHS', 60),
    seriesChunk: int('SERIES_CHUNK', 50),
    icalMaxBytes: int('ICAL_MAX_BYTES', 4 * 1024 * 1024),
    postsPerPage: int('POSTS_PER_PAGE', 9),
    maxPerPage: int('MAX_PER_PAGE', 50),
    tableName: process.env.TABLE_NAME || 'event-calendar',
    maxBodyBytes: int('MAX_BODY_BYTES', 256 * 1024),
    currencySymbol: process.env.CURRENCY_SYMBOL ?? '$',
    currencyPosition: process.env.CURRENCY_POSITION === 'postfix' ? 'postfix' : 'prefix',
    currencyCode: process.env.CURRENCY_CODE || 'USD',
    cacheMaxAge: int('CACHE_MAX_AGE', 5, 0),
    cacheStaleWhileRevalidate: int('CACHE_STALE_WHILE_REVALIDATE', 10, 0),
    termCacheSeconds: int('TERM_CACHE_SECONDS', int('CACHE_MAX_AGE', 5, 0), 0),
    changeLogDays: int('CHANGE_LOG_DAYS', 30),
    changesSettleMs: int('CHANGES_SETTLE_MS', 3000, 0),
    webhookLocalTargets: process.env.WEBHOOK_LOCAL_TARGETS === '1',
  };
}

let cached: Config | undefined;
/** The configuration, read once per process (Lambda containers are reused). */
export function config(): Config {
  return (cached ??= loadConfig());
}
/** For tests and the local runtime, which change the environment after import. */
export function resetConfig(): void {
  cached = undefined;
}

/** WordPress's REST URL prefix: `/wp-json/…` serves the site's default language, as WordPress serves its API. */
export const REST_PREFIX = 'wp-json';

/**
 * The form of the URL a request used, which the links in its answer keep: `/<lang>/…`, WordPress's
 * `/wp-json/…`, or WordPress's `?rest_route=…` (a site without pretty permalinks).
 */
export type LinkForm = 'lang' | 'wp-json' | 'rest_route';
let linkFormOf: () => LinkForm = () => 'lang';
/**
 * Where the request's link form comes from (lib/runtime/link-form.ts, which the pipeline loads). Not
 * imported here: this module is loaded first everywhere (test setups, scripts), and the request
 * scopes decide when first loaded whether the process is handed one request at a time.
 */
export function linkFormSource(get: () => LinkForm): void {
  linkFormOf = get;
}

/**
 * The REST root as this request writes links, no trailing slash: `<site>/<lang>`, `<site>/wp-json`,
 * or `<site>/index.php?rest_route=` (WordPress's own form for sites without pretty permalinks).
 * Every route path (`/tribe/events/v1/…`, `/wp/v2/…`, `/` for the index) is appended to it as it is.
 */
export function restRoot(lang: Lang, cfg: Config = config()): string {
  const form = linkFormOf();
  if (form === 'wp-json') return `${cfg.siteUrl}/${REST_PREFIX}`;
  if (form === 'rest_route') return `${cfg.siteUrl}/index.php?rest_route=`;
  return `${cfg.siteUrl}/${lang}`;
}

/** `<site>/<lang>/<ns>/events/v1`: the API base of one language, without a trailing slash, in the request's link form. */
export function apiBase(lang: Lang, cfg: Config = config()): string {
  return `${restRoot(lang, cfg)}/${cfg.namespace}/events/v1`;
}

/** A URL with more query parameters, as WordPress's add_query_arg joins them (`?`, or `&` after a query). */
export function withQuery(url: string, query: string): string {
  if (query === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}
