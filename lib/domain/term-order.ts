// The order WordPress lists an object's terms in: by name (wp_get_object_terms' default
// `ORDER BY t.name ASC`), under the database's collation, utf8mb4_unicode_520_ci on a current
// WordPress (UCA 5.2.0, case-, accent- and width-insensitive; spaces and punctuation are not
// ignored and come before digits, digits before letters, one character at a time: "10" < "2").
// ICU's root collation at base strength orders the same; characters Unicode 5.2 did not have
// (most emoji) sort after all others there, as they do in MariaDB. WordPress leaves the order of
// names the collation finds equal ("A", "Å") to the query plan, and its own answers differ on
// it; here the lower id comes first.

const collator = new Intl.Collator('und', { sensitivity: 'base' });

/** Code points UCA 5.2 has no weights for sort by code point after every assigned character. */
const LATE = /[\u{1F000}-\u{1FFFF}]/gu;
const sortKey = (name: string) => name.replace(LATE, (ch) => `\uE000${ch}`);

/** utf8mb4_unicode_520_ci's comparison of two term names (as stored: entities and all). */
export function compareTermNames(a: string, b: string): number {
  return collator.compare(sortKey(a), sortKey(b));
}

/** Terms in the order WordPress lists an object's terms: by name, ties by id. */
export function inNameOrder<T extends { id: number; name: string }>(terms: readonly T[]): T[] {
  if (terms.length < 2) return [...terms];
  // Each name's key once, not once per comparison.
  const keyed = terms.map((t) => ({ t, key: sortKey(t.name) }));
  keyed.sort((a, b) => collator.compare(a.key, b.key) || a.t.id - b.t.id);
  return keyed.map((k) => k.t);
}

/** Term ids in that order; ids of terms not at hand keep their place after them. */
export function idsInNameOrder(ids: readonly number[], terms: ReadonlyMap<number, { id: number; name: string }> | undefined): number[] {
  if (!terms) return [...ids];
  const known = inNameOrder(ids.flatMap((id) => (terms.has(id) ? [terms.get(id)!] : [])));
  return [...known.map((t) => t.id), ...ids.filter((id) => !terms.has(id))];
}
