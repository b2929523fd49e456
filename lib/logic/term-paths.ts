// The archive path of a category, as WordPress builds a hierarchical term's link: its ancestors'
// slugs from the root down, then its own (`/events/category/parent/child/`). Ancestors a page
// does not hold are read a level at a time, one batch read per level.
import { batchGet } from '#lib/store/reads.js';
import { keys } from '#lib/store/keys.js';
import type { TermItem } from '#lib/store/items.js';

/** Deeper chains than this are cut (a hierarchy is a few levels; a cycle must not loop). */
const MAX_DEPTH = 20;

/** Each term's path by id: `parent/child` for a category with ancestors, its slug otherwise. */
export async function archivePaths(terms: readonly TermItem[]): Promise<Map<number, string>> {
  const known = new Map<number, TermItem>(terms.map((t) => [t.id, t]));
  let wanted = terms.filter((t) => t.taxonomy === 'category' && t.parent > 0).map((t) => t.parent);
  for (let level = 0; level < MAX_DEPTH && wanted.length; level++) {
    const missing = [...new Set(wanted.filter((id) => !known.has(id)))];
    if (missing.length) for (const t of (await batchGet(missing.map(keys.term))).values()) known.set(t.id, t);
    wanted = missing.flatMap((id) => {
      const t = known.get(id);
      return t && t.parent > 0 ? [t.parent] : [];
    });
  }
  const paths = new Map<number, string>();
  for (const t of terms) {
    const slugs = [t.slug];
    const seen = new Set([t.id]);
    for (let parent = t.taxonomy === 'category' ? t.parent : 0; parent > 0 && !seen.has(parent) && slugs.length <= MAX_DEPTH; ) {
      const p = known.get(parent);
      if (p?.taxonomy !== 'category') break;
      slugs.unshift(p.slug);
      seen.add(parent);
      parent = p.parent;
    }
    paths.set(t.id, slugs.join('/'));
  }
  return paths;
}

/** One term's path. */
export const archivePath = async (term: TermItem): Promise<string> => (await archivePaths([term])).get(term.id)!;
