// The filters of GET /events by venue, organizer, term, parent event and place: the records they
// name must exist (TEC's 400 otherwise), and they become ids to filter by.
import { invalidParam, invalidParams } from '#lib/contract/errors.js';
import { batchGet, type Found, type ItemKey } from '#lib/store/reads.js';
import { keys, listKeys } from '#lib/store/keys.js';
import type { AnyPost, IdPointer, TermItem } from '#lib/store/items.js';
import { keptTermId, termsFor } from './term-cache.js';
import type { EventListRequest } from './event-window.js';
import { listedIds } from '#lib/store/partitions.js';
import { ofKind } from '#lib/store/items.js';

/** What filter checks read: posts, terms, and the slug guards of terms named by slug. */
export type CheckedItem = AnyPost | TermItem | IdPointer;

/**
 * A filter's values to check: the keys to read, and what the items read must show (it throws
 * TEC's 400, or gives the ids to filter by). The keys of every check are read in one batch.
 */
interface Check<T> {
  keys: ItemKey<CheckedItem>[];
  /** The ids to filter by, known before any read, or null when a slug must be looked up first. */
  ahead?: number[] | null;
  verify: (found: Found<CheckedItem>) => T;
}

const NO_CHECK: Check<undefined> = { keys: [], verify: () => undefined };

/** Term filter values (ids or slugs of the request language) as ids; unknown ones are a 400. */
export function termCheck(ctx: EventListRequest, name: 'categories' | 'tags'): Check<number[] | undefined> {
  const values = ctx.params[name];
  // An empty filter (`categories=`) is no filter, as in TEC.
  if (!values?.length) return NO_CHECK;
  const taxonomy = name === 'categories' ? 'category' : 'tag';
  const keyFor = (v: number | string): ItemKey<TermItem | IdPointer> => (typeof v === 'number' ? keys.term(v) : keys.slugGuard(taxonomy, ctx.lang, v.toLowerCase()));
  // An answer for anyone may take ids and slugs from the kept terms (lib/logic/term-cache.ts).
  const kept = termsFor(
    ctx.shared,
    values.filter((v): v is number => typeof v === 'number'),
  );
  const ids = values.map((v) => (typeof v === 'number' ? v : ctx.shared ? keptTermId(taxonomy, ctx.lang, v.toLowerCase()) : undefined));
  return {
    keys: values.filter((v, i) => (typeof v === 'number' ? !kept.has(v) : ids[i] === undefined)).map(keyFor),
    ahead: ids.every((id) => id !== undefined) ? (ids as number[]) : null,
    verify: (found) =>
      values.map((v, i) => {
        if (typeof v === 'string' && ids[i] !== undefined) return ids[i]!;
        const hit = (typeof v === 'number' ? kept.get(v) : undefined) ?? found.get(keyFor(v));
        if (!hit || (typeof v === 'number' && (!('taxonomy' in hit) || hit.taxonomy !== taxonomy))) {
          throw invalidParam(name, `${name} contains "${v}", which is not an existing ${taxonomy} id or slug.`);
        }
        return hit.id;
      }),
  };
}

/** Venue and organizer filter ids must name records of that kind. */
export function postCheck(ctx: EventListRequest, name: 'venue' | 'organizer'): Check<number[] | undefined> {
  const ids = ctx.params[name];
  if (!ids?.length) return NO_CHECK;
  return {
    keys: ids.map(keys.post),
    ahead: ids,
    verify: (found) => {
      for (const id of ids) {
        if (!ofKind(found.get(keys.post(id)), name)) throw invalidParam(name, `${name} contains ${id}, which is not an existing ${name} id.`);
      }
      return ids;
    },
  };
}

export function parentCheck(ctx: EventListRequest): Check<undefined> {
  const id = ctx.params.post_parent;
  if (id === undefined) return NO_CHECK;
  return {
    keys: [keys.post(id)],
    verify: (found) => {
      if (!ofKind(found.get(keys.post(id)), 'event')) throw invalidParam('post_parent', 'post_parent is not an existing event id.');
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
export async function geoVenues(ctx: EventListRequest): Promise<number[] | undefined> {
  const p = ctx.params;
  const lat = p.geoloc_lat;
  const lng = p.geoloc_lng;
  if ((lat === undefined) !== (lng === undefined)) {
    const missing = lat === undefined ? 'geoloc_lat' : 'geoloc_lng';
    throw invalidParams({ [missing]: `${missing} must be given together with ${lat === undefined ? 'geoloc_lng' : 'geoloc_lat'}.` });
  }
  if (p.geoloc !== true && lat === undefined) return undefined;
  const radius = p.geoloc_radius;
  const listedVenues = await listedIds(listKeys.partition('venue', ctx.lang, 'publish'));
  const venues = await batchGet(listedVenues.map(keys.post));
  return [...venues.values()]
    .flatMap((p) => ofKind(p, 'venue') ?? [])
    .filter((v) => v.geoLat !== undefined && v.geoLng !== undefined)
    .filter((v) => lat === undefined || distanceKm([lat, lng!], [v.geoLat!, v.geoLng!]) <= radius)
    .map((v) => v.id);
}

export interface Filters {
  /** A word of the search index (lib/domain/search-words.ts). */
  word?: string;
  /** With `word`: its password-protected events too (signed-in callers, as WordPress searches). */
  withLocked?: boolean;
  venue?: number[];
  organizer?: number[];
  categories?: number[];
  tags?: number[];
  featured?: boolean;
  parent?: number;
}
