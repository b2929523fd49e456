import { describe, expect, it } from 'vitest';
import { exactByGram, eventGrams, gramsOf, keyGram } from '#lib/domain/search-grams.js';
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

describe('search grams', () => {
  it('are the pieces of one to three characters without white space', () => {
    expect(gramsOf(['ab c']).sort()).toEqual(['a', 'ab', 'b', 'c']);
    expect(gramsOf(['jazz'])).toEqual(expect.arrayContaining(['j', 'ja', 'jaz', 'a', 'az', 'azz', 'z', 'zz']));
    expect(gramsOf(['jazz'])).not.toContain('jazz');
    expect(eventGrams({ title: 'Café', excerpt: '', description: '<b>' })).toEqual(expect.arrayContaining(['caf', 'afe', '<b>']));
  });

  it('key a term by its first gram, exactly when it is one', () => {
    expect(keyGram('concert')).toBe('con');
    expect(keyGram(' jazz night')).toBe('jaz');
    expect(keyGram('   ')).toBe('');
    expect(exactByGram('azz')).toBe(true);
    expect(exactByGram('jazz')).toBe(false);
    expect(exactByGram('a b')).toBe(false);
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
