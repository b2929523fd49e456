// List operations and TEC's envelopes (reference §4). A page reads keys from the `list` index
// (small items), then the page's records and their links in batch reads.
import { apiBase, config } from '../config.js';
import { invalidParam, tec } from '../errors.js';
import { json, type Reply } from '../http.js';
import { isEditor, listStatuses } from '../permissions.js';
import type { RequestContext } from '../pipeline.js';
import { presentOrganizer, presentTerm, presentVenue } from '../present.js';
import { POST_STATUSES } from '../resources/common.js';
import { batchGet, count, keyOf, query, type Key } from '../store/base.js';
import { listKeys, type PostKind, type Taxonomy } from '../store/keys.js';
import type { OrganizerItem, TermItem, VenueItem } from '../store/items.js';
import { INDEXES } from '../table.js';

const I = INDEXES.list;

/** One index partition to read, with an optional sort-key range and filter. */
export interface Source {
  partition: string;
  from?: string;
  to?: string;
  filter?: string;
  values?: Record<string, unknown>;
  names?: Record<string, string>;
}

export function queryInput(s: Source, descending: boolean) {
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

/**
 * The matches `offset … offset+limit` across partitions, merged in sort-key order and without
 * repeats (an event in two of the partitions of an OR filter is listed once). Each partition is
 * read only as far as the page needs, so the cost follows the page, not the table.
 */
export async function pageKeys(sources: Source[], offset: number, limit: number, descending: boolean): Promise<(Key & { id: number })[]> {
  const want = offset + limit;
  const merged: { key: Key; sort: string; id: number }[] = [];
  for (const s of sources) {
    let start: Record<string, unknown> | undefined;
    let got = 0;
    do {
      const out = await query<Record<string, string | number>>({ ...queryInput(s, descending), Limit: Math.max(want - got, 1) * 2, ExclusiveStartKey: start });
      for (const item of out.items) {
        if (got >= want) break;
        merged.push({ key: { pk: String(item.pk), sk: String(item.sk) }, sort: String(item[I.sortKey]), id: Number(item.id) });
        got++;
      }
      start = out.last;
    } while (start && got < want);
  }
  merged.sort((a, b) => (descending ? b.sort.localeCompare(a.sort) : a.sort.localeCompare(b.sort)));
  const seen = new Set<number>();
  const unique = merged.filter((m) => !seen.has(m.id) && !!seen.add(m.id));
  return unique.slice(offset, want).map((m) => ({ ...m.key, id: m.id }));
}

export async function total(sources: Source[]): Promise<number> {
  let n = 0;
  for (const s of sources) n += await count(queryInput(s, false));
  return n;
}

/** PHP's http_build_query encoding, which TEC's next/previous links use. */
export const encodeQuery = (q: [string, string][]) =>
  q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).replace(/%20/g, '+')}`).join('&');

export function envelope(key: string, items: unknown[], collectionUrl: string, query: [string, string][], page: number, totalCount: number, perPage: number): Reply {
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

export function paging(ctx: RequestContext) {
  const cfg = config();
  const page = ctx.params.page as number;
  const perPage = Math.min((ctx.params.per_page as number | undefined) ?? cfg.postsPerPage, cfg.maxPerPage);
  return { page, perPage, offset: (page - 1) * perPage };
}

/** The statuses a post list reads: `publish` for anonymous callers; editors may name others. */
export function statuses(ctx: RequestContext): { list: string[]; shown: string } {
  const raw = ctx.params.status as string | undefined;
  if (raw === undefined) return isEditor(ctx.principal) ? { list: listStatuses(ctx.principal), shown: 'any' } : { list: ['publish'], shown: 'publish' };
  const wanted = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const allowed: readonly string[] = isEditor(ctx.principal) ? [...POST_STATUSES, 'any'] : ['publish'];
  if (!wanted.length || wanted.some((s) => !allowed.includes(s))) throw invalidParam('status', 'status is not a status you may list.');
  const list = wanted.includes('any') ? listStatuses(ctx.principal) : [...new Set(wanted)];
  return { list, shown: wanted.join(',') };
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
