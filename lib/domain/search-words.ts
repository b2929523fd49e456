// The words of event search. An event is found by every whole word of its title, description and
// excerpt (tags stripped), compared without case and accents, as MySQL's collation compares
// TEC's `LIKE`; a search matches the events that have all of its words. The stream consumer keeps
// one index item per word and event (lib/stream/search-trigger.ts), so that a search reads about
// what a filtered list reads. What the index cannot do, and TEC does: find a part of a word
// (`azz` in `jazz`).
import { stripTags } from './searchable-text.js';

/** Words beyond this many per event are not indexed (a description is at most 65,535 characters). */
export const MAX_WORDS = 400;
/** Longer words are cut (a key of the index holds a word). */
export const MAX_WORD_LENGTH = 64;

/** The distinct words of a text, folded: lower case, without accents. */
export function words(text: string): string[] {
  const folded = stripTags(text)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  const out = new Set<string>();
  for (const w of folded.split(/[^\p{L}\p{N}]+/u)) if (w) out.add(w.slice(0, MAX_WORD_LENGTH));
  return [...out];
}

/** The words an event is found by. */
export function eventWords(e: { title: string; description: string; excerpt: string }): string[] {
  return words(`${e.title} ${e.description} ${e.excerpt}`).slice(0, MAX_WORDS);
}

/** The words a search asks for (all of them must match). */
export const searchWords = (search: string) => words(search);
