// A new category or tag and its guards, shared by term creates and by events that name new terms.
import type { Lang } from '#lib/runtime/config.js';
import { slugify } from '#lib/domain/slug.js';
import { put, type TransactItem } from '#lib/store/transactions.js';
import { nextId } from '#lib/store/ids.js';
import { idAndSlug } from '#lib/store/slugs.js';
import { keys, type Taxonomy } from '#lib/store/keys.js';
import type { TermItem } from '#lib/store/items.js';
import { indexedTerm } from './common.js';

/** What makes a new term. */
export interface NewTerm {
  taxonomy: Taxonomy;
  lang: Lang;
  name: string;
  description: string;
  parent: number;
  slug?: string;
  /** The write's attempt: a retry after a lost slug takes the next free one. */
  attempt?: number;
  takeId?: () => Promise<number>;
  /** An imported term's slug, which it keeps. */
  given?: string;
}

/** A new term record (its guards are written by `termWrites`). */
export async function newTermItem({ taxonomy, lang, name, description, parent, slug, attempt = 1, takeId = () => nextId('term'), given }: NewTerm): Promise<TermItem> {
  const [id, free] = await idAndSlug(takeId(), taxonomy, lang, slugify(slug ?? name), attempt, given);
  return indexedTerm({ ...keys.term(id), id, taxonomy, lang, name: name.trim(), slug: free, description, parent, count: 0, version: 1 });
}

/** A new term's record and guards (slug and name). */
export const termWrites = (t: TermItem): TransactItem[] => [
  put(t),
  put({ ...keys.slugGuard(t.taxonomy, t.lang, t.slug), id: t.id }),
  put({ ...keys.termName(t.taxonomy, t.lang, t.parent, t.name), id: t.id }),
];
