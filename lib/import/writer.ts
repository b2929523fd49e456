// Writes site records into this API's data through its own write paths: every create and update
// is a request to the operation's handler (lib/local/invoke.ts, passed in), as a client's would be, with
// the imported record on the invocation, so that the record keeps its id, slug and modification time
// (lib/contract/imported.ts). A record whose fingerprint is the one stored after its last import
// is not written again; the fingerprint is stored after the record, so that a run stopped between
// the two writes the record again (the same values: an update that changes nothing else).
import { planSeries, prepareOccurrences, seriesPart, writeOccurrences, type ImportedSeries } from './series-import.js';
import { pool } from '#lib/runtime/pool.js';
import { ofKind, type AnyPost } from '#lib/store/items.js';
import { deleteFingerprint, fingerprintLog, storedFingerprints } from '#lib/store/import-log.js';
import { batchGet, getItem, type Found } from '#lib/store/reads.js';
import { termBySlug } from '#lib/store/partitions.js';
import { keys, type Sequence } from '#lib/store/keys.js';
import type { ImportedRecord } from '#lib/contract/imported.js';
import { keepsUrl } from '#lib/contract/url-arg.js';
import { continueAfter } from '#lib/store/ids.js';
import { registerUser } from '#lib/store/users.js';
import { bumpValidator } from '#lib/store/validators.js';
import { importRole, type StoredRole } from '#lib/store/credentials.js';
import { ROLES, type Role } from '#lib/contract/principal.js';
import { TOO_MANY_LINKS } from '#lib/logic/event-room.js';
import type { SiteCurrency } from './tec-meta.js';
import {
  bySlugOnly,
  cleanSlug,
  fingerprint,
  KINDS,
  parentsFirst,
  recordRefusal,
  type RecordKind,
  type SitePost,
  type SiteRecord,
  type SiteTerm,
  type SiteUser,
} from './records.js';

/** The importer's own items: one fingerprint per imported record, and the time of the last run. */

export interface Failure {
  kind: RecordKind;
  /** The id, or the text the source wrote it as when no number holds it exactly. */
  id: number | string;
  reason: string;
}

/**
 * A link an event names that neither the import nor this calendar holds, or (`room`) one past the
 * links one write of an event holds (lib/logic/event-room.ts): the event is written without it.
 */
export interface Unlinked {
  event: number;
  kind: 'venue' | 'organizer' | 'category' | 'tag';
  /** The id, or a term's slug. */
  ref: number | string;
  room?: true;
}

export interface KindTally {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  /** The ids created or updated (or that would be, in a dry run). */
  written: number[];
  /** Imported before, gone from the site; deleted here only with `deleteMissing`. */
  missing: number[];
}

export interface ImportSummary {
  kinds: Record<RecordKind, KindTally>;
  failed: Failure[];
  unlinked: Unlinked[];
  /** Posts the source gives no known author, written as the default author's (its id; 0: the import's own user). */
  authorless: { count: number; author: number };
  /** Events that are Events Calendar Pro series on the site, with their rules, and how each came (./series-import.ts). */
  series: ImportedSeries[];
  /** The ids of the site's events that this import holds (written or unchanged), without their series' occurrences. */
  events: number[];
  /** URLs the site holds that this API refuses, written empty (see withKeptUrls). */
  clearedUrls: { kind: RecordKind; id: number; field: string; value: string }[];
}

export type { ImportedSeries };

/** What a request to this API's handlers answers. */
export interface ApiResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the handlers' JSON, read field by field
  body: any;
}

/**
 * Sends one request to this API's handlers, in-process (lib/local/invoke.ts, which the command
 * passes: production code does not import the local runtime).
 */
export type Send = (
  method: string,
  lang: 'en',
  path: string,
  opts: { body?: unknown; token?: string; query?: Record<string, string | number | boolean>; imported?: ImportedRecord },
) => Promise<ApiResult>;

export interface WriteOptions {
  /** How requests reach the handlers. */
  send: Send;
  /** The editor's bearer token the writes are sent with. */
  token: string;
  dryRun?: boolean;
  concurrency?: number;
  /** Called once per record handled. */
  progress?: (kind: RecordKind | 'series', total: number) => (() => void) | undefined;
  /** The user id a post without a known author is written as; unset: the import's own user. */
  defaultAuthor?: number;
  /**
   * Whether a deployed table's stream consumer writes the occurrences of the series the import
   * makes; otherwise (DynamoDB Local, where none runs during an import) the import writes them.
   */
  seriesByConsumer?: boolean;
  /** How the import's own bulk writes (its fingerprints) are committed: lib/store/batch-writes.ts. */
  commits?: 'batch' | 'transaction';
  /**
   * Told of each event the run holds (written, or unchanged) once its write is done, unless its
   * series writes it further on: the command indexes them for search while the rest are written.
   */
  settled?: (event: number) => void;
  /**
   * Whether nothing else reads the table while the import runs (a DynamoDB Local the command
   * started for itself) and every event is indexed before it ends: the change counter then moves
   * once, when the writes are done, and the writes leave out what serves other readers
   * (ImportedRecord.unobserved).
   */
  unobserved?: boolean;
  /**
   * Whether the site still has a record the import did not list (asked before `deleteMissing`
   * deletes it): a site may leave records out of its lists that it still serves by id.
   */
  stillThere?: (kind: Exclude<RecordKind, 'user'>, id: number) => Promise<boolean>;
}

const CLEARABLE = ['description', 'excerpt', 'image'] as const;

/** A post's URL fields, and whether each is an image's (http or https only). */
const URL_FIELDS = { website: false, image: true } as const;

/**
 * A post whose URL fields this API refuses (a scheme WordPress's esc_url_raw empties, as `file:`,
 * or a character no URL holds), which a site may hold from a plugin or a direct write, with them
 * empty, as WordPress would save them: the record is written whole, and each is reported.
 */
function withKeptUrls(r: SiteRecord, cleared: ImportSummary['clearedUrls']): SiteRecord {
  if (r.kind !== 'event' && r.kind !== 'venue' && r.kind !== 'organizer') return r;
  let fields = r.fields;
  for (const [field, image] of Object.entries(URL_FIELDS)) {
    const value = fields[field];
    if (typeof value !== 'string' || keepsUrl(value, image)) continue;
    fields = { ...fields, [field]: '' };
    cleared.push({ kind: r.kind, id: r.id, field, value });
  }
  return fields === r.fields ? r : { ...r, fields };
}

const PATHS = { venue: '/venues', organizer: '/organizers', event: '/events', category: '/categories', tag: '/tags' } as const;

/** What a post's create or update request sends: its fields, and what the site gave it. */
export function postBody(r: SitePost, creating: boolean, defaultAuthor?: number): Record<string, unknown> {
  const author = r.author || defaultAuthor;
  const body: Record<string, unknown> = { ...r.fields, ...(author ? { author } : {}), date_utc: r.date_utc };
  // The site's currency and zone abbreviation are no fields of a request: they travel in the import scope.
  delete body.currency;
  delete body.timezone_abbr;
  // TEC's routes refuse an empty event description or excerpt and ignore an empty venue or
  // organizer description, as this API does: left out, and cleared through the import scope.
  for (const k of CLEARABLE) if (body[k] === '') delete body[k];
  // A trashed record is made as a draft and then trashed, as on the site; its slug without the mark.
  const trashed = r.status === 'trash';
  if (!trashed || creating) body.status = trashed ? 'draft' : r.status;
  if (r.kind === 'event') {
    body.password = r.password;
    // A draft never saved with a title has no slug on the site; here it takes one from its title.
    // A draft trashed before it had a slug is `__trashed` on the site: it takes one from its title here too.
    const slug = postSlug(r);
    if ((creating || !trashed) && slug) body.slug = slug;
  }
  return body;
}

/**
 * The slug a post is stored with: the site's, without the mark of the trash, cleaned as WordPress
 * cleans a given slug; '' (it then takes one from its title) when nothing usable remains.
 */
export const postSlug = (r: SitePost): string => cleanSlug(r.slug.replace(/__trashed$/, ''));

/** A term's slug as it is stored: '' (it then takes one from its name) when nothing usable remains. */
export const termSlug = (t: SiteTerm): string => cleanSlug(t.slug);

export const termBody = (t: SiteTerm): Record<string, unknown> => ({
  name: t.name,
  ...(termSlug(t) ? { slug: termSlug(t) } : {}),
  ...(t.description ? { description: t.description } : {}),
  ...(t.kind === 'category' ? { parent: t.parent } : {}),
});

/** A refusal as the summary shows it: the code and message, and each refused parameter's own reason. */
const refused = (res: ApiResult) => {
  const params = res.body?.data?.params;
  const why = params && typeof params === 'object' ? Object.entries(params).map(([k, v]) => ` (${k}: ${String(v)})`) : [];
  return `${res.status} ${res.body?.code ?? ''}: ${res.body?.message ?? JSON.stringify(res.body).slice(0, 200)}${why.join('')}`;
};

const SEQUENCE: Record<RecordKind, Sequence> = { user: 'user', category: 'term', tag: 'term', venue: 'post', organizer: 'post', event: 'post' };

const emptyTally = (): KindTally => ({ created: 0, updated: 0, unchanged: 0, deleted: 0, written: [], missing: [] });

/**
 * Writes the records (any order: they are written kind by kind, parents first) and, with
 * `present` (the ids on the site per kind), finds the imported records the site no longer has.
 */
export async function writeRecords(records: SiteRecord[], opts: WriteOptions, present?: Partial<Record<RecordKind, Set<number>>>, deleteMissing = false): Promise<ImportSummary> {
  // Whatever was written, stopped or not, is in the counter before anyone else reads the table.
  const count = () => (opts.unobserved && !opts.dryRun ? bumpValidator() : Promise.resolve());
  let summary: ImportSummary;
  try {
    summary = await writeEach(records, opts, present, deleteMissing);
  } catch (err) {
    // The run's own failure is the one told.
    await count().catch(() => undefined);
    throw err;
  }
  await count();
  return summary;
}

const emptySummary = (opts: WriteOptions): ImportSummary => ({
  kinds: Object.fromEntries(KINDS.map((k) => [k, emptyTally()])) as Record<RecordKind, KindTally>,
  failed: [],
  unlinked: [],
  authorless: { count: 0, author: opts.defaultAuthor ?? 0 },
  series: [],
  events: [],
  clearedUrls: [],
});

async function writeEach(records: SiteRecord[], opts: WriteOptions, present: Partial<Record<RecordKind, Set<number>>> | undefined, deleteMissing: boolean): Promise<ImportSummary> {
  const summary = emptySummary(opts);
  const stored = await storedFingerprints();
  const runAt = Math.floor(Date.now() / 1000);
  const fingerprints = fingerprintLog(opts.commits);
  const byKind = new Map<RecordKind, SiteRecord[]>(KINDS.map((k) => [k, []]));
  // Terms an item names by slug alone: found or made here once the defined terms are written.
  const named: SiteTerm[] = [];
  for (const r of records) {
    if (bySlugOnly(r)) named.push(r as SiteTerm);
    else byKind.get(r.kind)!.push(r);
    if ((r.kind === 'venue' || r.kind === 'organizer' || r.kind === 'event') && !r.author) summary.authorless.count++;
  }
  const plan = planSeries(records);
  summary.series = plan.series;
  const links = new Links(records);
  const highest: Partial<Record<Sequence, number>> = {};
  for (const kind of KINDS) {
    if (kind === 'venue' && named.length) {
      // Their new ids come after every id the import gives terms.
      if (!opts.dryRun && highest.term) await continueAfter('term', highest.term);
      await links.findNamed(named, opts, summary);
    }
    if (kind === 'event' && !opts.dryRun) await prepareOccurrences(records, plan);
    let list = byKind.get(kind)!;
    if (kind === 'category') list = parentsFirst(list as SiteTerm[]);
    const tick = opts.progress?.(kind, list.length);
    const tally = summary.kinds[kind];
    const posts = kind === 'venue' || kind === 'organizer' || kind === 'event' ? await StoredPosts.of(list) : undefined;
    const left = new Remaining(list);
    const one = async (given: SiteRecord) => {
      const why = recordRefusal(given);
      if (why) {
        summary.failed.push({ kind, id: given.idText ?? given.id, reason: `not imported: ${why}` });
        tick?.();
        return;
      }
      const seq = SEQUENCE[kind];
      highest[seq] = Math.max(highest[seq] ?? 0, given.id);
      // The site's post of an occurrence: its series writes it, with its id.
      if (plan.occurrencePosts.has(given.id)) {
        tick?.();
        return;
      }
      try {
        const r = withKeptUrls(given.kind === 'event' ? await links.resolve(given, summary.unlinked) : given, summary.clearedUrls);
        const fp = fingerprint(r);
        if (kind === 'event') summary.events.push(r.id);
        if (stored.get(`${kind}#${r.id}`) === fp) tally.unchanged++;
        else {
          const outcome = await writeOne(r, opts, runAt, summary.unlinked, plan.of.get(r.id), posts);
          tally[outcome]++;
          if (outcome !== 'unchanged') tally.written.push(r.id);
          if (!opts.dryRun) await fingerprints.add(`${kind}#${r.id}`, fp);
        }
        // Told once its last write in the list is done (a record listed twice is written twice).
        if (kind === 'event' && !plan.of.has(r.id) && left.take(r.id)) opts.settled?.(r.id);
      } catch (err) {
        summary.failed.push({ kind, id: given.id, reason: (err as Error).message });
      }
      tick?.();
    };
    // Categories one at a time (a child needs its parent); the rest `concurrency` at once.
    try {
      await pool(list, kind === 'category' || kind === 'user' ? 1 : (opts.concurrency ?? 4), one);
    } finally {
      await fingerprints.flush();
    }
    const ids = present?.[kind];
    if (ids && kind !== 'user') await findMissing(kind, ids, stored, opts, deleteMissing, summary);
  }
  // New ids here come after every id imported: the occurrences' too.
  if (!opts.dryRun) for (const [seq, id] of Object.entries(highest)) await continueAfter(seq as Sequence, id);
  if (!opts.dryRun) for (const f of await writeOccurrences(plan, opts)) summary.failed.push({ kind: 'event', ...f });
  summary.unlinked.sort((a, b) => a.event - b.event || a.kind.localeCompare(b.kind));
  return summary;
}

/** The imported records of `kind` the site no longer has; with `deleteMissing`, deleted here. */
async function findMissing(kind: Exclude<RecordKind, 'user'>, ids: Set<number>, stored: Map<string, string>, opts: WriteOptions, deleteMissing: boolean, summary: ImportSummary) {
  const tally = summary.kinds[kind];
  for (const key of stored.keys()) {
    const [k, idText] = key.split('#');
    const id = Number(idText);
    if (k !== kind || ids.has(id)) continue;
    if (opts.stillThere && (await opts.stillThere(kind, id))) continue;
    tally.missing.push(id);
    if (!deleteMissing || opts.dryRun) continue;
    try {
      await removeOne(kind, id, opts);
      tally.deleted++;
    } catch (err) {
      summary.failed.push({ kind, id, reason: `delete: ${(err as Error).message}` });
    }
  }
}

/**
 * What an event may link to: the records of the import, and those this calendar already holds
 * (an export of events alone names venues, organizers and terms it does not hold). A link to
 * neither is left out of the write and reported.
 */
class Links {
  private readonly inImport = new Set<string>();
  private readonly here = new Map<string, Promise<boolean>>();
  /** A term named by slug alone: its id here. */
  private readonly bySlug = new Map<string, number>();

  constructor(records: SiteRecord[]) {
    for (const r of records) if (r.kind !== 'user' && r.id !== 0 && !recordRefusal(r)) this.inImport.add(`${r.kind}#${r.id}`);
  }

  /** Finds each term named by slug alone here, or makes it with the name the source gives it. */
  async findNamed(terms: SiteTerm[], opts: WriteOptions, summary: ImportSummary): Promise<void> {
    for (const t of terms) {
      // Events name it by the slug it is stored with (the source's, cleaned).
      const key = `${t.kind}#${termSlug(t)}`;
      const tally = summary.kinds[t.kind];
      const slug = termSlug(t) || cleanSlug(t.name);
      try {
        const found = slug ? await termBySlug(t.kind, 'en', slug) : undefined;
        if (found && found.taxonomy === t.kind) {
          this.bySlug.set(key, found.id);
          tally.unchanged++;
          continue;
        }
        if (opts.dryRun) {
          // Would be made: its events would keep the link (0 stands for the id it would get).
          this.bySlug.set(key, 0);
          tally.created++;
          continue;
        }
        const res = await opts.send('POST', 'en', PATHS[t.kind], { body: termBody(t), token: opts.token });
        if (res.status >= 300) throw new Error(refused(res));
        this.bySlug.set(key, Number(res.body.id));
        tally.created++;
        tally.written.push(Number(res.body.id));
      } catch (err) {
        summary.failed.push({ kind: t.kind, id: 0, reason: `${JSON.stringify(t.slug)}: ${(err as Error).message}` });
      }
    }
  }

  /** The event with each link it may keep; the others are reported in `unlinked`. */
  async resolve(e: SitePost, unlinked: Unlinked[]): Promise<SitePost> {
    const f = e.fields;
    const keep = async (kind: Unlinked['kind'], refs: unknown) => {
      const out: number[] = [];
      for (const ref of Array.isArray(refs) ? (refs as (number | string)[]) : []) {
        const id = typeof ref === 'string' ? this.bySlug.get(`${kind}#${cleanSlug(ref)}`) : (await this.holds(kind, ref)) ? ref : undefined;
        if (id === undefined) unlinked.push({ event: e.id, kind, ref });
        else if (!out.includes(id)) out.push(id);
      }
      return out;
    };
    return {
      ...e,
      fields: {
        ...f,
        venue: await keep('venue', f.venue),
        organizer: await keep('organizer', f.organizer),
        categories: await keep('category', f.categories),
        tags: await keep('tag', f.tags),
      },
    };
  }

  private holds(kind: Unlinked['kind'], id: number): Promise<boolean> {
    const key = `${kind}#${id}`;
    if (this.inImport.has(key)) return Promise.resolve(true);
    let known = this.here.get(key);
    if (!known) {
      known = kind === 'venue' || kind === 'organizer' ? getItem(keys.post(id)).then((p) => p?.kind === kind) : getItem(keys.term(id)).then((t) => t?.taxonomy === kind);
      this.here.set(key, known);
    }
    return known;
  }
}

/** How many of a list's records of each id are still to be written: `take` is true for the last. */
class Remaining {
  private readonly counts = new Map<number, number>();
  constructor(list: readonly SiteRecord[]) {
    for (const r of list) this.counts.set(r.id, (this.counts.get(r.id) ?? 0) + 1);
  }
  take(id: number): boolean {
    const n = (this.counts.get(id) ?? 1) - 1;
    this.counts.set(id, n);
    return n <= 0;
  }
}

/**
 * The posts of a kind's records as stored here before any is written, read 100 to a request
 * instead of one each. Each is taken once: a record the list holds twice is read again.
 */
class StoredPosts {
  private constructor(
    private readonly found: Found<AnyPost>,
    private readonly unread: Set<number>,
  ) {}

  static async of(list: readonly SiteRecord[]): Promise<StoredPosts> {
    const ids = new Set(list.filter((r) => r.id > 0).map((r) => r.id));
    return new StoredPosts(
      await batchGet(
        [...ids].map((id) => keys.post(id)),
        true,
      ),
      ids,
    );
  }

  take(id: number): Promise<AnyPost | undefined> {
    if (!this.unread.delete(id)) return getItem(keys.post(id));
    return Promise.resolve(this.found.get(keys.post(id)));
  }
}

/** Creates or updates one record here; what it did. */
async function writeOne(
  r: SiteRecord,
  opts: WriteOptions,
  runAt: number,
  unlinked: Unlinked[],
  series?: ImportedSeries,
  stored?: StoredPosts,
): Promise<'created' | 'updated' | 'unchanged'> {
  if (r.kind === 'user') return writeUser(r, opts, runAt);
  if (r.kind === 'category' || r.kind === 'tag') return writeTerm(r, opts);
  return writePost(r as SitePost, opts, unlinked, series, stored);
}

/**
 * WordPress's roles as this API's: it knows contributor, author and editor (an administrator is an
 * editor here); a subscriber, or a user without a role, may not write.
 */
export const storedRole = (wpRole: string): StoredRole => (wpRole === 'administrator' ? 'editor' : (ROLES as readonly string[]).includes(wpRole) ? (wpRole as Role) : 'none');

async function writeUser(u: SiteUser, opts: WriteOptions, runAt: number): Promise<'created' | 'updated' | 'unchanged'> {
  const registered = await getItem(keys.userBySub(u.login));
  if (opts.dryRun) return registered ? (u.role ? 'updated' : 'unchanged') : 'created';
  const outcome = await registerUser(u.login, u.id);
  // The site's role, as of this run: the ceiling of the user's application passwords here
  // (lib/store/credentials.ts), until a token issued later says otherwise.
  if (u.role !== undefined) await importRole({ sub: u.login, login: u.login, userId: u.id }, storedRole(u.role), runAt);
  return outcome === 'created' ? 'created' : u.role !== undefined ? 'updated' : 'unchanged';
}

async function writeTerm(t: SiteTerm, opts: WriteOptions): Promise<'created' | 'updated'> {
  const here = await getItem(keys.term(t.id));
  if (here && here.taxonomy !== t.kind) throw new Error(`id ${t.id} is a ${here.taxonomy} here`);
  if (opts.dryRun) return here ? 'updated' : 'created';
  const path = here ? `${PATHS[t.kind]}/${t.id}` : PATHS[t.kind];
  const res = await opts.send('POST', 'en', path, {
    body: termBody(t),
    token: opts.token,
    imported: { sequence: 'term', id: t.id, slug: termSlug(t) || undefined, ...(opts.unobserved ? { unobserved: true as const } : {}) },
  });
  if (res.status >= 300) throw new Error(refused(res));
  if (res.body?.id !== t.id) throw new Error(`stored as id ${res.body?.id}`);
  return here ? 'updated' : 'created';
}

/** How many links fit, when `res` refuses an event write for holding more links than fit. */
function linksThatFit(res: ApiResult): number | undefined {
  const details: unknown = res.status === 400 ? res.body?.data?.details : undefined;
  if (!details || typeof details !== 'object') return undefined;
  for (const d of Object.values(details as Record<string, { code?: unknown; data?: { fit?: unknown } }>))
    if (d?.code === TOO_MANY_LINKS && typeof d.data?.fit === 'number') return d.data.fit;
  return undefined;
}

/** The order this API keeps an event's links in when not all fit, with the summary's name of each. */
const LINK_FIELDS = [
  ['venue', 'venue'],
  ['organizer', 'organizer'],
  ['categories', 'category'],
  ['tags', 'tag'],
] as const;

/** The event with its first `fit` links (in the site's order, categories before tags), and the others. */
function withFirstLinks(r: SitePost, fit: number): { event: SitePost; left: Unlinked[] } {
  const fields = { ...r.fields };
  const left: Unlinked[] = [];
  let room = fit;
  for (const [field, kind] of LINK_FIELDS) {
    const list = Array.isArray(fields[field]) ? (fields[field] as (number | string)[]) : [];
    const kept = Math.max(0, Math.min(room, list.length));
    for (const ref of list.slice(kept)) left.push({ event: r.id, kind, ref, room: true });
    if (list.length) fields[field] = list.slice(0, kept);
    room -= list.length;
  }
  return { event: { ...r, fields }, left };
}

/**
 * Creates or updates one venue, organizer or event. An event that links more records than one
 * write holds is written with the links that fit, and the others are reported (never refused whole).
 */
async function writePost(r: SitePost, opts: WriteOptions, unlinked: Unlinked[], series?: ImportedSeries, stored?: StoredPosts): Promise<'created' | 'updated'> {
  const here = await (stored ? stored.take(r.id) : getItem(keys.post(r.id)));
  if (here && here.kind !== r.kind) throw new Error(`id ${r.id} is a ${here.kind} here`);
  if (opts.dryRun) return here ? 'updated' : 'created';
  const { recurrence, scope, rules } = r.kind === 'event' ? seriesPart(ofKind(here, 'event'), series) : {};
  const imported: ImportedRecord = {
    sequence: 'post',
    id: r.id,
    slug: postSlug(r) || undefined,
    modified: { modified: r.modified, modified_utc: r.modified_utc },
    ...(r.utc ? { utc: r.utc } : {}),
    // The texts the site holds empty, which a request cannot clear (see postBody).
    cleared: CLEARABLE.filter((k) => r.fields[k] === ''),
    ...(opts.unobserved ? { unobserved: true as const } : {}),
    ...(r.kind === 'event'
      ? {
          currency: (r.fields.currency as SiteCurrency | undefined) ?? { symbol: '', code: '', position: '' },
          ...(typeof r.fields.timezone_abbr === 'string' ? { timezoneAbbr: r.fields.timezone_abbr } : {}),
        }
      : {}),
  };
  const path = here ? `${PATHS[r.kind]}/${r.id}` : PATHS[r.kind];
  const send = (p: SitePost) =>
    opts.send('POST', 'en', path, {
      body: { ...postBody(p, !here, opts.defaultAuthor), ...(recurrence ? { recurrence } : {}) },
      token: opts.token,
      imported,
      ...(scope ? { query: { scope } } : {}),
    });
  let res = await send(r);
  const fit = r.kind === 'event' ? linksThatFit(res) : undefined;
  if (fit !== undefined) {
    const { event, left } = withFirstLinks(r, fit);
    res = await send(event);
    if (res.status < 300) unlinked.push(...left);
  }
  if (res.status >= 300) throw new Error(refused(res));
  if (res.body?.id !== r.id) throw new Error(`stored as id ${res.body?.id}`);
  if (rules) {
    const given = await opts.send('POST', 'en', path, { body: { recurrence: rules }, token: opts.token, imported, query: { scope: 'all' } });
    if (given.status >= 300) throw new Error(`its new rules: ${refused(given)}`);
  }
  if (r.status === 'trash' && here?.status !== 'trash') {
    const del = await opts.send('DELETE', 'en', `${PATHS[r.kind]}/${r.id}`, { token: opts.token, imported });
    if (del.status >= 300) throw new Error(`trash: ${refused(del)}`);
  }
  return here ? 'updated' : 'created';
}

async function removeOne(kind: Exclude<RecordKind, 'user'>, id: number, opts: WriteOptions): Promise<void> {
  const res = await opts.send('DELETE', 'en', `${PATHS[kind]}/${id}`, { token: opts.token, query: { force: true } });
  if (res.status >= 300 && res.status !== 404 && res.status !== 410) throw new Error(refused(res));
  await deleteFingerprint(`${kind}#${id}`);
}
