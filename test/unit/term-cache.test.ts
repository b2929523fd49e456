import { afterEach, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { keepTerms, keptTermId, keptTerms, MAX_KEPT_TERMS } from '#lib/logic/term-cache.js';
import type { TermItem } from '#lib/store/items.js';

const term = (id: number, count = 0, slug = `t${id}`) => ({ id, count, name: `t${id}`, slug, taxonomy: 'category', lang: 'en' }) as TermItem;

describe('kept terms', () => {
  afterEach(() => {
    delete process.env.TERM_CACHE_SECONDS;
    resetConfig();
  });

  it('serves a kept term until its seconds pass, then forgets it', () => {
    process.env.TERM_CACHE_SECONDS = '5';
    resetConfig();
    keepTerms([term(1, 3), term(2)], 1_000_000);
    expect(keptTerms([1, 2, 3], 1_004_999)).toEqual(
      new Map([
        [1, term(1, 3)],
        [2, term(2)],
      ]),
    );
    expect(keptTerms([1], 1_005_000).size).toBe(0);
    // A fresher read replaces the kept one.
    keepTerms([term(2, 9)], 1_004_000);
    expect(keptTerms([2], 1_008_000).get(2)?.count).toBe(9);
    // A shorter setting applies to what is kept already.
    process.env.TERM_CACHE_SECONDS = '1';
    resetConfig();
    expect(keptTerms([2], 1_004_999).size).toBe(1);
    expect(keptTerms([2], 1_005_000).size).toBe(0);
  });

  it('finds a kept term by taxonomy, language and slug while it is fresh', () => {
    process.env.TERM_CACHE_SECONDS = '5';
    resetConfig();
    keepTerms([term(21, 0, 'jazz')], 5_000_000);
    expect(keptTermId('category', 'en', 'jazz', 5_000_001)).toBe(21);
    expect(keptTermId('tag', 'en', 'jazz', 5_000_001)).toBeUndefined();
    expect(keptTermId('category', 'lt', 'jazz', 5_000_001)).toBeUndefined();
    expect(keptTermId('category', 'en', 'jazz', 5_005_000)).toBeUndefined();
    // A renamed slug: the old one no longer names the term.
    keepTerms([term(22, 0, 'blues')], 6_000_000);
    keepTerms([term(22, 0, 'rhythm-and-blues')], 6_000_001);
    expect(keptTermId('category', 'en', 'blues', 6_000_002)).toBeUndefined();
    expect(keptTermId('category', 'en', 'rhythm-and-blues', 6_000_002)).toBe(22);
  });

  it('keeps and serves nothing with 0 seconds', () => {
    process.env.TERM_CACHE_SECONDS = '5';
    resetConfig();
    keepTerms([term(11)], 2_000_000);
    process.env.TERM_CACHE_SECONDS = '0';
    resetConfig();
    expect(keptTerms([11], 2_000_001).size).toBe(0);
    keepTerms([term(12)], 2_000_001);
    process.env.TERM_CACHE_SECONDS = '5';
    resetConfig();
    expect(keptTerms([12], 2_000_002).size).toBe(0);
  });

  it('holds at most MAX_KEPT_TERMS, dropping the oldest', () => {
    process.env.TERM_CACHE_SECONDS = '60';
    resetConfig();
    const now = 3_000_000;
    keepTerms(
      Array.from({ length: MAX_KEPT_TERMS + 10 }, (_, i) => term(100_000 + i)),
      now,
    );
    expect(keptTerms([100_000, 100_009], now).size).toBe(0);
    expect(keptTerms([100_010, 100_000 + MAX_KEPT_TERMS + 9], now).size).toBe(2);
  });

  it('keeps the terms of one table apart from another', () => {
    process.env.TERM_CACHE_SECONDS = '60';
    const table = process.env.TABLE_NAME;
    process.env.TABLE_NAME = 'kept-a';
    resetConfig();
    keepTerms([term(7, 1)], 4_000_000);
    process.env.TABLE_NAME = 'kept-b';
    resetConfig();
    expect(keptTerms([7], 4_000_001).size).toBe(0);
    if (table === undefined) delete process.env.TABLE_NAME;
    else process.env.TABLE_NAME = table;
  });
});
