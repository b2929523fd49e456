// Reading one category or tag: apart from the term writes (lib/logic/terms.ts), so that the read
// functions' bundles carry no write logic.
import { invalidParam } from '#lib/contract/errors.js';
import { recordReply, type Reply } from '#lib/contract/reply.js';
import { requireMatch } from '#lib/contract/revision.js';
import type { RequestContext } from '#lib/contract/request.js';
import { presentTerm } from '#lib/present/present.js';
import { termLinks } from '#lib/present/wp-term.js';
import { isEditor } from '#lib/auth/permissions.js';
import { getItem } from '#lib/store/reads.js';
import { countedTerm } from '#lib/store/counted-reads.js';
import { keys, type Taxonomy } from '#lib/store/keys.js';
import type { TermItem } from '#lib/store/items.js';
import { archivePath } from './term-paths.js';

export const taxonomyOf = (ctx: RequestContext): Taxonomy => (/^(?:categories|wpCategories)\./.test(ctx.op.id) ? 'category' : 'tag');

/** The term the path names, as `read` reads it (as stored, for a write, by default). */
export async function findTerm(ctx: RequestContext, read: (id: number) => Promise<TermItem | undefined> = storedTerm): Promise<TermItem> {
  return pathTerm(ctx, await read(ctx.path.id!));
}

const storedTerm = (id: number) => getItem(keys.term(id));

/** A term read for the path: of the route's taxonomy, and of the revision a write's If-Match names. */
export function pathTerm(ctx: RequestContext, term: TermItem | undefined): TermItem {
  if (!term || term.taxonomy !== taxonomyOf(ctx)) throw invalidParam('id', `id is not an existing ${taxonomyOf(ctx)} id.`);
  // A write names the term it changes: its If-Match must name the revision just read.
  requireMatch(ctx.ifMatch, term);
  return term;
}

export async function readTerm(ctx: RequestContext): Promise<Reply> {
  const term = await findTerm(ctx, countedTerm);
  return recordReply(200, await singleTerm(ctx, term), term);
}

/**
 * One term as TEC's single-term routes answer it (a read, a create, an update): the list's shape
 * and WordPress's `_links`, whose self link names the methods the caller may use.
 */
export const singleTerm = async (ctx: RequestContext, term: TermItem) => presentSingleTerm(ctx, term, await archivePath(term));

/** singleTerm's answer for a term whose archive path was read already (lib/logic/term-paths.ts). */
export const presentSingleTerm = (ctx: RequestContext, term: TermItem, path: string | undefined) => ({
  ...presentTerm(term, path),
  _links: termLinks(term, isEditor(ctx.principal) ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] : ['GET']),
});
