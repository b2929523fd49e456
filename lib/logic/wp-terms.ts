// Writing through WordPress's core term routes (`wp/v2/tags`, `wp/v2/tribe_events_cat`): the
// term writes of TEC's routes (terms.ts), with WordPress's refusals, in WordPress's order, and
// its shapes.
import { ApiError } from '#lib/contract/errors.js';
import { json, recordReply, type Reply } from '#lib/contract/reply.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';
import { isEditor } from '#lib/auth/permissions.js';
import { presentWpTerm, wpTermCollection } from '#lib/present/wp-term.js';
import { removeTerm, storeNewTerm, storeTermChanges } from './terms.js';
import { ALL_METHODS, allowHeader, findWpTerm, refuse, termInvalid } from './wp-term-reads.js';
import { archivePath } from './term-paths.js';

/** The shared term logic's refusals of a path id or parent, in WordPress's words. */
function inWordPressTerms(err: unknown): unknown {
  if (!(err instanceof ApiError) || err.code !== 'rest_invalid_param') return err;
  const params = (err.extra.params ?? {}) as Record<string, string>;
  if (params.id !== undefined) return termInvalid();
  if (params.parent?.includes('not an existing')) return new ApiError(400, 'rest_term_invalid', 'Parent term does not exist.');
  return err;
}

const wordPressErrors = async <T>(run: () => Promise<T>): Promise<T> => {
  try {
    return await run();
  } catch (err) {
    throw inWordPressTerms(err);
  }
};

export async function createWpTerm(ctx: RequestContext<ArgsOf<'wpCategories.create'>>): Promise<Reply> {
  if (!isEditor(ctx.principal)) throw refuse(ctx, 'create');
  // An empty slug is none: the name gives it.
  const params = { ...ctx.params, slug: ctx.params.slug?.trim() || undefined };
  const term = await wordPressErrors(() => storeNewTerm({ ...ctx, params }));
  const reply = recordReply(201, presentWpTerm(term, { context: 'edit', allow: ALL_METHODS, path: await archivePath(term) }), term);
  return { ...reply, headers: { location: `${wpTermCollection(term.lang, term.taxonomy)}/${term.id}`, ...allowHeader(ALL_METHODS, true) } };
}

export async function updateWpTerm(ctx: RequestContext<ArgsOf<'wpCategories.update'>>): Promise<Reply> {
  // WordPress looks the term up before it checks the caller; an editor's update reads it itself.
  if (!isEditor(ctx.principal)) {
    await findWpTerm(ctx);
    throw refuse(ctx, 'update');
  }
  const params = { ...ctx.params, slug: ctx.params.slug?.trim() || undefined };
  const term = await wordPressErrors(() => storeTermChanges({ ...ctx, params }));
  return { ...recordReply(200, presentWpTerm(term, { context: 'edit', allow: ALL_METHODS, path: await archivePath(term) }), term), headers: allowHeader(ALL_METHODS, false) };
}

export async function deleteWpTerm(ctx: RequestContext<ArgsOf<'wpCategories.delete'>>): Promise<Reply> {
  if (!isEditor(ctx.principal) || !ctx.params.force) {
    await findWpTerm(ctx);
    if (!isEditor(ctx.principal)) throw refuse(ctx, 'delete');
    throw new ApiError(501, 'rest_trash_not_supported', "Terms do not support trashing. Set 'force=true' to delete.");
  }
  const term = await wordPressErrors(() => removeTerm(ctx));
  // The term as it was, without links: it has no URL any more.
  return json(200, { deleted: true, previous: presentWpTerm(term, { context: 'edit', path: await archivePath(term) }) });
}
