// What a search asks for and what it matches, as WordPress's search (WP_Query::parse_search) that
// TEC's lists use: the search splits into terms (a quoted phrase stays whole), each of which must
// occur in the title, the excerpt or the content as stored (tags and entities included, as SQL
// `LIKE '%term%'` sees them), anywhere, without case or accents (MySQL's collation); a term that
// starts with `-` must occur in none of them.

/** WordPress's search stopwords (English), dropped from a search of several terms. */
const STOPWORDS = new Set('about,an,are,as,at,be,by,com,for,from,how,in,is,it,of,on,or,that,the,this,to,was,what,when,where,who,will,with,www'.split(','));

/** A search, as terms: `include` must all occur, `exclude` must not. Folded (see `fold`). */
export interface SearchTerms {
  include: string[];
  exclude: string[];
}

/** Lower case, without accents: how the database's collation compares. */
export const fold = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** PHP's trim() with a character list. */
function trimChars(s: string, chars: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && chars.includes(s[a]!)) a++;
  while (b > a && chars.includes(s[b - 1]!)) b--;
  return s.slice(a, b);
}

/** The search's terms as WordPress splits them (before the `-` prefix is read). */
export function searchTermsOf(search: string): string[] {
  const s = search.replace(/[\r\n]/g, '');
  const found = s.match(/".*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+/g);
  if (!found) return [s];
  const checked: string[] = [];
  for (const raw of found) {
    const term = /^".+"$/s.test(raw) ? trimChars(raw, `"'`) : trimChars(raw, `"' `);
    // Single letters and single dashes say nothing.
    if (!term || (term.length === 1 && /^[a-z-]$/i.test(term))) continue;
    if (STOPWORDS.has(term.toLowerCase())) continue;
    checked.push(term);
  }
  // Only stopwords and single letters, or ten terms or more: the search is one phrase.
  return checked.length === 0 || checked.length > 9 ? [s] : checked;
}

/** The search's terms to include and exclude, folded. An exclusion of nothing excludes nothing. */
export function parseSearch(search: string): SearchTerms {
  const out: SearchTerms = { include: [], exclude: [] };
  for (const term of searchTermsOf(search)) {
    if (term.startsWith('-')) {
      const rest = term.slice(1);
      // `NOT LIKE '%%'` is false for every text: nothing is found.
      out.exclude.push(fold(rest));
    } else out.include.push(fold(term));
  }
  return out;
}

/** The stored fields a search looks at. */
export interface Searchable {
  title: string;
  excerpt: string;
  description: string;
}

/** A stored field as text: an item written by hand may hold a number or nothing where text belongs. */
const asText = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');

/** The fields folded, one text each. */
export const searchedTexts = (e: Searchable): string[] => [fold(asText(e.title)), fold(asText(e.excerpt)), fold(asText(e.description))];

/** Whether texts (folded, see `searchedTexts`) match the terms. */
export function textsMatch(texts: readonly string[], terms: SearchTerms): boolean {
  return terms.include.every((t) => texts.some((f) => f.includes(t))) && terms.exclude.every((t) => texts.every((f) => !f.includes(t)));
}

/** Whether a record matches a search. */
export const matchesSearch = (e: Searchable, terms: SearchTerms): boolean => textsMatch(searchedTexts(e), terms);

/**
 * A venue's or organizer's search, as TEC's `find_like` reads it (not WordPress's): the search
 * cut at every character but ASCII letters, digits and `-`; a record matches when one of its
 * fields holds every piece.
 */
export function placeMatches(search: string, fields: (string | null | undefined)[]): boolean {
  const pieces = search
    .split(/[^a-z\d-]+/i)
    .filter(Boolean)
    .map(fold);
  const texts = fields.map((f) => fold(f ?? ''));
  return pieces.length === 0 || texts.some((t) => pieces.every((p) => t.includes(p)));
}
