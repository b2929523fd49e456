// Reads a live WordPress + TEC site through its REST APIs: WordPress's wp/v2 with context=edit
// (the stored text, status, password, author, dates and TEC's _Event* meta) and TEC's
// tribe/events/v1 for what wp/v2 does not show (featured, sticky, hidden from listings).
import { pool } from '#lib/runtime/pool.js';
import { waitAll } from '#lib/runtime/settle.js';
import { gmtOr, refRefusal, refsRefusal, truthy, wpDate, type SitePost, type SiteTerm, type SiteUser } from './records.js';
import { eventMeta, jsonMeta, organizerFields, venueFields, withRows, type Meta } from './tec-meta.js';
import { getFollowing, RedirectRefused } from './redirects.js';

export interface LiveOptions {
  url: string;
  user: string;
  appPassword: string;
  concurrency?: number;
  /** Only records modified after this time (ISO 8601); terms and users are always read whole. */
  since?: string;
  /** Retries of a 429 or 5xx, with doubling waits from `retryMs`. */
  retries?: number;
  retryMs?: number;
  fetch?: typeof fetch;
}

export class SiteError extends Error {}

const STATUSES = 'publish,future,draft,pending,private,trash';
const TYPES = { venue: 'tribe_venue', organizer: 'tribe_organizer', event: 'tribe_events' } as const;

// biome-ignore lint/suspicious/noExplicitAny: the site's JSON, read field by field with fallbacks
type Loose = any;
type Json = Record<string, Loose>;

export class LiveSite {
  readonly base: string;
  private readonly auth: string;
  private answered = false;
  /** The site's time zone (known after `check`), as SITE_TIMEZONE names it. */
  timezone = 'UTC';
  private readonly opts: Required<Pick<LiveOptions, 'concurrency' | 'retries' | 'retryMs'>> & LiveOptions;

  constructor(opts: LiveOptions) {
    this.opts = { concurrency: 4, retries: 5, retryMs: 500, ...opts };
    this.base = opts.url.replace(/\/+$/, '');
    this.auth = `Basic ${Buffer.from(`${opts.user}:${opts.appPassword.replace(/\s+/g, '')}`).toString('base64')}`;
  }

  /** One GET of the REST API, with retries on 429 and 5xx; the parsed body and the total header. */
  async get(route: string, query: Record<string, string | number> = {}): Promise<{ body: Loose; total: number; status: number }> {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
    const url = `${this.base}/wp-json${route}${qs.size ? `?${qs}` : ''}`;
    const doFetch = this.opts.fetch ?? fetch;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await getFollowing(url, { accept: 'application/json' }, { authorization: this.auth }, doFetch);
      } catch (err) {
        if (err instanceof RedirectRefused) throw new SiteError(err.message);
        // A site that never answered is not retried: a wrong URL stops the run at once.
        if (attempt >= this.opts.retries || !this.answered) throw new SiteError(`${this.base} does not answer (${causeOf(err)}): is the URL right?`);
        await sleep(this.opts.retryMs * 2 ** attempt);
        continue;
      }
      if ((res.status === 429 || res.status >= 500) && attempt < this.opts.retries) {
        const after = Number(res.headers.get('retry-after'));
        await sleep(after > 0 ? after * 1000 : this.opts.retryMs * 2 ** attempt);
        continue;
      }
      this.answered = true;
      const text = await res.text();
      let body: Loose;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        throw new SiteError(`${url} answered ${res.status} with something other than JSON: is ${this.base} a WordPress site?`);
      }
      return { body, total: Number(res.headers.get('x-wp-total') ?? 0), status: res.status };
    }
  }

  /** Checks the URL, TEC, the credentials and the right to read with context=edit. */
  async check(): Promise<void> {
    const root = await this.get('/');
    // WordPress refuses every REST request, its index too, when the credentials are wrong.
    if (root.status === 401) throw refusedLogin(this.opts.user, root.body);
    if (root.status === 404 || !root.body || typeof root.body !== 'object' || !Array.isArray(root.body.namespaces))
      throw new SiteError(`${this.base}/wp-json/ is not a WordPress REST API (HTTP ${root.status}): is the URL right?`);
    if (!root.body.namespaces.includes('tribe/events/v1')) throw new SiteError(`${this.base} does not run The Events Calendar (no tribe/events/v1 in its REST API).`);
    this.timezone = siteTimezone(root.body);
    const me = await this.get('/wp/v2/users/me', { context: 'edit' });
    if (me.status === 401) throw refusedLogin(this.opts.user, me.body);
    if (me.status >= 400) throw new SiteError(`users/me answered ${me.status} ${me.body?.code ?? ''}: ${me.body?.message ?? ''}`);
    const caps = me.body?.capabilities;
    if (caps && typeof caps === 'object' && !caps.edit_posts)
      throw new SiteError(
        `${this.opts.user} may not edit posts on ${this.base} (roles: ${(me.body.roles ?? []).join(', ') || 'none'}): the import needs an editor or administrator.`,
      );
    const probe = await this.get('/wp/v2/tribe_events', { context: 'edit', per_page: 1 });
    if (probe.status === 401 || probe.status === 403)
      throw new SiteError(`${this.opts.user} may not read events with context=edit (${probe.body?.code}): the import needs a user who can edit posts (editor or administrator).`);
  }

  /** Every item of a wp/v2 collection, `per_page=100`, pages read `concurrency` at a time. */
  all(route: string, query: Record<string, string | number> = {}): Promise<Json[]> {
    return this.paged(route, { context: 'edit', orderby: 'id', order: 'asc', ...query });
  }

  /** Every item of a WordPress collection, 100 a page; `[]` for a route the site lacks, with `absentIsEmpty`. */
  private async paged(route: string, query: Record<string, string | number>, absentIsEmpty = false): Promise<Json[]> {
    const q = { per_page: 100, ...query };
    const first = await this.get(route, { ...q, page: 1 });
    if (absentIsEmpty && first.status === 404) return [];
    if (first.status >= 400) throw new SiteError(`GET ${route} answered ${first.status} ${first.body?.code ?? ''}: ${first.body?.message ?? ''}`);
    const pages = Math.ceil(first.total / 100);
    const rest = await pool(
      Array.from({ length: Math.max(0, pages - 1) }, (_, i) => i + 2),
      this.opts.concurrency,
      async (page) => {
        const r = await this.get(route, { ...q, page });
        if (r.status >= 400) throw new SiteError(`GET ${route} page ${page} answered ${r.status} ${r.body?.code ?? ''}`);
        return r.body as Json[];
      },
    );
    return [...(first.body as Json[]), ...rest.flat()];
  }

  async users(): Promise<SiteUser[]> {
    const users = await this.all('/wp/v2/users');
    return users.map((u) => mapUser(u));
  }

  async terms(): Promise<SiteTerm[]> {
    const [cats, tags] = await waitAll([this.all('/wp/v2/tribe_events_cat'), this.all('/wp/v2/tags')]);
    return [...cats.map((t) => mapTerm(t, 'category')), ...tags.map((t) => mapTerm(t, 'tag'))];
  }

  /** The venues, organizers or events (with their image URLs and what TEC's own answer tells). */
  async posts(kind: 'venue' | 'organizer' | 'event'): Promise<SitePost[]> {
    const query: Record<string, string> = { status: STATUSES };
    if (this.opts.since) query.modified_after = modifiedAfter(this.opts.since);
    const raw = await this.all(`/wp/v2/${TYPES[kind]}`, query);
    if (kind === 'event') raw.push(...(await this.pastEvents(raw)));
    const media = await this.imageUrls(raw.map((p) => Number(p.featured_media)).filter((n) => n > 0));
    const told =
      kind === 'organizer'
        ? new Map<number, Json>()
        : await this.tecAnswers(
            kind,
            raw.map((p) => ({ id: Number(p.id), password: String(p.password ?? '') })),
          );
    return raw.map((p) => mapPost(kind, p, media.get(Number(p.featured_media)) ?? '', told.get(Number(p.id))));
  }

  /** Every id of a post type on the site (for --delete-missing after a partial read). */
  async ids(kind: 'venue' | 'organizer' | 'event'): Promise<number[]> {
    const listed = (await this.all(`/wp/v2/${TYPES[kind]}`, { status: STATUSES, _fields: 'id' })).map((p) => Number(p.id));
    return kind === 'event' ? [...new Set([...listed, ...(await this.tecEvents()).map((e) => e.id)])] : listed;
  }

  /** Whether the site still serves a record by id (it may leave it out of its lists). */
  async has(kind: 'venue' | 'organizer' | 'event', id: number): Promise<boolean> {
    const r = await this.get(`/wp/v2/${TYPES[kind]}/${id}`, { context: 'edit', _fields: 'id' });
    if (r.status === 200) return true;
    if (r.status === 404 || r.status === 410) return false;
    throw new SiteError(`GET /wp/v2/${TYPES[kind]}/${id} answered ${r.status} ${r.body?.code ?? ''}: ${r.body?.message ?? ''}`);
  }

  /**
   * Every event of every status and date in TEC's own list, with its modification time. TEC's
   * wp/v2 collection leaves out events that have ended (with `include=` too), though it serves
   * each by id; TEC's list, over all dates, holds them, but not those hidden from listings:
   * WordPress's search of published posts of every type does (`searched`). An event known only
   * from there carries no modification time (zeros, as TEC shows a draft's): it is read by id.
   */
  private async tecEvents(): Promise<{ id: number; modified_utc: string }[]> {
    const [listed, searched] = await waitAll([(this.listed ??= this.tecList()), this.searched()]);
    const known = listed.map((e) => ({ id: Number(e.id), modified_utc: wpDate(e.modified_utc) }));
    const ids = new Set(known.map((e) => e.id));
    return [...known, ...searched.filter((id) => !ids.has(id)).map((id) => ({ id, modified_utc: '0000-00-00 00:00:00' }))];
  }

  /** The published events WordPress's own search lists (`/wp/v2/search`, every post type; TEC empties a search of its type alone), read once per run. */
  private found: Promise<number[]> | undefined;

  private searched(): Promise<number[]> {
    // A site without the route (WordPress before 5.0) lists none this way.
    this.found ??= this.paged('/wp/v2/search', { type: 'post', _fields: 'id,subtype' }, true).then((found) =>
      found.filter((p) => p.subtype === TYPES.event).map((p) => Number(p.id)),
    );
    return this.found;
  }

  /** TEC's list answers (`tecEvents`), read once per run. */
  private listed: Promise<Json[]> | undefined;

  private async tecList(): Promise<Json[]> {
    const q = { start_date: '1000-01-01 00:00:00', end_date: '9999-12-31 23:59:59', status: STATUSES, per_page: 50 };
    const first = await this.get('/tribe/events/v1/events', { ...q, page: 1 });
    if (first.status === 404 && first.body?.code === 'rest_no_route') return [];
    // TEC answers 404 for a page past the last, and for a list with no event.
    if (first.status >= 400) return [];
    const pages = Number(first.body?.total_pages ?? 1) || 1;
    const rest = await pool(
      Array.from({ length: Math.max(0, pages - 1) }, (_, i) => i + 2),
      this.opts.concurrency,
      async (page) => {
        const r = await this.get('/tribe/events/v1/events', { ...q, page });
        if (r.status >= 400) throw new SiteError(`GET /tribe/events/v1/events page ${page} answered ${r.status} ${r.body?.code ?? ''}`);
        return (r.body?.events ?? []) as Json[];
      },
    );
    return [...((first.body?.events ?? []) as Json[]), ...rest.flat()];
  }

  /** The events TEC lists that wp/v2's collection did not (those that have ended), read by id. */
  private async pastEvents(listed: Json[]): Promise<Json[]> {
    const seen = new Set(listed.map((p) => Number(p.id)));
    const since = this.opts.since ? wpDate(modifiedAfter(this.opts.since)) : undefined;
    // TEC shows a draft's modified_utc as zeros: such an event is read, and judged by wp/v2's date.
    const missing = (await this.tecEvents()).filter((e) => !seen.has(e.id) && (!since || e.modified_utc.startsWith('0000') || e.modified_utc > since));
    const read = await pool(missing, this.opts.concurrency, async ({ id }) => {
      const r = await this.get(`/wp/v2/tribe_events/${id}`, { context: 'edit' });
      if (r.status === 404) return undefined;
      if (r.status >= 400) throw new SiteError(`GET /wp/v2/tribe_events/${id} answered ${r.status} ${r.body?.code ?? ''}: ${r.body?.message ?? ''}`);
      return r.body as Json;
    });
    return read.filter((p): p is Json => p !== undefined && (!since || gmtOr(p.modified_gmt, wpDate(p.modified)) > since));
  }

  private async imageUrls(ids: number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    const unique = [...new Set(ids)];
    const chunks = Array.from({ length: Math.ceil(unique.length / 100) }, (_, i) => unique.slice(i * 100, i * 100 + 100));
    for (const list of await pool(chunks, this.opts.concurrency, (c) => this.all('/wp/v2/media', { include: c.join(','), _fields: 'id,source_url' })))
      for (const m of list) out.set(Number(m.id), String(m.source_url ?? ''));
    return out;
  }

  /**
   * TEC's own answer for each event or venue (one read each), which tells what wp/v2 cannot: rows
   * it fills with defaults when never written, rows it does not show, an event's sticky flag.
   */
  private async tecAnswers(kind: 'venue' | 'event', posts: { id: number; password: string }[]): Promise<Map<number, Json>> {
    const out = new Map<number, Json>();
    await pool(posts, this.opts.concurrency, async ({ id, password }) => {
      // TEC refuses a password-protected post even to its admin (403) unless the password is given.
      const r = await this.get(`/tribe/events/v1/${kind}s/${id}`, password ? { password } : {});
      if (r.status === 200 && r.body && typeof r.body === 'object') out.set(id, r.body);
    });
    // TEC refuses a trashed event by id ("no longer available") but shows it in its list with
    // `status=trash`: its map flags and zone abbreviation come from there.
    const unanswered = new Set(posts.filter((p) => !out.has(p.id)).map((p) => p.id));
    if (kind === 'event' && unanswered.size) for (const e of await (this.listed ??= this.tecList())) if (unanswered.has(Number(e.id))) out.set(Number(e.id), e);
    return out;
  }
}

/**
 * The zone of a site's REST index as SITE_TIMEZONE names it: `timezone_string` (a zone name), or
 * for a site set to a manual offset (`timezone_string` empty) WordPress's name of it, `UTC+5.5`.
 */
export function siteTimezone(index: { timezone_string?: unknown; gmt_offset?: unknown }): string {
  const name = typeof index.timezone_string === 'string' ? index.timezone_string.trim() : '';
  if (name) return name;
  const offset = Number(index.gmt_offset ?? 0) || 0;
  return `UTC${offset < 0 ? '-' : '+'}${Math.abs(offset)}`;
}

const refusedLogin = (user: string, body: Loose) => new SiteError(`The site refused the login ${user} with that application password (401 ${body?.code ?? ''}).`);

/** A failed fetch's reason: undici hides it in `cause` (ECONNREFUSED, ENOTFOUND). */
const causeOf = (err: unknown): string => {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
};

/**
 * `modified_after` as WordPress applies it: the stored modification time, in whole seconds, later
 * than the given time cut to its second. A post modified in the same second as `since` (the
 * previous run's start) would be missed: the bound is the second before, whole.
 */
export const modifiedAfter = (since: string): string => new Date(Math.floor(Date.parse(since) / 1000) * 1000 - 1000).toISOString().replace('.000Z', 'Z');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const raw = (v: Loose): string => (v && typeof v === 'object' ? String(v.raw ?? v.rendered ?? '') : String(v ?? ''));

/** WordPress's roles, highest first, as this API names them (it knows contributor, author and editor). */
const ROLE_ORDER = ['administrator', 'editor', 'author', 'contributor', 'subscriber'];

export function mapUser(u: Json): SiteUser {
  const roles: string[] = Array.isArray(u.roles) ? u.roles : [];
  const role = ROLE_ORDER.find((r) => roles.includes(r));
  return { kind: 'user', ...liveId(u.id), login: String(u.username ?? u.slug), name: String(u.name ?? ''), email: String(u.email ?? ''), ...(role ? { role } : {}) };
}

export function mapTerm(t: Json, kind: 'category' | 'tag'): SiteTerm {
  const refused = kind === 'category' ? refRefusal('parent', t.parent) : undefined;
  const parent = kind === 'category' && !refused ? Number(t.parent ?? 0) : 0;
  // A site's term has an id: 0 is refused, not found by its slug as an export's term without one is.
  const id = liveId(t.id);
  return {
    kind,
    ...id,
    ...(id.id === 0 ? { idText: '0' } : {}),
    name: String(t.name),
    slug: String(t.slug),
    description: String(t.description ?? ''),
    parent,
    ...(refused ? { refused } : {}),
  };
}

/**
 * The rows of a post's meta that wp/v2 cannot tell, from TEC's answer for it. wp/v2 fills every key
 * it registers (a map flag never written shows as false, where TEC shows true; an _EventURL never
 * written as '', where TEC shows the event's link) and leaves out featured, hidden and the zone's
 * abbreviation. Without TEC's answer (it refuses a trashed event), an event's '' website is read
 * as never written, as TEC writes none unless one is given.
 */
function tecRows(kind: SitePost['kind'], site: Meta, tec: Json | undefined): Record<string, string | undefined> {
  const yes = (v: unknown) => (truthy(v) ? '1' : '');
  if (kind === 'venue') return tec ? { _VenueShowMap: yes(tec.show_map), _VenueShowMapLink: yes(tec.show_map_link) } : {};
  if (kind !== 'event') return {};
  // A website written equal to the event's own link is kept: it names the site it came from.
  const website = site.one('_EventURL');
  const url = { _EventURL: !website && (!tec || tec.website === tec.url) ? undefined : website };
  if (!tec) return url;
  return {
    ...url,
    _EventShowMap: yes(tec.show_map),
    _EventShowMapLink: yes(tec.show_map_link),
    _tribe_featured: yes(tec.featured),
    _EventHideFromUpcoming: truthy(tec.hide_from_listings) ? 'yes' : '',
    _EventTimezoneAbbr: String(tec.timezone_abbr ?? ''),
  };
}

/** A wp/v2 post (context=edit) of a TEC type as a site record; `tec` is TEC's own answer for it. */
export function mapPost(kind: SitePost['kind'], p: Json, image: string, tec?: Json): SitePost {
  const site = jsonMeta(p.meta);
  const m = withRows(site, tecRows(kind, site, tec));
  const date = wpDate(p.date);
  const modified = wpDate(p.modified);
  const authorRefused = refRefusal('author', p.author);
  const base = {
    kind,
    ...liveId(p.id),
    ...(authorRefused ? { refused: authorRefused } : {}),
    slug: String(p.slug ?? ''),
    status: String(p.status),
    author: authorRefused ? 0 : Number(p.author ?? 0),
    date,
    date_utc: gmtOr(p.date_gmt, date),
    modified,
    modified_utc: gmtOr(p.modified_gmt, modified),
    password: String(p.password ?? ''),
  };
  const text = { description: raw(p.content), image };
  if (kind === 'venue') return { ...base, fields: { venue: raw(p.title), ...text, ...venueFields(m) } };
  if (kind === 'organizer') return { ...base, fields: { organizer: raw(p.title), ...text, ...organizerFields(m) } };
  // wp/v2 shows no menu order for events: TEC's sticky stands for it.
  const { fields, utc, refused, series } = eventMeta(m, truthy(tec?.sticky) ? -1 : 0);
  const why = base.refused ?? refused ?? refsRefusal('category', asList(p.tribe_events_cat)) ?? refsRefusal('tag', asList(p.tags));
  // wp/v2 does not show the zone's abbreviation: without TEC's answer, it is computed here.
  if (!tec) delete fields.timezone_abbr;
  return {
    ...base,
    ...(utc ? { utc } : {}),
    ...(why ? { refused: why } : {}),
    ...(series ? { series } : {}),
    fields: {
      title: raw(p.title),
      ...text,
      excerpt: raw(p.excerpt),
      ...fields,
      categories: termIds(p.tribe_events_cat),
      tags: termIds(p.tags),
    },
  };
}

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const termIds = (v: unknown): number[] =>
  asList(v)
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);

/**
 * A record's id from the site's JSON: a number, or (from a site whose JSON writes it so) a string;
 * its text beside it when the number differs from that text. The writer refuses a record whose id
 * is none this API can hold (lib/import/records.ts).
 */
function liveId(v: unknown): { id: number; idText?: string } {
  const id = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : Number.NaN;
  const text = typeof v === 'string' ? v.trim() : (JSON.stringify(v) ?? '');
  return String(id) === text ? { id } : { id, idText: text };
}
