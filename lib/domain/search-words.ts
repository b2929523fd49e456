// The search index's keys. A search term matches an event when it occurs anywhere in the folded
// title, excerpt or content (lib/domain/search-terms.ts). The index keeps, per event, its whole
// words: the maximal runs of letters and digits of those folded texts. A run of letters and digits
// of a term lies inside one word of every text it occurs in, so the events of a term are among those
// that have a word containing the term's longest run; when the term is that run, exactly those. The
// words that contain a run come from the language's vocabulary: every suffix of every word, so
// that "the words containing `t`" is one range of suffixes beginning with `t`.

/** Words beyond this many per event are not indexed (a description is at most 65,535 characters). */
export const MAX_WORDS = 1000;
/** A word is indexed by its first this many characters (a key of the index holds it). */
export const MAX_WORD_LENGTH = 64;

import { searchedTexts, type Searchable } from './search-terms.js';

const SEPARATORS = /[^\p{L}\p{N}]+/u;

/** The runs of letters and digits of a folded text, in order. */
export const runsOf = (text: string): string[] => text.split(SEPARATORS).filter(Boolean);

/** The distinct words of folded texts, each cut at `MAX_WORD_LENGTH` characters. */
export function wordsOf(texts: readonly string[]): string[] {
  const out = new Set<string>();
  for (const text of texts) for (const run of runsOf(text)) out.add([...run].slice(0, MAX_WORD_LENGTH).join(''));
  return [...out];
}

/** The run of a folded term the index looks up: its longest (the most selective), or none. */
export function keyRun(term: string): string | undefined {
  let best: string | undefined;
  for (const run of runsOf(term)) if (best === undefined || [...run].length > [...best].length) best = run;
  return best;
}

/** Whether the words that contain the term's key run are exactly the term's events (no record check). */
export const exactByWords = (term: string): boolean => term !== '' && keyRun(term) === term && [...term].length <= MAX_WORD_LENGTH;

/** Every suffix of a word, the word itself first: the vocabulary's entries of the word. */
export function suffixes(word: string): string[] {
  const chars = [...word];
  return chars.map((_, i) => chars.slice(i).join(''));
}

/** The vocabulary partition of a suffix (or of a run looked up): its first two characters. */
export const vocabShard = (text: string): string => [...text].slice(0, 2).join('');

/**
 * The list dimension of a word's events: the password-protected ones apart, since WordPress
 * searches them only for signed-in users (WP_Query adds `post_password = ''` for anyone else).
 */
export const wordDim = (word: string, locked: boolean): string => `${locked ? 'locked' : ''}word#${word}`;

/** The words an event is found by. */
export const eventWords = (e: Searchable): string[] => wordsOf(searchedTexts(e)).slice(0, MAX_WORDS);
