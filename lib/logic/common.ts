// Pieces shared by the post operations: publication dates, index attributes, linked records.
import { config, type Lang } from '../config.js';
import { nowUtc, parseDate, utcToWall, wallToUtc } from '../dates.js';
import { invalidParam } from '../errors.js';
import type { RequestContext } from '../pipeline.js';
import { batchGet, keyOf, userExists, userIdOf } from '../store/base.js';
import { keys, listKeys, slugIndexKey } from '../store/keys.js';
import type { AnyPost, EventItem, OrganizerItem, TermItem, VenueItem } from '../store/items.js';
import type { Linked } from '../present.js';

/** The publication date pair from `date` / `date_utc` (site zone), or `fallback`, or now. */
export function publicationDates(
  params: Record<string, unknown>,
  now: Date,
  fallback?: { date: string; date_utc: string },
): { date: string; date_utc: string } {
  const zone = config().siteTimezone;
  if (params.date !== undefined) {
    const date = parseDate(params.date as string, zone, now)!;
    return { date, date_utc: wallToUtc(date, zone) };
  }
  if (params.date_utc !== undefined) {
    const date_utc = parseDate(params.date_utc as string, 'UTC', now)!;
    return { date: utcToWall(date_utc, zone), date_utc };
  }
  if (fallback) return { date: fallback.date, date_utc: fallback.date_utc };
  const utc = nowUtc(now);
  return { date: utcToWall(utc, zone), date_utc: utc };
}

export function modifiedNow(now: Date) {
  const utc = nowUtc(now);
  return { modified: utcToWall(utc, config().siteTimezone), modified_utc: utc };
}

/** The author id of a write: the caller, or the `author` parameter when it names a known user. */
export async function authorOf(ctx: RequestContext, current?: number): Promise<number> {
  const wanted = ctx.params.author as number | undefined;
  if (wanted !== undefined) {
    if (!(await userExists(wanted))) throw invalidParam('author', 'author is not an existing user id.');
    return wanted;
  }
  if (current !== undefined) return current;
  return userIdOf(ctx.principal!.sub);
}

/** Sets or clears the index attributes of a post for its current state. Trash is not indexed. */
export function indexed<T extends AnyPost>(item: T): T {
  const out = { ...item };
  delete out.gsi1pk;
  delete out.gsi2pk;
  delete out.gsi2sk;
  if (item.status === 'trash') return out;
  out.gsi1pk = slugIndexKey(item.kind, item.lang, item.slug);
  // Events hidden from listings stay readable by id and slug but are in no list.
  if (item.kind === 'event' && (item as EventItem).hidden) return out;
  const list =
    item.kind === 'event'
      ? listKeys.event(item.lang, item.status, (item as EventItem).utcStart, item.id)
      : listKeys.place(item.kind, item.lang, item.status, item.date_utc, item.id);
  return Object.assign(out, list);
}

export function indexedTerm(t: TermItem): TermItem {
  return { ...t, gsi1pk: slugIndexKey(t.taxonomy, t.lang, t.slug), ...listKeys.term(t.taxonomy, t.lang, t.name, t.id) };
}

/** The venues, organizers and terms of some events, in one batch read. */
export async function loadLinked(events: EventItem[]): Promise<Linked> {
  const postIds = new Set<number>();
  const termIds = new Set<number>();
  for (const e of events) {
    e.venues.forEach((id) => postIds.add(id));
    e.organizers.forEach((id) => postIds.add(id));
    e.categories.forEach((id) => termIds.add(id));
    e.tags.forEach((id) => termIds.add(id));
  }
  const found = await batchGet<AnyPost | TermItem>([...[...postIds].map(keys.post), ...[...termIds].map(keys.term)]);
  const linked: Linked = { venues: new Map(), organizers: new Map(), terms: new Map() };
  for (const id of postIds) {
    const p = found.get(keyOf(keys.post(id))) as AnyPost | undefined;
    if (p?.kind === 'venue' && p.status !== 'trash') linked.venues.set(id, p as VenueItem);
    if (p?.kind === 'organizer' && p.status !== 'trash') linked.organizers.set(id, p as OrganizerItem);
  }
  for (const id of termIds) {
    const t = found.get(keyOf(keys.term(id))) as TermItem | undefined;
    if (t) linked.terms.set(id, t);
  }
  return linked;
}

