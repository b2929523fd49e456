// Attribute values read as plain values (lib/store/attributes.ts): the same as the SDK's own
// `unmarshall`, which the document client applies to what it reads.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attributes, nativeValue, plainItem } from '#lib/store/attributes.js';

// What records hold: text (empty included), numbers of every size, flags, nulls, lists, maps and sets.
const scalar = fc.oneof(fc.string(), fc.integer(), fc.double({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, noNaN: true }), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value')),
    tie('map'),
    fc.uniqueArray(fc.string(), { minLength: 1 }).map((a) => new Set(a)),
  ),
  // Names `marshall` itself cannot write (as the document client cannot): `__proto__` becomes the map's
  // prototype (that name has a test of its own below) and `constructor` makes the map a class instance.
  map: fc.dictionary(
    fc.string({ minLength: 1 }).filter((name) => name !== '__proto__' && name !== 'constructor'),
    tie('value'),
  ),
})).map;

describe('plainItem', () => {
  it('reads any item as unmarshall does', () => {
    fc.assert(
      fc.property(value, (item) => {
        const stored = attributes(item);
        expect(plainItem(stored)).toEqual(unmarshall(stored));
      }),
      { numRuns: 500 },
    );
  });

  it('reads integers past the safe range as bigints, and refuses numbers it cannot hold', () => {
    const n = (N: string): AttributeValue => ({ N });
    expect(nativeValue(n('9007199254740993'))).toBe(9007199254740993n);
    expect(nativeValue(n('-9007199254740993'))).toBe(-9007199254740993n);
    expect(nativeValue(n('9007199254740991'))).toBe(9007199254740991);
    expect(nativeValue(n('0.000001'))).toBe(0.000001);
    expect(() => nativeValue(n('1.5E+300'))).toThrow(/can't be converted to BigInt/);
    expect(() => unmarshall({ x: n('1.5E+300') })).toThrow(/can't be converted to BigInt/);
  });

  it('keeps sets, binary values and their kinds', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const item: Record<string, AttributeValue> = { ss: { SS: ['a', 'b'] }, ns: { NS: ['1', '2.5'] }, b: { B: bytes }, bs: { BS: [bytes] }, f: { BOOL: false }, z: { NULL: true } };
    expect(plainItem(item)).toEqual(unmarshall(item));
    expect(plainItem(item)).toEqual({ ss: new Set(['a', 'b']), ns: new Set([1, 2.5]), b: bytes, bs: new Set([bytes]), f: false, z: null });
  });

  it('keeps an attribute named __proto__ as an attribute, at any depth, and changes no prototype', () => {
    // As DynamoDB's JSON answer is parsed: `__proto__` is an own name there.
    const item = JSON.parse('{"__proto__":{"M":{"admin":{"BOOL":true}}},"m":{"M":{"__proto__":{"S":"x"}}}}') as Record<string, AttributeValue>;
    const read = plainItem<Record<string, unknown>>(item);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.keys(read)).toEqual(['__proto__', 'm']);
    expect((read as { admin?: unknown }).admin).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(read, '__proto__')?.value).toEqual({ admin: true });
    const m = read.m as Record<string, unknown>;
    expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(m, '__proto__')?.value).toBe('x');
    expect(JSON.parse(JSON.stringify(read))).toEqual(JSON.parse('{"__proto__":{"admin":true},"m":{"__proto__":"x"}}'));
  });

  it('reads own attributes only', () => {
    const item = Object.assign(Object.create({ inherited: { S: 'no' } }) as Record<string, AttributeValue>, { own: { S: 'yes' } });
    expect(plainItem(item)).toEqual({ own: 'yes' });
  });

  it('refuses an attribute value with no value', () => {
    expect(() => nativeValue({} as AttributeValue)).toThrow(/No value defined/);
  });
});

describe('attributes', () => {
  it('marshals as the document client does: undefined values left out, empty text kept', () => {
    expect(attributes({ a: 'x', b: undefined, c: '', d: 2 })).toEqual({ a: { S: 'x' }, c: { S: '' }, d: { N: '2' } });
    expect(attributes(undefined)).toBeUndefined();
  });
});
