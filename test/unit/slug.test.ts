import { describe, expect, it } from 'vitest';
import { slugCandidates, slugify } from '#lib/domain/slug.js';

describe('slugify', () => {
  it('lower-cases and dashes plain titles', () => {
    expect(slugify('Winter Concert')).toBe('winter-concert');
    expect(slugify('  Spring   Gala 2027  ')).toBe('spring-gala-2027');
    expect(slugify('a_b/c.d')).toBe('a-b-c-d');
    expect(slugify('--already-a-slug--')).toBe('already-a-slug');
  });

  it('transliterates Russian', () => {
    expect(slugify('Зимний концерт')).toBe('zimniy-kontsert');
    expect(slugify('Ёлка & Co.!')).toBe('yolka-co');
    expect(slugify('Щука, жук, хор, цирк, час, шар, юла, яма')).toBe('shchuka-zhuk-khor-tsirk-chas-shar-yula-yama');
    expect(slugify('Объявление')).toBe('obyavlenie');
    expect(slugify('Мышь эхо')).toBe('mysh-ekho');
  });

  it('transliterates Ukrainian letters', () => {
    expect(slugify('Львів')).toBe('lviv');
    expect(slugify('Їжак')).toBe('yizhak');
    expect(slugify('Європа ґанок і')).toBe('yevropa-ganok-i');
  });

  it('strips Lithuanian and other Latin diacritics', () => {
    expect(slugify('Žiemos koncertas Kaune')).toBe('ziemos-koncertas-kaune');
    expect(slugify('ąčęėįšųūž ĄČĘĖĮŠŲŪŽ')).toBe('aceeisuuz-aceeisuuz');
    expect(slugify('Straße Æble Øst')).toBe('strasse-aeble-ost');
    expect(slugify('Café Łódź Crème brûlée')).toBe('cafe-lodz-creme-brulee');
  });

  it('drops apostrophes, HTML tags and entities like WordPress', () => {
    expect(slugify("Don't Stop")).toBe('dont-stop');
    expect(slugify('Rock \u2019n\u2019 Roll')).toBe('rock-n-roll');
    expect(slugify('<b>Bold</b> title')).toBe('bold-title');
    expect(slugify('Tom &amp; Jerry')).toBe('tom-jerry');
  });

  it("returns '' when nothing usable remains", () => {
    expect(slugify('')).toBe('');
    expect(slugify('🎉🎶')).toBe('');
    expect(slugify('!!! ---')).toBe('');
    expect(slugify('漢字')).toBe('');
  });

  it('limits slugs to 200 characters, cutting at a dash', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const slug = slugify(words);
    expect(slug.length).toBeLessThanOrEqual(200);
    expect(slug.endsWith('-')).toBe(false);
    expect(words.replace(/ /g, '-').startsWith(`${slug}-`)).toBe(true);
    expect(slug).toMatch(/word\d+$/);

    const long = 'a'.repeat(250);
    expect(slugify(long)).toBe('a'.repeat(200));

    const exact = `${'a'.repeat(200)} b`;
    expect(slugify(exact)).toBe('a'.repeat(200));
  });
});

describe('slugCandidates', () => {
  it('starts with the bare slug then numbers from 2', () => {
    expect(slugCandidates('foo', 4)).toEqual(['foo', 'foo-2', 'foo-3', 'foo-4']);
    expect(slugCandidates('foo', 1)).toEqual(['foo']);
    expect(slugCandidates('foo', 0)).toEqual([]);
  });

  it('continues from a given number', () => {
    expect(slugCandidates('foo', 3, 5)).toEqual(['foo-5', 'foo-6', 'foo-7']);
    expect(slugCandidates('foo', 2, 2)).toEqual(['foo-2', 'foo-3']);
  });

  it('keeps an existing -N as part of the base', () => {
    expect(slugCandidates('foo-2', 3)).toEqual(['foo-2', 'foo-2-2', 'foo-2-3']);
  });

  it('shortens the base so suffixed candidates stay within 200 characters', () => {
    const base = 'a'.repeat(200);
    const [bare, second] = slugCandidates(base, 2);
    expect(bare).toBe(base);
    expect(second).toBe(`${'a'.repeat(198)}-2`);
    expect(second!.length).toBe(200);
  });
});
