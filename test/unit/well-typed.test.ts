// Records of the wrong shape as the presenters receive them (lib/present/well-typed.ts).
import { describe, expect, it } from 'vitest';
import { readableWall, wellTyped } from '#lib/present/well-typed.js';

const event = {
  pk: 'POST#1',
  sk: 'POST',
  kind: 'event',
  id: 1,
  title: 'Fine',
  date: '2030-01-01 10:00:00',
  date_utc: '2030-01-01 10:00:00',
  modified: '2030-01-01 10:00:00',
  modified_utc: '2030-01-01 10:00:00',
  start: '2030-02-01 10:00:00',
  end: '2030-02-01 11:00:00',
  utcStart: '2030-02-01 10:00:00',
  utcEnd: '2030-02-01 11:00:00',
  allDay: false,
  author: 2,
  venues: [3],
  organizers: [],
  categories: [4],
  tags: [],
  version: 1,
};

describe('wellTyped', () => {
  it('returns a well-typed record itself, uncopied', () => {
    expect(wellTyped(event)).toBe(event);
  });

  it('makes every field of an event its type, and leaves the stored item alone', () => {
    const broken = {
      ...event,
      version: 2,
      title: 12,
      utcStart: 20300201,
      end: undefined,
      allDay: 'yes',
      featured: 'no',
      author: 'someone',
      geoLat: 'north',
      venues: 'v',
      categories: [4, 'x', null],
      cost: 'ten',
      cards: { 3: 'none', 5: { kind: 'venue', title: 7 } },
    };
    const fixed = wellTyped(broken) as Record<string, unknown>;
    expect(fixed).toMatchObject({ title: '12', utcStart: '20300201', end: '', allDay: true, featured: false, author: 0, venues: [], categories: [4] });
    expect(fixed).not.toHaveProperty('geoLat');
    expect(fixed).not.toHaveProperty('cost');
    expect(Object.keys(fixed.cards as object)).toEqual(['5']);
    expect((fixed.cards as Record<string, object>)[5]).toMatchObject({ kind: 'venue', title: '7' });
    expect(broken.title).toBe(12);
  });

  it('leaves out cards that are no object', () => {
    expect(wellTyped({ ...event, version: 3, cards: 'none' })).not.toHaveProperty('cards');
  });

  it('reads a kind that is no kind of post as none, whatever its name', () => {
    for (const kind of ['constructor', 'toString', ['event']]) {
      const odd = { ...event, kind, start: 5 };
      expect(wellTyped(odd), String(kind)).toBe(odd);
    }
  });
});

describe('readableWall', () => {
  it('reads only real times in the stored form', () => {
    expect(readableWall('2030-02-01 10:00:00')).toBe(true);
    for (const bad of ['garbage', '2030-13-01 10:00:00', '2030-02-30 10:00:00', '2030-02-01T10:00:00', 20300201, undefined]) expect(readableWall(bad)).toBe(false);
  });
});
