// Writes shared by events, venues and organizers: trashing and deleting a record (finding and
// reading one is lib/logic/post-reads.ts, unlinking it from events lib/logic/unlink.ts).
import { config } from '#lib/runtime/config.js';
import { forbidden, tec } from '#lib/contract/errors.js';
import { json, type Reply } from '#lib/contract/reply.js';
import { isEditor, requireRole, requireWrite } from '#lib/auth/permissions.js';
import type { RequestContext, RequestWith } from '#lib/contract/request.js';
import { getItem } from '#lib/store/reads.js';
import { del, putIfVersion, transact, type TransactItem } from '#lib/store/transactions.js';
import { deleteWithShards, shardWrites } from '#lib/store/record-shards.js';
import { withRetry } from '#lib/store/retry.js';
import { keys, type PostKind } from '#lib/store/keys.js';
import { ofKind, type AnyPost } from '#lib/store/items.js';
import { checked, writeChecked, type Checked } from '#lib/store/precondition.js';
import { indexed, modifiedNow, ownImported } from './common.js';
import { REQUEST_FAN_OUT } from './cards.js';
import { eventTransaction } from './event-writes.js';
import { findPost, presentPost } from './post-reads.js';
import { unlinkPlace } from './unlink.js';
import { deleteSeries, type Scope } from './series-scope.js';

/** DELETE: trash (200, then 410 on a second try) or, with `force`, delete permanently. */
export async function deletePost(ctx: RequestWith<{ force: boolean; password?: string; scope?: Scope }>, kind: PostKind): Promise<Reply> {
  requireRole(ctx.principal, 'contributor');
  const force = ctx.params.force;
  if (force && !isEditor(ctx.principal)) throw forbidden(true);
  const post = await findPost(ctx, kind);
  const check = checked(ctx.ifMatch, post);
  await requireWrite(ctx, post);
  // Writing nothing: the stream consumer unlinks every event of a trashed venue or organizer,
  // also those its trash left (lib/stream/cards-trigger.ts), so an error answer stays true.
  if (post.status === 'trash' && !force) throw tec.inTrash(kind);
  const table = config().tableName;

  if (kind === 'event') {
    // An event of no series is its own whole series: `following` and `all` take it alone.
    const scope = ctx.params.scope ?? 'this';
    const event = ofKind(post, 'event');
    if (scope !== 'this' && event?.seriesId !== undefined) {
      await requireSeriesWrite(ctx, event.seriesId);
      return json(200, await presentPost(await deleteSeries(event, scope, force, ctx.now, check), false));
    }
    if (force) {
      await withRetry(async () => {
        const old = ofKind(await getItem(keys.post(post.id)), 'event')!;
        const { items } = eventTransaction(old, undefined, table);
        await writeChecked(items, check, () => transact(items));
      });
      return json(200, await presentPost(post, false));
    }
    return json(200, await presentPost(await trash(ctx, kind, post.id, check), false));
  }

  // A venue or organizer goes to the trash first: from then on no event write can link it (they
  // check its status), so unlinking its events afterwards leaves none linked. TEC removes a
  // trashed venue's or organizer's links from its events too. The first of these writes of the
  // record carries the version If-Match was checked at.
  const trashed = post.status === 'trash' ? post : await trash(ctx, kind, post.id, check);
  const due = await unlinkPlace(kind, post.id, ctx.now, REQUEST_FAN_OUT, post.status === 'trash' ? check : undefined);
  if (!force) return json(200, await presentPost(trashed, false));
  // Trashing freed the slug guard already.
  await withRetry(async () => {
    // Read again: the record may have been split since (its shards go with it).
    const remove = deleteWithShards(keys.post(post.id), await getItem(keys.post(post.id)));
    await writeChecked(remove, due, () => transact(remove));
  });
  return json(200, await presentPost(post, false));
}

/**
 * A delete or edit by scope writes every event of the series: the caller must be allowed to write
 * its first event (the series' owner); each occurrence is made from it, with its author.
 */
export async function requireSeriesWrite(ctx: RequestContext, seriesId: number): Promise<void> {
  const first = ofKind(await getItem(keys.post(seriesId)), 'event');
  if (first) await requireWrite(ctx, first);
}

/**
 * Moves a record to the trash; a second caller that loses the race gets TEC's 410. The write
 * carries the version `check` names, on every attempt.
 */
async function trash(ctx: RequestContext, kind: PostKind, id: number, check: Checked | undefined): Promise<AnyPost> {
  return withRetry(async () => {
    const old = (await getItem(keys.post(id)))!;
    if (old.status === 'trash') throw tec.inTrash(kind);
    let next: AnyPost;
    let items: TransactItem[];
    if (old.kind === 'event') {
      const event = trashed(ctx, old);
      [next, items] = [event, eventTransaction(old, event, config().tableName).items];
    } else {
      const place = trashed(ctx, old);
      [next, items] = [place, [putIfVersion(indexed(place), old.version), del(keys.slugGuard(kind, old.lang, old.slug)), ...shardWrites(old, place)]];
    }
    await writeChecked(items, check, () => transact(items));
    return next;
  });
}

/** A record moved to the trash. WordPress renames a trashed post's slug, which frees the original one. */
const trashed = <T extends AnyPost>(ctx: RequestContext, old: T): T => ({
  ...old,
  status: 'trash',
  trashedFrom: old.status,
  slug: `${old.slug}__trashed`,
  ...modifiedNow(ctx.now, ownImported(ctx.imported, 'post', old.id)),
  version: old.version + 1,
});
