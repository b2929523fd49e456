// Finding an event, venue or organizer by id or slug, and reading it with TEC's access rules:
// apart from the writes (lib/logic/posts.ts), so that the read functions' bundles carry none.
import { invalidParam, tec } from '#lib/contract/errors.js';
import { recordReply, type Reply } from '#lib/contract/reply.js';
import { requireMatch } from '#lib/contract/revision.js';
import { canRead, unlocked } from '#lib/auth/permissions.js';
import type { RequestContext } from '#lib/contract/request.js';
import { presentEvent, presentOrganizer, presentVenue } from '#lib/present/present.js';
import { getItem } from '#lib/store/reads.js';
import { keys, type PostKind } from '#lib/store/keys.js';
import { ofKind, type AnyPost } from '#lib/store/items.js';
import { postBySlug } from '#lib/store/partitions.js';
import { loadLinked, type TermReading } from './common.js';
import { wellTyped } from '#lib/present/well-typed.js';

/** The record a path names, with TEC's answers for unknown ids and slugs. */
export async function findPost<K extends PostKind>(ctx: RequestContext, kind: K): Promise<PostOf<K>> {
  const found = await lookUp(ctx, kind);
  // A write names the record it changes: its If-Match must name the revision just read.
  requireMatch(ctx.ifMatch, found);
  return found;
}

type PostOf<K extends PostKind> = Extract<AnyPost, { kind: K }>;

async function lookUp<K extends PostKind>(ctx: RequestContext, kind: K): Promise<PostOf<K>> {
  if (ctx.path.slug !== undefined) {
    const found = await postBySlug(kind, ctx.lang, ctx.path.slug);
    if (!found) throw invalidParam('slug', `slug does not name an existing ${kind}.`);
    return found;
  }
  const id = ctx.path.id!;
  const stored = await getItem(keys.post(id));
  const found = ofKind(stored, kind);
  if (kind === 'event') {
    if (!stored) throw tec.eventNotFound(id);
    if (!found) throw tec.invalidEventId();
    return found;
  }
  if (!found) throw invalidParam('id', `id is not an existing ${kind} id.`);
  return found;
}

export async function presentPost(post: AnyPost, single: boolean, how: TermReading = {}): Promise<Record<string, unknown>> {
  if (post.kind === 'venue') return presentVenue(post, single);
  if (post.kind === 'organizer') return presentOrganizer(post, single);
  // Its links are read from it: a malformed record's lists are made lists first.
  const e = wellTyped(post);
  return presentEvent(e, await loadLinked([e], how), single);
}

/** The record a read names, when the caller may read it (docs/tec-behaviour.md §5): else TEC's answer. */
export async function readablePost<K extends PostKind>(ctx: RequestContext, kind: K): Promise<PostOf<K>> {
  const post = await findPost(ctx, kind);
  if (post.status === 'trash') throw kind === 'event' ? tec.eventTrashed() : tec.notAccessible(kind);
  if (!(await canRead(ctx, post))) throw tec.notAccessible(kind);
  if (post.kind === 'event' && !(await unlocked(ctx, post))) throw tec.passwordProtected();
  return post;
}

/** GET by id or slug (docs/tec-behaviour.md §5). */
export async function readPost(ctx: RequestContext, kind: PostKind): Promise<Reply> {
  const post = await readablePost(ctx, kind);
  return recordReply(200, await presentPost(post, true, { shared: ctx.shared }), post);
}
