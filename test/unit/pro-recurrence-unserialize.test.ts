// PHP's unserialize() for post meta: every type read back as PHP wrote it (strings by their UTF-8
// byte length), PHP's array keys, and what it refuses: objects, references, malformed or lying
// text, and nesting or counts past its bounds, each with an error that says why.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PhpArray, PhpUnserializeError, type PhpValue, phpUnserialize } from '#lib/import/pro-recurrence/php-unserialize.js';

/** PHP's serialize() for the values the reader returns (floats as PHP 7.1+ writes them). */
function serialize(v: PhpValue): string {
  if (v === null) return 'N;';
  if (typeof v === 'boolean') return `b:${v ? 1 : 0};`;
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v) && !Object.is(v, -0)) return `i:${v};`;
    if (Number.isNaN(v)) return 'd:NAN;';
    if (!Number.isFinite(v)) return v > 0 ? 'd:INF;' : 'd:-INF;';
    return `d:${String(v).replace('e', 'E')};`;
  }
  if (typeof v === 'string') return `s:${Buffer.byteLength(v, 'utf8')}:"${v}";`;
  const body = [...v].map(([k, item]) => (typeof k === 'number' ? `i:${k};` : serialize(k)) + serialize(item)).join('');
  return `a:${v.size}:{${body}}`;
}

const map = (...entries: [number | string, PhpValue][]): PhpArray => new Map(entries);

describe('phpUnserialize', () => {
  it('reads every type as PHP 8 serialize() writes it, multibyte strings by their byte length', () => {
    // php -r 'echo serialize([null, true, false, 0, -7, "five", 0.1, -1.5e25, INF, -INF, NAN, "", "ąčę €😀", "a\"b;}", ["x" => ["y" => []]], "05" => "z"]);'
    const text =
      'a:16:{i:0;N;i:1;b:1;i:2;b:0;i:3;i:0;i:4;i:-7;i:5;s:4:"five";i:6;d:0.1;i:7;d:-1.5E+25;i:8;d:INF;i:9;d:-INF;i:10;d:NAN;i:11;s:0:"";i:12;s:14:"ąčę €😀";i:13;s:5:"a"b;}";i:14;a:1:{s:1:"x";a:1:{s:1:"y";a:0:{}}}s:2:"05";s:1:"z";}';
    const v = phpUnserialize(text) as PhpArray;
    expect([...v.keys()]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, '05']);
    expect([...v.values()].slice(0, 8)).toEqual([null, true, false, 0, -7, 'five', 0.1, -1.5e25]);
    expect(v.get(8)).toBe(Number.POSITIVE_INFINITY);
    expect(v.get(9)).toBe(Number.NEGATIVE_INFINITY);
    expect(v.get(10)).toBeNaN();
    expect(v.get(12)).toBe('ąčę €😀');
    expect(v.get(13)).toBe('a"b;}');
    expect(v.get(14)).toEqual(map(['x', map(['y', map()])]));
    expect(serialize(v)).toBe(text);
  });

  it('round-trips any value of the types it reads', () => {
    const key = fc.oneof(
      fc.integer({ min: -1e6, max: 1e6 }),
      fc.string({ unit: 'grapheme' }).filter((s) => !/^(?:0|-?[1-9][0-9]*)$/.test(s)),
    );
    const value = fc.letrec<{ v: PhpValue }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.maxSafeInteger(),
        fc.double({ noNaN: true }).filter((d) => !Number.isSafeInteger(d)),
        fc.string({ unit: 'grapheme' }),
        fc.uniqueArray(fc.tuple(key, tie('v')), { selector: ([k]) => k, maxLength: 4 }).map((entries) => new Map(entries)),
      ),
    })).v;
    fc.assert(
      fc.property(value, (v) => {
        expect(phpUnserialize(serialize(v))).toEqual(v);
      }),
    );
  });

  it('keys as PHP does: integer-like string keys become integers, a repeated key keeps its place and takes the later value', () => {
    // php -r 'var_dump(unserialize("a:3:{s:1:\"5\";s:1:\"a\";s:2:\"05\";s:1:\"b\";i:5;s:1:\"c\";}"));' → [5 => "c", "05" => "b"]
    expect(phpUnserialize('a:3:{s:1:"5";s:1:"a";s:2:"05";s:1:"b";i:5;s:1:"c";}')).toEqual(map([5, 'c'], ['05', 'b']));
    expect(phpUnserialize('a:2:{s:2:"-0";i:1;s:2:"-3";i:2;}')).toEqual(map(['-0', 1], [-3, 2]));
    expect(phpUnserialize('i:+5;')).toBe(5);
    expect(phpUnserialize('d:.5;')).toBe(0.5);
  });

  it.each([
    ['an object', 'O:8:"stdClass":0:{}', /an object is not accepted/],
    ['an object inside an array', 'a:1:{i:0;O:8:"stdClass":1:{s:1:"a";i:1;}}', /an object is not accepted/],
    ['a custom-serialised object', 'C:11:"ArrayObject":21:{x:i:0;a:0:{};m:a:0:{}}', /custom-serialised object/],
    ['a reference', 'a:2:{i:0;i:1;i:1;R:2;}', /a reference is not accepted/],
    ['an object reference', 'a:2:{i:0;a:0:{}i:1;r:2;}', /a reference is not accepted/],
    ['an enum', 'E:7:"Foo:Bar";', /an enum case/],
  ])('refuses %s', (_, text, message) => {
    expect(() => phpUnserialize(text)).toThrow(PhpUnserializeError);
    expect(() => phpUnserialize(text)).toThrow(message);
  });

  it.each([
    ['empty text', ''],
    ['a byte length too long', 's:5:"ąč";'],
    ['a byte length too short (counting characters, not bytes)', 's:2:"ąč";'],
    ['a length that splits a character', 's:3:"ąčx";'],
    ['a missing terminator', 'i:5'],
    ['trailing data', 'i:5;i:6;'],
    ['a boolean other than 0 or 1', 'b:2;'],
    ['a non-integer', 'i:1.5;'],
    ['an integer past 2^53', 'i:9223372036854775807;'],
    ['a bad float', 'd:1e;'],
    ['an array with fewer elements than its count', 'a:2:{i:0;i:1;}'],
    ['an array with more elements than its count', 'a:1:{i:0;i:1;i:1;i:2;}'],
    ['an array key that is neither integer nor string', 'a:1:{N;i:1;}'],
    ['a negative length', 's:-1:"";'],
    ['an unknown type', 'x:1;'],
    ['a huge count with nothing behind it', 'a:999999999:{}'],
  ])('refuses %s with a clear error', (_, text) => {
    expect(() => phpUnserialize(text)).toThrow(/not a serialised PHP value this reader accepts: .+ \(byte \d+\)/);
  });

  it('stops deep nesting, long texts and element floods quickly', () => {
    const deep = (n: number) => `${'a:1:{i:0;'.repeat(n)}N;${'}'.repeat(n)}`;
    expect(phpUnserialize(deep(32))).toBeInstanceOf(Map);
    expect(() => phpUnserialize(deep(33))).toThrow(/nest deeper than 32/);
    expect(() => phpUnserialize(deep(100_000))).toThrow(/nest deeper than 32/);
    expect(() => phpUnserialize(`s:${2 << 20}:"${'x'.repeat(2 << 20)}";`)).toThrow(/longer than/);
    const flood = `a:120000:{${'i:0;N;'.repeat(120_000)}}`;
    expect(() => phpUnserialize(flood)).toThrow(/more than 100000 array elements/);
  });
});
