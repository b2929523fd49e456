// Venue and organizer create and update (reference §6.2). Creation does not deduplicate
// (DESIGN §2.6): each create makes a record, with a `-2`, `-3`… slug when the slug is taken.
import { collate, findDuplicate, titleItem } from './dedupe.js';
import type { Lang } from '#lib/runtime/config.js';
import { recordReply, type Reply } from '#lib/contract/reply.js';
import { checkAuthor, requireRole, requireWrite, scaleStatus } from '#lib/auth/permissions.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import type { Params } from '#lib/contract/params.js';
import type { RequestContext } from '#lib/contract/request.js';
import { presentOrganizer, presentVenue } from '#lib/present/present.js';
import { slugify } from '#lib/domain/slug.js';
import { foundInRace, put, putIfVersion, transact, type TransactItem } from '#lib/store/transactions.js';
import { withRetry } from '#lib/store/retry.js';
import { nextId } from '#lib/store/ids.js';
import { createId } from '#lib/store/create-ids.js';
import { freeSlug, idAndSlug } from '#lib/store/slugs.js';
import { keys } from '#lib/store/keys.js';
import type { OrganizerItem, VenueItem } from '#lib/store/items.js';
import { checked, writeChecked } from '#lib/store/precondition.js';
import { refreshCards, REQUEST_FAN_OUT } from './cards.js';
import { authorOf, indexed, modifiedNow, publicationDates } from './common.js';
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
  },
): Place {
  const old = base.old;
  const common = {
    ...keys.post(base.id),
    id: base.id,
    kind,
    lang: base.lang,
    status: str(p.status, old?.status ?? 'publish'),
    slug: base.slug,
    author: base.author,
    ...publicationDates(p, base.now, old),
    ...modifiedNow(base.now),
    title: str(p[kind], old?.title),
    description: str(p.description, old?.description),
    excerpt: old?.excerpt ?? '',
    image: str(p.image, old?.image),
    website: p.website ?? old?.website ?? '',
    version: (old?.version ?? 0) + 1,
    rev: (old?.rev ?? 0) + 1,
  };
  if (kind === 'organizer') {
    const o = old as OrganizerItem | undefined;
    return { ...common, kind, phone: str(p.phone, o?.phone), email: str(p.email, o?.email).trim() };
  }
  const v = old as VenueItem | undefined;
  const venue: VenueItem = {
    ...common,
    kind,
    ...(Object.fromEntries(VENUE_FIELDS.map((f) => [f, str(p[f], v?.[f])])) as Pick<VenueItem, (typeof VENUE_FIELDS)[number]>),
    showMap: p.show_map ?? v?.showMap ?? true,
    showMapLink: p.show_map_link ?? v?.showMapLink ?? true,
  };
  const lat = p.geo_lat ?? v?.geoLat;
  const lng = p.geo_lng ?? v?.geoLng;
  if (lat !== undefined) venue.geoLat = lat;
  if (lng !== undefined) venue.geoLng = lng;
  return venue;
}

/** A new venue or organizer's items (record and slug guard), for this or a larger transaction. */
/**
 * A new venue or organizer and the writes that store it, or, as TEC does, the existing record it
 * would duplicate (`reused`, nothing to write; lib/logic/dedupe.ts).
 */
export async function newPlace(
  kind: PlaceKind,
  p: PlaceFields,
  ctx: RequestContext,
  author: number,
  attempt = 1,
  takeId = () => nextId('post'),
): Promise<{ item: Place; writes: TransactItem[]; reused: boolean }> {
  const duplicate = await findDuplicate(ctx, kind, str(p[kind]), p.description === undefined ? undefined : str(p.description));
  if (duplicate) return { item: duplicate, writes: [], reused: true };
  const [id, slug] = await idAndSlug(takeId(), kind, ctx.lang, slugify(str(p[kind])), attempt);
  const item = indexed(placeFrom(kind, p, { id, lang: ctx.lang, slug, author, now: ctx.now }));
  return { item, writes: [put(item), put({ ...keys.slugGuard(kind, ctx.lang, slug), id }), titleItem(item)], reused: false };
}

const present = (p: Place, single = false) => (p.kind === 'venue' ? presentVenue(p as VenueItem, single) : presentOrganizer(p as OrganizerItem, single));

export async function createPlace(ctx: PlaceCreate, kind: PlaceKind): Promise<Reply> {
  requireRole(ctx.principal, 'contributor');
  await checkAuthor(ctx);
  const author = await authorOf(ctx);
  const params = { ...ctx.params, status: scaleStatus(ctx.principal, ctx.params.status, undefined) };
  // A retry with the create's Idempotency-Key takes the first try's id (lib/store/create-ids.ts),
  // so that a first try that lands late and the retry cannot both be stored; one that landed
  // before is found as a duplicate and answered with.
  let allocated: Promise<number> | undefined;
  const takeId = () => (allocated ??= createId(() => nextId('post')).then((c) => c.id));
  const item = await withRetry(async (attempt) => {
    const { item, writes } = await newPlace(kind, params, ctx, author, attempt, takeId);
    await transact(writes);
    return item;
  });
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
    const old = raced && raced.kind === kind ? raced : ((await findPost({ ...ctx, path: { id: found.id } }, kind)) as Place);
    let slug = old.slug;
    const writes: TransactItem[] = [];
    const restoring = old.status === 'trash' && ctx.params.status !== undefined;
    if (restoring) {
      // Leaving the trash takes the original slug back (or the next free one).
      slug = await freeSlug(kind, old.lang, old.slug.replace(/__trashed$/, ''));
      writes.push(put({ ...keys.slugGuard(kind, old.lang, slug), id: old.id }));
    }
    const status = old.status === 'trash' && ctx.params.status === undefined ? 'trash' : scaleStatus(ctx.principal!, ctx.params.status, old.status);
    const next = indexed(placeFrom(kind, { ...ctx.params, status }, { id: old.id, lang: old.lang, slug, author, now: ctx.now, old }));
    writes.unshift(putIfVersion(next, old.version));
    // A renamed record is found by its new title too (the old title's item is checked and skipped).
    if (collate(next.title) !== collate(old.title)) writes.push(titleItem(next));
    await writeChecked(writes, check, () => transact(writes));
    return next;
  });
  // Linked events show the edit too: a few at once, all of them soon (the stream consumer).
  await refreshCards(next, REQUEST_FAN_OUT);
  return recordReply(200, present(next), next);
}
