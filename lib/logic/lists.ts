// List operations and TEC's envelopes (reference §4). A page reads keys from the `list` index
// (small items), then the page's records and their links in batch reads.
import { apiBase, config } from '../config.js';
import { addMonths, endOfDay, instantToWall, parseDate, startOfDay, wallToUtc } from '../dates.js';
import { invalidParam, tec } from '../errors.js';
import { json, type Reply } from '../http.js';
import { isEditor, listStatuses } from '../permissions.js';
import type { RequestContext } from '../pipeline.js';
import { presentEvent, presentOrganizer, presentTerm, presentVenue } from '../present.js';
import { POST_STATUSES } from '../resources/common.js';
import { batchGet, count, keyOf, query, type Key } from '../store/base.js';
import { listKeys, type PostKind, type Taxonomy } from '../store/keys.js';
import type { EventItem, OrganizerItem, TermItem, VenueItem } from '../store/items.js';
import { INDEXES } from '../table.js';
import { loadLinked } from './common.js';

const I = INDEXES.list;

/** One index partition to read, with an optional sort-key range and filter. */
interface Source {
  partition: string;
  from?: string;
  to?: string;
  filter?: string;
  values?: Record<string, unknown>;
  names?: Record<string, string>;
}

function queryInput(s: Source, descending: boolean) {
  const names: Record<string, string> = { '#p': I.partitionKey, ...(s.names ?? {}) };
  const values: Record<string, unknown> = { ':p': s.partition, ...(s.values ?? {}) };
  let condition = '#p = :p';
  if (s.from !== undefined || s.to !== undefined) {
    names['#s'] = I.sortKey;
    values[':from'] = s.from ?? '';
    values[':to'] = s.to ?? '\uffff';
    condition += ' AND #s BETWEEN :from AND :to';
  }
  return {
    IndexName: I.indexName,
    KeyConditionExpression: condition,
    ...(s.filter ? { FilterExpression: s.filter } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: !descending,
  };
}

/** The keys of matches `offset … offset+limit` across partitions, merged in sort-key order. */
async function pageKeys(sources: Source[], offset: number, limit: number, descending: boolean): Promise<Key[]> {
  const want = offset + limit;
  const merged: { key: Key; sort: string }[] = [];
  for (const s of sources) {
    let start: Record<string, unknown> | undefined;
    let got = 0;
    do {
      const out = await query<Record<string, string>>({ ...queryInput(s, descending), Limit: Math.max(want - got, 1) * 2, ExclusiveStartKey: start });
      for (const item of out.items) {
        if (got >= want) break;
        merged.push({ key: { pk: item.pk!, sk: item.sk! }, sort: item[I.sortKey]! });
        got++;
      }
      start = out.last;
    } while (start && got < want);
  }
  merged.sort((a, b) => (descending ? b.sort.localeCompare(a.sort) : a.sort.localeCompare(b.sort)));
  return merged.slice(offset, want).map((m) => m.key);
}

async function total(sources: Source[]): Promise<number> {
  let n = 0;
  for (const s of sources) n += await count(queryInput(s, false));
  return n;
}

/** PHP's http_build_query encoding, which TEC's next/previous links use. */
const encodeQuery = (q: [string, string][]) =>
  q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).replace(/%20/g, '+')}`).join('&');

function envelope(key: string, items: unknown[], collectionUrl: string, query: [string, string][], page: number, totalCount: number, perPage: number): Reply {
  const totalPages = Math.ceil(totalCount / perPage);
  const rest = query.filter(([k]) => k !== 'page');
  const link = (p: number) => `${collectionUrl}?${encodeQuery(p > 1 ? [...rest, ['page', String(p)]] : rest)}`;
  const body: Record<string, unknown> = {
    [key]: items,
    rest_url: `${collectionUrl}?${encodeQuery([['page', String(page)], ...rest])}`,
  };
  if (page < totalPages) body.next_rest_url = link(page + 1);
  if (page > 1 && items.length) body.previous_rest_url = link(page - 1);
  body.total = totalCount;
  body.total_pages = totalPages;
  return json(200, body, { 'X-TEC-Total': String(totalCount), 'X-TEC-TotalPages': String(totalPages) });
}

function paging(ctx: RequestContext) {
  const cfg = config();
  const page = ctx.params.page as number;
  const perPage = Math.min((ctx.params.per_page as number | undefined) ?? cfg.postsPerPage, cfg.maxPerPage);
  return { page, perPage, offset: (page - 1) * perPage };
}

/** The statuses a post list reads: `publish` for anonymous callers; editors may name others. */
function statuses(ctx: RequestContext): { list: string[]; shown: string } {
  const raw = ctx.params.status as string | undefined;
  if (raw === undefined) return isEditor(ctx.principal) ? { list: listStatuses(ctx.principal), shown: 'any' } : { list: ['publish'], shown: 'publish' };
  const wanted = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const allowed: readonly string[] = isEditor(ctx.principal) ? [...POST_STATUSES, 'any'] : ['publish'];
  if (!wanted.length || wanted.some((s) => !allowed.includes(s))) throw invalidParam('status', 'status is not a status you may list.');
  const list = wanted.includes('any') ? listStatuses(ctx.principal) : [...new Set(wanted)];
  return { list, shown: wanted.join(',') };
}

/** TEC's default window: from the start of yesterday (site time) to 24 months ahead. */
function defaultWindow(now: Date) {
  const zone = config().siteTimezone;
  const yesterdayUtc = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1, 23, 59));
  const start = startOfDay(instantToWall(yesterdayUtc, zone));
  const end = endOfDay(addMonths(instantToWall(now, 'UTC'), 24));
  return { start, end };
}

export async function listEvents(ctx: RequestContext): Promise<Reply> {
  const { page, perPage, offset } = paging(ctx);
  const zone = config().siteTimezone;
  const strict = ctx.params.strict_dates === true;
  const given = (name: string) => (ctx.params[name] === undefined ? undefined : parseDate(ctx.params[name] as string, zone, ctx.now)!);
  const fallback = defaultWindow(ctx.now);
  const startGiven = given('start_date');
  const endGiven = given('end_date');
  const start = startGiven === undefined ? fallback.start : strict ? startGiven : startOfDay(startGiven);
  const end = endGiven === undefined ? fallback.end : strict ? endGiven : endOfDay(endGiven);
  const { list, shown } = statuses(ctx);
  const sources: Source[] = list.map((status) => ({
    partition: listKeys.partition('event', ctx.lang, status),
    from: wallToUtc(start, zone),
    to: `${wallToUtc(end, zone)}#\uffff`,
    filter: '#e <= :end AND attribute_not_exists(#h)',
    names: { '#e': 'utcEnd', '#h': 'hidden' },
    values: { ':end': wallToUtc(end, zone) },
  }));
  const [keys, n] = await Promise.all([pageKeys(sources, offset, perPage, false), total(sources)]);
  if (page > 1 && keys.length === 0) throw tec.archivePageNotFound('event');
  const found = await batchGet<EventItem>(keys);
  const events = keys.map((k) => found.get(keyOf(k))).filter((e): e is EventItem => e !== undefined);
  const linked = await loadLinked(events);
  const query: [string, string][] = [
    ['page', String(page)],
    ['per_page', String(perPage)],
    ['start_date', start],
    ['end_date', end],
    ['status', shown],
  ];
  return envelope('events', events.map((e) => presentEvent(e, linked)), `${apiBase(ctx.lang)}/events/`, query, page, n, perPage);
}

export async function listPlaces(ctx: RequestContext, kind: Exclude<PostKind, 'event'>): Promise<Reply> {
  const { page, perPage, offset } = paging(ctx);
  const { list, shown } = statuses(ctx);
  const sources: Source[] = list.map((status) => ({ partition: listKeys.partition(kind, ctx.lang, status) }));
  const [keys, n] = await Promise.all([pageKeys(sources, offset, perPage, true), total(sources)]);
  if (page > 1 && keys.length === 0) throw tec.archivePageNotFound(kind);
  const found = await batchGet<VenueItem | OrganizerItem>(keys);
  const items = keys
    .map((k) => found.get(keyOf(k)))
    .filter((p) => p !== undefined)
    .map((p) => (kind === 'venue' ? presentVenue(p as VenueItem) : presentOrganizer(p as OrganizerItem)));
  const query: [string, string][] = [['page', String(page)], ['per_page', String(perPage)], ['status', shown]];
  return envelope(`${kind}s`, items, `${apiBase(ctx.lang)}/${kind}s/`, query, page, n, perPage);
}

export async function listTerms(ctx: RequestContext, taxonomy: Taxonomy): Promise<Reply> {
  const { page, perPage, offset } = paging(ctx);
  const hideEmpty = ctx.params.hide_empty !== false;
  const source: Source = {
    partition: listKeys.partition(taxonomy, ctx.lang),
    ...(hideEmpty ? { filter: '#c > :zero', names: { '#c': 'count' }, values: { ':zero': 0 } } : {}),
  };
  const [keys, n] = await Promise.all([pageKeys([source], offset, perPage, ctx.params.order === 'desc'), total([source])]);
  const found = await batchGet<TermItem>(keys);
  const terms = keys.map((k) => found.get(keyOf(k))).filter((t): t is TermItem => t !== undefined).map(presentTerm);
  const collection = `${apiBase(ctx.lang)}/${taxonomy === 'category' ? 'categories' : 'tags'}/`;
  const totalPages = Math.ceil(n / perPage);
  // WordPress's terms envelope: the bare collection URL, and links that carry only `page`.
  const body: Record<string, unknown> = { rest_url: collection, total: n, total_pages: totalPages, [taxonomy === 'category' ? 'categories' : 'tags']: terms };
  if (page < totalPages) body.next_rest_url = `${collection}?page=${page + 1}`;
  if (page > 1) body.previous_rest_url = page === 2 ? collection : `${collection}?page=${page - 1}`;
  return json(200, body, { 'X-TEC-Total': String(n), 'X-TEC-TotalPages': String(totalPages) });
}
