// Deleting through TEC's `tec/v1` namespace: v1's delete (its roles, If-Match, unlinking) with
// TEC's answers, in a module of its own so that its function carries no create or update logic.
import { json, type Reply } from '#lib/contract/reply.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';
import type { PostKind } from '#lib/store/keys.js';
import { deletePost } from './posts.js';
import { asV1, V1_KIND, writable } from './tec-v1-reads.js';

/** DELETE: to the trash, or for good with `force`; TEC answers either with an empty list. */
export async function deleteTecPost(ctx: RequestContext<ArgsOf<'tecEvents.delete'>>, kind: PostKind): Promise<Reply> {
  const post = await writable(ctx);
  if (post.kind !== kind) return json(404, { error: 'The entity could not be deleted.' });
  if (post.status === 'trash' && !ctx.params.force) return json(410, { error: 'The entity has already been trashed.' });
  await deletePost(asV1(ctx, `${V1_KIND[kind]}.delete`, { force: ctx.params.force }), kind);
  return json(200, []);
}
