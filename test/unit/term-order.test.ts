// The order an event's terms are listed in (lib/domain/term-order.ts): by name under MariaDB's
// utf8mb4_unicode_520_ci, which the live TEC's database uses. The expected orders are MariaDB's
// own (`ORDER BY name COLLATE utf8mb4_unicode_520_ci`), with names it finds equal in id order.
import { describe, expect, it } from 'vitest';
import { compareTermNames, idsInNameOrder, inNameOrder } from '#lib/domain/term-order.js';

const terms = (names: string[]) => names.map((name, i) => ({ id: i + 1, name }));
const sorted = (names: string[]) => inNameOrder(terms(names)).map((t) => t.name);

describe('term names in the database collation', () => {
  it("orders an event's categories as the live TEC listed them", () => {
    // Sent as zeta, Alpha, éclair, Beta, alpha2, 10 ten, 9 nine, Ecl; TEC answered:
    expect(sorted(['zeta', 'Alpha', 'éclair', 'Beta', 'alpha2', '10 ten', '9 nine', 'Ecl'])).toEqual(['10 ten', '9 nine', 'Alpha', 'alpha2', 'Beta', 'Ecl', 'éclair', 'zeta']);
  });

  it('puts punctuation before digits, digits before letters, one character at a time, and emoji last', () => {
    const mariadb = [
      '_under',
      '-dash',
      '(paren',
      '#hash',
      '10',
      '10 ten',
      '2',
      '9 nine',
      'a b',
      'a-b',
      'ab',
      'Alpha',
      'alpha2',
      'Ärger',
      'B',
      'Ecl',
      'éclair',
      'ecm',
      'zeta',
      'Zürich',
      'zz',
      'Ω',
      'ж',
      '🎉',
    ];
    expect(sorted([...mariadb].reverse())).toEqual(mariadb);
  });

  it('finds case, accents, ligatures and width equal, and breaks those ties by id', () => {
    for (const [a, b] of [
      ['a', 'A'],
      ['a', 'Å'],
      ['a', 'ⓐ'],
      ['ß', 'ss'],
      ['ﬁ', 'fi'],
      ['Œuvre', 'oeuvre'],
      ['ё', 'е'],
      ['Ø', 'o'],
    ])
      expect(compareTermNames(a!, b!), `${a} ${b}`).toBe(0);
    expect(
      inNameOrder([
        { id: 41, name: 'Å' },
        { id: 11, name: 'A' },
        { id: 10, name: 'b' },
      ]).map((t) => t.id),
    ).toEqual([11, 41, 10]);
  });

  it("orders ids by their terms' names, ids of terms not at hand after them in their order", () => {
    const map = new Map(terms(['zeta', 'Alpha', 'beta']).map((t) => [t.id, t]));
    expect(idsInNameOrder([1, 9, 2, 3, 8], map)).toEqual([2, 3, 1, 9, 8]);
    expect(idsInNameOrder([3, 1], undefined)).toEqual([3, 1]);
  });
});
