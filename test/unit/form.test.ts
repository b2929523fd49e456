// Query strings and form bodies are read as PHP fills $_GET and $_POST (WordPress's view of them).
// The expected values below are what PHP 8 gives for each string (var_dump of parse_str), with
// PHP arrays whose keys are 0, 1, 2… written as lists.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NESTING, MAX_PAIRS, parseForm, splitName, urlDecode } from '#lib/http/form.js';

const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('parseForm', () => {
  const cases: [string, unknown][] = [
    ['a=1&b=x+y', { a: '1', b: 'x y' }],
    ['a[]=1&a[]=2', { a: ['1', '2'] }],
    ['a[x]=1&a[y]=2', { a: { x: '1', y: '2' } }],
    ['a[0][x]=1&a[0][y]=2', { a: [{ x: '1', y: '2' }] }],
    ['a[][x]=1&a[][y]=2', { a: [{ x: '1' }, { y: '2' }] }],
    // The last of two equal names wins, and a later value replaces a list or map, or the reverse.
    ['a=1&a=2', { a: '2' }],
    ['a=1&a[]=2', { a: ['2'] }],
    ['a[]=1&a=2', { a: '2' }],
    // WordPress reads list parameters with array_values: gaps close up, in key order.
    ['a[3]=c&a[1]=b', { a: ['b', 'c'] }],
    ['a[0]=1&a[x]=2', { a: { 0: '1', x: '2' } }],
    // `[]` on a map takes the next integer key.
    ['a[x]=1&a[]=2&a[]=3', { a: { x: '1', 0: '2', 1: '3' } }],
    // A name with no value is empty; an empty name is no variable.
    ['flag&=x&&b=', { flag: '', b: '' }],
    // An unclosed first bracket is part of the name, as `_`; text after a closing bracket is ignored.
    ['a[=1&a[b=2&c[x]y=3&d]=4', { a_: '1', a_b: '2', c: { x: '3' }, 'd]': '4' }],
    ['a[b[c]]=1', { a: { 'b[c': '1' } }],
    ['  a=1', { a: '1' }],
    // Spaces and dots in the base name become `_`; in keys, and after an unclosed bracket, they stay.
    ['per+page=5&start.date=x&a.b[c.d]=1&e[f.g=2', { per_page: '5', start_date: 'x', a_b: { 'c.d': '1' }, 'e_f.g': '2' }],
    // Invalid percent escapes stay as they are; valid ones are bytes, read as UTF-8.
    ['%ZZ=1&e=%F0%9F%98%80&f=100%', { '%ZZ': '1', e: '😀', f: '100%' }],
    ['categories=1,2&tags[]=a,b', { categories: '1,2', tags: ['a,b'] }],
    // The top level is always a map of names, even of digits.
    ['0=a&1=b', { 0: 'a', 1: 'b' }],
  ];
  for (const [raw, expected] of cases) {
    it(`reads ${raw}`, () => expect(plain(parseForm(raw))).toEqual(expected));
  }

  it('drops names that reach the prototype chain, at any depth', () => {
    const out = parseForm('__proto__[x]=1&a[__proto__]=2&a[constructor][prototype]=3&b=4');
    expect(plain(out)).toEqual({ b: '4' });
    expect(Object.getPrototypeOf(out)).toBeNull();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('builds objects without a prototype', () => {
    const out = parseForm('a[x]=1&toString=2') as Record<string, Record<string, unknown>>;
    expect(Object.getPrototypeOf(out.a)).toBeNull();
    expect(out.toString).toBe('2');
  });

  it(`keeps ${MAX_NESTING} bracket levels and drops a deeper variable, as PHP drops one past its limit`, () => {
    const deep = (n: number) => `a${'[k]'.repeat(n)}=1`;
    expect(plain(parseForm(deep(MAX_NESTING)))).toEqual({ a: JSON.parse(`${'{"k":'.repeat(MAX_NESTING)}"1"${'}'.repeat(MAX_NESTING)}`) });
    expect(plain(parseForm(`${deep(MAX_NESTING + 1)}&b=2`))).toEqual({ b: '2' });
  });

  it(`reads at most ${MAX_PAIRS} pairs (max_input_vars)`, () => {
    const raw = Array.from({ length: MAX_PAIRS + 5 }, (_, i) => `v${i}=${i}`).join('&');
    const out = parseForm(raw);
    expect(Object.keys(out)).toHaveLength(MAX_PAIRS);
    expect(out[`v${MAX_PAIRS - 1}`]).toBe(String(MAX_PAIRS - 1));
    expect(out[`v${MAX_PAIRS}`]).toBeUndefined();
  });

  it('reads back what a client encodes: strings, lists of strings and maps of strings', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 12 });
    const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
    const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/);
    const value = fc.oneof(text, fc.array(text, { minLength: 1, maxLength: 4 }), fc.dictionary(key, text, { minKeys: 1, maxKeys: 4 }));
    const enc = encodeURIComponent;
    fc.assert(
      fc.property(fc.dictionary(name, value, { maxKeys: 5 }), (input) => {
        const pairs = Object.entries(input).flatMap(([n, v]) =>
          typeof v === 'string'
            ? [`${enc(n)}=${enc(v)}`]
            : Array.isArray(v)
              ? v.map((x) => `${enc(n)}[]=${enc(x)}`)
              : Object.entries(v).map(([k, x]) => `${enc(n)}[${enc(k)}]=${enc(x)}`),
        );
        expect(plain(parseForm(pairs.join('&')))).toEqual(plain(input));
      }),
    );
  });
});

describe('urlDecode and splitName', () => {
  it('decodes as PHP urldecode does', () => {
    expect(urlDecode('a+b%20c')).toBe('a b c');
    expect(urlDecode('%e2%82%ac')).toBe('€');
    expect(urlDecode('%')).toBe('%');
    expect(urlDecode('%4')).toBe('%4');
    expect(urlDecode('%41%4g')).toBe('A%4g');
  });

  it('splits names as PHP registers them', () => {
    expect(splitName('a[b][]')).toEqual({ base: 'a', keys: ['b', ''] });
    expect(splitName('[x]')).toBeUndefined();
    expect(splitName('')).toBeUndefined();
    expect(splitName('a[b][c')).toEqual({ base: 'a', keys: ['b'] });
  });
});
