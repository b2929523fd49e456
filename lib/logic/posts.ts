// Writes shared by events, venues and organizers: trashing and deleting a record, and unlinking
// it from events (finding and reading one is lib/logic/post-reads.ts).
import { config } from '../config.js';
import { forbidden, tec } from '../errors.js';
import { json, type Reply } from '../http.js';
import { isEditor, requireRole, requireWrite } from '../permissions.js';
import type { RequestContext } from '../pipeline.js';
import { del, fanOut, getItem, putIfVersion, transact, withRetry } from '../store/base.js';
import { keys, type PostKind } from '../store/keys.js';
import type { AnyPost, EventItem, LinkItem } from '../store/items.js';
import { indexed, modifiedNow } from './common.js';
import { linksOf, REQUEST_FAN_OUT } from './cards.js';
import { eventTransaction } from './event-writes.js';
import { findPost, presentPost } from './post-reads.js';

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
