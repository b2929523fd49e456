import { describe, expect, it } from 'vitest';
import { eventWords, exactByWords, keyRun, MAX_WORD_LENGTH, suffixes, vocabShard, wordDim, wordsOf } from '#lib/domain/search-words.js';
import { keys, RECENT_SHARDS } from '#lib/store/keys.js';
import { searchedTexts } from '#lib/domain/search-terms.js';
import { chunkSize, estimatedTotal, wholeDays } from '#lib/logic/event-search.js';
import { vocabGroup } from '#lib/store/recent-writes.js';
import { HIGH } from '#lib/logic/event-window.js';
import { matchesSearch, parseSearch, placeMatches, searchTermsOf } from '#lib/domain/search-terms.js';

describe('search terms, as WordPress splits them', () => {
  it('splits on spaces, tabs, commas and plus signs', () => {
    expect(searchTermsOf('jazz  night')).toEqual(['jazz', 'night']);
    expect(searchTermsOf('jazz,night+live\tnow')).toEqual(['jazz', 'night', 'live', 'now']);
  });

  it('keeps a quoted phrase whole, a closed one with its inner spaces', () => {
    expect(searchTermsOf('"jazz night" live')).toEqual(['jazz night', 'live']);
    expect(searchTermsOf('live "jazz night')).toEqual(['live', 'jazz night']);
    expect(searchTermsOf('" jazz "')).toEqual([' jazz ']);
  });

  it('drops stopwords and single letters, unless nothing else is left', () => {
    expect(searchTermsOf('the jazz of a night')).toEqual(['jazz', 'night']);
    expect(searchTermsOf('The')).toEqual(['The']);
    expect(searchTermsOf('a b')).toEqual(['a b']);
    expect(searchTermsOf('jazz 7')).toEqual(['jazz', '7']);
    expect(searchTermsOf('jazz - x')).toEqual(['jazz']);
  });

  it('reads ten terms or more as one phrase', () => {
    const ten = 'one two three four five six seven eight nine ten';
    expect(searchTermsOf(ten)).toEqual([ten]);
    expect(searchTermsOf('one two three four five six seven eight nine')).toHaveLength(9);
  });

  it('drops line breaks, as a search field has none', () => {
    expect(searchTermsOf('ja\nzz')).toEqual(['jazz']);
  });

  it('folds terms and reads a leading dash as an exclusion', () => {
    expect(parseSearch('Café -Crème "Jazz Night"')).toEqual({ include: ['cafe', 'jazz night'], exclude: ['creme'] });
    expect(parseSearch('rock-n-roll')).toEqual({ include: ['rock-n-roll'], exclude: [] });
  });
});

describe('search matching, as LIKE on the stored fields', () => {
  const e = { title: 'Winter Concert', excerpt: 'An evening', description: '<p>Smooth <strong>jazz</strong> &amp; Crème</p>' };

  it('finds a part of a word, without case or accents, in any field', () => {
    for (const s of ['conc', 'oncer', 'CONCERT', 'evening', 'smooth jazz', 'creme', 'CRÈME', 'winter evening']) expect(matchesSearch(e, parseSearch(s)), s).toBe(true);
  });

  it('needs every term, and none of the excluded', () => {
    expect(matchesSearch(e, parseSearch('concert blues'))).toBe(false);
    expect(matchesSearch(e, parseSearch('concert -jazz'))).toBe(false);
    expect(matchesSearch(e, parseSearch('concert -blues'))).toBe(true);
  });

  it('sees tags and entities as stored, and a phrase only where its words are adjacent', () => {
    expect(matchesSearch(e, parseSearch('strong'))).toBe(true);
    expect(matchesSearch(e, parseSearch('amp'))).toBe(true);
    expect(matchesSearch(e, parseSearch('"smooth jazz"'))).toBe(false);
    expect(matchesSearch(e, parseSearch('"winter concert"'))).toBe(true);
  });

  it('finds nothing for an exclusion of nothing', () => {
    expect(matchesSearch(e, parseSearch('-'))).toBe(false);
  });
});

describe('search words and vocabulary keys', () => {
  it('are the runs of letters and digits of the folded texts, each once', () => {
    expect(wordsOf(['jazz night', 'night-jazz!', '<p>cafe</p>']).sort()).toEqual(['cafe', 'jazz', 'night', 'p']);
    expect(eventWords({ title: 'Café Crème', excerpt: '&amp;', description: 'Hel<b>lo</b>' }).sort()).toEqual(['amp', 'b', 'cafe', 'creme', 'hel', 'lo']);
    // A word is indexed by its first characters; the search checks the record for more.
    expect(wordsOf(['x'.repeat(MAX_WORD_LENGTH + 5)])).toEqual(['x'.repeat(MAX_WORD_LENGTH)]);
  });

  it('look a term up by its longest run; the index alone decides a term that is one run', () => {
    expect(keyRun('crème-matinée!')).toBe('matinée');
    expect(keyRun('a b')).toBe('a');
    expect(keyRun('!!')).toBeUndefined();
    expect(exactByWords('azz')).toBe(true);
    expect(exactByWords('jazz night')).toBe(false);
    expect(exactByWords('<strong>')).toBe(false);
    expect(exactByWords('')).toBe(false);
  });

  it('list every suffix of a word, in the partition of its first two characters', () => {
    expect(suffixes('jazz')).toEqual(['jazz', 'azz', 'zz', 'z']);
    expect(suffixes('žąsis')).toEqual(['žąsis', 'ąsis', 'sis', 'is', 's']);
    expect(keys.vocab('en', 'azz', 'jazz')).toEqual({ pk: 'VOCAB#en#az', sk: 'azz#jazz' });
    expect(keys.vocab('lt', 'ž', 'už')).toEqual({ pk: 'VOCAB#lt#ž', sk: 'ž#už' });
    expect(vocabShard('😀x')).toBe('😀x');
  });

  it('keep the recent writes of a language in its shards by event id', () => {
    const shards = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((id) => keys.recentWrite('en', id).pk));
    expect(shards).toEqual(new Set(Array.from({ length: RECENT_SHARDS }, (_, k) => `RECENT#en#${k}`)));
    expect(keys.recentWrite('en', 9)).toEqual(keys.recentWrite('en', 9 + RECENT_SHARDS * 3) && { pk: `RECENT#en#${9 % RECENT_SHARDS}`, sk: '0000000009' });
  });
});

describe("venue and organizer search, as TEC's find_like", () => {
  const fields = ['Grand Hall', '12 Main Street', 'Springfield'];

  it('cuts the search at all but ASCII letters, digits and dashes; one field must hold every piece', () => {
    expect(placeMatches('rand hal', fields)).toBe(true);
    expect(placeMatches('GRAND"hall', fields)).toBe(true);
    expect(placeMatches('hall main', fields)).toBe(false);
    expect(placeMatches('main-street', fields)).toBe(false);
    expect(placeMatches('Café', ['Cafe Nord'])).toBe(true);
    expect(placeMatches('Cafés', ['Café Nord'])).toBe(false);
  });
});

describe('how a search reads its candidates', () => {
  it('asks for the matches still missing, at the share that matched so far', () => {
    // Every candidate matches: exactly the missing ones.
    expect(chunkSize(9, 0, 0, false)).toBe(9);
    // Judged candidates: twice as many before any share is known, then by the share.
    expect(chunkSize(9, 0, 0, true)).toBe(18);
    expect(chunkSize(6, 18, 3, true)).toBe(36);
    // None matched yet: the most at once.
    expect(chunkSize(9, 18, 0, true)).toBe(100);
    expect(chunkSize(500, 0, 0, false)).toBe(100);
  });

  it("estimates a total from the driving term's count and the share that matched, never below what was found", () => {
    expect(estimatedTotal(1000, 40, 10, 0)).toBe(250);
    expect(estimatedTotal(1000, 40, 10, 2)).toBe(252);
    // Counts a moment behind, or none known: one more than found, so that a next page is offered.
    expect(estimatedTotal(0, 40, 10, 1)).toBe(12);
    expect(estimatedTotal(20, 40, 30, 0)).toBe(31);
  });

  it('keep a word of password-protected events in a partition apart from the others', () => {
    expect(wordDim('jazz', false)).toBe('word#jazz');
    expect(wordDim('jazz', true)).toBe('lockedword#jazz');
  });

  it('give every vocabulary partition one of a few version counters, the same each time', () => {
    const groups = new Set(['ja', 'az', 'zz', 'wh', 'ac', 'žą', '😀x', 'a'].map(vocabGroup));
    for (const g of groups) expect(g).toMatch(/^v([0-9]|[1-5][0-9]|6[0-3])$/);
    expect(groups.size).toBeGreaterThan(1);
    expect(vocabGroup('ja')).toBe(vocabGroup('ja'));
  });
});

describe('the window of an estimated total', () => {
  it('widens to the whole days of its bounds and drops the end conditions', () => {
    const w = { from: '2031-05-01 13:45:00', to: '2031-05-31 23:59:59', endAfter: '2031-05-01 13:45:00', echo: [] };
    expect(wholeDays(w)).toEqual({ from: '2031-05-01 00:00:00', to: `2031-05-31 23:59:59#${HIGH}`, echo: [] });
    expect(wholeDays({ from: '', to: HIGH, echo: [] })).toEqual({ from: '', to: HIGH, echo: [] });
  });
});

describe('fields of a malformed item', () => {
  it('are searched as their text: a number as its digits, anything else as nothing', () => {
    const item = { title: 2027, excerpt: null, description: { html: 'x' } } as unknown as Parameters<typeof searchedTexts>[0];
    expect(searchedTexts(item)).toEqual(['2027', '', '']);
  });
});
