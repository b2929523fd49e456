// Operations shared by events, venues and organizers: finding a record by id or slug, reading
// it with TEC's access rules, trashing and deleting it, and unlinking it from events.
import { config } from '../config.js';
import { forbidden, invalidParam, tec } from '../errors.js';
import { json, recordReply, type Reply } from '../http.js';
import { canRead, isEditor, requireRole, requireWrite, unlocked } from '../permissions.js';
import type { RequestContext } from '../pipeline.js';
import { presentEvent, presentOrganizer, presentVenue } from '../present.js';
import { bySlug, del, fanOut, getItem, putIfVersion, transact, withRetry } from '../store/base.js';
import { keys, slugIndexKey, type PostKind } from '../store/keys.js';
import type { AnyPost, EventItem, LinkItem, OrganizerItem, VenueItem } from '../store/items.js';
import { indexed, loadLinked, modifiedNow } from './common.js';
import { linksOf, REQUEST_FAN_OUT } from './cards.js';
import { eventTransaction } from './event-writes.js';
import { matchRecord } from '../store/precondition.js';

/** The record a path names, with TEC's answers for unknown ids and slugs. */
export async function findPost(ctx: RequestContext, kind: PostKind): Promise<AnyPost> {
  const found = await lookUp(ctx, kind);
  // A write names the record it changes: its If-Match must name the revision just read.
  matchRecord(found);
  return found;
}

async function lookUp(ctx: RequestContext, kind: PostKind): Promise<AnyPost> {
  if (ctx.path.slug !== undefined) {
    const found = await bySlug<AnyPost>(slugIndexKey(kind, ctx.lang, ctx.path.slug));
    if (!found) throw invalidParam('slug', `slug does not name an existing ${kind}.`);
    return found;
  }
  const id = ctx.path.id!;
  const found = await getItem<AnyPost>(keys.post(id));
  if (kind === 'event') {
    if (!found) throw tec.eventNotFound(id);
    if (found.kind !== 'event') throw tec.invalidEventId();
    return found;
  }
  if (!found || found.kind !== kind) throw invalidParam('id', `id is not an existing ${kind} id.`);
  return found;
}

export async function presentPost(post: AnyPost, single: boolean): Promise<Record<string, unknown>> {
  if (post.kind === 'venue') return presentVenue(post as VenueItem, single);
  if (post.kind === 'organizer') return presentOrganizer(post as OrganizerItem, single);
  const e = post as EventItem;
  return presentEvent(e, await loadLinked([e]), single);
}

/** GET by id or slug (reference §5). */
export async function readPost(ctx: RequestContext, kind: PostKind): Promise<Reply> {
  const post = await findPost(ctx, kind);
  if (post.status === 'trash') throw kind === 'event' ? tec.eventTrashed() : tec.notAccessible(kind);
  if (!(await canRead(ctx, post))) throw tec.notAccessible(kind);
  if (kind === 'event' && !(await unlocked(ctx, post as EventItem))) throw tec.passwordProtected();
  return recordReply(200, await presentPost(post, true), post);
}

const withoutCard = (cards: EventItem['cards'], id: number) => (cards ? Object.fromEntries(Object.entries(cards).filter(([k]) => Number(k) !== id)) : cards);

/** How many events are unlinked at once. */
const UNLINK_AT_ONCE = 16;

/**
 * Removes every link item in a venue's, organizer's or term's partition, rewriting each event
 * (each in its own transaction, several at once, while there is time; see `fanOut`), unless there
 * are more than `limit`: then nothing, and the stream consumer unlinks them
 * (lib/stream/cards-trigger.ts). Idempotent: an unlinked event has no link item left.
 */
export async function unlinkEvents(targetPk: string, drop: (e: EventItem) => EventItem, now: Date, limit = Infinity): Promise<void> {
  const links = await linksOf<LinkItem>(targetPk, limit, '');
  if (!links) return;
  // The stream consumer may unlink after the record itself was deleted: its counts are gone with
  // it, so the events' transactions must not update (or require) it.
  const target = { pk: targetPk, sk: targetPk.startsWith('TERM#') ? 'TERM' : 'POST' };
  const gone = links.length > 0 && !(await getItem(target));
  const skip = gone ? new Set([targetPk]) : undefined;
  const unlink = (link: LinkItem) =>
    withRetry(async () => {
      const old = await getItem<EventItem>(keys.post(link.eventId));
      if (!old) return;
      const next = { ...drop(old), ...modifiedNow(now), version: old.version + 1 };
      const tx = eventTransaction(old, next, config().tableName, [], skip);
      await transact(tx.items);
    });
  await fanOut(links, UNLINK_AT_ONCE, unlink, `Events still linked to ${targetPk}`);
}

/** DELETE: trash (200, then 410 on a second try) or, with `force`, delete permanently. */
export async function deletePost(ctx: RequestContext, kind: PostKind): Promise<Reply> {
  requireRole(ctx.principal, 'contributor');
  const force = ctx.params.force === true;
  if (force && !isEditor(ctx.principal)) throw forbidden(true);
  const post = await findPost(ctx, kind);
  await requireWrite(ctx, post);
  if (post.status === 'trash' && !force) {
    // A trash that ran out of time before unlinking every event is completed by repeating it.
    if (kind !== 'event') await unlinkPlace(kind, post.id, ctx.now, REQUEST_FAN_OUT);
    throw tec.inTrash(kind);
  }
  const table = config().tableName;

  if (kind === 'event') {
    if (force) {
      await withRetry(async () => {
        const old = (await getItem<EventItem>(keys.post(post.id)))!;
        await transact(eventTransaction(old, undefined, table).items);
      });
      return json(200, await presentPost(post, false));
    }
    return json(200, await presentPost(await trash(ctx, kind, post.id), false));
  }

  // A venue or organizer goes to the trash first: from then on no event write can link it (they
  // check its status), so unlinking its events afterwards leaves none linked. TEC removes a
  // trashed venue's or organizer's links from its events too.
  const trashed = post.status === 'trash' ? post : await trash(ctx, kind, post.id);
  await unlinkPlace(kind, post.id, ctx.now, REQUEST_FAN_OUT);
  if (!force) return json(200, await presentPost(trashed, false));
  // Trashing freed the slug guard already.
  await transact([{ Delete: { TableName: table, Key: keys.post(post.id) } }]);
  return json(200, await presentPost(post, false));
}

/** Unlinks a venue or organizer from all its events (their links, cards and counts). */
export function unlinkPlace(kind: 'venue' | 'organizer', id: number, now: Date, limit = Infinity): Promise<void> {
  const field = kind === 'venue' ? 'venues' : 'organizers';
  return unlinkEvents(keys.post(id).pk, (e) => ({ ...e, [field]: e[field].filter((x) => x !== id), cards: withoutCard(e.cards, id) }), now, limit);
}

/** Moves a record to the trash; a second caller that loses the race gets TEC's 410. */
async function trash(ctx: RequestContext, kind: PostKind, id: number): Promise<AnyPost> {
  return withRetry(async () => {
    const old = (await getItem<AnyPost>(keys.post(id)))!;
    if (old.status === 'trash') throw tec.inTrash(kind);
    // WordPress renames a trashed post's slug, which frees the original one.
    const next = { ...old, status: 'trash', trashedFrom: old.status, slug: `${old.slug}__trashed`, ...modifiedNow(ctx.now), version: old.version + 1 } as AnyPost;
    if (kind === 'event') {
      await transact(eventTransaction(old as EventItem, next as EventItem, config().tableName).items);
    } else {
      await transact([putIfVersion(indexed(next), old.version), del(keys.slugGuard(kind, old.lang, old.slug))]);
    }
    return next;
  });
}
