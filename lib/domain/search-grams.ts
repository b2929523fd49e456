// The search index's keys. A search term matches an event when it occurs anywhere in the folded
// title, excerpt or content (lib/domain/search-terms.ts), so the index cannot be one of whole
// words: it keeps, per event, every distinct piece of one to three characters of those texts that
// holds no white space (a "gram"). A term of at most three characters without white space is then
// exactly the events of its gram's partition; a longer term, or a phrase, is among the events of
// its first gram, and the records tell which.
import { searchedTexts, type Searchable } from './search-terms.js';

/** The longest gram. */
export const GRAM_LENGTH = 3;
/** Grams beyond this many per event are not indexed (a long description has a few thousand). */
export const MAX_GRAMS = 4000;

/** The distinct grams of folded texts. */
export function gramsOf(texts: readonly string[]): string[] {
  const out = new Set<string>();
  for (const text of texts) {
    for (const run of text.split(/\s+/u)) {
      const chars = [...run];
      for (let i = 0; i < chars.length; i++) {
        let gram = '';
        for (let k = i; k < Math.min(chars.length, i + GRAM_LENGTH); k++) {
          gram += chars[k];
          out.add(gram);
        }
      }
    }
  }
  return [...out];
}

/** The grams an event is found by. */
export const eventGrams = (e: Searchable): string[] => gramsOf(searchedTexts(e)).slice(0, MAX_GRAMS);

/** The gram whose partition holds every event a folded term may match ('' for a term of white space only). */
export function keyGram(term: string): string {
  const run = term.split(/\s+/u).find(Boolean) ?? '';
  return [...run].slice(0, GRAM_LENGTH).join('');
}

/** Whether the key gram's partition holds exactly the events that match the term. */
export const exactByGram = (term: string): boolean => term !== '' && keyGram(term) === term;
