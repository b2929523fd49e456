// Venue and organizer create and update (docs/tec-behaviour.md §6.2). A create reuses a duplicate as TEC does
// (docs/tec-behaviour.md §1.5); otherwise it makes a record, with a `-2`, `-3`… slug when the slug is taken.
import { collate, findDuplicate, titleItem } from './dedupe.js';
import type { Lang } from '#lib/runtime/config.js';
import { recordReply, type Reply } from '#lib/contract/reply.js';
import { canWrite, checkAuthor, requireRole, requireWrite, scaleStatus } from '#lib/auth/permissions.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import type { Params } from '#lib/contract/params.js';
import type { RequestContext } from '#lib/contract/request.js';
import { presentOrganizer, presentVenue } from '#lib/present/present.js';
import { slugify } from '#lib/domain/slug.js';
import { foundInRace, put, putIfVersion, transact, type TransactItem } from '#lib/store/transactions.js';
import { shardWrites } from '#lib/store/record-shards.js';
import { withRetry } from '#lib/store/retry.js';
import { nextId } from '#lib/store/ids.js';
import type { ImportedRecord } from '#lib/contract/imported.js';
import { freeSlug, idAndSlug } from '#lib/store/slugs.js';
import { keys } from '#lib/store/keys.js';
import { ofKind, type OrganizerItem, type VenueItem } from '#lib/store/items.js';
import { checked, writeChecked } from '#lib/store/precondition.js';
import { refreshCards, REQUEST_FAN_OUT } from './cards.js';
import { authorOf, indexed, keptText, modifiedNow, newId, ownImported, publicationDates } from './common.js';
import { findPost } from './post-reads.js';

type PlaceKind = 'venue' | 'organizer';
type Place = VenueItem | OrganizerItem;

const str = (v: string | undefined, fallback = '') => v ?? fallback;

/** A venue or organizer payload's fields as validated (all optional, as in an update), with the status the caller may set. */
export type PlaceFields = Omit<Params<ArgsOf<'venues.update'>> & Params<ArgsOf<'organizers.update'>>, 'status'> & { status?: string };
type PlaceCreate = RequestContext<ArgsOf<'venues.create'>> | RequestContext<ArgsOf<'organizers.create'>>;
type PlaceUpdate = RequestContext<ArgsOf<'venues.update'>> | RequestContext<ArgsOf<'organizers.update'>>;

const VENUE_FIELDS = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince'] as const;

/** The record a venue or organizer payload describes, on top of `old` for updates. */
export function placeFrom(
  kind: PlaceKind,
  p: PlaceFields,
  base: {
    id: number;
    lang: Lang;
    slug: string;
    author: number;
    now: Date;
    old?: Place;
    imported?: ImportedRecord;
  },
): Place {
  const old = base.old;
  const imported = ownImported(base.imported, 'post', base.id);
  const common = {
    ...keys.post(base.id),
    id: base.id,
    kind,
    lang: base.lang,
    status: str(p.status, old?.status ?? 'publish'),
    slug: base.slug,
    author: base.author,
    ...publicationDates(p, base.now, old),
    ...modifiedNow(base.now, imported),
    title: str(p[kind], old?.title),
    // TEC keeps the description an empty one is sent for (its update ignores it).
    description: str(p.description || undefined, keptText(imported, 'description', old?.description)),
    excerpt: old?.excerpt ?? '',
    image: str(p.image, keptText(imported, 'image', old?.image)),
    website: p.website ?? old?.website ?? '',
    version: (old?.version ?? 0) + 1,
    rev: (old?.rev ?? 0) + 1,
    // Bookkeeping of the events' writes (lib/logic/event-writes.ts), which a rewrite keeps.
    ...(old?.linkedEvents === undefined ? {} : { linkedEvents: old.linkedEvents }),
    ...(old?.shards === undefined ? {} : { shards: old.shards, shardGen: old.shardGen }),
  };
  if (kind === 'organizer') {
    const o = ofKind(old, 'organizer');
    return { ...common, kind, phone: str(p.phone, o?.phone), email: str(p.email, o?.email).trim() };
  }
  const v = ofKind(old, 'venue');
  const venue: VenueItem = {
    ...common,
    kind,
    ...(Object.fromEntries(VENUE_FIELDS.map((f) => [f, str(p[f], v?.[f])])) as Pick<VenueItem, (typeof VENUE_FIELDS)[number]>),
    showMap: p.show_map ?? v?.showMap ?? true,
    showMapLink: p.show_map_link ?? v?.showMapLink ?? true,
  };
  // TEC fills an empty state-or-province from the state (a US venue, or one without a country), else
  // the province, when it saves a venue; an imported venue keeps the site's as it is.
  if (venue.stateprovince === '' && !imported) {
    const us = venue.country === '' || venue.country === 'US' || venue.country === 'United States';
    venue.stateprovince = venue.state !== '' && us ? venue.state : venue.province;
  }
  const lat = p.geo_lat ?? v?.geoLat;
  const lng = p.geo_lng ?? v?.geoLng;
  if (lat !== undefined) venue.geoLat = lat;
  if (lng !== undefined) venue.geoLng = lng;
  return venue;
}

/**
 * The fields TEC saves onto the record a create matches (Tribe__Events__Venue and
 * Tribe__Events__Organizer `save_meta`): the venue's or organizer's own fields, not its title,
 * description, status or dates.
 */
const SAVED_ON_MATCH = {
  venue: [...VENUE_FIELDS, 'website', 'image', 'show_map', 'show_map_link', 'geo_lat', 'geo_lng'],
  organizer: ['phone', 'email', 'website', 'image'],
} as const satisfies Record<PlaceKind, readonly (keyof PlaceFields)[]>;

/**
 * The match with the fields sent saved onto it, as TEC does, when the caller may edit it and
 * something changes; else undefined (the match is linked as it is: TEC lets anyone overwrite it,
 * this API only those who may edit it). Unlike TEC, fields not sent keep their values (TEC turns
 * `show_map` back on) and `modified` moves, so that clients that sync by it see the change.
 */
async function savedOnMatch(kind: PlaceKind, p: PlaceFields, match: Place, ctx: RequestContext): Promise<Place | undefined> {
  const sent = Object.fromEntries(SAVED_ON_MATCH[kind].filter((f) => p[f] !== undefined).map((f) => [f, p[f]])) as PlaceFields;
  if (!Object.keys(sent).length || !(await canWrite(ctx, match))) return undefined;
  const next = indexed(placeFrom(kind, sent, { id: match.id, lang: match.lang, slug: match.slug, author: match.author, now: ctx.now, old: match }));
  const unchanged = (Object.keys(next) as (keyof Place)[]).every(
    (k) => ['version', 'rev', 'modified', 'modified_utc'].includes(k) || JSON.stringify(next[k]) === JSON.stringify(match[k]),
  );
  return unchanged ? undefined : next;
}

/**
 * A new venue or organizer and the writes that store it, or, as TEC does, the existing record it
 * would duplicate (`reused`; lib/logic/dedupe.ts), with the fields sent saved onto it when the
 * caller may edit it (`edited`: its whole record is in `writes`, on the condition that it is
 * still the version read).
 */
export async function newPlace(
  kind: PlaceKind,
  p: PlaceFields,
  ctx: RequestContext,
  author: number,
  attempt = 1,
  takeId = () => nextId('post'),
): Promise<{ item: Place; writes: TransactItem[]; reused: boolean; edited: boolean }> {
  // An imported record is the site's own, not a duplicate of another (the site may hold two of one name).
  const duplicate = ctx.imported ? undefined : await findDuplicate(ctx, kind, str(p[kind]), p.description === undefined ? undefined : str(p.description));
  if (duplicate) {
    const saved = await savedOnMatch(kind, p, duplicate, ctx);
    return saved
      ? { item: saved, writes: [putIfVersion(saved, duplicate.version), ...shardWrites(duplicate, saved)], reused: true, edited: true }
      : { item: duplicate, writes: [], reused: true, edited: false };
  }
  const taking = takeId();
  // Only an import waits for the id first: whether the record is the imported one.
  const own = ctx.imported && ownImported(ctx.imported, 'post', await taking);
  const [id, slug] = await idAndSlug(taking, kind, ctx.lang, slugify(str(p[kind])), attempt, own?.slug);
  const item = indexed(placeFrom(kind, p, { id, lang: ctx.lang, slug, author, now: ctx.now, imported: own }));
  return { item, writes: [put(item), put({ ...keys.slugGuard(kind, ctx.lang, slug), id }), titleItem(item)], reused: false, edited: false };
}

const present = (p: Place, single = false) => (p.kind === 'venue' ? presentVenue(p, single) : presentOrganizer(p, single));

export async function createPlace(ctx: PlaceCreate, kind: PlaceKind): Promise<Reply> {
  requireRole(ctx.principal, 'contributor');
  await checkAuthor(ctx);
  const author = await authorOf(ctx);
  const params = { ...ctx.params, status: scaleStatus(ctx.principal, ctx.params.status, undefined) };
  // A retry with the create's Idempotency-Key takes the first try's id (lib/store/create-ids.ts),
  // so that a first try that lands late and the retry cannot both be stored; one that landed
  // before is found as a duplicate and answered with.
  let allocated: Promise<number> | undefined;
  const takeId = () => (allocated ??= newId(ctx, 'post').then((c) => c.id));
  const { item, edited } = await withRetry(async (attempt) => {
    const made = await newPlace(kind, params, ctx, author, attempt, takeId);
    await transact(made.writes);
    return made;
  });
  // Linked events show a match's saved fields too (as after an edit; the consumer completes it).
  if (edited) await refreshCards(item, REQUEST_FAN_OUT);
  return recordReply(201, present(item), item);
}

export async function updatePlace(ctx: PlaceUpdate, kind: PlaceKind): Promise<Reply> {
  requireRole(ctx.principal, 'contributor');
  const found = await findPost(ctx, kind);
  const check = checked(ctx.ifMatch, found);
  await requireWrite(ctx, found);
  await checkAuthor(ctx);
  const author = await authorOf(ctx, found.author);
  const next = await withRetry(async (_attempt, previous) => {
    // A lost race returned the record as it is now (putIfVersion): no need to read it again.
    const raced = foundInRace<Place>(previous, keys.post(found.id));
    const old = raced && raced.kind === kind ? raced : await findPost({ ...ctx, path: { id: found.id } }, kind);
    let slug = old.slug;
    const writes: TransactItem[] = [];
    const restoring = old.status === 'trash' && ctx.params.status !== undefined;
    if (restoring) {
      // Leaving the trash takes the original slug back (or the next free one).
      slug = await freeSlug(kind, old.lang, old.slug.replace(/__trashed$/, ''));
      writes.push(put({ ...keys.slugGuard(kind, old.lang, slug), id: old.id }));
    }
    const status = old.status === 'trash' && ctx.params.status === undefined ? 'trash' : scaleStatus(ctx.principal!, ctx.params.status, old.status);
    const next = indexed(placeFrom(kind, { ...ctx.params, status }, { id: old.id, lang: old.lang, slug, author, now: ctx.now, old, imported: ctx.imported }));
    writes.unshift(putIfVersion(next, old.version), ...shardWrites(old, next));
    // A renamed record is found by its new title too (the old title's item is checked and skipped).
    if (collate(next.title) !== collate(old.title)) writes.push(titleItem(next));
    await writeChecked(writes, check, () => transact(writes));
    return next;
  });
  // Linked events show the edit too: a few at once, all of them soon (the stream consumer).
  await refreshCards(next, REQUEST_FAN_OUT);
  return recordReply(200, present(next), next);
}
