// GET /events (reference §4.1) over the `list` index. Each filter value has its own list
// partition per (language, status), ordered by UTC start: the whole list, `featured#1|0`, and one
// per venue, organizer, category and tag (the link items). A page reads only as many index items
// as it shows; totals come from per-month count buckets (lib/logic/event-writes.ts) plus
// corrections that read at most the events of the window's edge days.
import { apiBase, config } from '#lib/runtime/config.js';
import { addMonths, endOfDay, instantToWall, parseDate, startOfDay, wallToUtc } from '#lib/domain/time/dates.js';
import { invalidParam, invalidParams, tec } from '#lib/contract/errors.js';
import type { Reply } from '#lib/contract/reply.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';

type EventListRequest = RequestContext<ArgsOf<'events.list'>>;
type DateParam = 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after';
import { presentEvent, redact } from '#lib/present/present.js';
import { unlocked } from '#lib/auth/permissions.js';
import { batchGet, keyOf, queryAll, type Key } from '#lib/store/base.js';
import { bucketOf, keys, listKeys } from '#lib/store/keys.js';
import { readStats, type LangStats } from '#lib/store/stats.js';
import type { AnyPost, EventItem, TermItem, VenueItem } from '#lib/store/items.js';
import { bucketsBound } from '#lib/store/durations.js';
import { searchWords, eventWords } from '#lib/domain/search-words.js';
import { loadLinked } from './common.js';
import { keepFor, keptTermId, termsFor } from './term-cache.js';
import { envelope, nonEmpty, ownFilter, pageKeys, paging, queryInput, statuses, total, withFilters, type Source } from './lists.js';
import { waitAll, withSideWork, type SideWork } from '#lib/runtime/settle.js';

const queryInputOf = (s: Source) => queryInput(s, false);

const HIGH = '\uffff';
/** A bucket's day counter attribute (`dDD`). */
const DAY = /^d\d\d$/;

/** TEC's default window: from the start of yesterday (site time) to 24 months ahead. */
export function defaultWindow(now: Date, zone = config().siteTimezone) {
  const yesterdayUtc = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1, 23, 59));
  return { start: startOfDay(instantToWall(yesterdayUtc, zone)), end: endOfDay(addMonths(instantToWall(now, 'UTC'), 24)) };
}

interface Window {
  /** Sort-key bounds on the start (inclusive strings of the `list` index). */
  from: string;
  to: string;
  /** End conditions, as UTC walls. */
  endAtMost?: string;
  endBefore?: string;
  endAfter?: string;
  /** What the window echoes in rest_url. */
  echo: [string, string][];
}

/** The start and end conditions of a request, in UTC (reference §4.1.2, §4.1.3). */
function windowOf(ctx: EventListRequest): Window | undefined {
  const p = ctx.params;
  if (p.include !== undefined) return undefined; // `include` ignores dates (DESIGN §2.7)
  const zone = config().siteTimezone;
  const strict = p.strict_dates === true;
  const at = (name: DateParam) => {
    const v = p[name];
    return v === undefined ? undefined : parseDate(v, zone, ctx.now)!;
  };
  const ranged = (['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const).some((n) => p[n] !== undefined);
  const fallback = ranged ? undefined : defaultWindow(ctx.now, zone);
  const given = { start: at('start_date'), end: at('end_date') };
  const start = given.start !== undefined ? (strict ? given.start : startOfDay(given.start)) : fallback?.start;
  const end = given.end !== undefined ? (strict ? given.end : endOfDay(given.end)) : fallback?.end;
  // starts_* and ends_* move to the end of their day unless strict (reference §4.1.3).
  const edge = (name: DateParam) => {
    const v = at(name);
    return v === undefined ? undefined : strict ? v : endOfDay(v);
  };
  const startsBefore = edge('starts_before');
  const startsAfter = edge('starts_after');
  const endsBefore = edge('ends_before');
  const endsAfter = edge('ends_after');
  const utc = (w: string | undefined) => (w === undefined ? undefined : wallToUtc(w, zone));

  let from = '';
  let to = HIGH;
  const lower = (bound: string) => (from = bound > from ? bound : from);
  const upper = (bound: string) => (to = bound < to ? bound : to);
  if (start !== undefined) lower(utc(start)!);
  if (startsAfter !== undefined) lower(`${utc(startsAfter)}#${HIGH}`); // start > X
  if (startsBefore !== undefined) upper(utc(startsBefore)!); // start < X: `X` sorts before `X#id`
  if (end !== undefined) upper(`${utc(end)}#${HIGH}`); // start <= end <= E
  if (endsBefore !== undefined) upper(utc(endsBefore)!); // start <= end < X

  const echo: [string, string][] = [];
  if (start !== undefined) echo.push(['start_date', start]);
  if (end !== undefined) echo.push(['end_date', end]);
  return {
    from,
    to,
    endAtMost: utc(end),
    endBefore: utc(endsBefore),
    endAfter: utc(endsAfter),
    echo: [
      ...echo,
      ...([['starts_before', startsBefore], ['starts_after', startsAfter], ['ends_before', endsBefore], ['ends_after', endsAfter]] as const)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, v!] as [string, string]),
    ],
  };
}

/**
 * A filter's values to check: the keys to read, and what the items read must show (it throws
 * TEC's 400, or gives the ids to filter by). The keys of every check are read in one batch.
 */
interface Check<T> {
  keys: Key[];
  /** The ids to filter by, known before any read, or null when a slug must be looked up first. */
  ahead?: number[] | null;
  verify: (found: ReadonlyMap<string, unknown>) => T;
}

const NO_CHECK: Check<undefined> = { keys: [], verify: () => undefined };

/** Term filter values (ids or slugs of the request language) as ids; unknown ones are a 400. */
function termCheck(ctx: EventListRequest, name: 'categories' | 'tags'): Check<number[] | undefined> {
  const values = ctx.params[name];
  // An empty filter (`categories=`) is no filter, as in TEC.
  if (!values?.length) return NO_CHECK;
  const taxonomy = name === 'categories' ? 'category' : 'tag';
  const keyFor = (v: number | string) => (typeof v === 'number' ? keys.term(v) : keys.slugGuard(taxonomy, ctx.lang, v.toLowerCase()));
  // An answer for anyone may take ids and slugs from the kept terms (lib/logic/term-cache.ts).
  const kept = termsFor(ctx.shared, values.filter((v): v is number => typeof v === 'number'));
  const ids = values.map((v) => (typeof v === 'number' ? v : ctx.shared ? keptTermId(taxonomy, ctx.lang, v.toLowerCase()) : undefined));
  return {
    keys: values.filter((v, i) => (typeof v === 'number' ? !kept.has(v) : ids[i] === undefined)).map(keyFor),
    ahead: ids.every((id) => id !== undefined) ? (ids as number[]) : null,
    verify: (found) =>
      values.map((v, i) => {
        if (typeof v === 'string' && ids[i] !== undefined) return ids[i]!;
        const hit = (typeof v === 'number' ? kept.get(v) : undefined) ?? (found.get(keyOf(keyFor(v))) as TermItem | { id: number } | undefined);
        if (!hit || (typeof v === 'number' && (hit as TermItem).taxonomy !== taxonomy)) {
          throw invalidParam(name, `${name} contains "${v}", which is not an existing ${taxonomy} id or slug.`);
        }
        return hit.id;
      }),
  };
}

/** Venue and organizer filter ids must name records of that kind. */
function postCheck(ctx: EventListRequest, name: 'venue' | 'organizer'): Check<number[] | undefined> {
  const ids = ctx.params[name];
  if (!ids?.length) return NO_CHECK;
  return {
    keys: ids.map(keys.post),
    ahead: ids,
    verify: (found) => {
      for (const id of ids) {
        if ((found.get(keyOf(keys.post(id))) as AnyPost | undefined)?.kind !== name) throw invalidParam(name, `${name} contains ${id}, which is not an existing ${name} id.`);
      }
      return ids;
    },
  };
}

function parentCheck(ctx: EventListRequest): Check<undefined> {
  const id = ctx.params.post_parent;
  if (id === undefined) return NO_CHECK;
  return {
    keys: [keys.post(id)],
    verify: (found) => {
      if ((found.get(keyOf(keys.post(id))) as AnyPost | undefined)?.kind !== 'event') throw invalidParam('post_parent', 'post_parent is not an existing event id.');
      return undefined;
    },
  };
}

const EARTH_KM = 6371;
function distanceKm(a: [number, number], b: [number, number]): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b[0] - a[0]);
  const dLng = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.sqrt(h));
}

/** Venues of the request language with coordinates (and within the radius, when given). */
async function geoVenues(ctx: EventListRequest): Promise<number[] | undefined> {
  const p = ctx.params;
  const lat = p.geoloc_lat;
  const lng = p.geoloc_lng;
  if ((lat === undefined) !== (lng === undefined)) {
    const missing = lat === undefined ? 'geoloc_lat' : 'geoloc_lng';
    throw invalidParams({ [missing]: `${missing} must be given together with ${lat === undefined ? 'geoloc_lng' : 'geoloc_lat'}.` });
  }
  if (p.geoloc !== true && lat === undefined) return undefined;
  const radius = p.geoloc_radius;
  const listedVenues = await queryAll<{ pk: string; sk: string }>({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p',
    ExpressionAttributeValues: { ':p': listKeys.partition('venue', ctx.lang, 'publish') },
  });
  const venues = await batchGet<VenueItem>(listedVenues.map((v) => ({ pk: v.pk, sk: v.sk })));
  return [...venues.values()]
    .filter((v) => v.geoLat !== undefined && v.geoLng !== undefined)
    .filter((v) => lat === undefined || distanceKm([lat, lng!], [v.geoLat!, v.geoLng!]) <= radius)
    .map((v) => v.id);
}

interface Filters {
  /** A word of the search index (lib/domain/search-words.ts). */
  word?: string;
  venue?: number[];
  organizer?: number[];
  categories?: number[];
  tags?: number[];
  featured?: boolean;
  parent?: number;
}

const FIELD: Record<'venue' | 'organizer' | 'categories' | 'tags', [string, string]> = {
  venue: ['venues', 'venue'],
  organizer: ['organizers', 'organizer'],
  categories: ['categories', 'category'],
  tags: ['tags', 'tag'],
};

/**
 * The index partitions to read and the filter on them. The first filter given drives (one
 * partition per value and status); the others become filter expressions on the index items.
 */
interface EventSource extends Source {
  /** No filter but the window's end conditions: the count buckets give its total. */
  counted: boolean;
}

function sources(ctx: EventListRequest, statusList: string[], f: Filters, w: Window | undefined, ownBy?: number): { sources: EventSource[]; multi: boolean } {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions: string[] = [];
  let driver: string[] = [''];
  let driven = false;
  // A searched word drives: its partition holds only the events that have the word.
  if (f.word !== undefined) {
    driver = [`word#${f.word}`];
    driven = true;
  }
  for (const name of ['venue', 'organizer', 'categories', 'tags'] as const) {
    const ids = f[name];
    if (!ids) continue;
    const [attr, dim] = FIELD[name];
    if (!driven) {
      driver = ids.map((id) => `${dim}#${id}`);
      driven = true;
      continue;
    }
    names[`#${attr}`] = attr;
    conditions.push(`(${ids.map((id, i) => ((values[`:${attr}${i}`] = id), `contains(#${attr}, :${attr}${i})`)).join(' OR ')})`);
  }
  if (f.featured !== undefined) {
    if (!driven) {
      driver = [`featured#${f.featured ? 1 : 0}`];
      driven = true;
    } else {
      names['#featured'] = 'featured';
      values[':featured'] = f.featured;
      conditions.push('#featured = :featured');
    }
  }
  if (f.parent !== undefined) {
    names['#parent'] = 'parent';
    values[':parent'] = f.parent;
    conditions.push('#parent = :parent');
  }
  if (w?.endAtMost) conditions.push('#e <= :endAtMost'), (values[':endAtMost'] = w.endAtMost);
  if (w?.endBefore) conditions.push('#e < :endBefore'), (values[':endBefore'] = w.endBefore);
  if (w?.endAfter) conditions.push('#e > :endAfter'), (values[':endAfter'] = w.endAfter);
  if (conditions.some((c) => c.includes('#e'))) names['#e'] = 'utcEnd';
  const onlyEnds = conditions.every((c) => c.includes('#e'));
  const list: EventSource[] = [];
  for (const status of statusList)
    for (const dim of driver) {
      const own = ownFilter(status, ownBy);
      const base: Source = {
        partition: listKeys.partition('event', ctx.lang, status, dim || undefined),
        from: w?.from ?? '',
        to: w?.to ?? HIGH,
        ...(conditions.length ? { filter: conditions.join(' AND '), names, values } : {}),
      };
      list.push({ ...withFilters(base, own), counted: onlyEnds && !own });
    }
  return { sources: list, multi: driver.length > 1 };
}

// --- totals --------------------------------------------------------------------------------

async function indexCount(partition: string, from: string, to: string, filter?: { expr: string; values: Record<string, unknown> }): Promise<number> {
  if (from > to) return 0;
  return total([{ partition, from, to, ...(filter ? { filter: filter.expr, names: { '#e': 'utcEnd' }, values: filter.values } : {}) }]);
}

function shiftUtc(wall: string, seconds: number): string {
  const d = new Date(`${wall.replace(' ', 'T')}Z`);
  d.setUTCSeconds(d.getUTCSeconds() + seconds);
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The events of one partition in the window, without reading them: the month buckets' day
 * counters cover whole UTC days; the index is read only for the window's partial first and last
 * days and for events that start inside the window but end outside it (those start within the
 * longest event duration before the end bound, which the buckets themselves bound), and only
 * where the buckets count events on those days: the corrections wait for the buckets. Window
 * bounds are never equal to a real sort key (`wall` or `wall#\uffff`), so inclusive BETWEEN
 * ranges count strictly below or above them. `legacy` gives the language's longest duration when
 * a bucket carries none.
 */
async function bucketTotal(partition: string, w: Window, legacy: () => Promise<number>): Promise<number> {
  const from = w.from || '0000-01-01 00:00:00';
  const to = w.to === HIGH ? '9999-12-31 23:59:59' : w.to;
  if (from > to) return 0;
  const first = bucketOf(partition, from);
  const last = bucketOf(partition, to);
  const [fromDay, toDay] = [from.slice(0, 10), to.slice(0, 10)];
  const buckets = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
    ExpressionAttributeValues: { ':pk': first.key.pk, ':a': first.key.sk, ':b': last.key.sk },
  });
  // A day holds a counter, or (in the search index's buckets) the set of its events' ids.
  const dayCount = (v: unknown) => (v instanceof Set ? v.size : Number(v));
  // Every day's count, also to tell which days hold events (and which buckets count any).
  const days = new Map<string, number>();
  const counting = new Set<Record<string, unknown>>();
  let n = 0;
  for (const b of buckets) {
    const whole = b.sk !== first.key.sk && b.sk !== last.key.sk;
    for (const [k, v] of Object.entries(b)) {
      if (!DAY.test(k)) continue;
      const day = `${b.sk}-${k.slice(1)}`;
      const count = dayCount(v);
      days.set(day, count);
      if (count > 0) counting.add(b);
      if ((whole && b.n === undefined) || (!whole && day >= fromDay && day <= toDay)) n += count;
    }
    if (whole && b.n !== undefined) n += Number(b.n);
  }
  const bound = bucketsBound(buckets, (b) => counting.has(b));
  const startsBetween = (lo: string, hi: string) => {
    const [a, z] = [lo.slice(0, 10), hi.slice(0, 10)];
    for (const [day, count] of days) if (count > 0 && day >= a && day <= z) return true;
    return false;
  };
  const [partial, ends] = await waitAll([
    partialDays(partition, w, from, to, fromDay, toDay, startsBetween),
    endCorrections(partition, w, from, to, bound === undefined ? legacy : async () => bound, startsBetween),
  ]);
  return ends === undefined ? 0 : n - partial - ends;
}

/** The events of the buckets' partial first and last days that are outside the window. */
async function partialDays(partition: string, w: Window, from: string, to: string, fromDay: string, toDay: string, startsBetween: (lo: string, hi: string) => boolean): Promise<number> {
  const partial: Promise<number>[] = [];
  // A range whose bounds are equal holds no key (keys are `wall#id`), and a day the buckets show
  // empty holds none either: no request for them.
  const dayStart = `${fromDay} 00:00:00`;
  const dayEnd = `${toDay} 23:59:59#${HIGH}`;
  if (w.from && from !== dayStart && startsBetween(dayStart, dayStart)) partial.push(indexCount(partition, dayStart, from));
  if (w.to !== HIGH && to !== dayEnd && startsBetween(dayEnd, dayEnd)) partial.push(indexCount(partition, to, dayEnd));
  return (await waitAll(partial)).reduce((a, b) => a + b, 0);
}

/**
 * What the day counters count that the window's end conditions leave out: the events that end
 * outside it. Undefined when the end bounds leave nothing at all. `startsBetween` says whether
 * the buckets count events starting in a range: a range they show empty is not read.
 */
async function endCorrections(partition: string, w: Window, from: string, to: string, maxDuration: () => Promise<number>, startsBetween: (lo: string, hi: string) => boolean): Promise<number | undefined> {
  // The events subtracted for each end bound must not overlap, or one is subtracted twice: of
  // two upper bounds only the tighter one counts, and bounds that leave no end time leave nothing.
  let { endAtMost, endBefore } = w;
  if (endAtMost && endBefore) {
    if (endBefore <= endAtMost) endAtMost = undefined;
    else endBefore = undefined;
  }
  if (w.endAfter && ((endAtMost && w.endAfter >= endAtMost) || (endBefore && w.endAfter >= endBefore))) return undefined;
  const ends: Promise<number>[] = [];
  // The longest duration is read only for an end bound that needs it (it may be a request).
  let longest: Promise<number> | undefined;
  const since = async (bound: string) => {
    const lo = shiftUtc(bound, -(await (longest ??= maxDuration())));
    return lo > from ? lo : from;
  };
  const over = (bound: string, expr: string) =>
    since(bound).then((lo) => (startsBetween(lo, to) ? indexCount(partition, lo, to, { expr, values: { ':v': bound } }) : 0));
  if (endAtMost) ends.push(over(endAtMost, '#e > :v'));
  if (endBefore) ends.push(over(endBefore, '#e >= :v'));
  if (w.endAfter) {
    const upTo = `${w.endAfter}#${HIGH}`;
    const hi = to < upTo ? to : upTo;
    ends.push(startsBetween(from, hi) ? indexCount(partition, from, hi, { expr: '#e <= :v', values: { ':v': w.endAfter } }) : Promise.resolve(0));
  }
  return (await waitAll(ends)).reduce((a, b) => a + b, 0);
}

/**
 * A list's total. One value per filter: each status partition's count comes from its buckets
 * when nothing but the window filters it, else from a count query. Several values of one filter
 * (OR) may list an event twice, so their ids are read and de-duplicated.
 */
async function listTotal(src: EventSource[], multi: boolean, w: Window | undefined, stats: () => Promise<LangStats>): Promise<number> {
  if (!multi) {
    const seconds = () => stats().then((s) => s.seconds ?? 0);
    const counts = await waitAll(src.map((s) => (s.counted && w ? bucketTotal(s.partition, w, seconds) : total([s]))));
    return counts.reduce((a, b) => a + b, 0);
  }
  const ids = new Set<number>();
  const read = await waitAll(src.filter(nonEmpty).map((s) => queryAll<{ id: number }>({ ...queryInputOf(s) })));
  for (const items of read) for (const item of items) ids.add(item.id);
  return ids.size;
}

// --- include and search: in memory ------------------------------------------------------------

function matchesFilters(e: EventItem, f: Filters): boolean {
  const any = (have: number[], want?: number[]) => !want || want.some((id) => have.includes(id));
  return (
    any(e.venues, f.venue) &&
    any(e.organizers, f.organizer) &&
    any(e.categories, f.categories) &&
    any(e.tags, f.tags) &&
    (f.featured === undefined || e.featured === f.featured) &&
    (f.parent === undefined || e.parent === f.parent)
  );
}

/** Every searched word is a word of the event (lib/domain/search-words.ts). */
function matchesSearch(e: EventItem, search: string | undefined): boolean {
  if (search === undefined) return true;
  const have = new Set(eventWords(e));
  return searchWords(search).every((word) => have.has(word));
}

/** `include`: a short list of ids, read whole and filtered in memory. */
async function listIncluded(ctx: EventListRequest, statusList: string[], ownBy: number | undefined, f: Filters, offset: number, perPage: number) {
  const found = await batchGet<EventItem>([...new Set(ctx.params.include)].map(keys.post));
  const events = [...found.values()]
    .filter((e) => e.kind === 'event' && e.lang === ctx.lang && statusList.includes(e.status) && !e.hidden)
    .filter((e) => ownBy === undefined || e.status === 'publish' || e.author === ownBy)
    .filter((e) => matchesFilters(e, f) && matchesSearch(e, ctx.params.search))
    .sort((a, b) => a.utcStart.localeCompare(b.utcStart) || a.id - b.id);
  return { events: events.slice(offset, offset + perPage), total: events.length };
}

/**
 * A search for several words: the events in every word's partition (with the other filters), read
 * as keys and intersected; then only the page's records. The cost follows the words' matches.
 */
async function listAllWords(ctx: EventListRequest, words: string[], statusList: string[], ownBy: number | undefined, f: Filters, w: Window | undefined, offset: number, perPage: number) {
  let common: Map<number, string> | undefined;
  for (const word of words) {
    const { sources: src } = sources(ctx, statusList, { ...f, word }, w, ownBy);
    const found = new Map<number, string>();
    const read = await waitAll(src.filter(nonEmpty).map((s) => queryAll<{ id: number; gsi2sk: string }>(queryInputOf(s))));
    for (const items of read) for (const i of items) found.set(i.id, i.gsi2sk);
    common = common ? new Map([...common].filter(([id]) => found.has(id))) : found;
    if (common.size === 0) break;
  }
  const ordered = [...(common ?? [])].sort((a, b) => a[1].localeCompare(b[1])).map(([id]) => id);
  const page = ordered.slice(offset, offset + perPage);
  const found = await batchGet<EventItem>(page.map(keys.post));
  const events = page.map((id) => found.get(keyOf(keys.post(id)))).filter((e): e is EventItem => e !== undefined);
  return { events, total: ordered.length };
}

/** A list attribute of an index item (a list, or a set as DynamoDB may return it). */
const asList = (v: unknown): number[] => (Array.isArray(v) ? v : v instanceof Set ? [...v] : []) as number[];

/** A page of events; it answers once the reads started beside the page's own have settled. */
export const listEvents = (ctx: EventListRequest): Promise<Reply> => withSideWork((side) => listEventsWith(ctx, side));

async function listEventsWith(ctx: EventListRequest, side: SideWork): Promise<Reply> {
  const p = ctx.params;
  // Without Event Tickets, TEC refuses only a request for ticketed events; ticketed=false is ignored.
  if (p.ticketed === true) {
    const message = 'Event Tickets plugin is not activated.';
    throw invalidParams({ ticketed: message }, { ticketed: { code: 'event-tickets-not-active', message, data: { status: 400 } } });
  }
  const { page, perPage, offset } = paging(ctx);
  // The STATS item is read only when needed: for totals over buckets written before they carried
  // durations, and for how to read the terms of lists other than a page of the index.
  let statsRead: Promise<LangStats> | undefined;
  const stats = () => (statsRead ??= side.start(readStats(ctx.lang)));
  const { list: statusList, shown, ownBy } = await statuses(ctx);
  const w = windowOf(ctx);
  // The filters are checked in TEC's order (the first failure answers), from one batch read.
  const checks = [parentCheck(ctx), postCheck(ctx, 'venue'), postCheck(ctx, 'organizer'), termCheck(ctx, 'categories'), termCheck(ctx, 'tags')] as const;
  const checkKeys = checks.flatMap((c) => c.keys);
  const verify = (found: ReadonlyMap<string, unknown>) => {
    const [, venue, organizer, categories, tags] = checks.map((c) => c.verify(found));
    return { venue, organizer, categories, tags };
  };
  const geo = side.start(geoVenues(ctx));
  // Filters by id (or by the slug of a kept term) name their list partitions already: their
  // checks join the page's batch read (the answer waits for them). Other slugs and places near a
  // point are looked up first.
  const given = checks.slice(1).map((c) => c.ahead);
  const ahead = p.geoloc !== true && p.geoloc_lat === undefined && p.geoloc_lng === undefined && given.every((v) => v !== null);
  let checked: ReturnType<typeof verify> | undefined;
  if (!ahead) {
    checked = verify(await batchGet(checkKeys));
    await geo;
  }
  const [venue, organizer, categories, tags] = checked ? [checked.venue, checked.organizer, checked.categories, checked.tags] : (given as (number[] | undefined)[]);
  const near = ahead ? undefined : await geo;
  const venues = near === undefined ? venue : venue === undefined ? near : venue.filter((id) => near.includes(id));
  const filters: Filters = { venue: venues, organizer, categories, tags, featured: p.featured, parent: p.post_parent };
  const paged = !(venues !== undefined && venues.length === 0) && p.include === undefined && !(p.search !== undefined && searchWords(p.search).length > 1);
  // Other reads than the page's own check the filters beside them.
  const aside = ahead && !paged ? side.start(batchGet(checkKeys)) : undefined;

  let events: EventItem[];
  let n: number;
  let known: Map<number, TermItem> | undefined;
  if (!paged && venues !== undefined && venues.length === 0) {
    events = [];
    n = 0;
  } else if (p.include !== undefined) {
    ({ events, total: n } = await listIncluded(ctx, statusList, ownBy, filters, offset, perPage));
  } else if (!paged) {
    ({ events, total: n } = await listAllWords(ctx, searchWords(p.search ?? ''), statusList, ownBy, filters, w, offset, perPage));
  } else {
    // One searched word is one more list partition (a search without words is no search).
    const word = p.search === undefined ? undefined : searchWords(p.search)[0];
    const { sources: src, multi } = sources(ctx, statusList, { ...filters, word }, w, ownBy);
    const count = side.start(listTotal(src, multi, w, stats));
    const hits = await pageKeys(src, offset, perPage, false);
    // The index items name the events' terms: the terms not kept are read with the events
    // themselves and the filters' checks, in one batch.
    const hitTerms = new Set<number>();
    for (const h of hits) for (const id of [...asList(h.item.categories), ...asList(h.item.tags)]) hitTerms.add(id);
    known = termsFor(ctx.shared, hitTerms);
    const unread = [...hitTerms].filter((id) => !known!.has(id));
    const found = await batchGet<EventItem | TermItem>([...hits.map((h) => keys.post(h.id)), ...unread.map(keys.term), ...(checked ? [] : checkKeys)]);
    if (!checked) verify(found);
    events = hits.map((h) => found.get(keyOf(keys.post(h.id))) as EventItem | undefined).filter((e): e is EventItem => e !== undefined);
    const read = unread.map((id) => found.get(keyOf(keys.term(id))) as TermItem | undefined).filter((t): t is TermItem => t !== undefined);
    keepFor(ctx.shared, read);
    for (const t of read) known.set(t.id, t);
    n = await count;
  }
  if (aside) verify(await aside);
  if (page > 1 && events.length === 0) throw tec.archivePageNotFound('event');
  const linked = await loadLinked(events, { termBytes: paged || !events.length ? undefined : (await stats()).termBytes, shared: ctx.shared }, known);
  const open = await waitAll(events.map((e) => unlocked(ctx, e)));
  return envelope('events', events.map((e, i) => (open[i] ? presentEvent(e, linked) : redact(presentEvent(e, linked)))), `${apiBase(ctx.lang)}/events/`, echoQuery(ctx, page, perPage, shown, w, venue, organizer), page, n, perPage);
}

/** The effective query, in TEC's order (reference §4.1.5), for rest_url and the page links. */
function echoQuery(ctx: EventListRequest, page: number, perPage: number, shown: string, w: Window | undefined, venue?: number[], organizer?: number[]): [string, string][] {
  const p = ctx.params;
  const q: [string, string][] = [['page', String(page)], ['per_page', String(perPage)]];
  const dates = w?.echo ?? [];
  q.push(...dates.filter(([k]) => k === 'start_date' || k === 'end_date'));
  if (p.search !== undefined) q.push(['search', p.search]);
  q.push(['status', shown]);
  if (p.post_parent !== undefined) q.push(['post_parent', String(p.post_parent)]);
  if (p.include !== undefined) q.push(['include', p.include.join(',')]);
  q.push(...dates.filter(([k]) => k !== 'start_date' && k !== 'end_date'));
  if (p.strict_dates === true) q.push(['strict_dates', 'true']);
  if (venue !== undefined) q.push(['venue', venue.join(',')]);
  if (organizer !== undefined) q.push(['organizer', organizer.join(',')]);
  if (p.featured !== undefined) q.push(['featured', p.featured ? '1' : '0']);
  if (p.categories !== undefined) q.push(['categories', p.categories.join(',')]);
  if (p.tags !== undefined) q.push(['tags', p.tags.join(',')]);
  if (p.geoloc !== undefined) q.push(['geoloc', p.geoloc ? '1' : '0']);
  if (p.geoloc_lat !== undefined) {
    q.push(['geoloc_lat', String(p.geoloc_lat)], ['geoloc_lng', String(p.geoloc_lng)], ['geoloc_radius', String(p.geoloc_radius)]);
  }
  return q;
}
