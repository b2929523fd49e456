// Categories and tags (docs/tec-behaviour.md §3.6, §5.4, §6.3): WordPress's terms controller semantics.
import { ApiError, invalidParam, tec } from '#lib/contract/errors.js';
import { json, recordReply, type Reply } from '#lib/contract/reply.js';
import { requireEditor } from '#lib/auth/permissions.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';
import { presentTerm } from '#lib/present/present.js';
import { slugify } from '#lib/domain/slug.js';
import { getItem } from '#lib/store/reads.js';
import { termToWrite } from '#lib/store/counted-reads.js';
import { del, put, putIfVersion, transact, type TransactItem } from '#lib/store/transactions.js';
import { deleteWithShards } from '#lib/store/record-shards.js';
import { withRetry } from '#lib/store/retry.js';
import { earlierId } from '#lib/store/create-ids.js';
import { keys, type Taxonomy } from '#lib/store/keys.js';
import type { TermItem } from '#lib/store/items.js';
import { checked, writeChecked } from '#lib/store/precondition.js';
import { addTermBytes, itemBytes } from '#lib/store/stats.js';
import { indexedTerm, newId, termsOf } from './common.js';
import { findTerm, pathTerm, singleTerm, taxonomyOf } from './term-reads.js';
import { newTermItem, termWrites } from './term-items.js';
import { REQUEST_FAN_OUT } from './cards.js';
import { unlinkTerm } from './unlink.js';
import { archivePath } from './term-paths.js';

// WordPress's message (its error has no status, so TEC answers 500; a taken slug is the caller's to fix: 400).
const duplicateSlug = (slug: string) => new ApiError(400, 'duplicate_term_slug', `The slug &#8220;${slug}&#8221; is already in use by another term.`);

/** Checks `parent` for the taxonomy: tags have none; a category's parent must exist. */
async function parentOf(ctx: RequestContext<{ parent?: ParentArg }>, taxonomy: Taxonomy, current: number, selfId?: number): Promise<number> {
  if (taxonomy === 'tag') {
    if (ctx.input.parent !== undefined) throw tec.notHierarchical();
    return 0;
  }
  const parent = ctx.params.parent;
  if (parent === undefined) return current;
  if (parent === 0) return 0;
  if (parent === selfId) throw invalidParam('parent', 'parent cannot be the term itself.');
  const found = await getItem(keys.term(parent));
  if (found?.taxonomy !== 'category') throw invalidParam('parent', 'parent is not an existing category id.');
  return parent;
}

const isSlugItem = (item: TransactItem | undefined) => String((item?.Put?.Item as { pk?: string } | undefined)?.pk ?? '').startsWith('SLUG#');

/** Maps a failed guard in a term transaction to WordPress's error. */
function guardError(writes: TransactItem[], t: TermItem) {
  return (index: number) => {
    const pk = String((writes[index]?.Put?.Item as { pk?: string } | undefined)?.pk ?? '');
    if (pk.startsWith('TERMNAME#')) return tec.termExists(t.id, t.taxonomy === 'category');
    if (pk.startsWith('SLUG#')) return duplicateSlug(t.slug);
    return undefined;
  };
}

/** Categories and tags take the same arguments, but for a category's parent. */
type TermCreate = ArgsOf<'categories.create'>;
type TermUpdate = ArgsOf<'categories.update'>;
type ParentArg = TermCreate['parent'];

export async function createTerm(ctx: RequestContext<TermCreate>): Promise<Reply> {
  const term = await storeNewTerm(ctx);
  return recordReply(201, await singleTerm(ctx, term), term);
}

/** Creates the term the request asks for (or finds the one an earlier try of it created): editors only. */
export async function storeNewTerm(ctx: RequestContext<TermCreate>): Promise<TermItem> {
  requireEditor(ctx.principal);
  const taxonomy = taxonomyOf(ctx);
  const parent = await parentOf(ctx, taxonomy, 0);
  const name = ctx.params.name.trim();
  // A retry with the create's Idempotency-Key answers with the term its first try stored; a
  // first try that lands late and the retry write the same record (lib/store/create-ids.ts).
  const earlier = await earlierId(ctx.createKey);
  const stored = earlier === undefined ? undefined : await getItem(keys.term(earlier));
  if (stored) return stored;
  let allocated: Promise<number> | undefined;
  const takeId = () => (allocated ??= newId(ctx, 'term').then((c) => c.id));
  const existing = await getItem(keys.termName(taxonomy, ctx.lang, parent, name));
  if (existing) throw tec.termExists(existing.id, taxonomy === 'category');
  const term = await withRetry(async (attempt) => {
    // A taken slug, asked for or derived from the name, gets WordPress's next free one (`-2`, …:
    // wp_unique_term_slug); another term that takes it meanwhile is a lost race (retried with a
    // ticket, see freeSlug).
    const t = await newTermItem({
      taxonomy,
      lang: ctx.lang,
      name,
      description: ctx.params.description ?? '',
      parent,
      slug: ctx.params.slug,
      attempt,
      takeId,
      given: ctx.imported?.slug,
    });
    const writes = termWrites(t);
    const meaning = guardError(writes, t);
    await transact(writes, (i) => (isSlugItem(writes[i]) ? undefined : meaning(i)));
    return t;
  });
  await addTermBytes(term.lang, itemBytes(term));
  return term;
}

export async function updateTerm(ctx: RequestContext<TermUpdate>): Promise<Reply> {
  const term = await storeTermChanges(ctx);
  return recordReply(200, await singleTerm(ctx, term), term);
}

/**
 * Saves the changes the request asks for to the term its path names: editors only. Answers the
 * term written, with its whole count (lib/store/counted-reads.ts).
 */
export async function storeTermChanges(ctx: RequestContext<TermUpdate>): Promise<TermItem> {
  requireEditor(ctx.principal);
  const found = await findTerm(ctx);
  const check = checked(ctx.ifMatch, found);
  const taxonomy = taxonomyOf(ctx);
  const parent = await parentOf(ctx, taxonomy, found.parent, found.id);
  return withRetry(async () => {
    const read = await termToWrite(ctx.path.id!);
    const old = pathTerm(ctx, read?.stored);
    const name = (ctx.params.name ?? old.name).trim();
    const slug = ctx.params.slug !== undefined ? slugify(ctx.params.slug) || old.slug : old.slug;
    const next = indexedTerm({ ...old, name, slug, parent, description: ctx.params.description ?? old.description, version: old.version + 1 });
    const writes: TransactItem[] = [putIfVersion(next, old.version)];
    if (slug !== old.slug) {
      writes.push(del(keys.slugGuard(taxonomy, old.lang, old.slug)), put({ ...keys.slugGuard(taxonomy, old.lang, slug), id: old.id }));
    }
    if (name.toLowerCase() !== old.name.toLowerCase() || parent !== old.parent) {
      writes.push(del(keys.termName(taxonomy, old.lang, old.parent, old.name)), put({ ...keys.termName(taxonomy, old.lang, parent, name), id: old.id }));
    }
    await writeChecked(writes, check, () => transact(writes, guardError(writes, next)));
    await addTermBytes(old.lang, itemBytes(next) - itemBytes(old));
    return { ...next, count: read!.shown.count };
  });
}

async function reparentChildren(term: TermItem): Promise<void> {
  const children = (await termsOf(term.lang)).filter((t) => t.taxonomy === 'category' && t.parent === term.id);
  for (const { id } of children) {
    await withRetry(async () => {
      const old = (await getItem(keys.term(id)))!;
      const next = { ...old, parent: term.parent, version: old.version + 1 };
      await transact([
        putIfVersion(next, old.version),
        del(keys.termName('category', old.lang, old.parent, old.name)),
        put({ ...keys.termName('category', old.lang, term.parent, old.name), id }, null),
      ]);
    });
  }
}

/** Terms are deleted permanently, as in TEC; the reply is the term as it was. */
export async function deleteTerm(ctx: RequestContext): Promise<Reply> {
  const removed = await removeTerm(ctx);
  return json(200, presentTerm(removed, await archivePath(removed)));
}

/** Deletes the term the request's path names, unlinking its events: editors only. Returns it as it was. */
export async function removeTerm(ctx: RequestContext): Promise<TermItem> {
  requireEditor(ctx.principal);
  const term = await findTerm(ctx);
  // Unlinking moves the term's counts: the first of its writes of the term carries the version
  // If-Match was checked at, else the delete does.
  const due = await unlinkTerm(term.taxonomy, term.id, ctx.now, REQUEST_FAN_OUT, checked(ctx.ifMatch, term));
  // WordPress moves a deleted category's children up to its parent.
  if (term.taxonomy === 'category') await reparentChildren(term);
  await withRetry(async () => {
    // Read again: the term may have been split since (its shards go with it).
    const deletes = [
      ...deleteWithShards(keys.term(term.id), await getItem(keys.term(term.id))),
      del(keys.slugGuard(term.taxonomy, term.lang, term.slug)),
      del(keys.termName(term.taxonomy, term.lang, term.parent, term.name)),
    ];
    await writeChecked(deletes, due, () => transact(deletes));
  });
  await addTermBytes(term.lang, -itemBytes(term));
  return term;
}
